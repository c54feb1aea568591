// Reads an episode folder handed to `npm run publish` and checks it as the build would: the same
// schemas (src/shared/schema/content.ts), the same wording (`<file>: field '<path>': <message>`,
// src/generate/content.ts), the same uniqueness rule against the episodes already in CONTENT_DIR.
// It also fills what publishing measures: durationSeconds, audio.bytes, audio.sha256 and, when the
// key is absent, the next free episodeNumber. Nothing is written here.
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { checkUnique, describeIssues, episodeSources, parseJson, type EpisodeIdentity } from "../generate/content.ts";
import type { AudioBackend } from "../shared/env.ts";
import { episodeFileSchema, scriptFileSchema, type EpisodeFile, type ScriptFile } from "../shared/schema/content.ts";
import { scriptResourceOf } from "../generate/script.ts";
import { mp3Facts, NotAnMp3Error, type Mp3Facts } from "./mp3-facts.ts";

/** Every problem found, each naming its file and field; the folder is refused as a whole. */
export class InvalidEpisodeError extends Error {
  readonly problems: string[];
  /** What would only have warned (an invalid script.json), worth fixing in the same pass. */
  readonly warnings: string[];

  constructor(problems: string[], warnings: string[] = []) {
    super(problems.length === 1 ? problems[0] : `${problems.length} problems: ${problems.join("; ")}`);
    this.problems = problems;
    this.warnings = warnings;
  }
}

export interface PreparedEpisode {
  /** The folder's name: the episode's folder under CONTENT_DIR/episodes. */
  name: string;
  /** episode.json as it will be written: the operator's members, in their order, plus the facts. */
  json: Record<string, unknown>;
  file: EpisodeFile;
  /** script.json to copy verbatim (an invalid one only warns, as in the build), or null. */
  scriptPath: string | null;
  mp3: { abs: string; rel: string };
  facts: Mp3Facts;
  /** True when episodeNumber was absent and publishing chose it. */
  numberChosen: boolean;
  warnings: string[];
}

/** The id and number of every episode in the content folder, read leniently (the build judges the rest). */
export async function existingIdentities(contentDir: string): Promise<EpisodeIdentity[]> {
  const out: EpisodeIdentity[] = [];
  for (const source of episodeSources(contentDir)) {
    const read = parseJson(await readFile(path.join(contentDir, source)).catch(() => null), source);
    const value = read.ok ? (read.value as { id?: unknown; episodeNumber?: unknown } | null) : null;
    if (typeof value?.id !== "string") continue;
    const n = Number.isSafeInteger(value.episodeNumber) ? (value.episodeNumber as number) : null;
    out.push({ source, id: value.id.toLowerCase(), n });
  }
  return out;
}

/** The next free episode number: one past the highest in the content folder (1 for an empty show). */
export function nextFreeNumber(existing: EpisodeIdentity[]): number {
  return existing.reduce((max, e) => Math.max(max, e.n ?? 0), 0) + 1;
}

const isFile = (abs: string) => stat(abs).then((s) => s.isFile(), () => false);

/** The MP3: audio.file when given (inside the folder), else audio.mp3, else the folder's only .mp3. */
async function locateMp3(folder: string, raw: Record<string, unknown>, problems: string[]): Promise<{ abs: string; rel: string } | null> {
  const declared = (raw.audio as { file?: unknown } | undefined)?.file;
  if (typeof declared === "string" && declared !== "") {
    const abs = path.resolve(folder, declared);
    if (!abs.startsWith(folder + path.sep)) return void problems.push("episode.json: field 'audio.file': must stay inside the episode folder"), null;
    if (!(await isFile(abs))) return void problems.push(`episode.json: field 'audio.file': file not found: ${declared}`), null;
    return { abs, rel: path.relative(folder, abs).split(path.sep).join("/") };
  }
  const mp3s = (await readdir(folder, { withFileTypes: true })).filter((e) => e.isFile() && /\.mp3$/i.test(e.name)).map((e) => e.name);
  const name = mp3s.includes("audio.mp3") ? "audio.mp3" : mp3s.length === 1 ? mp3s[0]! : null;
  if (name === null) {
    problems.push(
      mp3s.length === 0
        ? "no MP3 in the folder (add audio.mp3, or name the file in episode.json's audio.file)"
        : `several MP3s in the folder (${mp3s.join(", ")}): name the episode's in episode.json's audio.file`,
    );
    return null;
  }
  return { abs: path.join(folder, name), rel: name };
}

