// The Node server's announcement timer (functions/node/announce-timer.ts): a scheduled episode 30 s
// ahead is announced once, at its time, with no rebuild, to stand-ins for a WebSub hub, Podcast
// Index and Podping that record what they receive; the set the server starts with is its starting
// point, not news; each target's outcome is one line of the server's log. The clock is injected
// and the timer looks every 50 ms instead of every minute.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../functions/node/main.ts";
import { announceEnv, countedClock, expectAnnouncedOnce, FEED_URL, NOW0, SCHEDULED_AT, scheduledSite, startAnnounceTargets, until, type AnnounceTargets } from "../support/announce-targets.ts";
import { removeSite, serveSite, type Site } from "../support/fixture.ts";
import { NO_LIMITS } from "../support/http.ts";

const LOOK_EVERY_MS = 50;

let site: Site;
let targets: AnnounceTargets;
const servers: RunningServer[] = [];

beforeAll(async () => {
  site = await scheduledSite();
  targets = await startAnnounceTargets();
});
afterAll(async () => {
  for (const s of servers) await s.close();
  await targets?.close();
  await removeSite(site);
});

describe("the Node server's announcement timer", () => {
  it("announces a scheduled episode once, at its time, one log line per target", async () => {
    const c = countedClock(NOW0);
    const log: string[] = [];
    servers.push(await serveSite(site, { env: { ...NO_LIMITS, ...announceEnv(targets) }, now: c.now, log: (l) => log.push(l), announceEveryMs: LOOK_EVERY_MS }));
    await until(() => c.reads >= 5, "five looks before the episode's time");
    c.set(SCHEDULED_AT - 1);
    const before = c.reads;
    await until(() => c.reads >= before + 5, "five more looks");
    expect(targets.all()).toEqual([]);
    expect(log).toEqual([]);

    c.set(SCHEDULED_AT);
    await until(() => log.length === 3, "one log line per target");
    const after = c.reads;
    await until(() => c.reads >= after + 10, "ten looks after the announcement");

    expectAnnouncedOnce(targets, FEED_URL);

    expect(log).toHaveLength(3);
    for (const kind of ["websub", "ping", "podping"]) expect(log.filter((l) => l.includes(`: ${kind} ${targets.base}/`) && l.includes(" ok (HTTP 20"))).toHaveLength(1);
    // The token never reaches the log.
    expect(log.join("\n")).not.toContain("podping-test-token");
  });
});
