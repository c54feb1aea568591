// Limits of the contract, stated once (docs/api.md#limits, docs/api.md#rate-limits).

export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 50;

/** Items in the feed unless FEED_LIMIT says otherwise (README.md#configuration). */
export const FEED_LIMIT_DEFAULT = 300;

/** Rate-limit buckets: which routes count in which is said by the route table (src/shared/routes.ts). */
export type Bucket = "metadata" | "audio";

export const RATE_WINDOW_SECONDS = 60;
export const RATE_LIMIT_METADATA_DEFAULT = 120;
export const RATE_LIMIT_AUDIO_DEFAULT = 30;

export interface RateLimits {
  metadataPerMinute: number;
  audioPerMinute: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = { metadataPerMinute: RATE_LIMIT_METADATA_DEFAULT, audioPerMinute: RATE_LIMIT_AUDIO_DEFAULT };

/** Requests per window of one bucket. */
export function quotaOf(limits: RateLimits, bucket: Bucket): number {
  return bucket === "metadata" ? limits.metadataPerMinute : limits.audioPerMinute;
}
