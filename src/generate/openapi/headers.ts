// Response headers of the API (docs/api.md#http-behaviour, docs/api.md#rate-limits), as OpenAPI header components. The patterns
// state the exact forms functions/http/response.ts, functions/routes/audio.ts and functions/limits/rate-limit.ts write.
import * as z from "zod";
import { quotaOf, DEFAULT_RATE_LIMITS, RATE_WINDOW_SECONDS, type Bucket } from "../../shared/limits.ts";
import { jsonSchemaOf, type JsonSchema } from "./schemas.ts";

export interface HeaderObject {
  description: string;
  required: boolean;
  schema: JsonSchema;
}

const header = (description: string, schema: z.ZodType, required = true): HeaderObject => ({
  description,
  required,
  schema: jsonSchemaOf(schema),
});

/** A strong entity tag (RFC 9110 §8.8.3): a quoted opaque string, no W/ prefix. */
const STRONG_ETAG = /^"[\x21\x23-\x7e]*"$/;

export const HEADERS = {
  AccessControlAllowOrigin: header("CORS: every response may be read by browser code on any origin.", z.literal("*")),
  AccessControlExposeHeaders: header(
    "CORS: the response headers browser code may read (ETag, Link, Retry-After, Content-Range, Content-Disposition, Accept-Ranges, the RateLimit headers).",
    z.string(),
  ),
  XContentTypeOptions: header("The Content-Type is authoritative.", z.literal("nosniff")),
  Link: header('The usage terms: `<terms URL>; rel="license"`. On every API response.', z.string().regex(/^<[^>]+>; rel="license"$/)),
  ETag: header(
    "Strong entity tag of the body (a content hash computed at build time, or of the page for the list). Send it back in If-None-Match to revalidate, or in If-Range to resume audio.",
    z.string().regex(STRONG_ETAG),
  ),
  CacheControl: header(
    "Caching policy: a short max-age with ETag revalidation (content may be corrected); `no-store` on 429 and 502.",
    z.string(),
  ),
  RetryAfter: header("Whole seconds to wait before the next request will be served (at least 1).", z.int().min(1)),
  AcceptRanges: header("The audio route serves byte ranges.", z.literal("bytes")),
  ContentDisposition: header(
    'How to present the MP3: `inline`, or `attachment` with `download=1`; with a descriptive `filename="<show-slug>-<number>-<title-slug>.mp3"` and, for non-ASCII titles, `filename*=UTF-8\'\'…` (RFC 6266).',
    z.string().regex(/^(inline|attachment); filename="[^"]+\.mp3"(; filename\*=UTF-8''[^\s;]+)?$/),
  ),
  ContentRange: header(
    "The single range sent, `bytes <first>-<last>/<size>`. Absent when several ranges are sent as `multipart/byteranges` (each part carries its own Content-Range).",
    z.string().regex(/^bytes [0-9]+-[0-9]+\/[0-9]+$/),
    false,
  ),
  ContentRangeUnsatisfied: header("The size of the file, `bytes */<size>`.", z.string().regex(/^bytes \*\/[0-9]+$/)),
  Allow: header("The methods the API accepts.", z.literal("GET, HEAD")),
  Location: header("A short-lived presigned storage URL of the MP3, carrying the Content-Disposition of the request.", z.url()),
} satisfies Record<string, HeaderObject>;

export type HeaderName = keyof typeof HEADERS;

/** RateLimit headers (draft-ietf-httpapi-ratelimit-headers) of one bucket, required or not. */
export function rateLimitHeaders(bucket: Bucket, required: boolean): Record<string, HeaderObject> {
  const quota = `${quotaOf(DEFAULT_RATE_LIMITS, bucket)} by default`;
  return {
    "RateLimit-Policy": header(
      `The quota of the \`${bucket}\` bucket: \`"${bucket}";q=<requests>;w=${RATE_WINDOW_SECONDS}\` (${quota}, per client IP, per ${RATE_WINDOW_SECONDS}-second window).`,
      z.string().regex(new RegExp(`^"${bucket}";q=[0-9]+;w=${RATE_WINDOW_SECONDS}$`)),
      required,
    ),
    RateLimit: header(
      `What is left of the \`${bucket}\` bucket: \`"${bucket}";r=<remaining requests>;t=<seconds until the window resets>\`.`,
      z.string().regex(new RegExp(`^"${bucket}";r=[0-9]+;t=[0-9]+$`)),
      required,
    ),
  };
}
