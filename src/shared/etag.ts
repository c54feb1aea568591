// Entity tags (RFC 9110 §8.8.3, §13.1.2). Strong, quoted content hashes: the first 16 bytes of
// SHA-256 in base64url. crypto.subtle exists on Node and Workers alike.
import { toBase64Url } from "./base64url.ts";

export async function etagOf(body: Uint8Array | string): Promise<string> {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return `"${toBase64Url(digest.subarray(0, 16))}"`;
}

/** Strips a W/ prefix: what the weak comparison compares. */
function opaque(tag: string): string {
  return tag.startsWith("W/") ? tag.slice(2) : tag;
}

/**
 * If-None-Match with the weak comparison (RFC 9110 §13.1.2): true when `*` or any listed tag
 * matches. Entity tags may contain commas only inside quotes, so split on quoted tokens.
 */
export function ifNoneMatchHits(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  const mine = opaque(etag);
  for (const m of header.matchAll(/(?:W\/)?"[^"]*"/g)) {
    if (opaque(m[0]) === mine) return true;
  }
  return false;
}

/** If-Range with the strong comparison (RFC 9110 §13.1.5): a weak validator never matches. */
export function ifRangeMatches(header: string, etag: string): boolean {
  const value = header.trim();
  return !value.startsWith("W/") && !etag.startsWith("W/") && value === etag;
}
