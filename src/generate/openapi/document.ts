// The OpenAPI 3.1 document of the API (GET /v1/openapi.json), assembled from the zod schemas
// (src/generate/openapi/schemas.ts), the route table (src/shared/routes.ts), the error table
// (src/shared/errors.ts) and examples taken from the built responses. Pure: the build passes in
// everything that depends on content.
import { API_VERSION } from "../discovery.ts";
import { apiError, ERRORS, type ErrorCode } from "../../shared/errors.ts";
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, RATE_LIMIT_AUDIO_DEFAULT, RATE_LIMIT_METADATA_DEFAULT, RATE_WINDOW_SECONDS, type Bucket } from "../../shared/limits.ts";
import { PARAMETERS, type ParameterName } from "../../shared/parameters.ts";
import { DOCUMENTED, type Operation } from "../../shared/routes.ts";
import type { DiscoveryDocument, EpisodePage, EpisodeResource, ScriptResource } from "../../shared/schema/api.ts";
import type { TimedForm } from "../../shared/timed.ts";
import { HEADERS, rateLimitHeaders, type HeaderName, type HeaderObject } from "./headers.ts";
import { componentParameters } from "./parameters.ts";
import { componentSchemas, ref, type JsonSchema } from "./schemas.ts";

export const OPENAPI_VERSION = "3.1.1";

export interface Example<T> {
  summary: string;
  value: T;
}

/** Real responses of the built content, shown as examples; any may be absent (empty content). */
export interface ApiExamples {
  discovery: DiscoveryDocument | null;
  pages: Example<EpisodePage>[];
  episodes: Example<EpisodeResource>[];
  script: Example<ScriptResource> | null;
  transcript: Example<string> | null;
  /** The timed forms of a timed episode, rendered as the shim renders them (src/shared/timed.ts). */
  timed: Partial<Record<TimedForm, Example<string>>>;
  refs: { number: string | null; uuid: string | null; domain: string | null };
}

export interface OpenApiInput {
  showTitle: string;
  baseUrl: string;
  siteUrl: string;
  termsUrl: string;
  examples: ApiExamples;
}

type Obj = Record<string, unknown>;

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  404: "Not Found",
  405: "Method Not Allowed",
  416: "Range Not Satisfiable",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  502: "Bad Gateway",
};

const pascal = (code: string) => code.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());
const bucketSuffix = (b: Bucket | null) => (b === "audio" ? "Audio" : b === null ? "Unlimited" : "");
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Names of error responses that group several codes of one route. */
const GROUP_NAMES: Record<string, string> = {
  "listEpisodes 400": "InvalidListQuery",
  "getEpisodeScript 404": "ScriptNotFound",
  "getEpisodeTranscript 404": "TranscriptNotFound",
  "getEpisodeTranscriptVtt 404": "TranscriptNotFound",
  "getEpisodeTranscriptSrt 404": "TranscriptNotFound",
  "getEpisodeTranscriptJson 404": "TranscriptNotFound",
  "getEpisodeChapters 404": "ChaptersNotFound",
};

/** A documented route of the route table (src/shared/routes.ts): its canonical path and operation. */
interface Route extends Operation {
  path: string;
  bucket: Bucket | null;
  parameters: readonly ParameterName[];
}

/** Every route with an operation, in table order: exactly the API routes the shim serves. */
export const DOCUMENTED_ROUTES: Route[] = DOCUMENTED.map((r) => ({ ...r.operation, path: r.paths[0]!, bucket: r.bucket, parameters: r.parameters }));

/** The parameter a 400 names, for examples: the parameter whose refusal is that code. */
const PARAMETER_OF: Partial<Record<ErrorCode, string>> = Object.fromEntries(
  Object.values(PARAMETERS).flatMap((p) => (p.error === null ? [] : [[p.error, p.name]])),
);

class Builder {
  readonly responses: Record<string, Obj> = {};
  readonly headers: Record<string, HeaderObject> = {};
  private readonly uses = new Map<string, number>();

  header(name: string, value: HeaderObject): Obj {
    const seen = this.headers[name];
    if (seen !== undefined && JSON.stringify(seen) !== JSON.stringify(value)) throw new Error(`header component ${name} defined twice`);
    this.headers[name] = value;
    return headerRef(name);
  }

  /** Registers a named response component (identical on every use) and returns its reference. */
  response(name: string, value: Obj): Obj {
    const seen = this.responses[name];
    if (seen !== undefined && JSON.stringify(seen) !== JSON.stringify(value)) throw new Error(`response component ${name} defined twice, differently`);
    this.responses[name] = value;
    this.uses.set(name, (this.uses.get(name) ?? 0) + 1);
    return { $ref: `#/components/responses/${name}` };
  }

