// What the shim needs from its runtime, as small interfaces. The Node entry provides a disk-backed
// cache, a local audio folder and an in-memory rate-limit store; other runtimes provide their own.
import type { Coding } from "../src/shared/etag.ts";

/** A precomputed build output: its bytes and the strong ETag the build computed for them. */
export interface Asset {
  body: Uint8Array;
  etag: string;
}

export interface GetOptions {
  /** Keep the file in the store's cache (the default). */
  keep?: boolean;
}

export interface AssetStore {
  /**
   * `path` is relative to dist/ (e.g. `_api/episodes/42.json`); null when there is no such file.
   * `keep: false` reads a file the caller holds itself or needs once (search shards, the texts of
   * search candidates): it is not kept in the store's cache, where it would displace the bodies
   * that requests come back for. A file the store holds in memory is answered at once, without a
   * promise (an episode request's body, every time but the first).
   */
  get(path: string, options?: GetOptions): Asset | null | Promise<Asset | null>;
}

/**
 * The episode bodies of the list in one file (Node: functions/node/list-bodies.ts; none at the
 * edge), so that a page whose entries are consecutive in the index is read at once instead of
 * body by body through the asset store.
 */
export interface ListBodies {
  /**
   * The JSON bodies of the entries at index positions `from` to `from + count - 1`, joined by
   * commas as a list page joins them: their byte length and ETags (the manifest's, as the asset
   * store gives them), and `read`, which puts the bytes into `out` at `at` and answers false when
   * it could not (the file changed since it was checked). Null when the file does not hold them.
   */
  span(from: number, count: number): ListSpan | null;
}

export interface ListSpan {
  length: number;
  etags: string[];
  read(out: Uint8Array, at: number): boolean;
}

export interface AudioObject {
  size: number;
  /** Strong validator, when storage knows one. */
  etag: string | null;
}

export interface AudioStorage {
  /** Null when the object does not exist (yet). Throws when storage cannot be reached. */
  head(key: string): Promise<AudioObject | null>;
  /** Bytes first..last inclusive, streamed; `signal` aborts the upstream read. */
  read(key: string, first: number, last: number, signal: AbortSignal): Promise<ReadableStream<Uint8Array>>;
  /** A short-lived URL that serves the object directly with this Content-Disposition (redirect mode). */
  presign?(key: string, contentDisposition: string): Promise<string>;
}

/**
 * The strong ETag of bytes computed at request time (list pages, discovery, the home page):
 * `etagOf` of src/shared/etag.ts by default (crypto.subtle); a runtime may pass a faster one that
 * gives the same tags.
 */
export type EtagFunction = (bytes: Uint8Array) => string | Promise<string>;

/**
 * Compresses a body composed at request time, once (functions/http/representations.ts composedAsset):
 * node:zlib on Node (functions/node/compress.ts). Absent at the edge, where the runtime encodes
 * what the Worker marks with Content-Encoding.
 */
export type Compress = (bytes: Uint8Array, coding: Coding) => Promise<Uint8Array>;

export interface RateLimitHit {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** When the current window ends, epoch ms. */
  resetAt: number;
}

export interface RateLimitStore {
  /**
   * Counts one request for `key` in a fixed window of `windowMs` starting at its first request.
   * A store in the process's memory answers at once, without a promise (functions/limits/rate-limit.ts).
   */
  hit(key: string, windowMs: number, now: number): RateLimitHit | Promise<RateLimitHit>;
}
