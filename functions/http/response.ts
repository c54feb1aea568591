// Response building shared by every route: CORS, the license Link, cache policies, conditional
// requests (RFC 9110 §13), content codings (§12.5.3, docs/api.md#compression) and the error
// envelope. Every response of the shim passes through here.
import { canonicalHeader, HEADER } from "../../src/shared/headers.ts";
import { apiError, ERRORS, type ErrorCode } from "../../src/shared/errors.ts";
import { CODINGS, encodedEtag, type Coding } from "../../src/shared/etag.ts";
import { compressible, TYPES } from "../../src/shared/media-types.ts";
import { METHODS } from "../../src/shared/routes.ts";
import { negotiateEncoding } from "./accept-encoding.ts";
import { ifNoneMatchHits } from "./conditional.ts";
import { variantsOf } from "./representations.ts";

export const CACHE = {
  /** Episode bodies, scripts, transcripts, discovery: content may be corrected, so revalidate soon. */
  resource: "public, max-age=300",
  /** List pages and anything that follows new publications. */
  list: "public, max-age=60",
  audio: "public, max-age=3600",
  /** 4xx answers: short, so a scheduled episode appears within a minute of its time. */
  error: "public, max-age=60",
  noStore: "no-store",
} as const;

/** The Allow value of a 405 and the methods a preflight permits: the route table's. */
const ALLOW = METHODS.join(", ");

/** `Vary` of every compressible body. */
const VARY = canonicalHeader(HEADER.acceptEncoding);

/** The request headers a preflight permits: the ones the API reads, and the API key it accepts and ignores. */
const REQUEST_HEADERS = [HEADER.authorization, HEADER.xApiKey, HEADER.ifNoneMatch, HEADER.ifModifiedSince, HEADER.ifRange, HEADER.range]
  .map(canonicalHeader)
  .join(", ");

const EXPOSED = [HEADER.etag, HEADER.link, HEADER.retryAfter, HEADER.contentRange, HEADER.contentDisposition, HEADER.acceptRanges, HEADER.contentLength, HEADER.rateLimit, HEADER.rateLimitPolicy]
  .map(canonicalHeader)
  .join(", ");

/**
 * What the shim reads of a request. A Fetch `Request` satisfies it (the Workers entry passes one),
 * and so does the Node adapter's lighter object, which builds no `Request` or `Headers`.
 */
export interface ShimRequest {
  readonly method: string;
  /** The absolute URL. */
  readonly url: string;
  /**
   * The request target as received when it is a path (origin form), from a runtime that has it
   * apart (Node): a plain path is read from it without going through the absolute URL.
   */
  readonly target?: string;
  readonly headers: { get(name: string): string | null };
  /** Aborted when the client goes away: upstream reads stop. */
  readonly signal: AbortSignal;
  /** The request body, for the one route that takes one (POST /mcp, functions/routes/mcp.ts); read it at most once. */
  readonly body?: ReadableStream<Uint8Array> | null;
}

/** Response headers: lower-case names (as Fetch `Headers` would give them), each name once. */
export type HeaderRecord = Record<string, string>;

/**
 * What the handler answers: status, headers and a body of bytes, a stream (audio) or none. The
 * Node adapter writes it as it is; `toResponse` makes a Fetch `Response` of it for other runtimes.
 */
export interface ShimResponse {
  status: number;
  headers: HeaderRecord;
  body: Uint8Array | ReadableStream<Uint8Array> | null;
  /**
   * Called once the response is written, by a runtime that can tell (functions/node/server.ts): the
   * bytes behind it may then be used again (./buffer-pool.ts). A runtime that cannot tell never calls it.
   */
  release?: () => void;
}

export function toResponse(r: ShimResponse): Response {
  return new Response(r.body as Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | null, { status: r.status, headers: r.headers });
}

