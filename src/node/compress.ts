// NODE-ONLY, shared by the build and the Node adapter: the compression levels and the node:zlib
// calls behind the build's precompressed variants (src/generate/precompress.ts) and behind the Node
// entry's `compress` port for composed bodies (functions/node/main.ts). As measured
// (docs/performance.md#compression), brotli quality 6 compresses about as well as 5–8 and far more
// cheaply than 9–11, whose small gain would cost minutes of CPU over a build's files; gzip 6
// compresses as well as 9 on these small files.
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions, type ZlibOptions } from "node:zlib";
import { promisify } from "node:util";
import type { Coding } from "../shared/etag.ts";

export const BROTLI_QUALITY = 6;
export const GZIP_LEVEL = 6;

function brotliOptions(size: number): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  };
}
const GZIP: ZlibOptions = { level: GZIP_LEVEL };

/** A body in one coding, synchronously (the build's workers). */
export function compressSync(bytes: Uint8Array, coding: Coding): Uint8Array {
  return coding === "br" ? brotliCompressSync(bytes, brotliOptions(bytes.byteLength)) : gzipSync(bytes, GZIP);
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** A body in one coding, on libuv's thread pool (the Node entry's `compress` port: the event loop keeps serving). */
export async function compressAsync(bytes: Uint8Array, coding: Coding): Promise<Uint8Array> {
  const out = coding === "br" ? await brotliAsync(bytes, brotliOptions(bytes.byteLength)) : await gzipAsync(bytes, GZIP);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
