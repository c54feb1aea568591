// The Redis rate-limit store (functions/node/redis-rate-limit.ts) against a real redis-server:
// one atomic counter per key and window whichever instance counts, the window's expiry, and what
// happens when Redis dies, hangs, or is absent from the start (memory, one log line each way).
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisRateLimitStore } from "../../functions/node/redis-rate-limit.ts";
import { startRedis, type RedisServer } from "../support/redis.ts";
import { freePort } from "../support/tcp-proxy.ts";

const MINUTE = 60_000;
const TO_MEMORY = /^rate limits: Redis at redis:\/\/127\.0\.0\.1:\d+ unavailable \(.+\); this instance counts in its own memory until Redis is back$/;
const BACK = /^rate limits: Redis at redis:\/\/127\.0\.0\.1:\d+ is back; counting shared in Redis again$/;

let redis: RedisServer;
const stores: RedisRateLimitStore[] = [];

/** A store with its own log. */
function store(url = redis.url, opts: { maxReconnectDelayMs?: number; commandTimeoutMs?: number } = {}): { store: RedisRateLimitStore; log: string[] } {
  const log: string[] = [];
  const s = new RedisRateLimitStore({ url, log: (line) => log.push(line), ...opts });
  stores.push(s);
  return { store: s, log };
}

/** Polls until `check` holds, or fails after `ms`. */
async function eventually(check: () => boolean, ms: number, what: string): Promise<number> {
  const start = performance.now();
  while (!check()) {
    if (performance.now() - start > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(20);
  }
  return performance.now() - start;
}

let nextKey = 0;
const freshKey = () => `metadata:198.51.100.${++nextKey}`;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const s of stores) await s.close();
  await redis?.stop();
});

