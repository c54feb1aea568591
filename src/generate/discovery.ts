// The discovery document, GET /v1 (docs/api.md#get-v1).
import type { DiscoveryDocument } from "../shared/schema/api.ts";
import type { Podcast } from "../shared/schema/content.ts";
import { feedUrls, timedFormUrl, urlOf, type Origins } from "../shared/links.ts";
import { DEFAULT_RATE_LIMITS, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from "../shared/limits.ts";
import { rateLimitsOf } from "../shared/routes.ts";

export const API_VERSION = "1.0.0";

export function discoveryOf(podcast: Podcast, o: Origins, terms: string): DiscoveryDocument {
  const episode = urlOf(o, "getEpisode");
  return {
    name: `${podcast.title} API`,
    version: API_VERSION,
    description: `Read-only API for the episodes of ${podcast.title}: metadata, MP3 audio, structured scripts and transcripts. ${podcast.description}`,
    links: {
      self: urlOf(o, "discovery"),
      episodes: urlOf(o, "listEpisodes"),
      episode,
      transcriptVtt: timedFormUrl(episode, "vtt"),
      transcriptSrt: timedFormUrl(episode, "srt"),
      transcriptJson: timedFormUrl(episode, "json"),
      chapters: timedFormUrl(episode, "chapters"),
      openapi: urlOf(o, "openapi"),
      license: terms,
      site: urlOf(o, "home"),
      oembed: urlOf(o, "oembed"),
      embed: urlOf(o, "embed"),
      embedLatest: urlOf(o, "embedLatest"),
      page: urlOf(o, "episodePage"),
      feed: feedUrls(o.siteUrl).rss,
      jsonFeed: feedUrls(o.siteUrl).json,
      mcp: urlOf(o, "mcp"),
      llms: urlOf(o, "llms"),
    },
    // The shim restates them with the limits in force at run time (functions/handler.ts).
    rateLimits: rateLimitsOf(DEFAULT_RATE_LIMITS),
    pagination: { defaultLimit: PAGE_LIMIT_DEFAULT, maxLimit: PAGE_LIMIT_MAX },
  };
}
