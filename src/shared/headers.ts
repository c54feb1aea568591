// Every HTTP header name the service reads or sends, in one table, in lower case: a response's
// headers are a record of lower-case names (functions/http/response.ts HeaderRecord, as Fetch
// `Headers` gives them), and request headers are read case-insensitively. The OpenAPI document
// and CORS lists spell them canonically (`canonicalHeader`).
export const HEADER = {
  // Request
  acceptEncoding: "accept-encoding",
  authorization: "authorization",
  cfConnectingIp: "cf-connecting-ip",
  ifModifiedSince: "if-modified-since",
  ifNoneMatch: "if-none-match",
  ifRange: "if-range",
  range: "range",
  xApiKey: "x-api-key",
  xForwardedFor: "x-forwarded-for",
  // Response
  acceptRanges: "accept-ranges",
  accessControlAllowHeaders: "access-control-allow-headers",
  accessControlAllowMethods: "access-control-allow-methods",
  accessControlAllowOrigin: "access-control-allow-origin",
  accessControlExposeHeaders: "access-control-expose-headers",
  accessControlMaxAge: "access-control-max-age",
  allow: "allow",
  cacheControl: "cache-control",
  contentDisposition: "content-disposition",
  contentEncoding: "content-encoding",
  contentLength: "content-length",
  contentRange: "content-range",
  contentSecurityPolicy: "content-security-policy",
  contentType: "content-type",
  etag: "etag",
  link: "link",
  location: "location",
  rateLimit: "ratelimit",
  rateLimitPolicy: "ratelimit-policy",
  retryAfter: "retry-after",
  vary: "vary",
  xContentTypeOptions: "x-content-type-options",
} as const;

export type HeaderName = (typeof HEADER)[keyof typeof HEADER];

/** Spellings that are not each word capitalised. */
const CANONICAL: Partial<Record<HeaderName, string>> = { etag: "ETag", "ratelimit": "RateLimit", "ratelimit-policy": "RateLimit-Policy", "x-api-key": "X-API-Key", "cf-connecting-ip": "CF-Connecting-IP" };

/** A header's usual spelling (`If-None-Match`, `ETag`), for documents and lists people read. */
export function canonicalHeader(name: HeaderName): string {
  return CANONICAL[name] ?? name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}