  /** Headers every API response carries, and those of a rate-limited route. */
  headersOf(bucket: Bucket | null, rate: "required" | "optional" | "none", extra: HeaderName[] = []): Obj {
    const h: Obj = {};
    const std = (name: HeaderName, as: string) => (h[as] = this.header(name, HEADERS[name]));
    std("AccessControlAllowOrigin", "Access-Control-Allow-Origin");
    std("AccessControlExposeHeaders", "Access-Control-Expose-Headers");
    std("XContentTypeOptions", "X-Content-Type-Options");
    std("Link", "Link");
    std("CacheControl", "Cache-Control");
    for (const name of extra) std(name, HEADER_FIELD[name]);
    if (bucket !== null && rate !== "none") {
      const required = rate === "required";
      const suffix = `${bucket === "audio" ? "Audio" : "Metadata"}${required ? "" : "IfCounted"}`;
      for (const [field, value] of Object.entries(rateLimitHeaders(bucket, required))) {
        h[field] = this.header(`${field.replace(/-/g, "")}${suffix}`, value);
      }
    }
    return h;
  }
}

const HEADER_FIELD: Record<HeaderName, string> = {
  AccessControlAllowOrigin: "Access-Control-Allow-Origin",
  AccessControlExposeHeaders: "Access-Control-Expose-Headers",
  XContentTypeOptions: "X-Content-Type-Options",
  Link: "Link",
  ETag: "ETag",
  CacheControl: "Cache-Control",
  RetryAfter: "Retry-After",
  AcceptRanges: "Accept-Ranges",
  ContentDisposition: "Content-Disposition",
  ContentRange: "Content-Range",
  ContentRangeUnsatisfied: "Content-Range",
  Allow: "Allow",
  Location: "Location",
};

function examplesOf<T>(list: Example<T>[]): Obj | undefined {
  if (list.length === 0) return undefined;
  const out: Obj = {};
  list.forEach((e, i) => (out[`example${i + 1}`] = { summary: e.summary, value: e.value }));
  return out;
}

/** A timed form's example, parsed when the form is JSON. */
function timedExamples(ex: ApiExamples, form: TimedForm, parse: boolean): Obj | undefined {
  const example = ex.timed[form];
  if (example === undefined) return undefined;
  return examplesOf([{ summary: example.summary, value: parse ? (JSON.parse(example.value) as unknown) : example.value }]);
}

/** The text bodies: the transcript's media type and its example, or a timed form's. */
const TEXT_BODIES = {
  "text/plain": { name: "Transcript", example: (ex: ApiExamples) => examplesOf(ex.transcript ? [ex.transcript] : []) },
  "text/vtt": { name: "TranscriptVtt", example: (ex: ApiExamples) => timedExamples(ex, "vtt", false) },
  "application/x-subrip": { name: "TranscriptSrt", example: (ex: ApiExamples) => timedExamples(ex, "srt", false) },
} as const;

function successContent(route: Route, ex: ApiExamples): Obj {
  const media = (schema: JsonSchema, examples: Obj | undefined) => (examples === undefined ? { schema } : { schema, examples });
  switch (route.body.kind) {
    case "json": {
      const name = route.body.schema;
      const examples =
        name === "Discovery"
          ? examplesOf(ex.discovery ? [{ summary: "The discovery document of this build", value: ex.discovery }] : [])
          : name === "EpisodePage"
            ? examplesOf(ex.pages)
            : name === "Episode"
              ? examplesOf(ex.episodes)
              : name === "Script"
                ? examplesOf(ex.script ? [ex.script] : [])
                : name === "JsonTranscript"
                  ? timedExamples(ex, "json", true)
                  : timedExamples(ex, "chapters", true);
      return { "application/json": media(ref(name), examples) };
    }
    case "text":
      return { [route.body.media]: media({ type: "string" }, TEXT_BODIES[route.body.media].example(ex)) };
    case "audio":
      return { "audio/mpeg": { schema: { type: "string", contentMediaType: "audio/mpeg" } } };
    case "openapi":
      return { "application/json": { schema: ref("OpenApiDocument") } };
  }
}

