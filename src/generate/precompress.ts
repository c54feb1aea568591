// Build time: the compressed variants of the build's outputs (docs/architecture.md#compression).
// Beside every compressible file it is given (JSON, HTML, text, XML, CSS, JS, SVG: the media types
// the shim compresses, functions/http.ts `compressible`) it writes `<file>.br` and `<file>.gz`,
// each only when smaller than the file; a variant that would not be is removed, so a rewritten
// file never keeps an older variant. The Node entry serves these files as they are; a Cloudflare
// deploy never uploads them (src/generate/file-budget.ts), the Worker lets the runtime encode.
//
// The work runs on libuv's thread pool (node:zlib's asynchronous calls): a pool of threads the
// process already has, used by up to PARALLEL files at a time, so every core compresses without
// worker_threads to start or code to load into them. Levels: src/shared/node-compress.ts.
import { readFile, rm, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import path from "node:path";
import { contentTypeOf } from "../../functions/content-type.ts";
import { compressible } from "../../functions/http.ts";
import { CODING_SUFFIX, CODINGS } from "../shared/etag.ts";
import { compressAsync } from "../shared/node-compress.ts";

export interface PrecompressResult {
  /** Compressible files read. */
  files: number;
  /** Variants written (at most two per file). */
  variants: number;
  /** Bytes of the files read, and of the variants written. */
  bytesIn: number;
  bytesOut: number;
}

/** Files in flight: enough to keep libuv's pool (4 threads by default, UV_THREADPOOL_SIZE) and the disk busy. */
const PARALLEL = Math.max(4, 2 * availableParallelism());

/**
 * Writes the .br and .gz variants of the compressible files among `files` (dist-relative paths),
 * `parallel` files at a time (fewer leave threads of the pool to others, such as Astro's writes).
 */
export async function precompress(dist: string, files: readonly string[], parallel = PARALLEL): Promise<PrecompressResult> {
  const todo = files.filter((rel) => compressible(contentTypeOf(rel)));
  const result: PrecompressResult = { files: todo.length, variants: 0, bytesIn: 0, bytesOut: 0 };
  let next = 0;
  async function worker(): Promise<void> {
    while (next < todo.length) {
      const file = path.join(dist, todo[next++]!);
      const body = await readFile(file);
      result.bytesIn += body.byteLength;
      for (const coding of CODINGS) {
        const encoded = await compressAsync(body, coding);
        const target = file + CODING_SUFFIX[coding];
        if (encoded.byteLength < body.byteLength) {
          await writeFile(target, encoded);
          result.variants++;
          result.bytesOut += encoded.byteLength;
        } else await rm(target, { force: true });
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(parallel, todo.length) }, worker));
  return result;
}
