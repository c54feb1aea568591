// Build outputs on the local disk, through the manifest-gated cache every runtime shares
// (functions/manifest-assets.ts), so the request path reads the disk once per file, not per request.
// The build's compressed variants (<file>.br, <file>.gz: src/generate/precompress.ts) are read
// from beside their file, the first time a request negotiates their coding.
import { readFileSync } from "node:fs";
import path from "node:path";
import { ManifestAssetStore } from "../manifest-assets.ts";
import type { ManifestLookup } from "../manifest-table.ts";

/**
 * 32 MiB: ~19,000 episode bodies with their entries' overhead. It was 64 MiB, which a crawl of a
 * 100,000-episode list filled with bodies read once, taking the process past its 200 MB budget
 * (docs/performance.md#request-path-at-scale); the disk's page cache holds the rest, and a miss
 * costs one read (~30 µs of CPU). 16 MiB was measured and dropped: a list walk's working set at
 * 10,000 episodes no longer fit, and its p50 went from 0.20 to 1.04 ms. Search reads around this
 * cache (`keep: false`, ../search.ts).
 */
export const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * The file's bytes as a plain Uint8Array over the read's own buffer: no copy. Read synchronously:
 * build outputs are small and, on a serving machine, in the page cache, where a synchronous read
 * (open, fstat, read, close) costs ~7-10 µs of CPU and the promise API's four trips through
 * libuv's thread pool ~40 µs. A list page of 20 bodies none of which is cached (a crawl of
 * 100,000 episodes) took 500-600 µs that way and 150-200 µs this way (docs/performance.md#findings).
 */
function bytesOf(file: string): Uint8Array {
  const b = readFileSync(file);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

export class FileAssetStore extends ManifestAssetStore {
  constructor(distDir: string, manifest: Record<string, string> | ManifestLookup, maxBytes = DEFAULT_CACHE_BYTES) {
    super(manifest, async (rel) => bytesOf(path.join(distDir, rel)), maxBytes, async (rel) => {
      try {
        return bytesOf(path.join(distDir, rel));
      } catch (e) {
        // No variant: the build wrote none (it would not have been smaller), or the file predates compression.
        if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw e;
      }
    });
  }
}