function errorResponse(b: Builder, route: Route, status: number, codes: ErrorCode[]): Obj {
  const groupName = GROUP_NAMES[`${route.operationId} ${status}`];
  const name = codes.length === 1 ? `${pascal(codes[0]!)}${status === 405 ? "" : bucketSuffix(route.bucket)}` : groupName;
  if (name === undefined) throw new Error(`no response name for ${route.operationId} ${status} (${codes.join(", ")})`);
  const extra: HeaderName[] = [];
  if (status === 405) extra.push("Allow");
  if (status === 416) extra.push("ContentRangeUnsatisfied", "AcceptRanges", "ETag");
  if (status === 429) extra.push("RetryAfter");
  // 405 is decided before the rate limiter runs; a 502 may come from the limiter itself.
  const rate = status === 405 ? "none" : status === 502 ? "optional" : "required";
  const examples: Obj = {};
  for (const code of codes) examples[code] = { summary: `${code} (${ERRORS[code].message})`, value: apiError(code, PARAMETER_OF[code]) };
  const schema = {
    allOf: [
      ref("Error"),
      {
        type: "object",
        properties: {
          error: {
            type: "object",
            properties: {
              code: codes.length === 1 ? { const: codes[0] } : { enum: codes },
              status: { const: status },
            },
          },
        },
      },
    ],
  };
  const description =
    status === 405
      ? "Method Not Allowed: any method other than GET, HEAD or OPTIONS (a CORS preflight) on this path. `Allow: GET, HEAD`."
      : `${STATUS_TEXT[status]}: ${codes.map((c) => `\`${c}\` — ${ERRORS[c].message}`).join(" ")}`;
  return b.response(name, {
    description,
    headers: b.headersOf(route.bucket, rate, extra),
    content: { "application/json": { schema, examples } },
  });
}

function operation(b: Builder, route: Route, method: "get" | "head", ex: ApiExamples): Obj {
  const audio = route.body.kind === "audio";
  const audioHeaders: HeaderName[] = audio ? ["AcceptRanges", "ContentDisposition"] : [];
  const responses: Record<string, Obj> = {};
  const body = route.body;
  const okName = body.kind === "json" ? body.schema : body.kind === "text" ? TEXT_BODIES[body.media].name : body.kind === "audio" ? "Audio" : "OpenApiDocument";
  responses["200"] = b.response(okName, {
    description: audio ? "The whole MP3 (also the answer to a Range that is invalid, or whose If-Range does not match)." : "OK.",
    headers: b.headersOf(route.bucket, "required", ["ETag", ...audioHeaders]),
    content: successContent(route, ex),
  });
  if (audio && method === "get") {
    responses["206"] = b.response("AudioPartial", {
      description: "Partial Content: one satisfiable range as `audio/mpeg` with Content-Range, or several as `multipart/byteranges`.",
      headers: b.headersOf(route.bucket, "required", ["ETag", "ContentRange", ...audioHeaders]),
      content: {
        "audio/mpeg": { schema: { type: "string", contentMediaType: "audio/mpeg" } },
        "multipart/byteranges": { schema: { type: "string", contentMediaType: "multipart/byteranges" } },
      },
    });
  }
  if (audio) {
    responses["302"] = b.response("AudioRedirect", {
      description: "Found (opt-in redirect delivery only): the MP3 is at a short-lived presigned storage URL.",
      headers: b.headersOf(route.bucket, "required", ["Location"]),
    });
  }
  responses["304"] = b.response(`NotModified${bucketSuffix(route.bucket)}`, {
    description: "Not Modified: If-None-Match matched the current ETag. No body.",
    headers: b.headersOf(route.bucket, "required", ["ETag", ...audioHeaders]),
  });
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...route.errors, ...(route.reserved ?? [])]) {
    const status = ERRORS[code].status;
    if (method === "head" && status === 416) continue; // HEAD ignores Range
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  if (method === "get") byStatus.set(405, ["method_not_allowed"]);
  for (const status of [...byStatus.keys()].sort()) {
    const codes = byStatus.get(status)!;
    const r = errorResponse(b, route, status, codes);
    const reserved = codes.every((c) => route.reserved?.includes(c));
    responses[String(status)] = reserved
      ? { ...r, description: `${STATUS_TEXT[status]}: reserved for this route; never answered (a filter that matches nothing gives an empty page).` }
      : r;
  }
  const parameters = route.parameters
    .filter((p) => method === "get" || (p !== "range" && p !== "ifRange"))
    .map((p) => ({ $ref: `#/components/parameters/${p}` }));
  return {
    operationId: method === "get" ? route.operationId : route.operationId.replace(/^(get|list)/, "head"),
    tags: [route.tag],
    summary: method === "get" ? route.summary : `${route.summary} (headers only)`,
    description:
      method === "get"
        ? route.description
        : `Same status and headers as GET ${route.path}, without a body.${audio ? " HEAD ignores Range." : ""}`,
    parameters,
    security: route.keyed ? [{}, { bearerAuth: [] }, { apiKeyHeader: [] }] : [{}],
    responses,
  };
}

