// The build model: loaded content turned into everything the pages render (resources, the index,
// the discovery document). Computed once per build process and shared by every Astro endpoint.
import { buildConfig, type BuildConfig } from "./config.ts";
import { isPublishable, loadContent, type LoadedEpisode } from "./content.ts";
import { episodeResourceOf } from "./episode.ts";
import { episodeLinks, termsUrl } from "../shared/links.ts";
import { compareOrder, orderKeyOf } from "../shared/order.ts";
import { canonicalRef } from "../shared/refs.ts";
import { scriptResourceOf, transcriptOf } from "./script.ts";
import { discoveryOf } from "./discovery.ts";
import type { Podcast } from "../shared/schema/content.ts";
import type { DiscoveryDocument, EpisodeResource, ScriptResource } from "../shared/schema/api.ts";
import type { BuildIndex, IndexEntry } from "../shared/schema/build-index.ts";
import { strongEtag } from "../shared/etag.ts";
import { mediaFile, mediaKey, paramsOf, PAGE_ROUTES, SITE_FILES } from "../shared/layout.ts";
import { nodeEtag } from "../shared/node-etag.ts";

export interface BuiltEpisode {
  source: LoadedEpisode;
  /** The local file the build copies into dist/'s media folder under entry.audio.key (local mode; src/shared/layout.ts). */
  mediaSource: string | null;
  ref: string;
  resource: EpisodeResource;
  script: ScriptResource | null;
  transcript: string | null;
  entry: IndexEntry;
}

export interface Site {
  config: BuildConfig;
  podcast: Podcast;
  termsUrl: string;
  /** Every episode that is or will be published (not drafts, publishedAt set), in list order. */
  episodes: BuiltEpisode[];
  index: BuildIndex;
  discovery: DiscoveryDocument;
  warnings: string[];
}

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

function build(config: BuildConfig, loaded: Awaited<ReturnType<typeof loadContent>>): Site {
  const origins = { baseUrl: config.baseUrl, siteUrl: config.siteUrl };
  const publishable = loaded.episodes.filter((e) => isPublishable(e.file));
  const episodes = publishable.map((source): BuiltEpisode => {
    const f = source.file;
    const id = f.id.toLowerCase();
    const ref = canonicalRef({ id, episodeNumber: f.episodeNumber });
    const { key, audioUrl, mediaSource } = audioOf(config, source, id, episodeLinks(origins, { id, episodeNumber: f.episodeNumber }).audio);
    const resource = episodeResourceOf(f, origins, audioUrl);
    const script = source.script.state === "ok" ? scriptResourceOf(resource, source.script.script) : null;
    const transcript = script === null ? null : transcriptOf(script);
    const p = Date.parse(f.publishedAt!);
    return {
      source,
      mediaSource,
      ref,
      resource,
      script,
      transcript,
      entry: {
        id,
        n: f.episodeNumber,
        p,
        s: f.discoveredAt === undefined ? p : Date.parse(f.discoveredAt),
        ref,
        title: f.title,
        domains: f.topics.domains,
        script: source.script.state,
        transcript: transcript !== null,
        audio:
          key === null
            ? null
            : {
                key,
                bytes: source.audioBytes,
                etag: audioEtag({ key, bytes: source.audioBytes, sha256: source.audioSha256 }),
              },
      },
    };
  });
  episodes.sort((a, b) => compareOrder(orderKeyOf(a.entry), orderKeyOf(b.entry)));
  const terms = termsUrl(origins, loaded.podcast.termsUrl);
  return {
    config,
    podcast: loaded.podcast,
    termsUrl: terms,
    episodes,
    index: {
      version: 1,
      show: { slug: loaded.podcast.slug, title: loaded.podcast.title },
      termsUrl: terms,
      baseUrl: config.baseUrl,
      siteUrl: config.siteUrl,
      episodes: episodes.map((e) => e.entry),
    },
    discovery: discoveryOf(loaded.podcast, origins, terms),
    warnings: loaded.warnings,
  };
}

// Kept on globalThis, keyed by configuration: Astro evaluates this module twice in one build process
// (bundled into the pages, and through astro.config.mjs for the integration), and each copy read
// all the content again (+7 s and +250 MB at 10,000 episodes; see docs/performance.md).
const sites = ((globalThis as { [key: symbol]: unknown })[Symbol.for("episode-service.sites")] ??= new Map()) as Map<string, Promise<Site>>;

/** The site of this build process (content and configuration are read once). */
export function loadSite(): Promise<Site> {
  const config = buildConfig();
  const key = JSON.stringify(config);
  let site = sites.get(key);
  if (site === undefined) {
    site = loadContent(config.contentDir, config.audioBackend).then((loaded) => build(config, loaded));
    sites.set(key, site);
  }
  return site;
}

/** getStaticPaths of the per-episode pages (episode page, player): one route per built episode. */
export async function episodeRoutes(page: "page" | "embed") {
  const site = await loadSite();
  const route = PAGE_ROUTES[page];
  return site.episodes.map((episode) => ({ params: paramsOf(route, SITE_FILES[page](episode.ref)), props: { episode } }));
}
