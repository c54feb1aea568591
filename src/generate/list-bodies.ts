// The list's bodies in one file for the Node server (BUILD_FILES.listBodies, format:
// src/node/list-bodies.ts), written at the end of every build once the manifest's ETags are
// known. Every body is read back from dist/, changed or not: the file is then a function of dist/
// and the index alone, so an incremental build writes the same bytes as a clean one
// (tests/build/build-incremental.test.ts), for a few hundred ms at 10,000 episodes from the page
// cache (docs/performance.md).
import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { BUILD_FILES, episodeFile } from "../shared/layout.ts";
import { bodiesDigest, listBodiesTail } from "../node/list-bodies.ts";

/** Bytes gathered before each write: one write per ~700 bodies instead of one per body. */
const CHUNK_BYTES = 1024 * 1024;
const COMMA = 0x2c;

/** Writes the JSON bodies of `refs` (the index's order) and their lengths and digest; `etagOf` gives a body's manifest ETag. */
export function writeListBodies(dist: string, refs: readonly string[], etagOf: (rel: string) => string): void {
  const file = path.join(dist, BUILD_FILES.listBodies);
  // A new file, never the old one rewritten in place: a server started on the last build keeps
  // reading the file it validated through its open descriptor.
  rmSync(file, { force: true });
  const fd = openSync(file, "wx");
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let used = 0;
    const put = (bytes: Uint8Array) => {
      if (used + bytes.byteLength > CHUNK_BYTES) (writeSync(fd, chunk, 0, used), (used = 0));
      if (bytes.byteLength > CHUNK_BYTES) writeSync(fd, bytes);
      else (chunk.set(bytes, used), (used += bytes.byteLength));
    };
    const comma = Uint8Array.of(COMMA);
    const lengths = refs.map((ref, i) => {
      const body = readFileSync(path.join(dist, episodeFile(ref, "json")));
      if (i > 0) put(comma);
      put(body);
      return body.byteLength;
    });
    put(listBodiesTail(lengths, bodiesDigest(refs.map((ref) => etagOf(episodeFile(ref, "json"))))));
    writeSync(fd, chunk, 0, used);
  } finally {
    closeSync(fd);
  }
}
