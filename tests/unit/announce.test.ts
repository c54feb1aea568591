// The announcing parts without a server: the requests each target gets, when a set is news, the
// published set's name, and a watch over an in-memory store with a recording fetch (what the
// servers' and the Worker's timers drive: tests/http/announce-schedule.test.ts,
// tests/redis/shared-announcements.test.ts, tests/edge/announce-cron.test.ts).
import { describe, expect, it } from "vitest";
import { announce, announceTargets, type AnnounceTarget } from "../../functions/announce/announce.ts";
import { isNewSet, MemoryAnnouncedSets, PublishedSetWatch, type AnnouncedSetStore } from "../../functions/announce/watch.ts";
import { announceConfig, type AnnounceConfig } from "../../src/shared/config.ts";
import { EpisodeIndex } from "../../functions/data/episode-index.ts";
import { PublishedSetNamer, publishedSetName } from "../../functions/data/published-set.ts";
import { compareOrder, orderKeyOf } from "../../src/shared/order.ts";
import type { IndexEntry } from "../../src/shared/schema/build-index.ts";

const FEED = "https://show.example/feed.xml";
const T0 = Date.UTC(2026, 0, 1);
const MIN = 60_000;

function entry(id: string, p: number, n: number | null = null): IndexEntry {
  return { id, n, p, s: p, ref: n === null ? id : String(n), title: id, domains: [], script: "missing", transcript: false, audio: null };
}

function indexOf(entries: IndexEntry[]): EpisodeIndex {
  const episodes = [...entries].sort((a, b) => compareOrder(orderKeyOf(a), orderKeyOf(b)));
  return new EpisodeIndex({ version: 1, show: { slug: "s", title: "S" }, termsUrl: "https://show.example/terms", baseUrl: "https://show.example", siteUrl: "https://show.example", episodes });
}

const uuid = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, "0")}`;

describe("announceTargets", () => {
  const config = announceConfig({
    WEBSUB_HUB: "https://hub.example/",
    PING_URLS: "https://a.example/pubnotify?url={feed} https://b.example/{feed}/x?again={feed}",
    PODPING_TOKEN: "tok en",
    PODPING_URL: "https://podping.example/base/",
  });

  it("POSTs the WebSub publish as a form, GETs each ping with the feed URL percent-encoded, and Podping with the token as the whole Authorization", () => {
    const [hub, a, b, podping] = announceTargets(config, FEED);
    expect(hub).toMatchObject({ kind: "websub", url: "https://hub.example/", method: "POST", body: "hub.mode=publish&hub.url=https%3A%2F%2Fshow.example%2Ffeed.xml" });
    expect(hub!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    const encoded = encodeURIComponent(FEED);
    expect(a).toMatchObject({ kind: "ping", method: "GET", body: null, url: `https://a.example/pubnotify?url=${encoded}` });
    expect(b!.url).toBe(`https://b.example/${encoded}/x?again=${encoded}`);
    expect(podping).toMatchObject({ kind: "podping", method: "GET", body: null });
    const url = new URL(podping!.url);
    expect(url.origin + url.pathname).toBe("https://podping.example/base/");
    expect(Object.fromEntries(url.searchParams)).toEqual({ url: FEED, reason: "update", medium: "podcast" });
    expect(podping!.headers.authorization).toBe("tok en");
    for (const t of [hub, a, b, podping]) expect(t!.headers["user-agent"]).toContain(FEED);
  });

  it("names no target when nothing is configured", () => {
    expect(announceTargets(announceConfig({}), FEED)).toEqual([]);
  });
});

/** A fetch that answers each call from `answers` in turn (a status, or a thrown error), recording the calls. */
function scriptedFetch(answers: (number | Error)[]) {
  const calls: { url: string; method: string }[] = [];
  const doFetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, method: init.method ?? "GET" });
    const next = answers.shift() ?? 200;
    if (next instanceof Error) throw next;
    return new Response(null, { status: next });
  }) as unknown as typeof fetch;
  return { calls, doFetch };
}

