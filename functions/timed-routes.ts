// The timed forms of an episode as routes of the shim (docs/api.md#timed-transcripts-and-chapters):
// /transcript.vtt, /transcript.srt, /transcript.json and /chapters.json. None is a file of the
// build (a Cloudflare deploy counts files per episode): each is rendered on demand from the
// episode's script body, which carries the times, by the renderer the build tagged it with
// (src/shared/timed.ts), under the strong ETag the build computed (src/shared/timed-etags.ts).
// A rendered form is kept in a byte-bounded cache with its compressed variants (made once, when a
// request first negotiates their coding, on runtimes that send them: ./representations.ts), so a
// form asked again costs what a built body costs. Portable: no Node or Workers imports.
import { episodeFile } from "../src/shared/layout.ts";
import type { EpisodeResource, ScriptResource } from "../src/shared/schema/api.ts";
import type { IndexEntry } from "../src/shared/schema/build-index.ts";
import { formEtag, renderTimed, TIMED_FORMS, type TimedForm, type TimedPart } from "../src/shared/timed.ts";
import { bodyResponse, CACHE, errorResponse, type ResponseContext, type ShimRequest, type ShimResponse } from "./http.ts";
import { ByteLru } from "./lru.ts";
import type { AssetStore, Compress } from "./ports.ts";
import { composedAsset, type ComposedAsset } from "./representations.ts";
import type { RouteArgs, RouteHandler } from "./router.ts";

/**
 * Memory for rendered forms and their variants: a 20-minute episode's WebVTT is ~20 KB, its
 * variants a third of it. Forms are read far less than episodes and list pages, and the Node
 * server's 200 MB budget at 100,000 episodes leaves little room (docs/performance.md).
 */
const RENDERED_BYTES = 2 * 1024 * 1024;

export interface TimedRoutesDeps {
  assets: AssetStore;
  /** The published episode behind a reference, or its error answer (400 naming the parameter, 404). */
  episodeAt: (ctx: ResponseContext, refText: string) => IndexEntry | ShimResponse;
  /** The build's tag of the forms of a part of an episode (null: that part is not timed). */
  tagOf: (entry: IndexEntry, part: TimedPart) => string | null;
  /** Compresses rendered forms once (Node); absent where the runtime encodes. */
  compress?: Compress | undefined;
}

type TimedRouteId = "getEpisodeTranscriptVtt" | "getEpisodeTranscriptSrt" | "getEpisodeTranscriptJson" | "getEpisodeChapters";

const decoder = new TextDecoder();

export function createTimedRoutes(deps: TimedRoutesDeps): Record<TimedRouteId, RouteHandler> {
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

  function route(form: TimedForm): RouteHandler {
    const { part, type } = TIMED_FORMS[form];
    const unavailable = part === "chapters" ? "chapters_unavailable" : "transcript_unavailable";
    return (req: ShimRequest, ctx: ResponseContext, at: RouteArgs) => {
      const entry = deps.episodeAt(ctx, at.params.ref!);
      if ("status" in entry) return entry;
      const partTag = deps.tagOf(entry, part);
      if (partTag === null) return errorResponse(ctx, unavailable);
      const tag = formEtag(partTag, form);
      const key = `${form}${tag}`;
      const found = rendered.get(key);
      if (found !== undefined) return bodyResponse(req, ctx, found.body, tag, type, CACHE.resource);
      return render(entry, form, tag, key).then((made) => bodyResponse(req, ctx, made.body, tag, type, CACHE.resource));
    };
  }

  return {
    getEpisodeTranscriptVtt: route("vtt"),
    getEpisodeTranscriptSrt: route("srt"),
    getEpisodeTranscriptJson: route("json"),
    getEpisodeChapters: route("chapters"),
  };
}
