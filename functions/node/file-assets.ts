// Build outputs on the local disk, through the manifest-gated cache every runtime shares
// (functions/data/manifest-assets.ts), so the request path reads the disk once per file, not per request.
// The build's compressed variants (<file>.br, <file>.gz: src/generate/precompress.ts) are read
// from beside their file, the first time a request negotiates their coding.
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import path from "node:path";
import { ManifestAssetStore } from "../data/manifest-assets.ts";
import type { ManifestLookup } from "../data/manifest-table.ts";

/**
 * 32 MiB: ~19,000 episode bodies with their entries' overhead, enough for a 10,000-episode list
 * walk's working set, yet small enough that a crawl of 100,000 episodes, which fills it with bodies
 * read once, keeps the process within its 200 MB budget (docs/performance.md#the-asset-cache). The
 * disk's page cache holds the rest, so a miss costs one read. Search reads around this cache
 * (`keep: false`, ../search.ts).
 */
export const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * One buffer the reads below go through: a build output that fits (all but a few site-wide files)
 * is read with one `pread`, without asking its size first.
 */
const scratch = Buffer.allocUnsafeSlow(64 * 1024);

/**
 * The file's bytes, read synchronously: build outputs are small and, on a serving machine, in the
 * page cache, where the promise API's four trips through libuv's thread pool cost many times a
 * synchronous read, paid for every body of a list page a crawl finds uncached. `open`, one `pread`
 * into the scratch buffer and `close` are three system calls where readFileSync makes four, asking
 * for the size with `fstat` first (docs/performance.md#the-asset-cache).
 */
function bytesOf(file: string): Uint8Array {
  const fd = openSync(file, "r");
  try {
    const n = readSync(fd, scratch, 0, scratch.byteLength, 0);
    // A Buffer of its own (never a slice of Node's shared pool): node:http writes a Buffer as it
    // is, where it wraps any other Uint8Array in a new Buffer on every response.
    if (n < scratch.byteLength) {
      const bytes = Buffer.allocUnsafeSlow(n);
      scratch.copy(bytes, 0, 0, n);
      return bytes;
    }
    // Larger than the buffer: readFileSync reads it whole (from the start: the pread moved no offset).
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
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
