import { describe, expect, it } from "vitest";
import { MemoryRateLimitStore, RateLimiter } from "../../functions/rate-limit.ts";

const T0 = Date.UTC(2026, 9, 1, 6);
const limiter = (metadataPerMinute = 3, audioPerMinute = 2, store = new MemoryRateLimitStore()) =>
  new RateLimiter(store, { metadataPerMinute, audioPerMinute });

async function hits(l: RateLimiter, n: number, bucket: "metadata" | "audio", ip: string, now: number) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await l.check(bucket, ip, now));
  return out;
}

describe("fixed-window rate limits (docs/api.md#rate-limits)", () => {
  it("the first `limit` requests of a window are allowed and the next one is refused", async () => {
    const decisions = await hits(limiter(3), 4, "metadata", "1.2.3.4", T0);
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
  });

  it("the audio bucket has its own limit and its own count", async () => {
    const l = limiter(3, 2);
    expect((await hits(l, 3, "audio", "1.2.3.4", T0)).map((d) => d.allowed)).toEqual([true, true, false]);
    expect((await l.check("metadata", "1.2.3.4", T0)).allowed).toBe(true);
  });

  it("each client address is counted separately", async () => {
    const l = limiter(1);
    expect((await l.check("metadata", "1.1.1.1", T0)).allowed).toBe(true);
    expect((await l.check("metadata", "2.2.2.2", T0)).allowed).toBe(true);
    expect((await l.check("metadata", "1.1.1.1", T0)).allowed).toBe(false);
  });

  it("the window is fixed from its first request: requests later in it do not extend it", async () => {
    const l = limiter(2);
    await l.check("metadata", "ip", T0);
    await l.check("metadata", "ip", T0 + 59_000);
    expect((await l.check("metadata", "ip", T0 + 59_999)).allowed).toBe(false);
    expect((await l.check("metadata", "ip", T0 + 60_000)).allowed).toBe(true);
  });

  it("Retry-After is the whole seconds left in the window, rounded up", async () => {
    const l = limiter(1);
    await l.check("metadata", "ip", T0);
    expect((await l.check("metadata", "ip", T0)).retryAfter).toBe(60);
    expect((await l.check("metadata", "ip", T0 + 10_500)).retryAfter).toBe(50);
  });

  it("Retry-After is at least 1 second, even in the last millisecond of a window", async () => {
    const l = limiter(1);
    await l.check("metadata", "ip", T0);
    const last = await l.check("metadata", "ip", T0 + 59_999);
    expect(last.allowed).toBe(false);
    expect(last.retryAfter).toBe(1);
  });

  it("a request made after waiting Retry-After seconds succeeds", async () => {
    const l = limiter(2);
    await hits(l, 2, "metadata", "ip", T0);
    const refused = await l.check("metadata", "ip", T0 + 12_345);
    expect(refused.allowed).toBe(false);
    const later = await l.check("metadata", "ip", T0 + 12_345 + refused.retryAfter * 1000);
    expect(later.allowed).toBe(true);
  });

  it("the count restarts in a new window", async () => {
    const l = limiter(2);
    await hits(l, 5, "metadata", "ip", T0);
    const next = await hits(l, 3, "metadata", "ip", T0 + 60_000);
    expect(next.map((d) => d.allowed)).toEqual([true, true, false]);
  });

  it("RateLimit-Policy and RateLimit headers state quota, window, remaining and reset", async () => {
    const l = limiter(3);
    const first = await l.check("metadata", "ip", T0);
    expect(first.headers).toEqual({ "RateLimit-Policy": '"metadata";q=3;w=60', RateLimit: '"metadata";r=2;t=60' });
    await hits(l, 3, "metadata", "ip", T0 + 30_000);
    const over = await l.check("metadata", "ip", T0 + 30_000);
    expect(over.headers.RateLimit).toBe('"metadata";r=0;t=30');
    expect((await l.check("audio", "ip", T0)).headers["RateLimit-Policy"]).toBe('"audio";q=2;w=60');
  });
});

describe("MemoryRateLimitStore stays bounded", () => {
  const size = (s: MemoryRateLimitStore) => (s as unknown as { windows: Map<string, unknown> }).windows.size;

  it("never holds more than maxKeys windows, however many clients come", async () => {
    const store = new MemoryRateLimitStore(100);
    for (let i = 0; i < 5_000; i++) {
      await store.hit(`ip-${i}`, 60_000, T0 + i);
      expect(size(store)).toBeLessThanOrEqual(100);
    }
  });

  it("expired windows are dropped first, live ones kept", async () => {
    const store = new MemoryRateLimitStore(3);
    await store.hit("old-1", 60_000, T0);
    await store.hit("old-2", 60_000, T0);
    await store.hit("live", 60_000, T0 + 30_000);
    await store.hit("new", 60_000, T0 + 61_000); // old-1 and old-2 have expired
    expect((await store.hit("live", 60_000, T0 + 61_000)).count).toBe(2);
    expect(size(store)).toBe(2);
  });

  it("when every window is live, the oldest are dropped and restart fresh", async () => {
    const store = new MemoryRateLimitStore(3);
    for (const k of ["a", "b", "c"]) await store.hit(k, 60_000, T0);
    await store.hit("a", 60_000, T0);
    await store.hit("d", 60_000, T0 + 1); // full of live windows: "a" (the oldest) goes
    expect((await store.hit("c", 60_000, T0 + 2)).count).toBe(2);
    expect((await store.hit("d", 60_000, T0 + 2)).count).toBe(2);
    expect((await store.hit("a", 60_000, T0 + 3)).count).toBe(1);
  });
});
