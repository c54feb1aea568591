// The publication clock (docs/api.md#publication, docs/api.md#get-v1episodes): drafts and scheduled episodes are absent
// from every route until their time, then appear without a rebuild; cursors stay consistent while
// episodes publish between pages; an episode published before its audio answers 404 on audio only.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../functions/node/main.ts";
import { mediaFile } from "../../src/shared/layout.ts";
import { clock, copySite, episode, sharedSite, removeSite, script, serveSite, type EpisodeSpec, type Site } from "../support/fixture.ts";
import { call, expectError, json, NO_LIMITS, sameBytes, TONE } from "../support/http.ts";

const MIN = 60_000;
const HOUR = 60 * MIN;
const NOW0 = Date.UTC(2026, 5, 1);
const at = (ms: number) => new Date(ms).toISOString();
type Ep = Record<string, any>;

const specs: EpisodeSpec[] = [];
// 100 published episodes, two at each hour (ties broken by number), and 30 scheduled a minute apart.
for (let n = 1; n <= 100; n++) specs.push({ episode: episode({ episodeNumber: n, publishedAt: at(NOW0 - Math.ceil((101 - n) / 2) * HOUR) }) });
for (let k = 1; k <= 30; k++) specs.push({ episode: episode({ episodeNumber: 100 + k, publishedAt: at(NOW0 + k * MIN) }) });

const SCHEDULED_AT = NOW0 + 24 * HOUR;
const scheduled = episode({
  episodeNumber: 200,
  title: "Scheduled",
  publishedAt: at(SCHEDULED_AT),
  topics: { domains: ["scheduled-only"], concepts: [], entities: [] },
});
const draft = episode({ episodeNumber: 300, status: "draft", publishedAt: at(NOW0 - 10 * HOUR), topics: { domains: ["draft-only"], concepts: [], entities: [] } });
const undated = episode({ episodeNumber: 301, publishedAt: null, topics: { domains: ["undated-only"], concepts: [], entities: [] } });
const LATE_KEY = "late-302.mp3";
const lateAudio = episode({ episodeNumber: 302, publishedAt: at(NOW0 - 500 * HOUR), audio: { key: LATE_KEY } });
specs.push(
  { episode: scheduled, script: script(), audio: TONE },
  { episode: draft, script: script(), audio: TONE },
  { episode: undated, script: script(), audio: TONE },
  { episode: lateAudio, script: script() },
);

/** The list at `now`, computed independently: published, then publishedAt, number, id descending. */
function expectedOrder(now: number): string[] {
  return specs
    .map((s) => s.episode as Ep)
    .filter((e) => e.status !== "draft" && e.publishedAt !== null && Date.parse(e.publishedAt) <= now)
    .sort((a, b) => Date.parse(b.publishedAt) - Date.parse(a.publishedAt) || (b.episodeNumber ?? -1) - (a.episodeNumber ?? -1) || (a.id < b.id ? 1 : -1))
    .map((e) => e.id);
}

let site: Site;
const servers: RunningServer[] = [];
const copies: Site[] = [];

beforeAll(async () => {
  site = await sharedSite("publication", specs);
});
afterAll(async () => {
  for (const s of servers) await s.close();
  await removeSite(site);
  for (const c of copies) await removeSite(c);
});

// One server of the shared site for the suite, its clock set by each test: what it answers at a
// time must not depend on what it answered before (and a Worker costs a start on the edge target).
let shared: { c: ReturnType<typeof clock>; server: RunningServer } | undefined;

async function serveAt(start: number, from: Site = site) {
  if (from === site) {
    if (shared === undefined) {
      const c = clock(start);
      const server = await serveSite(site, { now: c.now, env: NO_LIMITS });
      servers.push(server);
      shared = { c, server };
    }
    const { c, server } = shared;
    c.set(start);
    return { c, get: (p: string, init?: RequestInit) => call(server.url, p, init) };
  }
  const c = clock(start);
  const server = await serveSite(from, { now: c.now, env: NO_LIMITS });
  servers.push(server);
  return { c, get: (p: string, init?: RequestInit) => call(server.url, p, init) };
}