describe("shared counting", () => {
  it("counts one window per key across two stores, atomically: 400 concurrent hits get the counts 1..400 once each", async () => {
    // The subject is atomicity, not the timeout: on a loaded machine 400 hits at once can outlast
    // the default wait, and the hits that do are counted in memory (the tests below hold that).
    const a = store(redis.url, { commandTimeoutMs: 10_000 });
    const b = store(redis.url, { commandTimeoutMs: 10_000 });
    await Promise.all([a.store.started(), b.store.started()]);
    const key = freshKey();
    const now = Date.now();
    const hits = await Promise.all(Array.from({ length: 400 }, (_, i) => (i % 2 ? a : b).store.hit(key, MINUTE, now)));
    expect(hits.map((h) => h.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    // One window: it started on the first hit and every hit reports the same end (±clock skew of PTTL).
    for (const h of hits) {
      expect(h.resetAt).toBeGreaterThan(now + MINUTE - 2000);
      expect(h.resetAt).toBeLessThanOrEqual(now + MINUTE);
    }
    expect(a.log).toEqual([]);
    expect(b.log).toEqual([]);
  });

  it("keeps the counter in Redis under the key prefix, with the window as its expiry", async () => {
    const a = store();
    await a.store.started();
    const key = freshKey();
    for (let i = 0; i < 3; i++) await a.store.hit(key, MINUTE, Date.now());
    const direct = new Redis(redis.url);
    try {
      expect(await direct.get(`ratelimit:${key}`)).toBe("3");
      const ttl = await direct.pttl(`ratelimit:${key}`);
      expect(ttl).toBeGreaterThan(MINUTE - 2000);
      expect(ttl).toBeLessThanOrEqual(MINUTE);
    } finally {
      direct.disconnect();
    }
  });

  it("starts a new window once the old one has expired", async () => {
    const a = store();
    await a.store.started();
    const key = freshKey();
    expect((await a.store.hit(key, 200, Date.now())).count).toBe(1);
    expect((await a.store.hit(key, 200, Date.now())).count).toBe(2);
    await sleep(300);
    const now = Date.now();
    const fresh = await a.store.hit(key, 200, now);
    expect(fresh.count).toBe(1);
    expect(fresh.resetAt).toBeGreaterThan(now + 100);
  });
});

describe("when Redis fails", () => {
  it("falls back to memory when Redis dies, says so once, and returns to Redis (and says so) when it is back", async () => {
    const a = store(redis.url, { maxReconnectDelayMs: 200 });
    await a.store.started();
    const key = freshKey();
    expect((await a.store.hit(key, MINUTE, Date.now())).count).toBe(1);

    await redis.kill();
    await eventually(() => a.log.length === 1, 2000, "the switch to memory is logged");
    // Still counting, in memory, from a fresh window; many failures make no further lines.
    const counts: number[] = [];
    for (let i = 0; i < 50; i++) counts.push((await a.store.hit(key, MINUTE, Date.now())).count);
    expect(counts).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    await sleep(500);
    expect(a.log).toHaveLength(1);
    expect(a.log[0]).toMatch(TO_MEMORY);

    await redis.restart();
    await eventually(() => a.log.length === 2, 3000, "the return to Redis is logged");
    expect(a.log[1]).toMatch(BACK);
    // Redis restarted empty: the count starts again there.
    expect((await a.store.hit(key, MINUTE, Date.now())).count).toBe(1);
  });

  it("treats a hung Redis as failing: a hit waits at most the command timeout, then counts in memory until Redis answers again", async () => {
    const a = store(redis.url, { maxReconnectDelayMs: 200 });
    await a.store.started();
    const key = freshKey();
    await a.store.hit(key, MINUTE, Date.now());
    redis.pause();
    try {
      const start = performance.now();
      const hit = await a.store.hit(key, MINUTE, Date.now());
      const waited = performance.now() - start;
      expect(hit.count).toBe(1);
      expect(waited).toBeLessThan(600);
      expect(a.log).toHaveLength(1);
      expect(a.log[0]).toMatch(/unavailable \(Command timed out\)/);
      // The next hits do not wait for Redis at all.
      const again = performance.now();
      await a.store.hit(key, MINUTE, Date.now());
      expect(performance.now() - again).toBeLessThan(50);
    } finally {
      redis.resume();
    }
    await eventually(() => a.log.length === 2, 3000, "the return to Redis is logged");
    expect(a.log[1]).toMatch(BACK);
    // Redis may still run the hit that timed out once it wakes (its bytes were already sent): a
    // request counted twice errs on the side of the limit.
    expect([2, 3]).toContain((await a.store.hit(key, MINUTE, Date.now())).count);
  });

  it("starts without Redis: counts in memory, logs one line, raises no unhandled error, and joins Redis when it appears", async () => {
    const port = await freePort();
    const a = store(`redis://127.0.0.1:${port}`, { maxReconnectDelayMs: 200 });
    const start = performance.now();
    await a.store.started();
    expect(performance.now() - start).toBeLessThan(1100);
    const key = freshKey();
    for (let i = 1; i <= 3; i++) expect((await a.store.hit(key, MINUTE, Date.now())).count).toBe(i);
    await sleep(600); // several reconnection attempts, each an ioredis 'error' event
    expect(a.log).toHaveLength(1);
    expect(a.log[0]).toMatch(TO_MEMORY);
    expect(a.log[0]).toContain("ECONNREFUSED");

    const late = await startRedis(port);
    try {
      await eventually(() => a.log.length === 2, 3000, "the switch to Redis is logged");
      expect(a.log[1]).toMatch(BACK);
      expect((await a.store.hit(key, MINUTE, Date.now())).count).toBe(1);
    } finally {
      await late.stop();
    }
  });

  it("logs nothing when closed, and never shows the URL's password", async () => {
    const log: string[] = [];
    const port = await freePort();
    const s = new RedisRateLimitStore({ url: `redis://user:s3cret@127.0.0.1:${port}`, log: (l) => log.push(l) });
    await s.started();
    await s.close();
    await sleep(300);
    expect(log).toHaveLength(1);
    expect(log[0]).not.toContain("s3cret");
    expect(log[0]).toContain(`redis://127.0.0.1:${port}`);
    // A closed store still answers (from memory) rather than throwing.
    expect((await s.hit(freshKey(), MINUTE, Date.now())).count).toBe(1);
  });
});
