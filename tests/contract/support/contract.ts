// Holds live responses to the OpenAPI document: the status must be one the operation lists, every
// header either documented (and valid against its schema) or plain HTTP transport, every required
// header present, and the body valid against the media type's schema with JSON Schema 2020-12
// (ajv). Objects of the document are open for clients (docs/api.md#versioning); here every object is closed, so a
// member the document does not describe fails too.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import formats from "ajv-formats";

// ajv-formats is CommonJS: under NodeNext its default import is the module, the plugin its `default`.
const addFormats = formats.default;

type Obj = Record<string, unknown>;

export const BASE = "https://contract.test/openapi.json";

/** Headers of HTTP itself, not of the API: never documented per operation. */
const TRANSPORT = new Set([
  "content-type",
  "content-length",
  "date",
  "connection",
  "keep-alive",
  "transfer-encoding",
  // Content negotiation of the coding (docs/api.md#compression; tests/http/compression.test.ts).
  "content-encoding",
  "vary",
]);

/** Media types whose body the checker parses; the others (audio) are checked by length only. */
const TEXTUAL = new Set(["application/json", "text/plain", "text/vtt", "application/x-subrip"]);

export interface Exchange {
  method: string;
  /** Path and query, e.g. /v1/episodes?limit=2 */
  target: string;
  status: number;
  headers: Headers;
  body: Uint8Array;
}

/** Closes every object schema of the components (additions must be documented to be sent). */
function closeObjects(value: unknown): void {
  if (Array.isArray(value)) return value.forEach(closeObjects);
  if (value === null || typeof value !== "object") return;
  const s = value as Obj;
  if (s.properties !== undefined && typeof s.properties === "object" && s.additionalProperties === undefined && s.unevaluatedProperties === undefined) {
    s.unevaluatedProperties = false;
  }
  for (const v of Object.values(s)) closeObjects(v);
}

const pointerEscape = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

export class ContractChecker {
  readonly doc: Obj;
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: { template: string; pattern: RegExp }[];
  /** `METHOD template status` of every exchange checked. */
  readonly covered = new Set<string>();

