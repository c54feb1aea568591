// The search index's file format, written at build time (src/generate/search-index.ts) and read at
// request time (functions/search.ts): one home for both sides, so a change of layout is one change.
// Files (SEARCH_FILES in ./layout.ts): the meta (JSON), each document's field-weighted length
// (uint32 little-endian, by docNo: its position in the episode index), and the term shards. A
// shard is: varint term count; per term, in sorted order, varint UTF-8 length, the bytes, varint
// df, varint postings length; then every term's postings in the same order, each posting a varint
// pair (document delta from the previous posting, field-weighted term frequency). Portable.
import { putBytes, putVarint, readVarint, type ByteBuffer } from "./varint.ts";

export const SEARCH_FORMAT_VERSION = 1;

/** The search index's meta file. */
export interface SearchMeta {
  version: typeof SEARCH_FORMAT_VERSION;
  docs: number;
  shards: number;
  avgLength: number;
  weights: Record<string, number>;
}

/** Shards aim at this many bytes of postings each: one query term reads one shard. */
export const SHARD_TARGET_BYTES = 512 * 1024;
/** At most this many shard files, whatever the size (the deploy's file budget counts files). */
export const MAX_SHARDS = 256;

/** The number of shards for this many bytes of postings: a power of two, at most MAX_SHARDS. */
export function shardCount(postingBytes: number, targetBytes = SHARD_TARGET_BYTES): number {
  return Math.min(MAX_SHARDS, 2 ** Math.ceil(Math.log2(Math.max(1, postingBytes / targetBytes))));
}

/** A term's postings as the build accumulates them: appended in docNo order. */
export interface Postings extends ByteBuffer {
  /** The last document appended (deltas are taken from it). */
  last: number;
  df: number;
}

export function emptyPostings(): Postings {
  return { bytes: new Uint8Array(8), length: 0, last: 0, df: 0 };
}

/** Appends document `doc` (after every document already in) with its weighted frequency. */
export function appendPosting(p: Postings, doc: number, tf: number): void {
  putVarint(p, doc - p.last);
  putVarint(p, tf);
  p.last = doc;
  p.df++;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A shard's bytes from its terms, in the order given (sorted, for reproducible builds). */
export function encodeShard(terms: readonly string[], postingsOf: (term: string) => Postings): Uint8Array {
  const head: ByteBuffer = { bytes: new Uint8Array(64), length: 0 };
  putVarint(head, terms.length);
  let body = 0;
  for (const term of terms) {
    const p = postingsOf(term);
    const utf8 = encoder.encode(term);
    putVarint(head, utf8.length);
    putBytes(head, utf8);
    putVarint(head, p.df);
    putVarint(head, p.length);
    body += p.length;
  }
  const out = new Uint8Array(head.length + body);
  out.set(head.bytes.subarray(0, head.length));
  let at = head.length;
  for (const term of terms) {
    const p = postingsOf(term);
    out.set(p.bytes.subarray(0, p.length), at);
    at += p.length;
  }
  return out;
}

export interface Shard {
  bytes: Uint8Array;
  /** term → [offset of its postings in bytes, their length, df]. */
  terms: Map<string, [number, number, number]>;
}

export function parseShard(bytes: Uint8Array): Shard {
  const at = { pos: 0 };
  const count = readVarint(bytes, at);
  const entries: [string, number, number][] = [];
  for (let i = 0; i < count; i++) {
    const len = readVarint(bytes, at);
    const term = decoder.decode(bytes.subarray(at.pos, at.pos + len));
    at.pos += len;
    const df = readVarint(bytes, at);
    entries.push([term, df, readVarint(bytes, at)]);
  }
  const terms = new Map<string, [number, number, number]>();
  let offset = at.pos;
  for (const [term, df, length] of entries) {
    terms.set(term, [offset, length, df]);
    offset += length;
  }
  return { bytes, terms };
}

/** Calls `visit` with each document and weighted frequency of the postings at `offset`, `length` bytes long. */
export function forEachPosting(bytes: Uint8Array, offset: number, length: number, visit: (doc: number, tf: number) => void): void {
  const at = { pos: offset };
  let doc = 0;
  while (at.pos < offset + length) {
    doc += readVarint(bytes, at);
    visit(doc, readVarint(bytes, at));
  }
}

/** The documents' lengths file. */
export function encodeDocLengths(lengths: Uint32Array, docs: number): Uint8Array {
  const out = new Uint8Array(docs * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < docs; i++) view.setUint32(i * 4, lengths[i]!, true);
  return out;
}

/** The documents' lengths, or null when the file does not hold `docs` of them. */
export function decodeDocLengths(bytes: Uint8Array, docs: number): Uint32Array | null {
  if (bytes.byteLength !== docs * 4) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Uint32Array.from({ length: docs }, (_, i) => view.getUint32(i * 4, true));
}
