// The per-episode writer of the build: each changed episode's API bodies (the episode, its script,
// its transcript), its oEmbed body and its local audio, written into the build's folder with their
// strong ETags, and the record the index and the next build keep of it. src/generate/prepare-build.ts
// decides which episodes it writes.
// The build model and the per-episode writer. `prepareSite` runs once per build, before Astro
// renders anything (src/generate/integration.ts): it reads content/, writes every per-episode API
// body of the episodes that changed since the last build (all of them in a clean build) straight
// to dist/, and tells the Astro pages which episodes to render again. Pages and the integration
// share the result through `loadSite` (docs/architecture.md#the-build).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { type BuildConfig } from "./config.ts";
import { isPublishable, type LoadedEpisode } from "./content.ts";
import { episodeResourceOf } from "./episode.ts";
import { episodeLinks } from "../shared/links.ts";
import { canonicalRef } from "../shared/refs.ts";
import { scriptResourceOf, transcriptOf } from "./script.ts";
import { oembedOf } from "../shared/oembed.ts";
import type { Podcast } from "../shared/schema/content.ts";
import {
  episodeResource,
  jsonChapters,
  jsonTranscript,
  scriptResource,
  type ScriptResource,
} from "../shared/schema/api.ts";
import { formsOf, renderTimed, type TimedPart } from "../shared/timed.ts";
import { NOT_TIMED, type TimedEtags } from "../shared/timed-etags.ts";
import { timingWarnings } from "./timings.ts";
import type { IndexEntry } from "../shared/schema/build-index.ts";
import { strongEtag } from "../shared/etag.ts";
import { episodeFile, mediaFile, mediaKey, SITE_FILES } from "../shared/layout.ts";
import { nodeEtag } from "../node/etag.ts";
import { type EpisodeRecord } from "./build-state.ts";
import { copyNewFile, writeNewFile } from "./new-file.ts";
import type * as z from "zod";

/**
 * The one ETag of an episode's audio: the strong tag (src/shared/etag.ts) of its SHA-256, so it is
 * the tag of its bytes, the same in every build. Without a SHA-256 (an object known only by its key
 * and size) it is the tag of `<key>\n<bytes>`.
 */
export function audioEtag(audio: { key: string; bytes: number | null; sha256: string | null }): string {
  if (audio.sha256 !== null) return strongEtag(Buffer.from(audio.sha256, "hex"));
  return nodeEtag(`${audio.key}\n${audio.bytes ?? ""}`);
}

/** s3 mode's object key of an episode without `audio.key`: `audio/<uuid>.mp3`, lower case. */
export function defaultObjectKey(id: string): string {
  return `audio/${id.toLowerCase()}.mp3`;
}

/** `<base>/<key>`, each segment of the key percent-encoded (its slashes stay path separators). */
function objectUrl(base: string, key: string): string {
  return `${base}/${key.split("/").map(encodeURIComponent).join("/")}`;
}

/** Where an episode's audio is: its storage key, the direct audioUrl, the local file to copy. */
function audioOf(config: BuildConfig, source: LoadedEpisode, id: string, apiAudio: string) {
  const f = source.file;
  if (config.audioBackend === "s3") {
    // The object the operator uploads; a local MP3 in the folder only measured it (src/generate/content.ts).
    const key = f.audio?.key ?? defaultObjectKey(id);
    const audioUrl = config.audioPublicUrl === null ? apiAudio : objectUrl(config.audioPublicUrl, key);
    return { key, audioUrl, mediaSource: null };
  }
  if (source.audioPath !== null) {
    // The shim serves the build's media folder (src/shared/layout.ts) at the same path under the site.
    const key = mediaKey(id);
    return { key, audioUrl: `${config.siteUrl}/${mediaFile(key)}`, mediaSource: source.audioPath };
  }
  return { key: f.audio?.key ?? null, audioUrl: null, mediaSource: null };
}

/** Checks a body the build writes against its API schema: the build fails rather than serve what the OpenAPI document denies. */
export function checkBody<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new Error(`${what} does not match its API schema: ${issues}`);
  }
  return result.data;
}

/** What the build does with its outputs besides writing them: src/generate/precompress.ts's pool compresses them. */
export interface OutputSink {
  /** Files on disk (dist-relative). */
  add(files: Iterable<string>): void;
  /** A file with its bytes, before it is written; false when declined (then `add` it once written). */
  offer(rel: string, bytes: Uint8Array): boolean;
}

export interface WriteContext {
  config: BuildConfig;
  podcast: Podcast;
  dist: string;
  /** Warnings of the build (a script whose times break a rule). */
  warnings: string[];
  /** The strong ETag of every file the writer wrote, for the manifest: no need to read them back. */
  etags: Map<string, string>;
  outputs: OutputSink;
}

const madeDirs = new Set<string>();

/** Forgets the folders made, for a new build in the same process. */
export function resetWriter(): void {
  madeDirs.clear();
}

