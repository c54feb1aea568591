// Reads and validates content/ (README.md#content-format). Every problem that fails the build names the file
// and the field; a bad script.json only warns, and its episode answers 422 at run time.
// With AUDIO_BACKEND=s3 the build never contacts storage: every publishable episode must give
// audio.bytes, or have its MP3 in the folder to measure (the operator uploads it; it is not copied).
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import fg from "fast-glob";
import type { z } from "zod";
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

function describeIssues(file: string, error: z.ZodError): string[] {
  return error.issues.map((i) => `${file}: field '${i.path.join(".") || "(root)"}': ${i.message}`);
}

async function readJson(abs: string, rel: string): Promise<{ ok: true; value: unknown } | { ok: false; problem: string }> {
  let text: string;
  try {
    text = await readFile(abs, "utf8");
  } catch {
    return { ok: false, problem: `${rel}: cannot be read` };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, problem: `${rel}: not valid JSON (${(e as Error).message})` };
  }
}

async function sha256File(abs: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(abs)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Publishable: rendered by the build (not a draft, publishedAt set); the others are never built. */
export function isPublishable(file: EpisodeFile): boolean {
  return file.status !== "draft" && file.publishedAt !== null;
}

async function loadEpisode(
  contentDir: string,
  rel: string,
  backend: AudioBackend,
  problems: string[],
  warnings: string[],
): Promise<LoadedEpisode | null> {
  const read = await readJson(path.join(contentDir, rel), rel);
  if (!read.ok) return void problems.push(read.problem), null;
  const parsed = episodeFileSchema.safeParse(read.value);
  if (!parsed.success) return void problems.push(...describeIssues(rel, parsed.error)), null;
  const file = parsed.data;
  const dir = path.dirname(path.join(contentDir, rel));

  let script: ScriptLoad = { state: "missing" };
  const scriptRel = path.join(path.dirname(rel), "script.json");
  const scriptRead = await readJson(path.join(contentDir, scriptRel), scriptRel);
  if (scriptRead.ok) {
    const s = scriptFileSchema.safeParse(scriptRead.value);
    if (s.success) script = { state: "ok", script: s.data };
    else {
      const reason = describeIssues(scriptRel, s.error).join("; ");
      script = { state: "unparseable", reason };
      warnings.push(`${reason} (its script route will answer 422)`);
    }
  } else if (!scriptRead.problem.endsWith("cannot be read")) {
    script = { state: "unparseable", reason: scriptRead.problem };
    warnings.push(`${scriptRead.problem} (its script route will answer 422)`);
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
    const info = await stat(audioPath).catch(() => null);
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

/** Runs `work` over `items` with at most `limit` in flight, keeping the order of results. */
async function mapLimited<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export async function loadContent(contentDir: string, backend: AudioBackend = "local"): Promise<LoadedContent> {
  const problems: string[] = [];
  const warnings: string[] = [];
  const podcastRead = await readJson(path.join(contentDir, "podcast.json"), "podcast.json");
  let podcast: Podcast | null = null;
  if (!podcastRead.ok) problems.push(podcastRead.problem);
  else {
    const p = podcastSchema.safeParse(podcastRead.value);
    if (p.success) podcast = p.data;
    else problems.push(...describeIssues("podcast.json", p.error));
  }

  const files = (await fg("episodes/*/episode.json", { cwd: contentDir })).sort();
  const loaded = await mapLimited(files, 32, (rel) => loadEpisode(contentDir, rel, backend, problems, warnings));
  const episodes = loaded.filter((e): e is LoadedEpisode => e !== null);

  const ids = new Map<string, string>();
  const numbers = new Map<number, string>();
  for (const e of episodes) {
    const id = e.file.id.toLowerCase();
    const seen = ids.get(id);
    if (seen) problems.push(`${e.source}: field 'id': duplicate of ${seen}`);
    else ids.set(id, e.source);
    if (e.file.episodeNumber !== null) {
      const seenN = numbers.get(e.file.episodeNumber);
      if (seenN) problems.push(`${e.source}: field 'episodeNumber': duplicate of ${seenN}`);
      else numbers.set(e.file.episodeNumber, e.source);
    }
  }
  if (problems.length > 0 || podcast === null) throw new ContentError(problems);
  return { podcast, episodes, warnings };
}