describe("announce", () => {
  const target: AnnounceTarget = { kind: "ping", url: "https://ping.example/notify?key=secret&url=x", method: "GET", headers: {}, body: null };

  it("tries again once after no answer, a 5xx or a 429, never a third time, and logs one line without the query", async () => {
    for (const failure of [new Error("fetch failed"), 503, 429]) {
      const { calls, doFetch } = scriptedFetch([failure, failure, 200]);
      const log: string[] = [];
      const [outcome] = await announce([target], "set 1-x", { log: (l) => log.push(l), fetch: doFetch, retryPauseMs: 0 });
      expect(calls).toHaveLength(2);
      expect(outcome).toMatchObject({ ok: false, attempts: 2 });
      expect(log).toHaveLength(1);
      expect(log[0]).toMatch(/^announce set 1-x: ping https:\/\/ping\.example\/notify FAILED \(.+, 2 attempts\)$/);
      expect(log[0]).not.toContain("secret");
    }
  });

  it("does not try again after a 4xx, which a second attempt would get too", async () => {
    const { calls, doFetch } = scriptedFetch([404]);
    const log: string[] = [];
    await announce([target], "set 1-x", { log: (l) => log.push(l), fetch: doFetch, retryPauseMs: 0 });
    expect(calls).toHaveLength(1);
    expect(log).toEqual(["announce set 1-x: ping https://ping.example/notify FAILED (HTTP 404, 1 attempt)"]);
  });

  it("succeeds on a second attempt", async () => {
    const { doFetch } = scriptedFetch([500, 204]);
    const log: string[] = [];
    const [outcome] = await announce([target], "set 1-x", { log: (l) => log.push(l), fetch: doFetch, retryPauseMs: 0 });
    expect(outcome).toMatchObject({ ok: true, attempts: 2, detail: "HTTP 204" });
    expect(log).toEqual(["announce set 1-x: ping https://ping.example/notify ok (HTTP 204, 2 attempts)"]);
  });

  it("gives up on a target that does not answer within the timeout", async () => {
    const hang = (async (_url: string, init: RequestInit) =>
      new Promise((_, reject) => init.signal!.addEventListener("abort", () => reject(init.signal!.reason)))) as unknown as typeof fetch;
    const log: string[] = [];
    const [outcome] = await announce([target], "set 1-x", { log: (l) => log.push(l), fetch: hang, timeoutMs: 20, retryPauseMs: 0 });
    expect(outcome).toMatchObject({ ok: false, attempts: 2, detail: "no answer within 0.02 s" });
  });
});

describe("isNewSet", () => {
  it.each([
    [null, "b", null, false, "a store that knew nothing takes its first set as the starting point"],
    ["a", "a", null, false, "the same set"],
    ["a", "b", null, true, "another set"],
    ["a", "d", "d", false, "the set the deploy answers for"],
    [null, "b", "d", true, "a fresh store starts from the deploy's set"],
    [null, "d", "d", false, "a fresh store, at the deploy's set"],
  ] as const)("previous %s, current %s, deployed %s → %s (%s)", (previous, current, deployed, expected, _why) => {
    expect(isNewSet(previous, current, deployed)).toBe(expected);
  });
});

