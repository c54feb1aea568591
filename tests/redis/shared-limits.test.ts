// Several Node instances behind a load balancer share their rate limits through Redis
// (RATE_LIMIT_STORE=redis, REDIS_URL): two real servers, each with its own store, one real
// redis-server. When Redis dies each instance keeps enforcing the limits in its own memory and
// logs it once; when Redis is back they share again and log that once.
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../functions/node/main.ts";
import { episode, removeSite, script, serveSite, sharedSite, type Site } from "../support/fixture.ts";
import { call, expectError, type Reply } from "../support/http.ts";
import { startRedis, type RedisServer } from "../support/redis.ts";

const ep = episode({ episodeNumber: 1, publishedAt: "2026-01-01T00:00:00Z" });
const METADATA = ["/v1", "/v1/episodes", "/v1/episodes/1", "/v1/episodes/1/script", "/v1/episodes/1/transcript"];

interface Instance {
  server: RunningServer;
  log: string[];
}

let site: Site;
let redis: RedisServer;
/** Two instances with the default limits (120 metadata requests a minute). */
let standard: [Instance, Instance];
/** Two instances allowing 5 metadata requests a minute. */
let tight: [Instance, Instance];

async function instance(env: Record<string, string>): Promise<Instance> {
  const log: string[] = [];
  const server = await serveSite(site, { env: { RATE_LIMIT_STORE: "redis", REDIS_URL: redis.url, TRUST_PROXY: "1", ...env }, log: (line) => log.push(line) });
  return { server, log };
}

beforeAll(async () => {
  redis = await startRedis();
  site = await sharedSite("redis", [{ episode: ep, script: script() }]);
  standard = [await instance({}), await instance({})];
  tight = [await instance({ RATE_LIMIT_METADATA_PER_MIN: "5" }), await instance({ RATE_LIMIT_METADATA_PER_MIN: "5" })];
});
afterAll(async () => {
  for (const i of [...(standard ?? []), ...(tight ?? [])]) await i.server.close();
  await redis?.stop();
  await removeSite(site);
});

let nextIp = 1;
const freshIp = () => `203.0.113.${nextIp++}`;

const get = (i: Instance, ip: string, path = "/v1/episodes/1") => call(i.server.url, path, { headers: { "X-Forwarded-For": ip } });

/** `n` requests from one IP, alternating between the two instances. */
async function alternate(pair: [Instance, Instance], ip: string, n: number): Promise<Reply[]> {
  const out: Reply[] = [];
  for (let k = 0; k < n; k++) out.push(await get(pair[k % 2]!, ip, METADATA[k % METADATA.length]));
  return out;
}

async function eventually(check: () => boolean, ms: number, what: string): Promise<void> {
  const start = performance.now();
  while (!check()) {
    if (performance.now() - start > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(20);
  }
}

function remaining(r: Reply): number {
  return Number(/;r=(\d+)/.exec(r.headers.get("ratelimit") ?? "")?.[1]);
}

function expectLimited(r: Reply): void {
  expectError(r, 429, "rate_limited");
  const retry = Number(r.headers.get("retry-after"));
  expect(retry).toBeGreaterThanOrEqual(1);
  expect(retry).toBeLessThanOrEqual(60);
}

const TO_MEMORY = /^rate limits: Redis at redis:\/\/127\.0\.0\.1:\d+ unavailable \(.+\); this instance counts in its own memory until Redis is back$/;
const BACK = /^rate limits: Redis at redis:\/\/127\.0\.0\.1:\d+ is back; counting shared in Redis again$/;

describe("two instances sharing one Redis", () => {
  it("125 metadata requests alternating between the instances: exactly 120 succeed, then 429 with Retry-After", async () => {
    const replies = await alternate(standard, freshIp(), 125);
    expect(replies.slice(0, 120).map((r) => r.status)).toEqual(Array(120).fill(200));
    for (const r of replies.slice(120)) expectLimited(r);
    // One counter: the remaining count falls by one per request whichever instance answers.
    expect(replies.slice(0, 120).map(remaining)).toEqual(Array.from({ length: 120 }, (_, k) => 119 - k));
    for (const i of standard) expect(i.log).toEqual([]);
  });

  it("counts each client IP apart", async () => {
    const a = freshIp();
    const b = freshIp();
    const ra = await alternate(tight, a, 6);
    const rb = await alternate(tight, b, 5);
    expect(ra.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(rb.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  });
});

describe("Redis down, then back", () => {
  it("keeps enforcing the limits in each instance's memory when Redis is killed, and logs it once per instance", async () => {
    await redis.kill();
    await eventually(() => tight.every((i) => i.log.length === 1), 2000, "each instance logs the switch to memory");
    const ip = freshIp();
    const [one, two] = tight;
    // Each instance counts alone now: 5 from one, the 6th refused; the other still has its own 5.
    const first = [];
    for (let k = 0; k < 6; k++) first.push((await get(one, ip)).status);
    expect(first).toEqual([200, 200, 200, 200, 200, 429]);
    expectLimited(await get(one, ip));
    const second = [];
    for (let k = 0; k < 6; k++) second.push((await get(two, ip)).status);
    expect(second).toEqual([200, 200, 200, 200, 200, 429]);
    // Every instance still answers; the default-limit pair too.
    expect((await get(standard[0], freshIp())).status).toBe(200);
    for (const i of [...tight, ...standard]) {
      expect(i.log).toHaveLength(1);
      expect(i.log[0]).toMatch(TO_MEMORY);
    }
  });

  it("shares again once Redis is restarted on the same port: the counts continue in Redis, and the log says so once", async () => {
    await redis.restart();
    await eventually(() => [...tight, ...standard].every((i) => i.log.length === 2), 5000, "each instance logs the return to Redis");
    for (const i of [...tight, ...standard]) expect(i.log[1]).toMatch(BACK);

    const ip = freshIp();
    const replies = await alternate(tight, ip, 7);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(replies.slice(0, 5).map(remaining)).toEqual([4, 3, 2, 1, 0]);
    const direct = new Redis(redis.url);
    try {
      expect(await direct.get(`ratelimit:metadata:${ip}`)).toBe("7");
    } finally {
      direct.disconnect();
    }
    for (const i of [...tight, ...standard]) expect(i.log).toHaveLength(2);
  });
});