/** Writes a file of the build with its strong ETag (for the manifest) and makes its folder once. */
export function writeBytes(ctx: Pick<WriteContext, "dist" | "etags">, rel: string, bytes: Uint8Array): void {
  const abs = path.join(ctx.dist, rel);
  const dir = path.dirname(abs);
  if (!madeDirs.has(dir)) mkdirSync(dir, { recursive: true }), madeDirs.add(dir);
  writeNewFile(abs, bytes);
  ctx.etags.set(rel, nodeEtag(bytes));
}

/** An API body: written, then compressed from disk by the pool. */
export function writeOutput(ctx: WriteContext, rel: string, body: string): void {
  writeBytes(ctx, rel, Buffer.from(body));
  ctx.outputs.add([rel]);
}

/**
 * Writes one parsed episode's outputs (its API bodies, its oEmbed body, its local audio) and
 * returns its record: what the index and the next build need of it, and every file it owns,
 * including the two pages Astro renders from these bodies.
 */
export function writeEpisode(ctx: WriteContext, source: LoadedEpisode, fingerprint: string): EpisodeRecord {
  const f = source.file;
  const id = f.id.toLowerCase();
  const identity = { fp: fingerprint, id, n: f.episodeNumber };
  if (!isPublishable(f)) return { ...identity, entry: null, timed: NOT_TIMED, files: [] };
  const { config, podcast, dist } = ctx;
  const origins = { baseUrl: config.baseUrl, siteUrl: config.siteUrl };
  const ref = canonicalRef({ id, episodeNumber: f.episodeNumber });
  const { key, audioUrl, mediaSource } = audioOf(config, source, id, episodeLinks(origins, { id, episodeNumber: f.episodeNumber }).audio);
  const resource = checkBody(episodeResource, episodeResourceOf(f, origins, audioUrl), `episode ${ref} (${source.source})`);
  const derived = source.script.state === "ok" ? scriptResourceOf(resource, source.script.script) : null;
  if (derived !== null) ctx.warnings.push(...timingWarnings(path.posix.join(path.posix.dirname(source.source), "script.json"), derived.problems));
  const script = derived === null ? null : checkBody(scriptResource, derived.resource, `the script of episode ${ref}`);
  const transcript = script === null ? null : transcriptOf(script);
  const home = `${config.siteUrl}/`;
  const oembed = oembedOf({
    title: resource.title,
    embedUrl: resource.links.embed,
    providerName: podcast.title,
    providerUrl: home,
    authorName: podcast.author,
    authorUrl: home,
    coverUrl: resource.coverImageUrl ?? podcast.coverImageUrl ?? null,
  });
  const files: string[] = [];
  const put = (rel: string, body: string) => (writeOutput(ctx, rel, body), files.push(rel));
  put(episodeFile(ref, "json"), JSON.stringify(resource));
  if (script !== null) put(episodeFile(ref, "script"), JSON.stringify(script));
  if (transcript !== null) put(episodeFile(ref, "transcript"), transcript);
  put(SITE_FILES.oembed(ref), JSON.stringify(oembed));
  files.push(SITE_FILES.page(ref), SITE_FILES.embed(ref));
  if (mediaSource !== null && key !== null) {
    mkdirSync(path.join(dist, path.dirname(mediaFile(key))), { recursive: true });
    copyNewFile(mediaSource, path.join(dist, mediaFile(key)));
    files.push(mediaFile(key));
  }
  const p = Date.parse(f.publishedAt!);
  const entry: IndexEntry = {
    id,
    n: f.episodeNumber,
    p,
    s: f.discoveredAt === undefined ? p : Date.parse(f.discoveredAt),
    ref,
    title: f.title,
    domains: f.topics.domains,
    script: source.script.state,
    transcript: transcript !== null,
    audio: key === null ? null : { key, bytes: source.audioBytes, etag: audioEtag({ key, bytes: source.audioBytes, sha256: source.audioSha256 }) },
  };
  return { ...identity, entry, timed: script === null ? NOT_TIMED : timedEtagsOf(script, resource.durationSeconds), files };
}

/**
 * The strong ETags of an episode's timed forms, from their rendered bytes (src/shared/timed.ts).
 * The forms of one part are pure functions of the same times and text and change together, so
 * they share one tag: the hash of their tags (an ETag tells apart the representations of one URL,
 * RFC 9110 §8.8.3; the segments' three forms are three URLs). Each form is also checked against
 * its API schema where it has one.
 */
function timedEtagsOf(script: ScriptResource, durationSeconds: number | null): TimedEtags {
  const tagOf = (part: TimedPart): string | null => {
    const tags: string[] = [];
    for (const form of formsOf(part)) {
      const body = renderTimed(form, script, durationSeconds);
      if (body === null) return null;
      if (form === "json") checkBody(jsonTranscript, JSON.parse(body), `the JSON transcript of episode ${script.id}`);
      if (form === "chapters") checkBody(jsonChapters, JSON.parse(body), `the JSON chapters of episode ${script.id}`);
      tags.push(nodeEtag(body));
    }
    return tags.length === 1 ? tags[0]! : nodeEtag(tags.join(""));
  };
  return { segments: tagOf("segments"), chapters: tagOf("chapters") };
}

