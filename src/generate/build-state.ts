// What the last build was made from and what it wrote, kept in dist/ (BUILD_FILES.state) so that
// the next `npm run build` renders only what changed (docs/architecture.md#the-build). A build may
// reuse the last one's outputs only when the state's key equals its own: the same build code, the
// same build variables and the same podcast.json; otherwise, or with `--clean`, it builds clean.
// The state is a pure function of the inputs, so an incremental dist/ equals a clean one byte for byte.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { BuildConfig } from "./config.ts";
import { BUILD_FILES } from "../shared/layout.ts";
import type { IndexEntry } from "../shared/schema/build-index.ts";
import type { TimedEtags } from "../shared/timed-etags.ts";
import { writeNewFile } from "./new-file.ts";
import { buildCodeHash } from "./stamp.ts";

/** One episode folder as the build left it. */
export interface EpisodeRecord {
  /** Fingerprint of the folder's inputs (src/generate/content.ts, readEpisodeInputs). */
  fp: string;
  /** Lower-case id and number: what the uniqueness rules check across folders. */
  id: string;
  n: number | null;
  /** Its entry in the index; null for a draft or an episode without publishedAt (nothing built). */
  entry: IndexEntry | null;
  /** The strong ETags of its timed forms (src/shared/timed-etags.ts), all null when none is timed. */
  timed: TimedEtags;
  /** Every dist-relative file of this episode (API bodies, pages, media). */
  files: string[];
}

export interface BuildState {
  version: 2;
  key: string;
  /** By the path of the folder's episode.json, relative to the content folder. */
  episodes: Record<string, EpisodeRecord>;
}

/**
 * The state's first line: its key and each folder's fingerprint. Of the live build's state, a build
 * needs no more (src/generate/prepare-build.ts), and parsing the records too was a share of every
 * one-episode build (docs/performance.md). The second line holds the records without their fingerprints.
 */
export interface StateHead {
  version: 2;
  key: string;
  fps: Record<string, string>;
}

const NEWLINE = 0x0a;

/** The state file's two lines, or null when there is none or it is of another version. */
function stateLines(dist: string): { bytes: Buffer; head: StateHead; split: number } | null {
  try {
    const bytes = readFileSync(path.join(dist, BUILD_FILES.state));
    const split = bytes.indexOf(NEWLINE); // JSON.stringify writes no newline: the one between the lines is the first
    if (split < 0) return null;
    const head = JSON.parse(bytes.toString("utf8", 0, split)) as StateHead;
    return head.version === 2 && typeof head.key === "string" && typeof head.fps === "object" && head.fps !== null ? { bytes, head, split } : null;
  } catch {
    return null;
  }
}

/** The last build's key and fingerprints alone, or null when it has no state (or it cannot be read). */
export function readStateHead(dist: string): StateHead | null {
  return stateLines(dist)?.head ?? null;
}

/** The key a build's outputs are valid for. ASSET_FILE_LIMIT is not in it: it only decides whether a build passes. */
export function buildKeyOf(config: BuildConfig, podcastBytes: Buffer, codeHash = buildCodeHash()): string {
  return createHash("sha256")
    .update(JSON.stringify([config.contentDir, config.baseUrl, config.siteUrl, config.audioBackend, config.audioPublicUrl]))
    .update("\0")
    .update(podcastBytes)
    .update("\0")
    .update(codeHash)
    .digest("hex");
}

/** The last build's state, or null when there is none (or it cannot be read: then the build is clean). */
export function readState(dist: string): BuildState | null {
  const lines = stateLines(dist);
  if (lines === null) return null;
  try {
    const episodes = JSON.parse(lines.bytes.toString("utf8", lines.split + 1)) as Record<string, Omit<EpisodeRecord, "fp">>;
    const { fps } = lines.head;
    for (const source in episodes) (episodes[source] as EpisodeRecord).fp = fps[source]!;
    return { version: 2, key: lines.head.key, episodes: episodes as Record<string, EpisodeRecord> };
  } catch {
    return null;
  }
}

export function writeState(dist: string, key: string, records: Map<string, EpisodeRecord>): void {
  const fps: Record<string, string> = {};
  const episodes: Record<string, Omit<EpisodeRecord, "fp">> = {};
  for (const source of [...records.keys()].sort()) {
    const { fp, ...record } = records.get(source)!;
    fps[source] = fp;
    episodes[source] = record;
  }
  const head: StateHead = { version: 2, key, fps };
  writeNewFile(path.join(dist, BUILD_FILES.state), `${JSON.stringify(head)}\n${JSON.stringify(episodes)}`);
}