/** What every response to one request carries. Immutable: a route that adds headers makes a new one. */
export interface ResponseContext {
  readonly method: string;
  /** The `Link: <terms>; rel="license"` value of API responses; null elsewhere. */
  readonly link: string | null;
  /** Further headers of this request's responses: RateLimit, RateLimit-Policy, Content-Security-Policy. */
  readonly headers: Readonly<HeaderRecord>;
  /**
   * How a compressed body is sent (docs/architecture.md#compression): false, the shim sends the
   * encoded variants it holds (Node); true, it sends the plain body with Content-Encoding and the
   * runtime encodes it on the way out (workerd).
   */
  readonly runtimeEncodes?: boolean;
}

/** The headers of a context that adds none: one object for every such request. */
const NO_HEADERS: Readonly<HeaderRecord> = Object.freeze({});

/** `headers`: lower-case names, as ResponseContext.headers holds them (the rate limiter's are). */
export function responseContext(method: string, link: string | null, runtimeEncodes = false, headers: Readonly<HeaderRecord> = NO_HEADERS): ResponseContext {
  return { method, link, headers, runtimeEncodes };
}

/** The same context with more headers (lower-cased names; later values win). */
export function withHeaders(ctx: ResponseContext, more: Record<string, string>): ResponseContext {
  const headers: HeaderRecord = { ...ctx.headers };
  setAll(headers, more);
  return { ...ctx, headers };
}

/** The Link header value naming the usage terms. */
export function licenseLink(termsUrl: string): string {
  return `<${termsUrl}>; rel="license"`;
}

/** Copies `more` into `h` under lower-case names (later values win, as `Headers.set`). */
function setAll(h: HeaderRecord, more: Record<string, string>): void {
  for (const name in more) h[name.toLowerCase()] = more[name]!;
}

export function baseHeaders(ctx: ResponseContext): HeaderRecord {
  const h: HeaderRecord = { ...ctx.headers };
  h[HEADER.accessControlAllowOrigin] = "*";
  h[HEADER.accessControlExposeHeaders] = EXPOSED;
  h[HEADER.xContentTypeOptions] = "nosniff";
  if (ctx.link !== null) h[HEADER.link] = ctx.link;
  return h;
}

const encoder = new TextEncoder();

/** If-None-Match with the weak comparison; there is no Last-Modified, so If-Modified-Since never applies. */
export function notModified(req: ShimRequest, etag: string): boolean {
  const inm = req.headers.get(HEADER.ifNoneMatch);
  return inm !== null && ifNoneMatchHits(inm, etag);
}

/** One representation of a body: the bytes to send, its coding (null: plain) and its ETag. */
interface Representation {
  bytes: Uint8Array;
  coding: Coding | null;
  etag: string;
  /** The bytes are the plain body, to be encoded by the runtime (no Content-Length is known). */
  runtimeEncoded: boolean;
}

/**
 * The representation this request gets (RFC 9110 §12.5.3, functions/http/accept-encoding.ts): at the
 * edge the negotiated coding is the runtime's to apply; on Node the coding of a variant the shim
 * holds, falling back to the next acceptable coding, then to the plain body.
 */
async function representationFor(req: ShimRequest, ctx: ResponseContext, bytes: Uint8Array, etag: string): Promise<Representation> {
  const header = req.headers.get(HEADER.acceptEncoding);
  const plain = { bytes, coding: null, etag, runtimeEncoded: false };
  if (ctx.runtimeEncodes) {
    const coding = negotiateEncoding(header);
    return coding === null ? plain : { bytes, coding, etag: encodedEtag(etag, coding), runtimeEncoded: true };
  }
  const variants = variantsOf(bytes);
  if (variants === undefined) return plain;
  let offered: readonly Coding[] = CODINGS;
  for (let coding = negotiateEncoding(header, offered); coding !== null; coding = negotiateEncoding(header, offered)) {
    const encoded = await variants(coding);
    if (encoded !== null) return { bytes: encoded, coding, etag: encodedEtag(etag, coding), runtimeEncoded: false };
    offered = offered.filter((c) => c !== coding);
  }
  return plain;
}

/**
 * A 200 with a known body and ETag, or 304 when If-None-Match matches the representation the
 * request gets; HEAD drops the body. A compressible body is sent in the coding Accept-Encoding
 * negotiates, under that representation's own ETag, with `Vary: Accept-Encoding`. Answered at once
 * (no promise) when there is nothing to negotiate.
 */