interface Page {
  episodes: Ep[];
  pagination: { nextCursor: string | null; limit: number };
}

describe("paging while new episodes publish", () => {
  it("returns every episode published at the first page exactly once, in order, while others publish between pages", async () => {
    const { c, get } = await serveAt(NOW0);
    const want = expectedOrder(NOW0);
    expect(want.length).toBe(101);
    const seen: string[] = [];
    const limits = [7, 3, 11, 5];
    let r = await get("/v1/episodes?limit=7");
    for (let i = 1; ; i++) {
      expect(r.status, r.text).toBe(200);
      const page = json<Page>(r);
      seen.push(...page.episodes.map((e) => e.id));
      if (page.pagination.nextCursor === null) break;
      // One or two scheduled episodes publish before the next page is asked for.
      c.advance(i % 2 ? MIN : 2 * MIN);
      r = await get(`/v1/episodes?limit=${limits[i % limits.length]}&cursor=${page.pagination.nextCursor}`);
      expect(i).toBeLessThan(100);
    }
    expect(seen).toEqual(want);
    expect(new Set(seen).size).toBe(seen.length);
    // The episodes that published meanwhile are at the top of a fresh first page.
    const fresh = json<Page>(await get("/v1/episodes?limit=50"));
    const published = expectedOrder(c.now());
    expect(published.length).toBeGreaterThan(want.length);
    expect(fresh.episodes.map((e) => e.id)).toEqual(published.slice(0, 50));
    expect(fresh.episodes[0]!.episodeNumber).toBeGreaterThan(100);
  });

  it("pages through the whole archive at a fixed time with small limits", async () => {
    const { get } = await serveAt(NOW0 + 30 * MIN);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = json<Page>(await get(`/v1/episodes?limit=4${cursor ? `&cursor=${cursor}` : ""}`));
      seen.push(...page.episodes.map((e) => e.id));
      cursor = page.pagination.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual(expectedOrder(NOW0 + 30 * MIN));
    expect(seen.length).toBe(131);
  });
});

const routes = (e: Ep) =>
  [String(e.episodeNumber), String(e.id), String(e.id).toUpperCase()].flatMap((ref) =>
    ["", "/audio", "/script", "/transcript"].map((part) => `/v1/episodes/${ref}${part}`),
  );

async function listed(get: (p: string) => Promise<{ text: string }>, query = ""): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page: Page = JSON.parse((await get(`/v1/episodes?limit=50${query}${cursor ? `&cursor=${cursor}` : ""}`)).text);
    ids.push(...page.episodes.map((e) => e.id));
    cursor = page.pagination.nextCursor;
  } while (cursor !== null);
  return ids;
}

