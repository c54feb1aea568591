// Reads and validates content/ (README.md#content-format). Every problem that fails the build names the file
// and the field; a bad script.json only warns, and its episode answers 422 at run time.
// With AUDIO_BACKEND=s3 the build never contacts storage: every publishable episode must give
// audio.bytes, or have its MP3 in the folder to measure (the operator uploads it; it is not copied).
import { createHash } from "node:crypto";
import { createReadStream, readdirSync, readFileSync, statSync, type Stats } from "node:fs";
import path from "node:path";
import type * as z from "zod";
import {
  episodeFileSchema,
  podcastSchema,
  scriptFileSchema,
  type EpisodeFile,
  type Podcast,
  type ScriptFile,
} from "../shared/schema/content.ts";
import type { AudioBackend } from "../shared/env.ts";

export type ScriptLoad = { state: "ok"; script: ScriptFile } | { state: "missing" } | { state: "unparseable"; reason: string };

export interface LoadedEpisode {
  file: EpisodeFile;
  /** Path of episode.json relative to the content folder, for messages. */
  source: string;
  script: ScriptLoad;
  /**
   * Absolute path of the local audio file, when there is one. Local mode serves it (copied to
   * dist/media); s3 mode only measures it (bytes, sha256).
   */
  audioPath: string | null;
  audioBytes: number | null;
  audioSha256: string | null;
}

export interface LoadedContent {
  podcast: Podcast;
  episodes: LoadedEpisode[];
  warnings: string[];
}

export class ContentError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`content is invalid:\n  - ${problems.join("\n  - ")}`);
    this.name = "ContentError";
    this.problems = problems;
  }
}

export function describeIssues(file: string, error: z.ZodError): string[] {
  return error.issues.map((i) => `${file}: field '${i.path.join(".") || "(root)"}': ${i.message}`);
}

/** JSON from bytes already read; `rel` names the file in the message. */
export function parseJson(bytes: Buffer | null, rel: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  if (bytes === null) return { ok: false, problem: `${rel}: cannot be read` };
  try {
    return { ok: true, value: JSON.parse(bytes.toString("utf8")) };
  } catch (e) {
    return { ok: false, problem: `${rel}: not valid JSON (${(e as Error).message})` };
  }
}

function statOrNull(abs: string): Stats | null {
  try {
    return statSync(abs);
  } catch {
    return null;
  }
}

function readOrNull(abs: string): Buffer | null {
  try {
    return readFileSync(abs);
  } catch {
    return null;
  }
}

