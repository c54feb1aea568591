// Entity tags (RFC 9110 §8.8.3). Every ETag of the service has one form, written by strongEtag: a
// strong, quoted tag of the first 16 bytes of the body's SHA-256, in base64url (a list page's
// SHA-256 is of what fixes its bytes, functions/handler.ts). etagOf computes it
// with crypto.subtle, which exists on Node and Workers alike; the build and the Node entry use the
// synchronous node:crypto twin in src/node/etag.ts. The comparisons of conditional requests
// are request-time code: functions/http/conditional.ts.
import { toBase64Url } from "./base64url.ts";

/** The ETag of a body whose SHA-256 digest is `digest` (32 bytes): its first 16 bytes, base64url, quoted. */
export function strongEtag(digest: Uint8Array): string {
  if (digest.byteLength !== 32) throw new Error(`a SHA-256 digest has 32 bytes, not ${digest.byteLength}`);
  return `"${toBase64Url(digest.subarray(0, 16))}"`;
}

/** The ETag of a body (a string counts as its UTF-8 bytes). */
export async function etagOf(body: Uint8Array | string): Promise<string> {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  return strongEtag(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>)));
}

/** The content codings the service sends (docs/api.md#compression), in order of preference. */
export const CODINGS = ["br", "gzip"] as const;
export type Coding = (typeof CODINGS)[number];

/** Each coding's file suffix: the build writes `<file>.br` and `<file>.gz` beside a file. */
export const CODING_SUFFIX: Record<Coding, string> = { br: ".br", gzip: ".gz" };

/**
 * The strong ETag of a body sent with a content coding: the plain body's tag with the coding's
 * suffix inside the quotes (`"<hash>"` → `"<hash>.br"`). Each representation needs its own tag
 * (a cache must never answer a gzip-only client with br bytes it revalidated), and deriving it
 * keeps the manifest to the plain files.
 */
export function encodedEtag(etag: string, coding: Coding): string {
  return `${etag.slice(0, -1)}${CODING_SUFFIX[coding]}"`;
}
