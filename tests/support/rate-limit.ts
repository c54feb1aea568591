// Assertions shared by the rate-limit suites (tests/http/rate-limit*.test.ts).
import { expect } from "vitest";
import { expectCors, expectError, expectLicense, type Reply } from "./http.ts";

/**
 * Small configured limits for the tests of what is counted and how (methods, statuses, routes,
 * addresses): the limiter the defaults use, spent in a dozen requests instead of 120. The default
 * limits themselves are held by tests of their own (tests/http/rate-limit.test.ts).
 */
export const SMALL = { metadata: 12, audio: 6 } as const;
export const SMALL_LIMITS = { RATE_LIMIT_METADATA_PER_MIN: String(SMALL.metadata), RATE_LIMIT_AUDIO_PER_MIN: String(SMALL.audio) };

/** A member of a RateLimit or RateLimit-Policy structured field (`"bucket";r=3;t=60`). */
export function field(header: string | null, key: string): number {
  const m = new RegExp(`(?:^|;)\\s*${key}=(\\d+)`).exec(header ?? "");
  expect(m, `${key} in '${header}'`).not.toBeNull();
  return Number(m![1]);
}

/** Sends `n` requests, asserting none is limited; returns the replies. */
export async function spend(n: number, send: (i: number) => Promise<Reply>): Promise<Reply[]> {
  const out: Reply[] = [];
  for (let i = 0; i < n; i++) {
    const r = await send(i);
    expect(r.status, `request ${i + 1} of ${n}`).not.toBe(429);
    out.push(r);
  }
  return out;
}

/**
 * A 429 of the limiter: the envelope, a whole Retry-After of 1–60 s that the RateLimit header's
 * `t` repeats, `r=0`, no-store, CORS; with `policy`, the exact RateLimit-Policy, and with `terms`,
 * the license Link. Returns Retry-After.
 */
export function expectLimited(r: Reply, expected: { policy?: string; terms?: string } = {}): number {
  expectError(r, 429, "rate_limited");
  const retry = r.headers.get("retry-after");
  expect(retry).toMatch(/^\d+$/);
  expect(Number(retry)).toBeGreaterThanOrEqual(1);
  expect(Number(retry)).toBeLessThanOrEqual(60);
  expect(r.headers.get("cache-control")).toBe("no-store");
  expect(r.headers.get("ratelimit-policy")).toBeTruthy();
  if (expected.policy !== undefined) expect(r.headers.get("ratelimit-policy")).toBe(expected.policy);
  expect(field(r.headers.get("ratelimit"), "r")).toBe(0);
  expect(field(r.headers.get("ratelimit"), "t")).toBe(Number(retry));
  expectCors(r.headers);
  if (expected.terms !== undefined) expectLicense(r.headers, expected.terms);
  return Number(retry);
}