export function bodyResponse(
  req: ShimRequest,
  ctx: ResponseContext,
  body: Uint8Array | string,
  etag: string,
  type: string,
  cacheControl: string,
): ShimResponse | Promise<ShimResponse> {
  const h = baseHeaders(ctx);
  h[HEADER.cacheControl] = cacheControl;
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  if (compressible(type)) {
    h[HEADER.vary] = VARY;
    // Without Accept-Encoding the plain body is the representation (negotiateEncoding): no lookup, no promise.
    if (req.headers.get(HEADER.acceptEncoding) !== null) return representationFor(req, ctx, bytes, etag).then((chosen) => representationResponse(req, ctx, h, type, chosen));
  }
  return representationResponse(req, ctx, h, type, { bytes, coding: null, etag, runtimeEncoded: false });
}

/** bodyResponse's answer once the representation is chosen: `h` holds the headers set so far. */
function representationResponse(req: ShimRequest, ctx: ResponseContext, h: HeaderRecord, type: string, chosen: Representation): ShimResponse {
  h[HEADER.etag] = chosen.etag;
  if (notModified(req, chosen.etag)) return { status: 304, headers: h, body: null };
  h[HEADER.contentType] = type;
  if (chosen.coding !== null) h[HEADER.contentEncoding] = chosen.coding;
  // The runtime's encoder decides the length (sent chunked), HEAD or GET alike.
  if (!chosen.runtimeEncoded) h[HEADER.contentLength] = String(chosen.bytes.byteLength);
  return { status: 200, headers: h, body: ctx.method === "HEAD" ? null : chosen.bytes };
}

/** An error in the envelope (docs/api.md#errors), never cached when it is about load or upstreams. */
export function errorResponse(ctx: ResponseContext, code: ErrorCode, parameter?: string, more?: Record<string, string>): ShimResponse {
  const envelope = apiError(code, parameter);
  const bytes = encoder.encode(JSON.stringify(envelope));
  const h = baseHeaders(ctx);
  const status = envelope.error.status;
  h[HEADER.contentType] = TYPES.json;
  h[HEADER.contentLength] = String(bytes.byteLength);
  h[HEADER.cacheControl] = status === 429 || status >= 500 ? CACHE.noStore : CACHE.error;
  if (status === 405) h[HEADER.allow] = ALLOW;
  if (more !== undefined) setAll(h, more);
  return { status, headers: h, body: ctx.method === "HEAD" ? null : bytes };
}

/**
 * An error as a small HTML page: the answer to a request refused before routing (unparseable,
 * headers past the budget) on a site path, where a browser shows it. Same table, same CORS.
 */
export function errorPage(ctx: ResponseContext, code: ErrorCode): ShimResponse {
  const { status, message } = ERRORS[code];
  const bytes = encoder.encode(`<!doctype html><meta charset="utf-8"><title>Error ${status}</title><h1>Error ${status}</h1><p>${message}</p>\n`);
  const h = baseHeaders(ctx);
  h[HEADER.contentType] = TYPES.html;
  h[HEADER.contentLength] = String(bytes.byteLength);
  h[HEADER.cacheControl] = status === 429 || status >= 500 ? CACHE.noStore : CACHE.error;
  h[HEADER.contentSecurityPolicy] = "default-src 'none'";
  return { status, headers: h, body: ctx.method === "HEAD" ? null : bytes };
}

/** CORS preflight (docs/api.md#methods). */
export function preflightResponse(
  ctx: ResponseContext,
  methods: string = ALLOW,
  headers = REQUEST_HEADERS,
): ShimResponse {
  const h = baseHeaders(ctx);
  h[HEADER.accessControlAllowMethods] = methods;
  h[HEADER.accessControlAllowHeaders] = headers;
  h[HEADER.accessControlMaxAge] = "86400";
  h[HEADER.cacheControl] = "public, max-age=86400";
  return { status: 204, headers: h, body: null };
}
