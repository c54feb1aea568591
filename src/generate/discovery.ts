// The discovery document, GET /v1 (PRODUCT.md §3.9).
import type { DiscoveryDocument } from "../shared/schema/api.ts";
import type { Podcast } from "../shared/schema/content.ts";
import type { Origins } from "../shared/links.ts";
import {
  AUDIO_ROUTES,
  METADATA_ROUTES,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  RATE_LIMIT_AUDIO_DEFAULT,
  RATE_LIMIT_METADATA_DEFAULT,
  RATE_WINDOW_SECONDS,
  type RateLimits,
} from "../shared/limits.ts";

export const API_VERSION = "1.0.0";

export function rateLimitsOf(limits: RateLimits): DiscoveryDocument["rateLimits"] {
  return {
    metadata: { limit: limits.metadataPerMinute, windowSeconds: RATE_WINDOW_SECONDS, scope: "ip", routes: METADATA_ROUTES },
    audio: { limit: limits.audioPerMinute, windowSeconds: RATE_WINDOW_SECONDS, scope: "ip", routes: AUDIO_ROUTES },
  };
}

export function discoveryOf(podcast: Podcast, o: Origins, terms: string): DiscoveryDocument {
  return {
    name: `${podcast.title} API`,
    version: API_VERSION,
    description: `Read-only API for the episodes of ${podcast.title}: metadata, MP3 audio, structured scripts and transcripts. ${podcast.description}`,
    links: {
      self: `${o.baseUrl}/v1`,
      episodes: `${o.baseUrl}/v1/episodes`,
      episode: `${o.baseUrl}/v1/episodes/{ref}`,
      openapi: `${o.baseUrl}/v1/openapi.json`,
      license: terms,
      site: `${o.siteUrl}/`,
      oembed: `${o.siteUrl}/oembed`,
      embed: `${o.siteUrl}/embed/{ref}`,
      embedLatest: `${o.siteUrl}/embed/latest`,
      page: `${o.siteUrl}/episodes/{ref}`,
    },
    rateLimits: rateLimitsOf({ metadataPerMinute: RATE_LIMIT_METADATA_DEFAULT, audioPerMinute: RATE_LIMIT_AUDIO_DEFAULT }),
    pagination: { defaultLimit: PAGE_LIMIT_DEFAULT, maxLimit: PAGE_LIMIT_MAX },
  };
}
