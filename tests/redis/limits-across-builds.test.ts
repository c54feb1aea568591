// A Node server counting its limits in Redis keeps counting them across the builds it takes up
// (functions/node/live-build.ts keeps the server's store; docs/architecture.md#the-build): a
// swap resets nobody's limit. The memory store's case is in tests/http/live-build.test.ts.
import { cp, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../functions/node/main.ts";
import { pointTo } from "../../src/node/builds.ts";
import { episode, script, sharedSite, tempDir, type Site } from "../support/fixture.ts";
import { call, expectError } from "../support/http.ts";
import { swapsLogged } from "../support/live-builds.ts";
import { startRedis, type RedisServer } from "../support/redis.ts";

let site: Site;
/** The suite's own folder for the two builds and the pointer: the site is shared, read-only. */
let dir: string;
let redis: RedisServer;

beforeAll(async () => {
  redis = await startRedis();
  site = await sharedSite("redis", [{ episode: episode({ episodeNumber: 1, publishedAt: "2026-01-01T00:00:00Z" }), script: script() }]);
  dir = await tempDir("redis-builds");
});
afterAll(async () => {
  await redis?.stop();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe("limits in Redis across a swap of builds", () => {
  it("keep every client's count: the fifth request after a swap is still the fifth", async () => {
    // Two folders holding the build, for the pointer to switch between.
    const [a, b] = ["build-a", "build-b"].map((n) => path.join(dir, n)) as [string, string];
    for (const folder of [a, b]) await cp(site.distDir, folder, { recursive: true, dereference: true });
    const pointer = path.join(dir, "live");
    pointTo(pointer, a);
    const log: string[] = [];
    const server = await startServer({ distDir: pointer, env: { RATE_LIMIT_STORE: "redis", REDIS_URL: redis.url, RATE_LIMIT_METADATA_PER_MIN: "4" }, log: (l) => void log.push(l) });
    try {
      for (let i = 0; i < 3; i++) expect((await call(server.url, "/v1/episodes/1")).status).toBe(200);
      pointTo(pointer, b);
      expect((await swapsLogged(log, 1))[0]).toMatch(/^build build-b is live: /);
      const fourth = await call(server.url, "/v1/episodes/1");
      expect(fourth.status).toBe(200);
      expect(fourth.headers.get("ratelimit")).toMatch(/^"metadata";r=0;/);
      expectError(await call(server.url, "/v1/episodes/1"), 429, "rate_limited");
      // Counted in Redis, not in the memory the server falls back to.
      expect(log.filter((l) => /memory/i.test(l))).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
