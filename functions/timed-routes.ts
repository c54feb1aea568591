// The timed forms of an episode as routes of the shim (docs/api.md#timed-transcripts-and-chapters):
// /transcript.vtt, /transcript.srt, /transcript.json and /chapters.json. None is a file of the
// build (a Cloudflare deploy counts files per episode): each is rendered on demand from the
// episode's script body, which carries the times, by the renderer the build tagged it with
// (src/shared/timed.ts), under the strong ETag the build computed (src/shared/timed-etags.ts).
// A rendered form is kept in a byte-bounded cache with its compressed variants (made once, when a
// request first negotiates their coding, on runtimes that send them: ./representations.ts), so a
// form asked again costs what a built body costs. The read (`form`) is the MCP endpoint's too
// (./api-reads.ts). Portable: no Node or Workers imports.
import { episodeFile } from "../src/shared/layout.ts";
import type { EpisodeResource, ScriptResource } from "../src/shared/schema/api.ts";
import type { IndexEntry } from "../src/shared/schema/build-index.ts";
import { formEtag, renderTimed, TIMED_FORMS, type TimedForm, type TimedPart } from "../src/shared/timed.ts";
import { answerOf, refusal, Refusal, type Read } from "./api-reads.ts";
import { CACHE } from "./http.ts";
import { ByteLru } from "./lru.ts";
import type { Asset, AssetStore, Compress } from "./ports.ts";
import { composedAsset, type ComposedAsset } from "./representations.ts";
import type { RouteHandler } from "./router.ts";

/**
 * Memory for rendered forms and their variants: a 20-minute episode's WebVTT is ~20 KB, its
 * variants a third of it. Forms are read far less than episodes and list pages, and the Node
 * server's 200 MB budget at 100,000 episodes leaves little room (docs/performance.md).
 */
const RENDERED_BYTES = 2 * 1024 * 1024;

export interface TimedRoutesDeps {
  assets: AssetStore;
  now: () => number;
  /** The published episode behind a reference at a moment, or its refusal (400 naming the parameter, 404). */
  episode: (refText: string, clock: number) => IndexEntry | Refusal;
  /** The build's tag of the forms of a part of an episode (null: that part is not timed). */
  tagOf: (entry: IndexEntry, part: TimedPart) => string | null;
  /** Compresses rendered forms once (Node); absent where the runtime encodes. */
  compress?: Compress | undefined;
}

type TimedRouteId = "getEpisodeTranscriptVtt" | "getEpisodeTranscriptSrt" | "getEpisodeTranscriptJson" | "getEpisodeChapters";

const decoder = new TextDecoder();
/** What a form answers when its part is not timed (docs/api.md#errors). */
const UNAVAILABLE: Record<TimedPart, Refusal> = { segments: refusal("transcript_unavailable"), chapters: refusal("chapters_unavailable") };

export function createTimedRoutes(deps: TimedRoutesDeps) {
  const { assets } = deps;
  /** Rendered forms by form and tag: the tag names the bytes, so a key never goes stale. */
  const rendered = new ByteLru<ComposedAsset>(RENDERED_BYTES, (a, key) => a.bytes + key.length);

  async function json<T>(path: string): Promise<T> {
    const found = await assets.get(path);
    // The index promised this body; its absence means the deployment is incomplete (502).
    if (found === null) throw new Error("build output missing");
    return JSON.parse(decoder.decode(found.body)) as T;
  }

  /** The form's bytes with its variants, rendered from the episode's bodies and kept under `key`. */
  async function render(entry: IndexEntry, form: TimedForm, tag: string, key: string): Promise<ComposedAsset> {
    const script = await json<ScriptResource>(episodeFile(entry.ref, "script"));
    // Only the chapters need the audio's duration (the last chapter's end).
    const duration = TIMED_FORMS[form].part === "chapters" ? (await json<EpisodeResource>(episodeFile(entry.ref, "json"))).durationSeconds : null;
    const body = renderTimed(form, script, duration);
    // The build tagged this form from the same body: untimed now means another build's files.
    if (body === null) throw new Error("the script is not timed as its tags say");
    const made: ComposedAsset = await composedAsset(body, () => tag, deps.compress, () => rendered.set(key, made));
    rendered.set(key, made);
    return made;
  }

  /** The form of the episode at `clock`: from the cache, or rendered; the 404 of its part when that part is not timed. */
  function formOf(refText: string, form: TimedForm, clock: number): Read<Asset> {
    const entry = deps.episode(refText, clock);
    if (entry instanceof Refusal) return entry;
    const { part } = TIMED_FORMS[form];
    const partTag = deps.tagOf(entry, part);
    if (partTag === null) return UNAVAILABLE[part];
    const tag = formEtag(partTag, form);
    const key = `${form}${tag}`;
    return rendered.get(key) ?? render(entry, form, tag, key);
  }

  function route(form: TimedForm): RouteHandler {
    const { type } = TIMED_FORMS[form];
    return (req, ctx, at) => answerOf(req, ctx, formOf(at.params.ref!, form, deps.now()), type, CACHE.resource);
  }

  const routes: Record<TimedRouteId, RouteHandler> = {
    getEpisodeTranscriptVtt: route("vtt"),
    getEpisodeTranscriptSrt: route("srt"),
    getEpisodeTranscriptJson: route("json"),
    getEpisodeChapters: route("chapters"),
  };
  return { routes, form: formOf };
}
