// The Cron Trigger on a local workerd (Miniflare fires the Worker's `scheduled` handler on demand,
// as Cloudflare does every minute): a scheduled episode is announced once, at its time, with no
// rebuild, to stand-ins for a WebSub hub, Podcast Index and Podping that record what they receive;
// the last announced set lives in the Durable Object, so a fresh isolate does not announce it again;
// a set `npm run deploy` answered for (DEPLOYED_SET) is left to it.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadIndexText } from "../../functions/data/load-index.ts";
import { publishedSetName } from "../../functions/data/published-set.ts";
import { startEdgeServer, type EdgeServer } from "../../scripts/serve-edge.ts";
import { BUILD_FILES } from "../../src/shared/layout.ts";
import { announceEnv, expectAnnouncedOnce, FEED_URL, NOW0, SCHEDULED_AT, scheduledSite, startAnnounceTargets, type AnnounceTargets } from "../support/announce-targets.ts";
import { clock, removeSite, type Site } from "../support/fixture.ts";
import { NO_LIMITS } from "../support/http.ts";


let site: Site;
let targets: AnnounceTargets;
const servers: EdgeServer[] = [];

beforeAll(async () => {
  site = await scheduledSite();
  targets = await startAnnounceTargets();
});
afterAll(async () => {
  for (const s of servers) await s.close();
  await targets?.close();
  await removeSite(site);
});

async function edge(now: () => number, env: Record<string, string> = {}) {
  const server = await startEdgeServer({ distDir: site.distDir, env: { ...NO_LIMITS, ...announceEnv(targets), ...env }, bundle: false, now });
  servers.push(server);
  // Typed loosely: Miniflare's Fetcher types come from @cloudflare/workers-types, which we do not install.
  const worker = (await server.miniflare.getWorker()) as unknown as { scheduled(options: { cron: string }): Promise<unknown> };
  return { server, tick: () => worker.scheduled({ cron: "* * * * *" }) };
}

/** The published set's name at `now`, as the deploy command computes it from dist/. */
async function setAt(now: number): Promise<string> {
  return publishedSetName(loadIndexText(await readFile(path.join(site.distDir, BUILD_FILES.index), "utf8")), now);
}

describe("the Cron Trigger", () => {
  it("announces a scheduled episode once, at its time", async () => {
    targets.clear();
    const c = clock(NOW0);
    const { tick } = await edge(c.now);
    await tick();
    c.set(SCHEDULED_AT - 1);
    await tick();
    expect(targets.all()).toEqual([]);
    c.set(SCHEDULED_AT);
    await tick();
    await tick();
    expectAnnouncedOnce(targets, FEED_URL);
  });

  it("leaves the set a deploy answered for (DEPLOYED_SET) to the deploy, and announces the next one at its time", async () => {
    targets.clear();
    const c = clock(NOW0);
    const { tick } = await edge(c.now, { DEPLOYED_SET: await setAt(NOW0) });
    await tick();
    expect(targets.all()).toEqual([]);
    // The store is fresh, yet the scheduled episode is news: the deploy's set is the starting point.
    c.set(SCHEDULED_AT + 45_000);
    await tick();
    await tick();
    expectAnnouncedOnce(targets, FEED_URL);
  });

  it("keeps the last announced set in the Durable Object, where of many isolates swapping in the same new set exactly one gets the old one back", async () => {
    targets.clear();
    const c = clock(SCHEDULED_AT);
    const { server, tick } = await edge(c.now);
    await tick();
    const ns = (await server.miniflare.getDurableObjectNamespace("ANNOUNCED_SET")) as unknown as {
      idFromName(name: string): unknown;
      get(id: unknown): { swap(name: string): Promise<string | null> };
    };
    const stub = () => ns.get(ns.idFromName(FEED_URL));
    const current = await setAt(SCHEDULED_AT);
    const answers = await Promise.all(Array.from({ length: 20 }, () => stub().swap("next-set")));
    expect(answers.filter((a) => a === current)).toHaveLength(1);
    expect(answers.filter((a) => a === "next-set")).toHaveLength(19);
  });
});
