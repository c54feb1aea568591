// The feeds and the crawler surfaces as routes of the shim (docs/api.md#feed, docs/api.md#crawlers):
// /feed.xml, /feed.json, /sitemap.xml, /robots.txt and /llms.txt. The feeds and the sitemap follow
// the publication clock: each is composed, hashed and kept once per set of published episodes, like the
// home page (./published-set.ts), so a scheduled episode enters them at its time without a rebuild and
// an unchanged set costs a comparison. Every answer goes through bodyResponse: ETag and 304, CORS,
// HEAD. Portable: no Node or Workers imports.
import { episodeFile, BUILD_FILES } from "../../src/shared/layout.ts";
import type { EpisodeResource } from "../../src/shared/schema/api.ts";
import type { IndexEntry } from "../../src/shared/schema/build-index.ts";
import type { TimedEtags } from "../../src/shared/timed-etags.ts";
import { podcastSchema, type Podcast } from "../../src/shared/schema/content.ts";
import { podcastGuid } from "../../src/shared/uuid-v5.ts";
import { llmsTxt, robotsTxt, sitemapXml, surfaceUrls } from "./crawl.ts";
import type { AnnounceConfig } from "../../src/shared/config.ts";
import { feedXml, type FeedChannel, type FeedEpisode } from "./feed.ts";
import { hubLinks } from "../announce/feed-hub.ts";
import { feedJson, type JsonFeedChannel } from "./json-feed.ts";
import type { EpisodeIndex } from "../data/episode-index.ts";
import { bodyResponse, CACHE, licenseLink, type ResponseContext, type ShimRequest, type ShimResponse } from "../http/response.ts";
import { TYPES } from "../../src/shared/media-types.ts";
import type { Asset, AssetStore, Compress, EtagFunction } from "../ports.ts";
import { perPublishedSet } from "../data/published-set.ts";
import { composedAsset } from "../http/representations.ts";
import type { RouteHandler } from "../router.ts";

/** Episode bodies read at once while composing the feed: bounded, so 300 items are not 300 parallel reads. */
const READ_BATCH = 50;

export interface SurfaceRoutesDeps {
  index: EpisodeIndex;
  assets: AssetStore;
  now: () => number;
  etag: EtagFunction;
  /** Items in the feed (FEED_LIMIT). */
  feedLimit: number;
  /** The hub and Podping the feed declares (./feed-hub.ts). */
  announce: AnnounceConfig;
  /** Compresses composed bodies once (Node); absent where the runtime encodes. */
  compress?: Compress | undefined;
  /** Which of an episode's parts are timed (their forms' tags, ./timed-routes.ts): the feed links their forms. */
  tagsOf: (entry: IndexEntry) => TimedEtags;
}

type SurfaceRouteId = "feed" | "jsonFeed" | "sitemap" | "robots" | "llms";

const decoder = new TextDecoder();

export function createSurfaceRoutes(deps: SurfaceRoutesDeps): { routes: Record<SurfaceRouteId, RouteHandler> } {
  const { index, assets, now, etag, feedLimit } = deps;
  const { siteUrl, baseUrl, termsUrl } = index.data;
  const origins = { siteUrl, baseUrl };
  const license = licenseLink(termsUrl);

  async function load(path: string): Promise<Asset> {
    const found = await assets.get(path);
    // The index promised this file; its absence means the deployment is incomplete (502).
    if (found === null) throw new Error("build output missing");
    return found;
  }

  /** Composed once, with its compressed variants where the runtime does not encode (./representations.ts). */
  const composed = (text: string): Promise<Asset> => composedAsset(text, etag, deps.compress);

  /** Computed once per process; a failure is not kept, the next request tries again. */
  function once<T>(compose: () => Promise<T>): () => Promise<T> {
    let pending: Promise<T> | null = null;
    return () => {
      pending ??= compose().catch((e: unknown) => {
        pending = null;
        throw e;
      });
      return pending;
    };
  }

  const podcast = once(async (): Promise<Podcast> => podcastSchema.parse(JSON.parse(decoder.decode((await load(BUILD_FILES.show)).body))));

  const channel = once(async (): Promise<FeedChannel> => {
    const feedUrl = surfaceUrls(origins).feed;
    return { show: await podcast(), feedUrl, siteHome: `${siteUrl}/`, guid: await podcastGuid(feedUrl), announce: deps.announce };
  });
  const jsonChannel = once(async (): Promise<JsonFeedChannel> => ({ show: await podcast(), feedUrl: surfaceUrls(origins).jsonFeed, siteHome: `${siteUrl}/` }));

  async function bodiesOf(items: IndexEntry[]): Promise<EpisodeResource[]> {
    const out: EpisodeResource[] = [];
    for (let i = 0; i < items.length; i += READ_BATCH) {
      const batch = await Promise.all(items.slice(i, i + READ_BATCH).map((e) => load(episodeFile(e.ref, "json"))));
      for (const a of batch) out.push(JSON.parse(decoder.decode(a.body)) as EpisodeResource);
    }
    return out;
  }

  /** The newest FEED_LIMIT episodes published at `at`, with their API bodies: the items of both feeds. */
  async function feedEpisodes(at: number): Promise<FeedEpisode[]> {
    const items = index.page(at, null, null, null, feedLimit).items;
    const bodies = await bodiesOf(items);
    return items.map((entry, i) => ({ entry, episode: bodies[i]!, timed: deps.tagsOf(entry) }));
  }

  const feed = perPublishedSet(index, now, async (at) => composed(feedXml(await channel(), await feedEpisodes(at))));
  const jsonFeed = perPublishedSet(index, now, async (at) => composed(feedJson(await jsonChannel(), await feedEpisodes(at))));

  const sitemap = perPublishedSet(index, now, (at) => composed(sitemapXml(origins, index.page(at, null, null, null, Number.MAX_SAFE_INTEGER).items)));
  const robots = once(() => composed(robotsTxt(origins)));
  const llms = once(async () => composed(llmsTxt(await podcast(), origins, termsUrl, feedLimit)));

  function serve(get: () => Promise<Asset>, type: string, cache: string, link: string | null = null) {
    return async (req: ShimRequest, base: ResponseContext): Promise<ShimResponse> => {
      const found = await get();
      const ctx = link === null ? base : { ...base, link };
      return bodyResponse(req, ctx, found.body, found.etag, type, cache);
    };
  }

  return {
    routes: {
      // The feeds carry the usage terms like the API whose bodies they restate; the RSS feed also its hub.
      feed: serve(feed, TYPES.rss, CACHE.list, [license, hubLinks(deps.announce, surfaceUrls(origins).feed)].filter((l) => l !== null).join(", ")),
      jsonFeed: serve(jsonFeed, TYPES.jsonFeed, CACHE.list, license),
      sitemap: serve(sitemap, TYPES.xml, CACHE.list),
      robots: serve(robots, TYPES.text, CACHE.resource),
      llms: serve(llms, TYPES.text /* markdown, as text/plain: browsers show it, and readers of llms.txt expect plain text */, CACHE.resource),
    },
  };
}