describe("publishedSetName", () => {
  it("names the set by its count and its ids, whatever their order or the clock within one set", async () => {
    const a = indexOf([entry(uuid(1), T0), entry(uuid(2), T0 + MIN), entry(uuid(3), T0 + 2 * MIN)]);
    // The same episodes published in another order, in another build.
    const b = indexOf([entry(uuid(1), T0 + 2 * MIN), entry(uuid(2), T0 + MIN), entry(uuid(3), T0)]);
    expect(await publishedSetName(a, T0 + 5 * MIN)).toBe(await publishedSetName(b, T0 + 5 * MIN));
    expect(await publishedSetName(a, T0 + MIN)).toMatch(/^2-[0-9a-f]{16}$/);
    expect(await publishedSetName(a, T0 + MIN)).toBe(await publishedSetName(a, T0 + 2 * MIN - 1));
    expect(await publishedSetName(a, T0 + MIN)).not.toBe(await publishedSetName(a, T0 + 2 * MIN));
    expect(await publishedSetName(a, T0 - 1)).toMatch(/^0-/);
  });

  it("gives a namer that follows the clock (and a new index) the names a fresh look gives", async () => {
    const entries = Array.from({ length: 20_000 }, (_, i) => entry(uuid(i), T0 + i * MIN));
    const index = indexOf(entries);
    const other = indexOf(entries.slice(1));
    const namer = new PublishedSetNamer();
    for (const [idx, at] of [[index, T0 - 1], [index, T0 + 5 * MIN], [index, T0 + 19_000 * MIN], [index, T0 + 3 * MIN], [other, T0 + 19_000 * MIN], [index, T0 + 30_000 * MIN]] as const) {
      expect(await namer.name(idx, at)).toBe(await publishedSetName(idx, at));
    }
  });

  it("tells apart two builds with as many episodes and the same newest one", async () => {
    const before = indexOf([entry(uuid(1), T0), entry(uuid(2), T0 + MIN), entry(uuid(9), T0 + 9 * MIN)]);
    // One old episode removed, another backdated one added: count and newest unchanged.
    const after = indexOf([entry(uuid(1), T0), entry(uuid(3), T0 + MIN), entry(uuid(9), T0 + 9 * MIN)]);
    expect(await publishedSetName(before, T0 + 10 * MIN)).not.toBe(await publishedSetName(after, T0 + 10 * MIN));
  });
});

describe("PublishedSetWatch", () => {
  const config: AnnounceConfig = { ...announceConfig({ WEBSUB_HUB: "https://hub.example/" }), deployedSet: null };
  const index = indexOf([entry(uuid(1), T0), entry(uuid(2), T0 + 10 * MIN)]);

  it("takes the set it first sees as its starting point, announces a new one once, and none again", async () => {
    const { calls, doFetch } = scriptedFetch([]);
    const log: string[] = [];
    const watch = new PublishedSetWatch({ config, store: new MemoryAnnouncedSets(), log: (l) => log.push(l), fetch: doFetch });
    await watch.check(index, T0);
    await watch.check(index, T0 + MIN);
    expect(calls).toEqual([]);
    await watch.check(index, T0 + 10 * MIN);
    await watch.check(index, T0 + 11 * MIN);
    expect(calls).toEqual([{ url: "https://hub.example/", method: "POST" }]);
    expect(log).toEqual([expect.stringMatching(/^announce set 2-\S+: websub https:\/\/hub\.example\/ ok \(HTTP 200, 1 attempt\)$/)]);
  });

  it("leaves a set another instance swapped in first to that instance", async () => {
    const store = new MemoryAnnouncedSets();
    const watches = [0, 1].map(() => {
      const f = scriptedFetch([]);
      return { ...f, watch: new PublishedSetWatch({ config, store, log: () => {}, fetch: f.doFetch }) };
    });
    for (const w of watches) await w.watch.check(index, T0);
    await Promise.all(watches.map((w) => w.watch.check(index, T0 + 10 * MIN)));
    expect(watches.map((w) => w.calls.length).sort()).toEqual([0, 1]);
  });

  it("when the store fails, says so once and announces at the next look that reaches it, late rather than twice", async () => {
    let down = false;
    const memory = new MemoryAnnouncedSets();
    const store: AnnouncedSetStore = { swap: (key, name) => (down ? Promise.reject(new Error("connection refused")) : memory.swap(key, name)) };
    const { calls, doFetch } = scriptedFetch([]);
    const log: string[] = [];
    const watch = new PublishedSetWatch({ config, store, log: (l) => log.push(l), fetch: doFetch });
    await watch.check(index, T0);
    down = true;
    await watch.check(index, T0 + 10 * MIN);
    await watch.check(index, T0 + 11 * MIN);
    expect(calls).toEqual([]);
    expect(log).toEqual(["announce: the store of announced sets failed (connection refused); looking again at the next tick"]);
    down = false;
    await watch.check(index, T0 + 12 * MIN);
    await watch.check(index, T0 + 13 * MIN);
    expect(calls).toHaveLength(1);
  });

  it("does nothing without a target", async () => {
    let swaps = 0;
    const watch = new PublishedSetWatch({ config: announceConfig({}), store: { swap: async () => (swaps++, null) }, log: () => {} });
    await watch.check(index, T0);
    expect(swaps).toBe(0);
  });
});