export async function sha256File(abs: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(abs)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Publishable: rendered by the build (not a draft, publishedAt set); the others are never built. */
export function isPublishable(file: EpisodeFile): boolean {
  return file.status !== "draft" && file.publishedAt !== null;
}

/**
 * An episode folder as read from disk, before any parsing: the bytes of episode.json and
 * script.json, and a fingerprint of everything in the folder (those bytes, and the name, size and
 * modification time of every other file, such as the MP3). Equal fingerprints mean equal build
 * outputs for the same build code and variables: the incremental build (src/generate/prepare-build.ts)
 * skips such an episode without parsing it.
 */
export interface EpisodeInputs {
  /** Path of episode.json relative to the content folder. */
  source: string;
  episodeBytes: Buffer | null;
  scriptBytes: Buffer | null;
  fingerprint: string;
}

/**
 * The episode.json files of a content folder (relative paths), in a stable order: one per folder
 * of episodes/ that holds one, except dot-folders (publish prepares a folder under a dot-name and
 * renames it into place: src/publish/episode-folder.ts). One listing and one `stat` per folder, which
 * costs less than fast-glob's pattern (docs/performance.md#the-content-read-once-synchronously), and
 * the build lists each folder again for its fingerprint anyway.
 */
export function episodeSources(contentDir: string): string[] {
  const root = path.join(contentDir, "episodes");
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  return names
    .filter((name) => !name.startsWith(".") && statOrNull(path.join(root, name, "episode.json"))?.isFile() === true)
    .map((name) => `episodes/${name}/episode.json`)
    .sort();
}

/**
 * An episode folder's files as `stat` sees them, before any is read. `signature` changes whenever
 * a file is added, removed, renamed or written: it holds each file's size, modification time, change
 * time and inode, and the change time is set by the kernel on every write (a tool that puts back
 * the modification time cannot put it back). `settled`: every time in it, and the folder's own, is
 * at least SETTLE_MS old, so a write that comes later cannot share it (timestamps have a
 * granularity: a file written twice in one tick looks unchanged); a folder not yet settled is read
 * again by the next build.
 */
export interface FolderListing {
  source: string;
  /** The folder's own modification time, change time and inode: they change when a name in it is added, removed or renamed. */
  dir: string;
  signature: string;
  settled: boolean;
  /** Whether its names were listed (`readdir`), or taken from the last build's listing of the same `dir` (listEpisodeFolders). */
  listed: boolean;
  /** The fingerprint's part for the files other than episode.json and script.json. */
  others: string;
  /** Every file as listed (its path in the folder, with "/"): what the build's stamp is made of (src/generate/stamp.ts). */
  files: { rel: string; size: number; mtimeMs: number }[];
}

/** What the last build knew of a folder (a settled FolderListing's), handed back to listEpisodeFolders. */
export interface KnownListing {
  dir: string;
  signature: string;
}

/** How old every timestamp of a folder must be before its signature stands for its bytes. */
export const SETTLE_MS = 2000;

const INPUT_FILES = new Set(["episode.json", "script.json"]);

/** A file of an episode folder: its path in the folder ("/"), its name, and whether it is one of INPUT_FILES. */
interface FolderFile {
  rel: string;
  name: string;
  input: boolean;
}

/** The files of an episode folder, its subfolders' too, in the order of their names. */
function folderFiles(dir: string): FolderFile[] {
  const files: FolderFile[] = [];
  const walk = (abs: string, prefix: string) => {
    for (const e of readdirSync(abs, { withFileTypes: true })) {
      if (e.isFile()) files.push({ rel: prefix + e.name, name: e.name, input: prefix === "" && INPUT_FILES.has(e.name) });
      else if (e.isDirectory()) walk(path.join(abs, e.name), `${prefix}${e.name}/`);
    }
  };
  walk(dir, "");
  return files.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/**
 * The files of a signature, in its order, when they are all directly in the folder; else null. A
 * subfolder's names can change while the folder's own times do not: such a folder is always listed.
 */
function filesOfSignature(signature: string): FolderFile[] | null {
  const files: FolderFile[] = [];
  for (const entry of signature.split("\0")) {
    if (entry === "") continue;
    const rel = entry.slice(0, entry.indexOf("\t"));
    if (rel.includes("/")) return null;
    files.push({ rel, name: rel, input: INPUT_FILES.has(rel) });
  }
  return files;
}

/** A folder's own times and inode, as FolderListing `dir` holds them. */
function folderTimes(info: Stats): string {
  return `${info.mtimeMs}\t${info.ctimeMs}\t${info.ino}`;
}

/** The listing of `files` in `dir` (its own stat `info`), or null when one of them is gone. */
function statFiles(source: string, dir: string, info: Stats, files: FolderFile[], listed: boolean): FolderListing | null {
  const now = Date.now();
  let newest = Math.max(info.mtimeMs, info.ctimeMs);
  let signature = "";
  let others = "";
  const stats: FolderListing["files"] = [];
  for (const f of files) {
    const file = statSync(`${dir}/${f.rel}`, { throwIfNoEntry: false });
    if (file === undefined) return null;
    stats.push({ rel: f.rel, size: file.size, mtimeMs: file.mtimeMs });
    if (file.mtimeMs > newest) newest = file.mtimeMs;
    if (file.ctimeMs > newest) newest = file.ctimeMs;
    signature += `\0${f.rel}\t${file.size}\t${file.mtimeMs}\t${file.ctimeMs}\t${file.ino}`;
    if (!f.input) others += `\0${f.rel}\t${file.size}\t${file.mtimeMs}`;
  }
  return { source, dir: folderTimes(info), signature, settled: now - newest >= SETTLE_MS, listed, others, files: stats };
}

/**
 * A folder's listing; null when it is no folder. With `known` for the same folder times, the names
 * are taken from it and only the files are `stat`ed: no name can have come or gone since, and an
 * edit in place shows in the files' own times.
 */
function listFolder(contentDir: string, source: string, known: KnownListing | undefined): FolderListing | null {
  const dir = path.dirname(path.join(contentDir, source));
  const info = statOrNull(dir);
  if (info === null || !info.isDirectory()) return null;
  const names = known !== undefined && known.dir === folderTimes(info) ? filesOfSignature(known.signature) : null;
  return (names === null ? null : statFiles(source, dir, info, names, false)) ?? statFiles(source, dir, info, folderFiles(dir), true);
}

/**
 * The listings of the folders episodeSources names, in its order, with one `stat` of each folder
 * and of each of its files (synchronous: one awaited read per small file costs several times more
 * at 10,000 episodes). `known` gives the last build's listing of a folder (./fingerprint-cache.ts),
 * whose names are reused while the folder's own times are unchanged, so most folders are never
 * listed (docs/performance.md).
 */
export function listEpisodeFolders(contentDir: string, known: (source: string) => KnownListing | undefined = () => undefined): FolderListing[] {
  let names: string[];
  try {
    names = readdirSync(path.join(contentDir, "episodes"));
  } catch {
    return [];
  }
  const listings: FolderListing[] = [];
  for (const source of names.filter((name) => !name.startsWith(".")).map((name) => `episodes/${name}/episode.json`).sort()) {
    const listing = listFolder(contentDir, source, known(source));
    if (listing === null) continue;
    // episode.json as episodeSources sees it: a file, through a link too.
    const hasEpisode = listing.files.some((f) => f.rel === "episode.json") || statOrNull(path.join(contentDir, source))?.isFile() === true;
    if (hasEpisode) listings.push(listing);
  }
  return listings;
}

/** Reads a folder's episode.json and script.json and takes its fingerprint (`listing`: its files, listed just before: listEpisodeFolders). */
export function readEpisodeInputs(contentDir: string, listing: FolderListing): EpisodeInputs {
  const source = listing.source;
  const dir = path.dirname(path.join(contentDir, source));
  const episodeBytes = readOrNull(path.join(dir, "episode.json"));
  const scriptBytes = readOrNull(path.join(dir, "script.json"));
  const hash = createHash("sha256");
  hash.update(`${source}\0`).update(episodeBytes ?? "-").update("\0").update(scriptBytes ?? "-").update(listing.others);
  return { source, episodeBytes, scriptBytes, fingerprint: hash.digest("hex") };
}

/** Parses and validates one episode folder; problems fail the build, warnings only print. */
export async function parseEpisode(
  contentDir: string,
  inputs: EpisodeInputs,
  backend: AudioBackend,
  problems: string[],
  warnings: string[],
): Promise<LoadedEpisode | null> {
  const rel = inputs.source;
  const read = parseJson(inputs.episodeBytes, rel);
  if (!read.ok) return void problems.push(read.problem), null;
  const parsed = episodeFileSchema.safeParse(read.value);
  if (!parsed.success) return void problems.push(...describeIssues(rel, parsed.error)), null;
  const file = parsed.data;
  const dir = path.dirname(path.join(contentDir, rel));

  let script: ScriptLoad = { state: "missing" };
  const scriptRel = path.join(path.dirname(rel), "script.json");
  if (inputs.scriptBytes !== null) {
    const scriptRead = parseJson(inputs.scriptBytes, scriptRel);
    const s = scriptRead.ok ? scriptFileSchema.safeParse(scriptRead.value) : null;
    if (s?.success) script = { state: "ok", script: s.data };
    else {
      const reason = s ? describeIssues(scriptRel, s.error).join("; ") : (scriptRead as { problem: string }).problem;
      script = { state: "unparseable", reason };
      warnings.push(`${reason} (its script route will answer 422)`);
    }
  }

  let audioPath: string | null = null;
  if (file.audio?.file !== undefined) {
    const abs = path.resolve(dir, file.audio.file);
    if (!abs.startsWith(dir + path.sep)) problems.push(`${rel}: field 'audio.file': must stay inside the episode folder`);
    else audioPath = abs;
  } else if (file.audio?.key === undefined || backend === "s3") {
    // The conventional name, when present. In s3 mode it only measures the object named by the key.
    audioPath = path.join(dir, "audio.mp3");
  }
  let audioBytes: number | null = file.audio?.bytes ?? null;
  let audioSha256: string | null = file.audio?.sha256 ?? null;
  if (audioPath !== null) {
    const info = statOrNull(audioPath);
    if (info?.isFile()) {
      if (backend === "s3" && file.audio?.bytes !== undefined && file.audio.bytes !== info.size) {
        problems.push(`${rel}: field 'audio.bytes': ${file.audio.bytes} does not match ${path.relative(contentDir, audioPath)} (${info.size} bytes)`);
      }
      audioBytes = info.size;
      audioSha256 = await sha256File(audioPath);
      if (file.audio?.sha256 !== undefined && file.audio.sha256 !== audioSha256) {
        problems.push(`${rel}: field 'audio.sha256': does not match ${path.relative(contentDir, audioPath)}`);
      }
    } else if (file.audio?.file !== undefined) {
      problems.push(`${rel}: field 'audio.file': file not found: ${file.audio.file}`);
      audioPath = null;
    } else audioPath = null;
  }
  if (backend === "s3" && audioBytes === null && isPublishable(file)) {
    problems.push(`${rel}: field 'audio.bytes': required when AUDIO_BACKEND=s3`);
  }
  return { file, source: rel, script, audioPath, audioBytes, audioSha256 };
}

/** podcast.json, validated; null (with the problems recorded) when it is not valid. */
export function readPodcast(contentDir: string, problems: string[]): { podcast: Podcast; bytes: Buffer } | null {
  const bytes = readOrNull(path.join(contentDir, "podcast.json"));
  const read = parseJson(bytes, "podcast.json");
  if (!read.ok) return void problems.push(read.problem), null;
  const p = podcastSchema.safeParse(read.value);
  if (!p.success) return void problems.push(...describeIssues("podcast.json", p.error)), null;
  return { podcast: p.data, bytes: bytes! };
}

/** What the uniqueness rules need of an episode: its source, id and number. */
export interface EpisodeIdentity {
  source: string;
  id: string;
  n: number | null;
}

/** A duplicate `id` or `episodeNumber` fails the build, naming both files. */
export function checkUnique(episodes: Iterable<EpisodeIdentity>, problems: string[]): void {
  const ids = new Map<string, string>();
  const numbers = new Map<number, string>();
  for (const e of episodes) {
    const seen = ids.get(e.id);
    if (seen) problems.push(`${e.source}: field 'id': duplicate of ${seen}`);
    else ids.set(e.id, e.source);
    if (e.n !== null) {
      const seenN = numbers.get(e.n);
      if (seenN) problems.push(`${e.source}: field 'episodeNumber': duplicate of ${seenN}`);
      else numbers.set(e.n, e.source);
    }
  }
}

/** A whole content folder, read and validated (what `npm run publish` checks a new episode against). */
export async function loadContent(contentDir: string, backend: AudioBackend = "local"): Promise<LoadedContent> {
  const problems: string[] = [];
  const warnings: string[] = [];
  const podcast = readPodcast(contentDir, problems);
  const episodes: LoadedEpisode[] = [];
  for (const listing of listEpisodeFolders(contentDir)) {
    const e = await parseEpisode(contentDir, readEpisodeInputs(contentDir, listing), backend, problems, warnings);
    if (e !== null) episodes.push(e);
  }
  checkUnique(episodes.map((e) => ({ source: e.source, id: e.file.id.toLowerCase(), n: e.file.episodeNumber })), problems);
  if (problems.length > 0 || podcast === null) throw new ContentError(problems);
  return { podcast: podcast.podcast, episodes, warnings };
}