/** The codes of the API routes (the error table also holds those of oEmbed and the Node adapter). */
function errorTable(): string {
  const codes = new Set<ErrorCode>(["not_found", "method_not_allowed"]);
  for (const r of DOCUMENTED_ROUTES) for (const c of r.errors) codes.add(c);
  const rows = [...codes]
    .sort((a, b) => ERRORS[a].status - ERRORS[b].status || a.localeCompare(b))
    .map((c) => `| \`${c}\` | ${ERRORS[c].status} | ${ERRORS[c].message} |`);
  return ["| error.code | status | meaning |", "|---|---|---|", ...rows].join("\n");
}

function infoDescription(input: OpenApiInput): string {
  return `Read-only HTTP API for the episodes of ${input.showTitle}: metadata, MP3 audio, structured scripts and transcripts.

**Conventions**

- Methods: GET and HEAD on every route (HEAD: same status and headers, no body). OPTIONS is a CORS preflight (204). Any other method: 405 \`method_not_allowed\` with \`Allow: GET, HEAD\`.
- CORS: every response carries \`Access-Control-Allow-Origin: *\`.
- Caching: responses carry a strong \`ETag\`; send it back in \`If-None-Match\` to get 304 Not Modified. \`Cache-Control\` allows caching with revalidation.
- Every API response carries \`Link: <${input.termsUrl}>; rel="license"\`: the usage terms (credit the podcast and link to the episode page; do not re-host the archive; respect the rate limits).
- Episodes are referenced by number or by UUID (\`{ref}\`), interchangeably. Unknown paths under \`/v1\` answer 404 \`not_found\`.
- Rate limits, per client IP and ${RATE_WINDOW_SECONDS}-second window: ${RATE_LIMIT_METADATA_DEFAULT} requests for the metadata routes, ${RATE_LIMIT_AUDIO_DEFAULT} for audio (defaults; the discovery document states the limits in force). Limited responses carry \`RateLimit-Policy\` and \`RateLimit\`; beyond the limit the answer is 429 \`rate_limited\` with \`Retry-After\`. This document is not limited.
- List pages hold ${PAGE_LIMIT_DEFAULT} episodes by default, at most ${PAGE_LIMIT_MAX}.
- Authentication: none is required. An API key sent as \`Authorization: Bearer <key>\` or \`X-API-Key: <key>\` (on the list, episode, script and transcript routes, for clients written against a keyed variant of this API) is accepted and ignored: no route fails without one.
- Versioning: the version is the path prefix \`/v1\`. The contract is additive-only: members may be added to any object and new values may appear in open strings such as \`kind.type\`; clients must ignore what they do not know.

**Errors**

Every error is JSON in the envelope \`{"error": {"code", "message", "status"}}\` (\`status\` equals the HTTP status; a 400 adds \`parameter\`, the parameter at fault). Clients match on \`error.code\`:

${errorTable()}`;
}

export function buildOpenApiDocument(input: OpenApiInput): Obj {
  const b = new Builder();
  const paths: Obj = {};
  for (const route of DOCUMENTED_ROUTES) {
    paths[route.path] = {
      get: operation(b, route, "get", input.examples),
      head: operation(b, route, "head", input.examples),
    };
  }
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: `${input.showTitle} API`,
      version: API_VERSION,
      summary: `Episodes of ${input.showTitle}: metadata, audio, scripts and transcripts.`,
      description: infoDescription(input),
      termsOfService: input.termsUrl,
      license: { name: "Usage terms", url: input.termsUrl },
    },
    servers: [{ url: input.baseUrl, description: "The API host" }],
    externalDocs: { description: "Episode pages, the embeddable player and oEmbed", url: `${input.siteUrl}/` },
    tags: [
      { name: "Discovery", description: "What the API offers: the discovery document and this description." },
      { name: "Episodes", description: "Published episodes: the paginated list and single episodes." },
      { name: "Audio", description: "Episode MP3s, with Range requests and descriptive download names." },
      { name: "Scripts", description: "Structured dialogue scripts, transcripts (plain text, and timed as WebVTT, SubRip and Podcasting 2.0 JSON) and timed chapters." },
    ],
    paths,
    components: {
      schemas: componentSchemas(),
      parameters: componentParameters(input.examples.refs),
      headers: b.headers,
      responses: b.responses,
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "Optional API key as a bearer token. Accepted and ignored: requests without it succeed.",
        },
        apiKeyHeader: {
          type: "apiKey",
          in: "header",
          name: "X-API-Key",
          description: "Optional API key in X-API-Key. Accepted and ignored: requests without it succeed.",
        },
      },
    },
  };
}
