// The Node entry's ETag function: etagOf's tags (src/lib/etag.ts: the first 16 bytes of SHA-256,
// base64url, quoted) from node:crypto, synchronously. crypto.subtle costs ~5x the CPU for a 32 KB
// list page (a thread-pool job per digest); tests/http/node-adapter.test.ts holds the two equal.
import { createHash } from "node:crypto";

export function nodeEtag(bytes: Uint8Array): string {
  return `"${createHash("sha256").update(bytes).digest().subarray(0, 16).toString("base64url")}"`;
}