  constructor(doc: Obj) {
    this.doc = doc;
    const closed = structuredClone(doc) as { components: Obj; paths: Obj };
    closeObjects(closed.components.schemas);
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: BASE, components: closed.components, paths: closed.paths });
    this.templates = Object.keys(doc.paths as Obj).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}$`),
    }));
  }

  /** The validator of the schema at a JSON pointer of the document. */
  validator(pointer: string): ValidateFunction {
    let v = this.compiled.get(pointer);
    if (v === undefined) {
      const found = this.ajv.getSchema(`${BASE}#${pointer}`);
      if (found === undefined) throw new Error(`no schema at ${pointer}`);
      this.compiled.set(pointer, found);
      return found;
    }
    return v;
  }

  /** Follows a local $ref; returns the object and its JSON pointer. */
  resolve(value: Obj, pointer: string): { value: Obj; pointer: string } {
    let v = value;
    let p = pointer;
    while (typeof v.$ref === "string") {
      p = v.$ref.slice(1);
      v = p
        .split("/")
        .slice(1)
        .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
        .reduce<Obj>((o, k) => o[k] as Obj, this.doc);
      if (v === undefined) throw new Error(`unresolved $ref ${p}`);
    }
    return { value: v, pointer: p };
  }

  templateOf(path: string): string | null {
    return this.templates.find((t) => t.pattern.test(path))?.template ?? null;
  }

  /** Problems of one exchange; empty when the document describes it exactly. */
  check(ex: Exchange): string[] {
    const problems: string[] = [];
    const url = new URL(ex.target, "http://x");
    const template = this.templateOf(url.pathname);
    if (template === null) return [`${url.pathname}: no path of the document matches`];
    const method = ex.method.toLowerCase();
    const pathItem = (this.doc.paths as Obj)[template] as Obj;
    // A method the API refuses is described as the 405 of the path's GET.
    const opMethod = method === "get" || method === "head" ? method : "get";
    if (opMethod !== method && ex.status !== 405) problems.push(`${ex.method} answered ${ex.status}, the document says 405`);
    const op = pathItem[opMethod] as Obj | undefined;
    if (op === undefined) return [...problems, `${template}: no ${opMethod} operation`];
    const opPointer = `/paths/${pointerEscape(template)}/${opMethod}`;
    const responses = op.responses as Obj;
    const raw = (responses[String(ex.status)] ?? responses[`${String(ex.status)[0]}XX`] ?? responses.default) as Obj | undefined;
    const label = `${ex.method} ${ex.target} → ${ex.status}`;
    if (raw === undefined) return [...problems, `${label}: status not described by ${op.operationId}`];
    this.covered.add(`${opMethod.toUpperCase()} ${template} ${ex.status}`);
    const { value: response, pointer } = this.resolve(raw, `${opPointer}/responses/${ex.status}`);

    // Headers: documented ones valid (and present when required), nothing undocumented.
    const documented = new Map<string, Obj>();
    for (const [name, h] of Object.entries((response.headers as Obj | undefined) ?? {})) {
      documented.set(name.toLowerCase(), this.resolve(h as Obj, "").value);
      const header = this.resolve(h as Obj, "");
      const value = ex.headers.get(name);
      if (value === null) {
        if (header.value.required === true) problems.push(`${label}: required header ${name} missing`);
        continue;
      }
      const v = this.validator(`${header.pointer}/schema`);
      const schema = header.value.schema as Obj;
      const candidate = (schema.type === "integer" || schema.type === "number") && /^-?[0-9]+(\.[0-9]+)?$/.test(value) ? Number(value) : value;
      if (!v(candidate)) problems.push(`${label}: header ${name}: ${JSON.stringify(value)} ${this.ajv.errorsText(v.errors)}`);
    }
    ex.headers.forEach((_, name) => {
      if (!documented.has(name) && !TRANSPORT.has(name)) problems.push(`${label}: header ${name} is not documented`);
    });

    // Body.
    const content = response.content as Obj | undefined;
    const type = ex.headers.get("content-type");
    if (content === undefined) {
      if (ex.body.byteLength !== 0) problems.push(`${label}: the document describes no body, got ${ex.body.byteLength} bytes`);
      return problems;
    }
    const essence = type?.split(";")[0]!.trim().toLowerCase() ?? "";
    const media = Object.keys(content).find((k) => k.toLowerCase() === essence);
    if (media === undefined) return [...problems, `${label}: Content-Type ${type} is not one of ${Object.keys(content).join(", ")}`];
    if (TEXTUAL.has(media) && !/;\s*charset=utf-8$/i.test(type!)) problems.push(`${label}: ${type} does not state charset=utf-8`);
    if (ex.method === "HEAD") {
      if (ex.body.byteLength !== 0) problems.push(`${label}: HEAD answered with a body`);
      return problems;
    }
    // fetch hands over an encoded body decoded: Content-Length then counts bytes the checker never sees.
    const length = ex.headers.get("content-encoding") === null ? ex.headers.get("content-length") : null;
    if (length !== null && Number(length) !== ex.body.byteLength) problems.push(`${label}: Content-Length ${length}, body ${ex.body.byteLength} bytes`);
    if (!TEXTUAL.has(media)) return problems;
    const text = new TextDecoder("utf-8", { fatal: true }).decode(ex.body);
    let data: unknown = text;
    if (media === "application/json") {
      try {
        data = JSON.parse(text);
      } catch {
        return [...problems, `${label}: body is not JSON`];
      }
    }
    const v = this.validator(`${pointer}/content/${pointerEscape(media)}/schema`);
    if (!v(data)) problems.push(`${label}: body: ${this.ajv.errorsText(v.errors, { separator: "; " })}`);
    return problems;
  }

  /** Is `value` a valid value of the parameter (query strings may be numbers, as a client sends them)? */
  parameterAccepts(name: string, value: string): boolean {
    const v = this.validator(`/components/parameters/${name}/schema`);
    if (v(value)) return true;
    return /^-?[0-9]+(\.[0-9]+)?$/.test(value) && v(Number(value));
  }

  /** Every `METHOD template status` the document describes. */
  described(): Set<string> {
    const out = new Set<string>();
    for (const [template, item] of Object.entries(this.doc.paths as Obj)) {
      for (const [method, op] of Object.entries(item as Obj)) {
        for (const status of Object.keys((op as Obj).responses as Obj)) out.add(`${method.toUpperCase()} ${template} ${status}`);
      }
    }
    return out;
  }
}

/** Sends a request and reads the whole exchange. */
export async function exchange(base: string, target: string, init: RequestInit = {}): Promise<Exchange> {
  const res = await fetch(new URL(target, base), { redirect: "manual", ...init });
  const body = new Uint8Array(await res.arrayBuffer());
  return { method: init.method ?? "GET", target, status: res.status, headers: res.headers, body };
}
