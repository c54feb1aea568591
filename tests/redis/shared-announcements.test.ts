// Several Node instances sharing one Redis (RATE_LIMIT_STORE=redis) announce a new published set
// once between them: each looks at the clock (every 50 ms here, injected), and the one whose swap
// of the set's name into Redis gets the old name back announces (functions/announce/watch.ts).
// An instance started later finds the announced set in Redis and does not announce it again.
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../functions/node/main.ts";
import { announceEnv, countedClock, expectAnnouncedOnce, FEED_URL, NOW0, SCHEDULED_AT, scheduledSite, startAnnounceTargets, until, type AnnounceTargets } from "../support/announce-targets.ts";
import { removeSite, serveSite, type Site } from "../support/fixture.ts";
import { NO_LIMITS } from "../support/http.ts";
import { startRedis, type RedisServer } from "../support/redis.ts";


let site: Site;
let redis: RedisServer;
let targets: AnnounceTargets;
const servers: RunningServer[] = [];

beforeAll(async () => {
  redis = await startRedis();
  targets = await startAnnounceTargets();
  site = await scheduledSite();
});
afterAll(async () => {
  for (const s of servers) await s.close();
  await targets?.close();
  await redis?.stop();
  await removeSite(site);
});

describe("announcements shared through Redis", () => {
  it("two instances announce a scheduled episode once between them; a third started later does not announce it again", async () => {
    const c = countedClock(NOW0);
    const logs: string[][] = [[], [], []];
    const start = (i: number) =>
      serveSite(site, {
        env: { ...NO_LIMITS, ...announceEnv(targets), RATE_LIMIT_STORE: "redis", REDIS_URL: redis.url },
        now: c.now,
        log: (l) => logs[i]!.push(l),
        announceEveryMs: 50,
      });
    servers.push(await start(0), await start(1));
    await until(() => c.reads >= 10, "both instances' first looks");
    expect(targets.all()).toEqual([]);

    c.set(SCHEDULED_AT);
    await until(() => logs.flat().length === 3, "the announcement, one log line per target");
    const after = c.reads;
    await until(() => c.reads >= after + 20, "ten more looks of each instance");
    expectAnnouncedOnce(targets, FEED_URL);
    // The lines are the announcing instance's alone.
    expect(logs.map((l) => l.length).sort()).toEqual([0, 0, 3]);

    const redisClient = new Redis(redis.url);
    const stored = await redisClient.get(`announced-set:${FEED_URL}`);
    redisClient.disconnect();
    expect(stored).toMatch(/^2-[0-9a-f]{16}$/);

    servers.push(await start(2));
    const later = c.reads;
    await until(() => c.reads >= later + 20, "the third instance's looks");
    expect(targets.received("/hub")).toHaveLength(1);
    expect(logs[2]).toEqual([]);
  });
});
