// The comparisons of conditional requests (RFC 9110 §13.1): If-None-Match (weak) and If-Range
// (strong). Request-time only; the tags themselves are made by src/shared/etag.ts.

/** Strips a W/ prefix: what the weak comparison compares. */
function opaque(tag: string): string {
  return tag.startsWith("W/") ? tag.slice(2) : tag;
}

/**
 * If-None-Match with the weak comparison (RFC 9110 §13.1.2): true when `*` or any listed tag
 * matches. Entity tags may contain commas only inside quotes, so split on quoted tokens.
 */
export function ifNoneMatchHits(header: string, etag: string): boolean {
  // What a cache sends back most often: the one tag it was given, which matches itself.
  if (header === etag) return true;
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
