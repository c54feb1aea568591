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
  version: 1;
  key: string;
  /** By the path of the folder's episode.json, relative to the content folder. */
  episodes: Record<string, EpisodeRecord>;
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
  try {
    const state = JSON.parse(readFileSync(path.join(dist, BUILD_FILES.state), "utf8")) as BuildState;
    return state.version === 1 && typeof state.key === "string" && typeof state.episodes === "object" ? state : null;
  } catch {
    return null;
  }
}

export function writeState(dist: string, key: string, records: Map<string, EpisodeRecord>): void {
  const episodes: Record<string, EpisodeRecord> = {};
  for (const source of [...records.keys()].sort()) episodes[source] = records.get(source)!;
  const state: BuildState = { version: 1, key, episodes };
  writeNewFile(path.join(dist, BUILD_FILES.state), JSON.stringify(state));
}
