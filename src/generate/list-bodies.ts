// The list's bodies in one file for the Node server (BUILD_FILES.listBodies, format:
// src/node/list-bodies.ts), written at the end of every build once the manifest's ETags are
// known. Every body is as dist/ holds it, changed or not: the file is then a function of dist/
// and the index alone, so an incremental build writes the same bytes as a clean one
// (tests/build/build-incremental.test.ts). An unchanged body is taken from the last build's file
// when its footer's digest says it holds the bodies the last build's index and manifest name;
// the others are read back from dist/ (a file read per body: a few hundred ms at 10,000 episodes,
// docs/performance.md).
import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { BUILD_FILES, episodeFile } from "../shared/layout.ts";
import { bodiesDigest, checkedStarts, listBodiesTail } from "../node/list-bodies.ts";

/** The build whose files the folder held before this one, as far as its list file goes. */
export interface LastBodies {
  /** Its index's refs, in order. */
  refs: readonly string[];
  /** Its manifest's ETag of a file. */
  etagOf(rel: string): string | undefined;
  /** Whether this build left a file as it was (did not write it). */
  unchanged(rel: string): boolean;
}

/** Each unchanged body of the last build's file, by ref; empty when the file is not the last build's, whole. */
function lastBodies(file: string, last: LastBodies | undefined): Map<string, Uint8Array> {
  const bodies = new Map<string, Uint8Array>();
  if (last === undefined) return bodies;
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return bodies;
  }
  const checked = checkedStarts(bytes.byteLength, (at, length) => (at + length <= bytes.byteLength ? bytes.subarray(at, at + length) : null), last.refs.length, () =>
    last.refs.map((ref) => last.etagOf(episodeFile(ref, "json")) ?? ""),
  );
  if (checked === null) return bodies;
  const { starts } = checked;
  last.refs.forEach((ref, i) => {
    if (last.unchanged(episodeFile(ref, "json"))) bodies.set(ref, bytes.subarray(starts[i], starts[i + 1]! - 1));
  });
  return bodies;
}

/** Bytes gathered before each write: one write per ~700 bodies instead of one per body. */
const CHUNK_BYTES = 1024 * 1024;
const COMMA = 0x2c;

/**
 * Writes the JSON bodies of `refs` (the index's order) and their lengths and digest; `etagOf` gives
 * a body's manifest ETag; `last`: the build whose list file the folder holds. Returns how many
 * bodies were read back from dist/.
 */
export function writeListBodies(dist: string, refs: readonly string[], etagOf: (rel: string) => string, last?: LastBodies): number {
  const file = path.join(dist, BUILD_FILES.listBodies);
  const kept = lastBodies(file, last);
  let read = 0;
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
      let body = kept.get(ref);
      if (body === undefined) {
        body = readFileSync(path.join(dist, episodeFile(ref, "json")));
        read++;
      }
      if (i > 0) put(comma);
      put(body);
      return body.byteLength;
    });
    put(listBodiesTail(lengths, bodiesDigest(refs.map((ref) => etagOf(episodeFile(ref, "json"))))));
    writeSync(fd, chunk, 0, used);
  } finally {
    closeSync(fd);
  }
  return read;
}