/** episode.json with the measured facts; in s3 mode without audio.file (the MP3 is uploaded, not copied). */
function filled(raw: Record<string, unknown>, facts: Mp3Facts | null, mp3Rel: string | null, backend: AudioBackend, number: number | null): Record<string, unknown> {
  const json: Record<string, unknown> = { ...raw };
  if (number !== null) json.episodeNumber = number;
  if (facts === null) return json;
  json.durationSeconds = facts.durationSeconds;
  const { file: _file, ...rest } = (raw.audio ?? {}) as Record<string, unknown>;
  const measured = { bytes: facts.bytes, sha256: facts.sha256 };
  json.audio = backend === "local" ? { file: mp3Rel, ...rest, ...measured } : { ...rest, ...measured };
  return json;
}

/** The script's timing problems (src/generate/timings.ts) against the episode's (measured) durationSeconds, each naming its field. */
function timingProblems(file: EpisodeFile, script: ScriptFile): string[] {
  const { problems } = scriptResourceOf({ ...file, id: file.id.toLowerCase() }, script);
  return problems.map((p) => `script.json: field '${p.field}': ${p.message}`);
}

export async function prepareEpisode(folder: string, contentDir: string, backend: AudioBackend): Promise<PreparedEpisode> {
  const abs = path.resolve(folder);
  const name = path.basename(abs);
  const problems: string[] = [];
  const warnings: string[] = [];
  if (!(await stat(abs).then((s) => s.isDirectory(), () => false))) throw new InvalidEpisodeError([`${folder}: not a folder`]);
  // The build skips dot-folders (src/generate/content.ts), and publishing prepares its copy under one.
  if (name.startsWith(".")) problems.push(`${name}: the folder's name must not start with a dot (the build would not see it)`);

  const read = parseJson(await readFile(path.join(abs, "episode.json")).catch(() => null), "episode.json");
  if (!read.ok) throw new InvalidEpisodeError([read.problem]);
  if (typeof read.value !== "object" || read.value === null || Array.isArray(read.value)) {
    throw new InvalidEpisodeError(["episode.json: field '(root)': expected an object"]);
  }
  const raw = read.value as Record<string, unknown>;

  let scriptPath: string | null = path.join(abs, "script.json");
  let script: ScriptFile | null = null;
  const scriptBytes = await readFile(scriptPath).catch(() => null);
  if (scriptBytes === null) scriptPath = null;
  else {
    const s = parseJson(scriptBytes, "script.json");
    const parsed = s.ok ? scriptFileSchema.safeParse(s.value) : null;
    if (parsed?.success) script = parsed.data;
    else {
      const reason = parsed ? describeIssues("script.json", parsed.error).join("; ") : (s as { problem: string }).problem;
      warnings.push(`${reason} (its script route will answer 422)`);
    }
  }

  const mp3 = await locateMp3(abs, raw, problems);
  let facts: Mp3Facts | null = null;
  if (mp3 !== null) {
    facts = await mp3Facts(mp3.abs, mp3.rel).catch((e: Error) => {
      if (e instanceof NotAnMp3Error) return void problems.push(e.message), null;
      throw e;
    });
  }

  const existing = await existingIdentities(contentDir);
  const numberChosen = !("episodeNumber" in raw);
  const json = filled(raw, facts, mp3?.rel ?? null, backend, numberChosen ? nextFreeNumber(existing) : null);
  const parsed = episodeFileSchema.safeParse(json);
  if (!parsed.success) problems.push(...describeIssues("episode.json", parsed.error));
  // Times the build would serve untimed are refused here, against the measured duration.
  else if (script !== null) problems.push(...timingProblems(parsed.data, script));
  else {
    const own = { source: "episode.json", id: parsed.data.id.toLowerCase(), n: parsed.data.episodeNumber };
    const clashes: string[] = [];
    checkUnique([...existing, own], clashes);
    problems.push(...clashes.filter((p) => p.startsWith("episode.json:")).map((p) => `${p} in CONTENT_DIR`));
  }
  if (await stat(path.join(contentDir, "episodes", name)).then(() => true, () => false)) problems.push(`${name}: CONTENT_DIR already holds episodes/${name}`);
  if (problems.length > 0 || !parsed.success || mp3 === null || facts === null) throw new InvalidEpisodeError(problems, warnings);
  return { name, json, file: parsed.data, scriptPath, mp3, facts, numberChosen, warnings };
}
