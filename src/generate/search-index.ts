// The search index, built at build time one episode at a time (docs/architecture.md#search). The
// accumulator keeps only compact postings: per term, one growing byte array of varint pairs
// (docNo delta, field-weighted term frequency), never an object per document. `files()` then
// writes them as term shards (a term's shard is a hash of the term, src/shared/search-tokens.ts),
// plus the documents' weighted lengths and a small meta file, under the private prefix
// (src/shared/layout.ts SEARCH_FILES), in the format of src/shared/search-format.ts, which
// functions/search.ts reads back one shard at a time.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { episodeFile, SEARCH_FILES } from "../shared/layout.ts";
import { appendPosting, emptyPostings, encodeDocLengths, encodeShard, SEARCH_FORMAT_VERSION, SHARD_TARGET_BYTES, shardCount, type Postings, type SearchMeta } from "../shared/search-format.ts";
import type { EpisodeResource } from "../shared/schema/api.ts";
import type { IndexEntry } from "../shared/schema/build-index.ts";
import { FIELD_WEIGHTS, SEARCH_FIELDS, searchDocOf, shardOf, tokenize, type SearchDoc } from "../shared/search-tokens.ts";
import { VectorCache, VectorCacheWriter } from "./search-cache.ts";

/** What the index keeps of a document: its distinct terms, each with its field-weighted frequency, and its weighted length. */
export interface TermVector {
  terms: string[];
  tfs: number[];
  length: number;
}

/** A document's term vector: its fields tokenized, each occurrence weighted by its field (FIELD_WEIGHTS). */
export function termVectorOf(doc: SearchDoc): TermVector {
  const at = new Map<string, number>();
  const terms: string[] = [];
  const tfs: number[] = [];
  let length = 0;
  for (const field of SEARCH_FIELDS) {
    const weight = FIELD_WEIGHTS[field];
    for (const term of tokenize(doc[field])) {
      let i = at.get(term);
      if (i === undefined) {
        i = terms.length;
        at.set(term, i);
        terms.push(term);
        tfs.push(0);
      }
      tfs[i]! += weight;
      length += weight;
    }
  }
  return { terms, tfs, length };
}

export class SearchIndexBuilder {
  readonly #terms = new Map<string, Postings>();
  /** Field-weighted length of every document, by docNo. */
  #lengths = new Uint32Array(1024);
  #docs = 0;
  #totalLength = 0;
  readonly #shardTargetBytes: number;

  constructor(shardTargetBytes = SHARD_TARGET_BYTES) {
    this.#shardTargetBytes = shardTargetBytes;
  }

  /**
   * Adds the next document; documents are numbered in the order they are added, which must be the
   * order of the build index (_api/index.json) so a docNo is a position in it.
   */
  add(doc: SearchDoc): number {
    return this.addVector(termVectorOf(doc));
  }

  /** Adds the next document by its term vector (termVectorOf, or the build's cache of them: src/generate/search-cache.ts). */
  addVector(vector: TermVector): number {
    const docNo = this.#docs++;
    const { terms, tfs, length } = vector;
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i]!;
      let p = this.#terms.get(term);
      if (p === undefined) {
        p = emptyPostings();
        this.#terms.set(term, p);
      }
      appendPosting(p, docNo, tfs[i]!);
    }
    if (docNo === this.#lengths.length) {
      const bigger = new Uint32Array(this.#lengths.length * 2);
      bigger.set(this.#lengths);
      this.#lengths = bigger;
    }
    this.#lengths[docNo] = length;
    this.#totalLength += length;
    return docNo;
  }

  /** The index's files: [dist-relative path, body]. Shards hold their terms in sorted order, so a build is reproducible. */
  *files(): Generator<[string, Uint8Array | string]> {
    let postingBytes = 0;
    for (const p of this.#terms.values()) postingBytes += p.length;
    const shards = shardCount(postingBytes, this.#shardTargetBytes);
    const byShard: string[][] = Array.from({ length: shards }, () => []);
    for (const term of this.#terms.keys()) byShard[shardOf(term, shards)]!.push(term);
    const meta: SearchMeta = {
      version: SEARCH_FORMAT_VERSION,
      docs: this.#docs,
      shards,
      avgLength: this.#docs === 0 ? 0 : this.#totalLength / this.#docs,
      weights: FIELD_WEIGHTS,
    };
    yield [SEARCH_FILES.meta, JSON.stringify(meta)];
    yield [SEARCH_FILES.docs, encodeDocLengths(this.#lengths, this.#docs)];
    for (let s = 0; s < shards; s++) yield [SEARCH_FILES.shard(s), encodeShard(byShard[s]!.sort(), (term) => this.#terms.get(term)!)];
  }

}

/** Where writeSearchIndex keeps term vectors between builds, and what makes one reusable. */
export interface VectorCacheOptions {
  /** The cache file (outside dist/: src/generate/search-cache.ts). */
  file: string;
  /** The build's key (src/generate/build-state.ts): vectors of other build code or variables are not reused. */
  key: string;
  /** The fingerprint of an episode's folder (by episode id): an unchanged folder's vector is reused. */
  fingerprintOf(id: string): string;
}

/**
 * Indexes the episodes of a finished build (every episode, whether this build rendered it or kept
 * it from the last one), in the order of the episode index, and writes the index's files,
 * replacing the last build's. An episode whose folder is unchanged since the last build takes its
 * term vector from the cache (no body read, no tokenizing); the others are read from the bodies the
 * build wrote, one at a time. Returns the files.
 */
export function writeSearchIndex(dist: string, episodes: readonly IndexEntry[], cache?: VectorCacheOptions): string[] {
  const builder = new SearchIndexBuilder();
  const previous = cache === undefined ? null : VectorCache.read(cache.file, cache.key);
  const next = new VectorCacheWriter(cache?.key ?? "");
  for (const e of episodes) {
    const fp = cache?.fingerprintOf(e.id) ?? "";
    let vector = previous?.get(e.id, fp) ?? null;
    if (vector === null) {
      const resource = JSON.parse(readFileSync(path.join(dist, episodeFile(e.ref, "json")), "utf8")) as EpisodeResource;
      const transcript = e.transcript ? readFileSync(path.join(dist, episodeFile(e.ref, "transcript")), "utf8") : null;
      vector = termVectorOf(searchDocOf(resource, transcript));
    }
    builder.addVector(vector);
    if (cache !== undefined) next.add(e.id, fp, vector);
  }
  const dir = path.join(dist, path.dirname(SEARCH_FILES.meta));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const [rel, body] of builder.files()) {
    writeFileSync(path.join(dist, rel), body);
    written.push(rel);
  }
  if (cache !== undefined) next.save(cache.file);
  return written;
}
