// One thread of the build's compression pool (src/generate/precompress.ts). It is given batches of
// files by absolute path, each with its bytes or to be read from disk, and for each writes
// `<file>.br` and `<file>.gz` when smaller than the file, as new files (./new-file.ts), or removes an older variant that would not be. Everything here is synchronous: the thread
// has nothing else to do, and the synchronous calls skip the stream machinery and event-loop hops of
// node:zlib's asynchronous API, which kept the build's main thread busy (docs/performance.md).
import { readFileSync, rmSync } from "node:fs";
import { parentPort } from "node:worker_threads";
import { CODING_SUFFIX, CODINGS } from "../shared/etag.ts";
import { compressSync } from "../shared/node-compress.ts";
import { writeNewFile } from "./new-file.ts";
import type { PrecompressJob, PrecompressResult } from "./precompress.ts";

parentPort!.on("message", (jobs: PrecompressJob[]) => {
  // `held`: the bytes the pool handed over with the jobs, which it no longer holds.
  const done: PrecompressResult & { held: number } = { files: jobs.length, variants: 0, bytesIn: 0, bytesOut: 0, held: 0 };
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
  parentPort!.postMessage(done);
});
