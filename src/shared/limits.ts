// Limits of the contract (spec §8, PRODUCT.md §3.3, §3.7), stated once.

export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 50;

export const RATE_WINDOW_SECONDS = 60;
export const RATE_LIMIT_METADATA_DEFAULT = 120;
export const RATE_LIMIT_AUDIO_DEFAULT = 30;

export const METADATA_ROUTES = ["/v1", "/v1/episodes", "/v1/episodes/{ref}", "/v1/episodes/{ref}/script", "/v1/episodes/{ref}/transcript"];
export const AUDIO_ROUTES = ["/v1/episodes/{ref}/audio"];

export interface RateLimits {
  metadataPerMinute: number;
  audioPerMinute: number;
}
