// The discovery document, GET /v1 (docs/api.md#get-v1).
import type { DiscoveryDocument } from "../shared/schema/api.ts";
import type { Podcast } from "../shared/schema/content.ts";
import { feedUrls, timedFormUrl, type Origins } from "../shared/links.ts";
import { DEFAULT_RATE_LIMITS, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from "../shared/limits.ts";
import { rateLimitsOf } from "../shared/routes.ts";

export const API_VERSION = "1.0.0";

export function discoveryOf(podcast: Podcast, o: Origins, terms: string): DiscoveryDocument {
  return {
    name: `${podcast.title} API`,
    version: API_VERSION,
    description: `Read-only API for the episodes of ${podcast.title}: metadata, MP3 audio, structured scripts and transcripts. ${podcast.description}`,
    links: {
      self: `${o.baseUrl}/v1`,
      episodes: `${o.baseUrl}/v1/episodes`,
      episode: `${o.baseUrl}/v1/episodes/{ref}`,
      transcriptVtt: timedFormUrl(`${o.baseUrl}/v1/episodes/{ref}`, "vtt"),
      transcriptSrt: timedFormUrl(`${o.baseUrl}/v1/episodes/{ref}`, "srt"),
      transcriptJson: timedFormUrl(`${o.baseUrl}/v1/episodes/{ref}`, "json"),
      chapters: timedFormUrl(`${o.baseUrl}/v1/episodes/{ref}`, "chapters"),
      openapi: `${o.baseUrl}/v1/openapi.json`,
      license: terms,
      site: `${o.siteUrl}/`,
      oembed: `${o.siteUrl}/oembed`,
      embed: `${o.siteUrl}/embed/{ref}`,
      embedLatest: `${o.siteUrl}/embed/latest`,
      page: `${o.siteUrl}/episodes/{ref}`,
      feed: feedUrls(o.siteUrl).rss,
      jsonFeed: feedUrls(o.siteUrl).json,
      mcp: `${o.baseUrl}/mcp`,
      llms: `${o.siteUrl}/llms.txt`,
    },
    // The shim restates them with the limits in force at run time (functions/handler.ts).
    rateLimits: rateLimitsOf(DEFAULT_RATE_LIMITS),
    pagination: { defaultLimit: PAGE_LIMIT_DEFAULT, maxLimit: PAGE_LIMIT_MAX },
  };
}
