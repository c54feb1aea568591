// Build time: the compressed variants of the build's outputs (docs/architecture.md#compression).
// Beside every compressible file it is given (JSON, HTML, text, XML, CSS, JS, SVG: the media types
// the shim compresses, functions/http.ts `compressible`) it writes `<file>.br` and `<file>.gz`,
// each only when smaller than the file; a variant that would not be is removed, so a rewritten
// file never keeps an older variant. The Node entry serves these files as they are; a Cloudflare
// deploy never uploads them (src/generate/file-budget.ts), the Worker lets the runtime encode.
//
// The work runs in a pool of worker threads, one per core (src/generate/precompress-worker.ts),
// fed in batches as the build writes: the writer's API bodies while the content is still being
// read and Astro renders, the pages once they are written. node:zlib's asynchronous calls on
// libuv's pool cost the main thread as much as the compression itself (stream callbacks per
// chunk) and stalled whenever Astro kept it busy: 63 s of a 100 s build at 10,000 episodes went
// waiting for them (docs/performance.md). Levels: src/shared/node-compress.ts.
import { availableParallelism } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { contentTypeOf } from "../../functions/content-type.ts";
import { compressible } from "../../functions/http.ts";

export interface PrecompressResult {
  /** Compressible files read. */
  files: number;
  /** Variants written (at most two per file). */
  variants: number;
  /** Bytes of the files read, and of the variants written. */
  bytesIn: number;
  bytesOut: number;
}

/** Files per message: large enough that messages cost nothing, small enough to share the work evenly. */
const BATCH = 64;

/** A pool of compressing threads that files are added to as they are written; `done` waits for all. */
export class Precompressor {
  private readonly queue: string[][] = [];
  private readonly idle: Worker[] = [];
  private readonly workers: Worker[] = [];
  private readonly result: PrecompressResult = { files: 0, variants: 0, bytesIn: 0, bytesOut: 0 };
  private pending: string[] = [];
  private busy = 0;
  private failure: Error | null = null;
  private settle: (() => void) | null = null;

  constructor(
    private readonly dist: string,
    threads = availableParallelism(),
  ) {
    for (let i = 0; i < Math.max(1, threads); i++) {
      const worker = new Worker(new URL("./precompress-worker.ts", import.meta.url));
      worker.on("message", (done: PrecompressResult) => {
        this.busy--;
        for (const k of ["files", "variants", "bytesIn", "bytesOut"] as const) this.result[k] += done[k];
        this.idle.push(worker);
        this.dispatch();
      });
      worker.on("error", (error) => {
        this.failure ??= error;
        this.busy = 0;
        this.settle?.();
      });
      // Until `done`, the threads do not keep the process alive: a build that fails on the way exits.
      worker.unref();
      this.workers.push(worker);
      this.idle.push(worker);
    }
  }

  /** Files written to dist/ (dist-relative paths); those of compressible types are queued. */
  add(files: Iterable<string>): void {
    for (const rel of files) {
      if (!compressible(contentTypeOf(rel))) continue;
      this.pending.push(path.join(this.dist, rel));
      if (this.pending.length === BATCH) this.flush();
    }
    this.dispatch();
  }

  private flush(): void {
    if (this.pending.length > 0) this.queue.push(this.pending), (this.pending = []);
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      this.busy++;
      this.idle.pop()!.postMessage(this.queue.shift()!);
    }
    if (this.busy === 0 && this.queue.length === 0) this.settle?.();
  }

  /** Compresses what is left, stops the threads and says what the pool did. */
  async done(): Promise<PrecompressResult> {
    this.flush();
    for (const w of this.workers) w.ref();
    try {
      await new Promise<void>((resolve) => {
        this.settle = resolve;
        this.dispatch();
      });
    } finally {
      await Promise.all(this.workers.map((w) => w.terminate()));
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
