// Internal to the Node adapter: the request as the shim reads it (ShimRequest), straight from the
// IncomingMessage. No Fetch `Request`, `Headers` or `AbortController` is built per request: header
// reads go to Node's parsed headers, and the abort signal exists only if a route asks for it.
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { ShimRequest } from "../http/response.ts";

/** Methods the Fetch API refuses to construct; they are answered 405 like any other non-GET. */
const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/**
 * Names as node:http keys its parsed headers. The shim asks for a handful of names on every
 * request: each is lowered once, so the lookup gets the same internalized string instead of a new
 * one to allocate and hash each time. Bounded, for names a route would pass from a request.
 */
const lowerNames = new Map<string, string>();

function lowerName(name: string): string {
  let lower = lowerNames.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    if (lowerNames.size < 64) lowerNames.set(name, lower);
  }
  return lower;
}

/** Header reads as `Headers.get` answers them: any case, repeated fields joined with ", ". */
class NodeHeaders {
  readonly #req: IncomingMessage;

  constructor(req: IncomingMessage) {
    this.#req = req;
  }

  get(name: string): string | null {
    // The shim asks with the lower-case names of src/shared/headers.ts: found as they are.
    const headers = this.#req.headers;
    const value = headers[name] ?? headers[lowerName(name)];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  }
}

export class NodeRequest implements ShimRequest {
  readonly method: string;
  readonly url: string;
  readonly target: string | undefined;
  readonly headers: NodeHeaders;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  #abort: AbortController | null = null;

  /** Throws, as the Fetch API does, for a target that is not a URL or carries credentials. */
  constructor(req: IncomingMessage, res: ServerResponse) {
    const method = req.method ?? "GET";
    this.method = FORBIDDEN_METHODS.has(method) ? "PATCH" : method;
    // An origin-form target is a path: "//v1" must not be read as a scheme-relative URL with host
    // "v1". Behind a fixed origin every path parses (URL parsing never fails in a path), so only
    // the other forms can throw here; the server answers those 400 through the shim.
    const target = req.url ?? "/";
    if (target.startsWith("/")) {
      this.url = `http://localhost${target}`;
      this.target = target;
    } else {
      const url = new URL(target, "http://localhost");
      if (url.username !== "" || url.password !== "") throw new TypeError("URL with credentials");
      this.url = url.href;
      this.target = undefined;
    }
    this.headers = new NodeHeaders(req);
    this.#req = req;
    this.#res = res;
  }

  /** The body as a web stream, made only when a route reads it (POST /mcp); others never do. */
  get body(): ReadableStream<Uint8Array> {
    return Readable.toWeb(this.#req) as ReadableStream<Uint8Array>;
  }

  /** Aborted when the response closes before it finished: the client hung up. */
  get signal(): AbortSignal {
    if (this.#abort === null) {
      const abort = new AbortController();
      this.#abort = abort;
      const res = this.#res;
      if (res.closed) {
        if (!res.writableFinished) abort.abort();
      } else {
        res.once("close", () => {
          if (!res.writableFinished) abort.abort();
        });
      }
    }
    return this.#abort.signal;
  }
}

/**
 * The path of a request target as the handler would read it, or null when the target is not a URL:
 * what a refusal needs to know whether the request was for the API (and so carries the Link).
 */
export function targetPath(target: string): string | null {
  try {
    return new URL(target.startsWith("/") ? `http://localhost${target}` : target, "http://localhost").pathname;
  } catch {
    return null;
  }
}

/** `method SP target` at the start of a request line; the target in origin or absolute form. */
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\/\S*|https?:\/\/\S+)(?: |\r?$)/i;

/**
 * The method and path of a request Node's parser rejected, read from the bytes it was parsing
 * (the clientError's `rawPacket`). Those bytes start with the request line only when it arrived in
 * the same read as the error: otherwise, or when the line is not one, the path is null.
 */
export function requestLineOf(rawPacket: unknown): { method: string; path: string | null } {
  if (!(rawPacket instanceof Uint8Array)) return { method: "GET", path: null };
  const head = Buffer.from(rawPacket.buffer, rawPacket.byteOffset, Math.min(rawPacket.byteLength, 8192)).toString("latin1");
  const m = REQUEST_LINE.exec(head.slice(0, head.indexOf("\n") + 1 || undefined));
  if (m === null) return { method: "GET", path: null };
  return { method: m[1]!, path: targetPath(m[2]!) };
}
