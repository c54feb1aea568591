// One batch of the build's compression (src/generate/precompress.ts): for each file, given by
// absolute path with its bytes or to be read from disk, `<file>.br` and `<file>.gz` are written
// when smaller than the file, as new files (./new-file.ts), or an older variant that would not be
// is removed. Synchronous: a pool thread has nothing else to do, and a build small enough to
// compress on its main thread is waiting for it.
import { readFileSync, rmSync } from "node:fs";
import { CODING_SUFFIX, CODINGS } from "../shared/etag.ts";
import { compressSync } from "../node/compress.ts";
import { writeNewFile } from "./new-file.ts";
import type { PrecompressJob, PrecompressResult } from "./precompress.ts";

/** What a batch did; `held`: the bytes that came with the jobs, which the pool no longer holds. */
export type BatchResult = Omit<PrecompressResult, "threads"> & { held: number };

export function compressBatch(jobs: readonly PrecompressJob[]): BatchResult {
  const done: BatchResult = { files: jobs.length, variants: 0, bytesIn: 0, bytesOut: 0, held: 0 };
  for (const { file, bytes } of jobs) {
    if (bytes !== undefined) done.held += bytes.byteLength;
    const body = bytes ?? readFileSync(file);
    done.bytesIn += body.byteLength;
    for (const coding of CODINGS) {
      const encoded = compressSync(body, coding);
      const target = file + CODING_SUFFIX[coding];
      if (encoded.byteLength < body.byteLength) {
        writeNewFile(target, encoded);
        done.variants++;
        done.bytesOut += encoded.byteLength;
      } else rmSync(target, { force: true });
    }
  }
  return done;
}
