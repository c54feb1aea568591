// NODE-ONLY, shared by the build (src/generate/list-bodies.ts writes it) and the Node entry
// (functions/node/list-bodies.ts reads it): the format of BUILD_FILES.listBodies, every episode's
// JSON body in the index's order in one file. A page of the unfiltered list is a run of consecutive
// index entries, so its bodies are one contiguous range of this file, commas included: the Node
// server reads a page with one `pread` instead of one `open` + `pread` + `close` per body (a
// crawler's walk of 100,000 episodes misses the asset cache for every body; docs/performance.md).
// The edge never sees it: not uploaded (src/generate/file-budget.ts), and the shim serves nothing
// under _api/ by its path.
//
//   body 0 "," body 1 "," … "," body n-1      each as dist/_api/episodes/<ref>.json holds it
//   n × uint32 LE                              each body's byte length
//   "LISTBODY"  n as uint32 LE  digest         the footer: FOOTER_BYTES, read first
//
// The digest is the SHA-256 of the bodies' ETags (the manifest's), in order: the reader computes it
// from the manifest and the index it loaded, so a file written for other bodies or another order is
// never used, without reading a body.
import { createHash } from "node:crypto";

const MAGIC = new TextEncoder().encode("LISTBODY");
const DIGEST_BYTES = 32;
export const FOOTER_BYTES = MAGIC.byteLength + 4 + DIGEST_BYTES;

/** The SHA-256 of the bodies' ETags in list order. */
export function bodiesDigest(etags: Iterable<string>): Uint8Array {
  const hash = createHash("sha256");
  for (const etag of etags) hash.update(etag).update("\n");
  return hash.digest();
}

/** What follows the bodies: their lengths, then the footer. */
export function listBodiesTail(lengths: readonly number[], digest: Uint8Array): Uint8Array {
  const out = new Uint8Array(lengths.length * 4 + FOOTER_BYTES);
  const view = new DataView(out.buffer);
  lengths.forEach((n, i) => view.setUint32(i * 4, n, true));
  const footer = lengths.length * 4;
  out.set(MAGIC, footer);
  view.setUint32(footer + MAGIC.byteLength, lengths.length, true);
  out.set(digest, footer + MAGIC.byteLength + 4);
  return out;
}

/** The footer's count and digest; null when the bytes are not a footer. */
export function readFooter(footer: Uint8Array): { count: number; digest: Uint8Array } | null {
  if (footer.byteLength !== FOOTER_BYTES || MAGIC.some((b, i) => footer[i] !== b)) return null;
  const count = new DataView(footer.buffer, footer.byteOffset).getUint32(MAGIC.byteLength, true);
  return { count, digest: footer.subarray(MAGIC.byteLength + 4) };
}

/**
 * Where each body starts in the file, from the lengths (`count` uint32 LE): starts[i] for body i,
 * and starts[count] one past the comma that would follow the last body. Bodies i..j-1 are the
 * bytes starts[i] to starts[j] - 1.
 */
export function bodyStarts(lengths: Uint8Array, count: number): Float64Array {
  const view = new DataView(lengths.buffer, lengths.byteOffset, lengths.byteLength);
  const starts = new Float64Array(count + 1);
  for (let i = 0; i < count; i++) starts[i + 1] = starts[i]! + view.getUint32(i * 4, true) + 1;
  return starts;
}

/** The size of a file of `count` bodies whose starts are `starts`. */
export function fileSize(starts: Float64Array): number {
  const count = starts.length - 1;
  return Math.max(0, starts[count]! - 1) + count * 4 + FOOTER_BYTES;
}

/**
 * Where each body starts, when a list file of `size` bytes holds exactly `count` bodies whose
 * ETags are `etags()`, in order (its footer, lengths, size and digest agree); else null. `read`
 * gives `length` bytes at `position`, or null when the file holds fewer; `etags` is asked only
 * once the file's shape fits. The one check of both readers: the Node server at start
 * (functions/node/list-bodies.ts) and the next build taking the unchanged bodies
 * (src/generate/list-bodies.ts).
 */
export function checkedStarts(
  size: number,
  read: (position: number, length: number) => Uint8Array | null,
  count: number,
  etags: () => readonly string[],
): { starts: Float64Array; etags: readonly string[] } | null {
  if (size < FOOTER_BYTES + count * 4) return null;
  const footer = readFooter(read(size - FOOTER_BYTES, FOOTER_BYTES) ?? new Uint8Array(0));
  if (footer === null || footer.count !== count) return null;
  const lengths = read(size - FOOTER_BYTES - count * 4, count * 4);
  const starts = lengths === null ? null : bodyStarts(lengths, count);
  if (starts === null || fileSize(starts) !== size) return null;
  const tags = etags();
  return Buffer.from(bodiesDigest(tags)).equals(footer.digest) ? { starts, etags: tags } : null;
}
