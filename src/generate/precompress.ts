// Build time: the compressed variants of the build's outputs (docs/architecture.md#compression).
// Beside every compressible file it is given (JSON, HTML, text, XML, CSS, JS, SVG: the media types
// the shim compresses, src/shared/media-types.ts `compressible`) it writes `<file>.br` and `<file>.gz`,
// each only when smaller than the file; a variant that would not be is removed, so a rewritten
// file never keeps an older variant. The Node entry serves these files as they are; a Cloudflare
// deploy never uploads them (src/generate/file-budget.ts), the Worker lets the runtime encode.
//
// The work runs in a pool of worker threads, one per core (src/generate/precompress-worker.ts),
// started once there is enough work and fed in batches as the build writes: the writer's API bodies
// while the content is still being read and Astro renders (read back from disk), the episode pages
// with their bytes as Astro renders them (src/middleware.ts), the few other files once the pages
// are written. node:zlib's asynchronous calls on libuv's pool cost the main thread as much as the
// compression itself and stalled whenever Astro kept it busy (docs/performance.md). A build with
// few files to compress (a small site, a day's publish) compresses them on its main thread at the
// end instead. Levels: src/node/compress.ts.
import { availableParallelism } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { compressible, contentTypeOf } from "../shared/media-types.ts";
import { compressBatch, type BatchResult } from "./compress-batch.ts";

export interface PrecompressResult {
  /** Compressible files read. */
  files: number;
  /** Variants written (at most two per file). */
  variants: number;
  /** Bytes of the files read, and of the variants written. */
  bytesIn: number;
  bytesOut: number;
  /** The threads the work ran on: 0 when it was compressed on the build's main thread. */
  threads: number;
}

/** One file to compress: its absolute path, and its bytes when the caller has them in hand. */
export interface PrecompressJob {
  file: string;
  bytes?: Uint8Array;
}

/**
 * A thread's V8 heap: it holds one batch's small objects (the bytes live outside the heap), but
 * left to V8's defaults each thread's heap grows far past that while it churns through a large
 * build's buffers, and the build's peak RSS with it (docs/performance.md#compression-in-threads).
 */
const THREAD_HEAP = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 };

/** Files per message: large enough that messages cost nothing, small enough to share the work evenly. */
const BATCH = 64;
/**
 * Below this many compressible files in all, the build compresses them on its main thread at the
 * end: starting the threads (each loads Node's internals and the compressor's modules) costs more
 * than compressing a small site or a day's publish (docs/performance.md#compression).
 */
export const THREADS_FROM = 4 * BATCH;
/**
 * Bytes handed over and not yet compressed, at most: past it `offer` declines and the file is
 * compressed from disk after the pages, so a build whose pages outrun the threads holds no more.
 */
const HELD_BYTES = 64 * 1024 * 1024;

/**
 * A pool of compressing threads that files are added to as they are written; `done` waits for all.
 * A batch is posted to a thread as soon as it is full, to the thread with the fewest batches
 * outstanding, and waits in that thread's own message queue: the threads never wait for the main
 * thread, which the build keeps busy for seconds at a time without a turn of its event loop (it
 * hears of finished batches only then).
 */
export class Precompressor {
  /** Every file handed over (dist-relative), so the last pass hands none twice. */
  private readonly given = new Set<string>();
  /** Bytes handed over with files and not yet reported compressed. */
  private held = 0;
  private readonly workers: { thread: Worker; outstanding: number }[] = [];
  private readonly result: PrecompressResult = { files: 0, variants: 0, bytesIn: 0, bytesOut: 0, threads: 0 };
  private pending: PrecompressJob[] = [];
  private failure: Error | null = null;
  private settle: (() => void) | null = null;
  private readonly dist: string;
  private readonly threads: number;

  constructor(dist: string, threads = availableParallelism()) {
    this.dist = dist;
    this.threads = Math.max(1, threads);
  }

  private startThreads(): void {
    this.result.threads = this.threads;
    for (let i = 0; i < this.threads; i++) {
      const worker = { thread: new Worker(new URL("./precompress-worker.ts", import.meta.url), { resourceLimits: THREAD_HEAP }), outstanding: 0 };
      worker.thread.on("message", (done: BatchResult) => {
        worker.outstanding--;
        this.count(done);
        this.check();
      });
      worker.thread.on("error", (error: Error) => {
        this.failure ??= error;
        worker.outstanding = 0;
        this.check();
      });
      // Until `done`, the threads do not keep the process alive: a build that fails on the way exits.
      worker.thread.unref();
      this.workers.push(worker);
    }
  }

  private count(done: BatchResult): void {
    this.held -= done.held;
    for (const k of ["files", "variants", "bytesIn", "bytesOut"] as const) this.result[k] += done[k];
  }

  /** Files written to dist/ (dist-relative paths), to be read back: those of compressible types are queued. */
  add(files: Iterable<string>): void {
    for (const rel of files) this.enqueue(rel);
  }

  /**
   * A file about to be written, with its bytes: queued with them unless the pool already holds
   * HELD_BYTES. Says whether it was taken; a file declined is to be `add`ed once on disk.
   */
  offer(rel: string, bytes: Uint8Array): boolean {
    if (this.held + bytes.byteLength > HELD_BYTES) return false;
    if (this.enqueue(rel, bytes)) this.held += bytes.byteLength;
    return true;
  }

  /** Whether a file was handed over already. */
  has(rel: string): boolean {
    return this.given.has(rel);
  }

  private enqueue(rel: string, bytes?: Uint8Array): boolean {
    this.given.add(rel);
    if (!compressible(contentTypeOf(rel))) return false;
    this.pending.push({ file: path.join(this.dist, rel), bytes });
    if (this.workers.length === 0) {
      if (this.pending.length < THREADS_FROM) return true;
      this.startThreads();
      this.flush();
    } else if (this.pending.length === BATCH) this.flush();
    return true;
  }

  /** Hands the queued files to the least busy threads, BATCH at a time. */
  private flush(): void {
    const jobs = this.pending;
    this.pending = [];
    for (let i = 0; i < jobs.length; i += BATCH) {
      const worker = this.workers.reduce((a, b) => (b.outstanding < a.outstanding ? b : a));
      worker.outstanding++;
      worker.thread.postMessage(jobs.slice(i, i + BATCH));
    }
  }

  private check(): void {
    if (this.failure !== null || this.workers.every((w) => w.outstanding === 0)) this.settle?.();
  }

  /** Compresses what is left, stops the threads and says what the pool did. */
  async done(): Promise<PrecompressResult> {
    if (this.workers.length === 0) {
      // Too few files for the threads: compressed here.
      this.count(compressBatch(this.pending));
      this.pending = [];
      return { ...this.result };
    }
    this.flush();
    for (const w of this.workers) w.thread.ref();
    try {
      await new Promise<void>((resolve) => {
        this.settle = resolve;
        this.check();
      });
    } finally {
      await Promise.all(this.workers.map((w) => w.thread.terminate()));
    }
    if (this.failure !== null) throw this.failure;
    return { ...this.result };
  }
}

/** Writes the .br and .gz variants of the compressible files among `files` (dist-relative paths). */
export function precompress(dist: string, files: readonly string[], threads?: number): Promise<PrecompressResult> {
  const pool = new Precompressor(dist, threads);
  pool.add(files);
  return pool.done();
}
