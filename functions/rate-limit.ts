// Per-IP fixed-window rate limits (docs/api.md#rate-limits) with the IETF RateLimit headers
// (draft-ietf-httpapi-ratelimit-headers: RateLimit-Policy and RateLimit as structured fields).
import { quotaOf, RATE_WINDOW_SECONDS, type Bucket, type RateLimits } from "../src/shared/limits.ts";
import type { RateLimitHit, RateLimitStore } from "./ports.ts";

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
  /** Whole seconds until the window resets (≥ 1). */
  retryAfter: number;
}

const WINDOW_MS = RATE_WINDOW_SECONDS * 1000;

export class RateLimiter {
  private readonly store: RateLimitStore;
  private readonly limits: RateLimits;

  constructor(store: RateLimitStore, limits: RateLimits) {
    this.store = store;
    this.limits = limits;
  }

  async check(bucket: Bucket, ip: string, now: number): Promise<RateDecision> {
    const quota = quotaOf(this.limits, bucket);
    const hit = await this.store.hit(`${bucket}:${ip}`, WINDOW_MS, now);
    const reset = Math.max(1, Math.ceil((hit.resetAt - now) / 1000));
    return {
      allowed: hit.count <= quota,
      retryAfter: reset,
      headers: {
        "RateLimit-Policy": `"${bucket}";q=${quota};w=${RATE_WINDOW_SECONDS}`,
        RateLimit: `"${bucket}";r=${Math.max(0, quota - hit.count)};t=${reset}`,
      },
    };
  }
}

/**
 * In-memory store for one process. Bounded: expired windows are swept when the map grows past
 * `maxKeys`, and if every window is still live the oldest are dropped (they restart fresh).
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, RateLimitHit>();
  private readonly maxKeys: number;

  constructor(maxKeys = 100_000) {
    this.maxKeys = maxKeys;
  }

  async hit(key: string, windowMs: number, now: number): Promise<RateLimitHit> {
    let w = this.windows.get(key);
    if (w === undefined || w.resetAt <= now) {
      if (w === undefined && this.windows.size >= this.maxKeys) this.sweep(now);
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.count++;
    return { count: w.count, resetAt: w.resetAt };
  }

  private sweep(now: number): void {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    for (const k of this.windows.keys()) {
      if (this.windows.size < this.maxKeys) break;
      this.windows.delete(k);
    }
  }
}