describe("scheduled episodes", () => {
  it("answer 404 not_found on every route, including audio, script, transcript and the audioUrl, before their time", async () => {
    const { get } = await serveAt(SCHEDULED_AT - 1);
    for (const p of routes(scheduled)) expectError(await get(p), 404, "not_found");
    expect((await get(`/media/${scheduled.id}.mp3`)).status).toBe(404);
    expect((await get(`/media/${scheduled.id}.mp3`, { headers: { Range: "bytes=0-9" } })).status).toBe(404);
    expect(await listed(get)).not.toContain(scheduled.id);
    expect(json<Page>(await get("/v1/episodes?domain=scheduled-only")).episodes).toEqual([]);
  });

  it("appear on every route at their time, without a rebuild", async () => {
    const { c, get } = await serveAt(SCHEDULED_AT - 1);
    expectError(await get("/v1/episodes/200"), 404, "not_found");
    c.set(SCHEDULED_AT);
    for (const p of routes(scheduled)) expect((await get(p)).status, p).toBe(200);
    expect(json(await get("/v1/episodes/200")).id).toBe(scheduled.id);
    expect(sameBytes((await get("/v1/episodes/200/audio")).bytes, TONE)).toBe(true);
    expect(sameBytes((await get(`/media/${scheduled.id}.mp3`)).bytes, TONE)).toBe(true);
    expect(json<Page>(await get("/v1/episodes?limit=1")).episodes[0]!.id).toBe(scheduled.id);
    expect(json<Page>(await get("/v1/episodes?domain=scheduled-only")).episodes.map((e) => e.id)).toEqual([scheduled.id]);
  });

  it("changes the list page's ETag when an episode publishes, so a cached page is not revalidated as unchanged", async () => {
    const { c, get } = await serveAt(SCHEDULED_AT - 1);
    const before = await get("/v1/episodes?limit=5");
    const etag = before.headers.get("etag")!;
    expect((await get("/v1/episodes?limit=5", { headers: { "If-None-Match": etag } })).status).toBe(304);
    c.set(SCHEDULED_AT);
    const after = await get("/v1/episodes?limit=5", { headers: { "If-None-Match": etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect(json<Page>(after).episodes[0]!.id).toBe(scheduled.id);
  });

  it("answers HEAD and conditional requests with 404 too before their time", async () => {
    const { c, get } = await serveAt(SCHEDULED_AT);
    const etag = (await get("/v1/episodes/200")).res.headers.get("etag")!;
    c.set(SCHEDULED_AT - 1);
    expect((await get("/v1/episodes/200", { method: "HEAD" })).status).toBe(404);
    expectError(await get("/v1/episodes/200", { headers: { "If-None-Match": etag } }), 404, "not_found");
    expectError(await get("/v1/episodes/200/audio", { headers: { "If-None-Match": "*" } }), 404, "not_found");
  });
});

describe("drafts and episodes without publishedAt", () => {
  it.each([
    ["a draft", draft, "draft-only"],
    ["an episode without publishedAt", undated, "undated-only"],
  ])("%s is absent from every route, even far in the future", async (_, e, domain) => {
    const { get } = await serveAt(Date.UTC(2100, 0, 1));
    for (const p of routes(e)) expectError(await get(p), 404, "not_found");
    expect((await get(`/media/${e.id}.mp3`)).status).toBe(404);
    expect(await listed(get)).not.toContain(e.id);
    expect(json<Page>(await get(`/v1/episodes?domain=${domain}`)).episodes).toEqual([]);
  });
});

describe("an episode published before its audio", () => {
  it("serves its metadata, script and transcript and answers 404 not_found on audio until the file exists", async () => {
    // The operator writes into the build: a copy of the suite's own.
    const own = await copySite(site, "publication-late");
    copies.push(own);
    const { get } = await serveAt(NOW0, own);
    expect((await get("/v1/episodes/302")).status).toBe(200);
    expect((await get("/v1/episodes/302/script")).status).toBe(200);
    expect((await get("/v1/episodes/302/transcript")).status).toBe(200);
    expectError(await get("/v1/episodes/302/audio"), 404, "not_found");
    expectError(await get("/v1/episodes/302/audio", { headers: { Range: "bytes=0-9" } }), 404, "not_found");
    expect((await get("/v1/episodes/302/audio", { method: "HEAD" })).status).toBe(404);

    // The operator uploads the audio: no rebuild, the route answers.
    await writeFile(path.join(own.distDir, mediaFile(LATE_KEY)), TONE);
    const r = await get("/v1/episodes/302/audio");
    expect(r.status).toBe(200);
    expect(sameBytes(r.bytes, TONE)).toBe(true);
    const part = await get("/v1/episodes/302/audio", { headers: { Range: "bytes=0-9" } });
    expect(part.status).toBe(206);
    expect(sameBytes(part.bytes, TONE.subarray(0, 10))).toBe(true);
  });
});
