// The search index's term vectors, kept between builds in Astro's cache folder (not in dist/: it is
// no output, and never uploaded), so an incremental build tokenizes only the episodes whose folders
// changed (src/generate/search-index.ts, writeSearchIndex). Tokenizing every transcript again was
// most of a one-episode build at 10,000 episodes (docs/performance.md).
//
// A vector is reusable when the file's key is the build's key (same build code, variables and
// podcast.json: src/generate/build-state.ts) and its entry carries the episode folder's current
// fingerprint: the entry is then exactly what tokenizing the episode's bodies would give. The file
// is rewritten whole by every build, with the vectors of that build's episodes only.
//
// Format: "SV1\n", varint-prefixed UTF-8 key, the terms (count, then each varint-prefixed UTF-8),
// the documents (count, then each: id, fingerprint, length, pair count, pairs of term number and
// weighted frequency), all numbers unsigned varints (src/shared/varint.ts).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { byteBuffer, putBytes, putVarint, readVarint, type ByteBuffer } from "../shared/varint.ts";
import type { TermVector } from "./search-index.ts";

const MAGIC = new TextEncoder().encode("SV1\n");
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function putText(buf: ByteBuffer, text: string): void {
  const bytes = encoder.encode(text);
  putVarint(buf, bytes.length);
  putBytes(buf, bytes);
}

function readText(bytes: Uint8Array, at: { pos: number }): string {
  const length = readVarint(bytes, at);
  const text = decoder.decode(bytes.subarray(at.pos, at.pos + length));
  at.pos += length;
  return text;
}

/** The last build's vectors, decoded one at a time when asked for. */
export class VectorCache {
  readonly #bytes: Uint8Array;
  readonly #terms: string[];
  /** By episode id: its folder's fingerprint and where its vector starts. */
  readonly #docs: Map<string, { fp: string; pos: number }>;

  private constructor(bytes: Uint8Array, terms: string[], docs: Map<string, { fp: string; pos: number }>) {
    this.#bytes = bytes;
    this.#terms = terms;
    this.#docs = docs;
  }

  static readonly #empty = new VectorCache(new Uint8Array(0), [], new Map());

  /** The cache at `file` when it was written for `key`; empty when absent, unreadable or of another key. */
  static read(file: string, key: string): VectorCache {
    try {
      const bytes = readFileSync(file);
      if (!MAGIC.every((b, i) => bytes[i] === b)) return VectorCache.#empty;
      const at = { pos: MAGIC.length };
      if (readText(bytes, at) !== key) return VectorCache.#empty;
      const terms: string[] = new Array(readVarint(bytes, at));
      for (let i = 0; i < terms.length; i++) terms[i] = readText(bytes, at);
      const docs = new Map<string, { fp: string; pos: number }>();
      const count = readVarint(bytes, at);
      for (let d = 0; d < count; d++) {
        const id = readText(bytes, at);
        const fp = readText(bytes, at);
        docs.set(id, { fp, pos: at.pos });
        readVarint(bytes, at); // length
        const pairs = readVarint(bytes, at);
        for (let p = 0; p < 2 * pairs; p++) readVarint(bytes, at);
      }
      return new VectorCache(bytes, terms, docs);
    } catch {
      return VectorCache.#empty; // no cache yet, or a damaged one: every vector is computed again
    }
  }

  /** The vector of episode `id` when its folder's fingerprint is still `fp`; else null. */
  get(id: string, fp: string): TermVector | null {
    const doc = this.#docs.get(id);
    if (doc === undefined || doc.fp !== fp) return null;
    const at = { pos: doc.pos };
    const length = readVarint(this.#bytes, at);
    const pairs = readVarint(this.#bytes, at);
    const terms: string[] = new Array(pairs);
    const tfs: number[] = new Array(pairs);
    for (let p = 0; p < pairs; p++) {
      terms[p] = this.#terms[readVarint(this.#bytes, at)]!;
      tfs[p] = readVarint(this.#bytes, at);
    }
    return { terms, tfs, length };
  }
}

/** Collects this build's vectors, encoded as they come (a term is stored once), then saves them. */
export class VectorCacheWriter {
  readonly #key: string;
  readonly #termNumbers = new Map<string, number>();
  readonly #terms: string[] = [];
  readonly #docs: ByteBuffer = byteBuffer(1 << 16);
  #count = 0;

  constructor(key: string) {
    this.#key = key;
  }

  add(id: string, fp: string, vector: TermVector): void {
    const buf = this.#docs;
    putText(buf, id);
    putText(buf, fp);
    putVarint(buf, vector.length);
    putVarint(buf, vector.terms.length);
    for (let i = 0; i < vector.terms.length; i++) {
      const term = vector.terms[i]!;
      let n = this.#termNumbers.get(term);
      if (n === undefined) {
        n = this.#terms.length;
        this.#termNumbers.set(term, n);
        this.#terms.push(term);
      }
      putVarint(buf, n);
      putVarint(buf, vector.tfs[i]!);
    }
    this.#count++;
  }

  /** Writes the file whole, through a temporary name: a build stopped halfway leaves the last good cache. */
  save(file: string): void {
    const head = byteBuffer(1 << 16);
    putBytes(head, MAGIC);
    putText(head, this.#key);
    putVarint(head, this.#terms.length);
    for (const term of this.#terms) putText(head, term);
    putVarint(head, this.#count);
    mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, Buffer.concat([head.bytes.subarray(0, head.length), this.#docs.bytes.subarray(0, this.#docs.length)]));
    renameSync(tmp, file);
  }
}
