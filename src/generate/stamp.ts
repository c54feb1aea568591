// The build stamp: what a build was made from (the content folder's files, the build variables and
// the build's own code). `npm start` rebuilds only when the stamp of the current inputs differs.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, type Stats } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { BuildConfig } from "./config.ts";
import { listEpisodeFolders, type FolderListing } from "./content.ts";

/** The project root (this file is src/generate/stamp.ts). */
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** Code that shapes dist/, every file of src/ and these: a pull that changes it must rebuild even when content/ did not change. */
const BUILD_CODE_FILES = ["astro.config.mjs", "package-lock.json"];

/**
 * The files under `root` but those of a name starting with a dot (or inside such a folder), links
 * followed, and but the folders in `skip` (root-relative), each with its root-relative path ("/")
 * and its `stat`. One synchronous walk: fast-glob's `**\/*` and a `stat` of each file cost several
 * times more (docs/performance.md), and loading fast-glob is a share of every build's start.
 */
function walkFiles(root: string, skip: ReadonlySet<string>, each: (rel: string, abs: string, info: Stats) => void): void {
  const walk = (dir: string, prefix: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // gone meanwhile, or not a folder
    }
    for (const e of entries) {
      if (e.name.startsWith(".")) continue;
      const abs = path.join(dir, e.name);
      const rel = prefix + e.name;
      if (skip.has(rel)) continue;
      if (e.isDirectory()) walk(abs, `${rel}/`);
      else if (e.isFile() || e.isSymbolicLink()) {
        const info = statSync(abs, { throwIfNoEntry: false }); // sync: ~10x faster than awaiting each
        if (info?.isFile()) each(rel, abs, info);
        else if (info?.isDirectory()) walk(abs, `${rel}/`);
      }
    }
  };
  walk(root, "");
}

/** The files under `root` (as walkFiles finds them) as `rel\tsize\tmtime` lines. */
function fileLines(root: string, skip: ReadonlySet<string>): string[] {
  const lines: string[] = [];
  walkFiles(root, skip, (rel, _abs, info) => lines.push(`${rel}\t${info.size}\t${info.mtimeMs}`));
  return lines;
}

/**
 * The stamp of the build inputs: the build variables, every content file's path, size and
 * modification time, and the build code's hash (`codeHash`, when the caller has it). The episode
 * folders' files are taken as the build listed them (`episodes`, src/generate/content.ts
 * `listEpisodeFolders`: the inputs it read, with no second walk of the show), or listed now.
 */
export async function stampOf(config: BuildConfig, codeHash = buildCodeHash(), episodes?: readonly FolderListing[]): Promise<string> {
  const listings = episodes ?? listEpisodeFolders(config.contentDir);
  const folders = listings.map((l) => path.posix.dirname(l.source));
  const lines = fileLines(config.contentDir, new Set(folders));
  listings.forEach((l, i) => {
    for (const f of l.files) lines.push(`${folders[i]}/${f.rel}\t${f.size}\t${f.mtimeMs}`);
  });
  const hash = createHash("sha256");
  // The variables that shape dist/ (ASSET_FILE_LIMIT does not: it only decides whether a build passes).
  hash.update(JSON.stringify([config.contentDir, config.baseUrl, config.siteUrl, config.audioBackend, config.audioPublicUrl]));
  for (const line of lines.sort()) hash.update(`\n${line}`);
  hash.update("\n--code--").update(codeHash);
  return hash.digest("hex");
}

/**
 * The build code's content hash (not its modification times: a fresh clone of the same commit has
 * the same hash). Part of the incremental build's key (src/generate/build-state.ts): a change of
 * the build code makes the next build clean.
 */
export function buildCodeHash(): string {
  const files: [string, string][] = [];
  walkFiles(path.join(ROOT, "src"), new Set(), (rel, abs) => files.push([`src/${rel}`, abs]));
  for (const rel of BUILD_CODE_FILES) files.push([rel, path.join(ROOT, rel)]);
  const hash = createHash("sha256");
  for (const [rel, abs] of files.sort(([a], [b]) => (a < b ? -1 : 1))) hash.update(`\n${rel}\n`).update(readFileSync(abs));
  return hash.digest("hex");
}
