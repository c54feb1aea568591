// Response building shared by every route: CORS, the license Link, cache policies, conditional
// requests (RFC 9110 §13) and the error envelope. Every response of the shim passes through here.
import { apiError, type ErrorCode } from "../src/lib/errors.ts";
import { ifNoneMatchHits } from "../src/lib/etag.ts";

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

export const TYPES = {
  json: "application/json; charset=utf-8",
  text: "text/plain; charset=utf-8",
  html: "text/html; charset=utf-8",
  mp3: "audio/mpeg",
} as const;

const EXPOSED = "ETag, Link, Retry-After, Content-Range, Content-Disposition, Accept-Ranges, Content-Length, RateLimit, RateLimit-Policy";

/**
 * What the shim reads of a request. A Fetch `Request` satisfies it (the Workers entry passes one),
 * and so does the Node adapter's lighter object, which builds no `Request` or `Headers`.
 */
export interface ShimRequest {
  readonly method: string;
  /** The absolute URL. */
  readonly url: string;
  readonly headers: { get(name: string): string | null };
  /** Aborted when the client goes away: upstream reads stop. */
  readonly signal: AbortSignal;
}

/** Per-request context: what every response of this request carries. */
export interface ResponseContext {
  method: string;
  /** Terms URL for `Link: <…>; rel="license"` on API responses; null elsewhere. */
  license: string | null;
  /** RateLimit / RateLimit-Policy headers of a limited route. */
  extra: Record<string, string>;
}

export function baseHeaders(ctx: ResponseContext): Headers {
  const h = new Headers(ctx.extra);
  h.set("Access-Control-Allow-Origin", "*");
  h.set("Access-Control-Expose-Headers", EXPOSED);
  h.set("X-Content-Type-Options", "nosniff");
  if (ctx.license !== null) h.set("Link", `<${ctx.license}>; rel="license"`);
  return h;
}

const encoder = new TextEncoder();

/** If-None-Match with the weak comparison; there is no Last-Modified, so If-Modified-Since never applies. */
export function notModified(req: ShimRequest, etag: string): boolean {
  const inm = req.headers.get("If-None-Match");
  return inm !== null && ifNoneMatchHits(inm, etag);
}

/** A 200 with a known body and ETag, or 304 when If-None-Match matches; HEAD drops the body. */
export function bodyResponse(
  req: ShimRequest,
  ctx: ResponseContext,
  body: Uint8Array | string,
  etag: string,
  type: string,
  cacheControl: string,
): Response {
  const h = baseHeaders(ctx);
  h.set("ETag", etag);
  h.set("Cache-Control", cacheControl);
  if (notModified(req, etag)) return new Response(null, { status: 304, headers: h });
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  h.set("Content-Type", type);
  h.set("Content-Length", String(bytes.byteLength));
  return new Response(ctx.method === "HEAD" ? null : (bytes as Uint8Array<ArrayBuffer>), { status: 200, headers: h });
}

/** An error in the envelope (PRODUCT.md §3.4), never cached when it is about load or upstreams. */
export function errorResponse(ctx: ResponseContext, code: ErrorCode, parameter?: string, more?: Record<string, string>): Response {
  const envelope = apiError(code, parameter);
  const bytes = encoder.encode(JSON.stringify(envelope));
  const h = baseHeaders(ctx);
  const status = envelope.error.status;
  h.set("Content-Type", TYPES.json);
  h.set("Content-Length", String(bytes.byteLength));
  h.set("Cache-Control", status === 429 || status >= 500 ? CACHE.noStore : CACHE.error);
  if (status === 405) h.set("Allow", "GET, HEAD");
  for (const [k, v] of Object.entries(more ?? {})) h.set(k, v);
  return new Response(ctx.method === "HEAD" ? null : bytes, { status, headers: h });
}

/** CORS preflight (PRODUCT.md §3.5). */
export function preflightResponse(ctx: ResponseContext): Response {
  const h = baseHeaders(ctx);
  h.set("Access-Control-Allow-Methods", "GET, HEAD");
  h.set("Access-Control-Allow-Headers", "Authorization, X-API-Key, If-None-Match, If-Modified-Since, If-Range, Range");
  h.set("Access-Control-Max-Age", "86400");
  h.set("Cache-Control", "public, max-age=86400");
  return new Response(null, { status: 204, headers: h });
}
