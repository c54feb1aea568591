import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";
import { describe, expect, it } from "vitest";
import { MemoryRateLimitStore, RateLimiter } from "../../functions/limits/rate-limit.ts";
import { longUnlessFirst } from "../support/tiers.ts";

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
    expect(first.headers).toEqual({ "ratelimit-policy": '"metadata";q=3;w=60', ratelimit: '"metadata";r=2;t=60' });
    await hits(l, 3, "metadata", "ip", T0 + 30_000);
    const over = await l.check("metadata", "ip", T0 + 30_000);
    expect(over.headers.ratelimit).toBe('"metadata";r=0;t=30');
    expect((await l.check("audio", "ip", T0)).headers["ratelimit-policy"]).toBe('"audio";q=2;w=60');
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

  it("when every window is live, a single-hit window goes before any window with more hits", async () => {
    const store = new MemoryRateLimitStore(3);
    for (const k of ["a", "b", "c"]) await store.hit(k, 60_000, T0);
    await store.hit("a", 60_000, T0);
    await store.hit("d", 60_000, T0 + 1); // full of live windows: "b" (the oldest with one hit) goes, not "a"
    expect((await store.hit("a", 60_000, T0 + 2)).count).toBe(3);
    expect((await store.hit("c", 60_000, T0 + 2)).count).toBe(2);
    expect((await store.hit("d", 60_000, T0 + 2)).count).toBe(2);
    expect((await store.hit("b", 60_000, T0 + 3)).count).toBe(1);
  });

  it("when every live window has two hits or more, the one that ends soonest goes", async () => {
    const store = new MemoryRateLimitStore(3);
    for (const [k, t] of [["a", T0], ["b", T0 + 10], ["c", T0 + 20]] as const) {
      await store.hit(k, 60_000, t);
      await store.hit(k, 60_000, t + 30_000);
    }
    await store.hit("d", 60_000, T0 + 40_000); // "a" ends first
    expect((await store.hit("b", 60_000, T0 + 40_001)).count).toBe(3);
    expect((await store.hit("c", 60_000, T0 + 40_001)).count).toBe(3);
    expect((await store.hit("a", 60_000, T0 + 40_002)).count).toBe(1);
  });

  it("a window that restarts keeps its place by its new start: ended windows are dropped from the front", async () => {
    const store = new MemoryRateLimitStore(2);
    await store.hit("a", 60_000, T0);
    await store.hit("b", 60_000, T0 + 1);
    await store.hit("b", 60_000, T0 + 2);
    await store.hit("a", 60_000, T0 + 60_000); // a's window ended: a new one starts, after b's
    await store.hit("a", 60_000, T0 + 60_000);
    await store.hit("c", 60_000, T0 + 60_001); // b's window ended: b goes, a's new window stays
    expect(size(store)).toBe(2);
    expect((await store.hit("a", 60_000, T0 + 60_002)).count).toBe(3);
    expect((await store.hit("b", 60_000, T0 + 60_002)).count).toBe(1);
  });
});

/** The V8 garbage collector, for heap measurements (the flag can be set at run time). */
function collector(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

// Ten times more clients than the store may hold: `npm test` floods a store of 10,000 with 100,000,
// `npm run test:full` also a store of 100,000 (the default) with one million.
for (const [i, [MAX_KEYS, FLOOD]] of ([[10_000, 100_000], [100_000, 1_000_000]] as const).entries()) describe(`MemoryRateLimitStore of ${MAX_KEYS.toLocaleString("en")} windows under a flood of ${FLOOD.toLocaleString("en")} distinct clients`, longUnlessFirst(i), () => {
  /** The bound on heap growth: 400 bytes per window the store may hold (measured: ~265 bytes a window, key and map entry included). */
  const HEAP_BOUND = MAX_KEYS * 400;
  const size = (s: MemoryRateLimitStore) => (s as unknown as { windows: Map<string, unknown> }).windows.size;
  const floodKey = (i: number) => `${i >>> 24}.${(i >>> 16) & 255}.${(i >>> 8) & 255}.${i & 255}`;

  it("holds at most maxKeys windows, its heap stays bounded, and a client hitting during the flood is limited at exactly its quota", async () => {
    const gc = collector();
    const store = new MemoryRateLimitStore(MAX_KEYS);
    const l = limiter(120, 30, store);
    gc();
    const before = process.memoryUsage().heapUsed;
    let largest = 0;
    const allowed: boolean[] = [];
    // One window: the flood and the active client's 200 requests all fall in the same 60 s.
    for (let i = 0; i < FLOOD; i++) {
      const now = T0 + Math.floor((i / FLOOD) * 59_000);
      await l.check("metadata", floodKey(i), now);
      if (i % (FLOOD / 200) === 0) allowed.push((await l.check("metadata", "2001:db8::/64", now)).allowed);
      largest = Math.max(largest, size(store));
    }
    gc();
    const growth = process.memoryUsage().heapUsed - before;
    console.log(`${FLOOD}-client flood, maxKeys ${MAX_KEYS}: largest map ${largest}, heap growth ${(growth / 1048576).toFixed(1)} MiB`);
    expect(largest).toBe(MAX_KEYS);
    expect(growth).toBeLessThan(HEAP_BOUND);
    expect(allowed.length).toBe(200);
    expect(allowed.filter((a) => a).length).toBe(120);
    expect(allowed.indexOf(false)).toBe(120);
    expect(allowed.slice(120).every((a) => !a)).toBe(true);
    // And the next window starts afresh.
    expect((await l.check("metadata", "2001:db8::/64", T0 + 60_000)).allowed).toBe(true);
  }, 120_000);

  it("a limited client that waits out the flood is still limited when it comes back within its window", async () => {
    const l = limiter(120, 30, new MemoryRateLimitStore(MAX_KEYS));
    for (let i = 0; i < 121; i++) await l.check("metadata", "198.51.100.7", T0);
    for (let i = 0; i < FLOOD; i++) await l.check("metadata", floodKey(i), T0 + 1_000 + Math.floor((i / FLOOD) * 50_000));
    const back = await l.check("metadata", "198.51.100.7", T0 + 55_000);
    expect(back.allowed).toBe(false);
    expect(back.headers.ratelimit).toBe('"metadata";r=0;t=5');
    expect((await l.check("metadata", "198.51.100.7", T0 + 60_000)).allowed).toBe(true);
  }, 120_000);
});
