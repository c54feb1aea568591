// The list's bodies in one file (BUILD_FILES.listBodies; docs/architecture.md#what-a-request-costs):
// the Node server reads a page of consecutive index entries from it in one read, and every other
// page, or every page when the file is missing or does not match, body by body. The pages are the
// same either way, byte for byte and ETag for ETag: the same build is served with its file, without
// it, with it cut short (at start, and after start) and with its per-episode bodies removed after
// start (where only the file can answer). Pages composed and not kept go into reused buffers
// (functions/buffer-pool.ts): concurrent walks get whole pages; a page is kept in memory from its
// second request. Node only: the edge has no such file.
import { cp, readdir, rm, stat, truncate } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../functions/node/main.ts";
import { BUILD_FILES } from "../../src/shared/layout.ts";
import { clock, episode, makeSite, removeSite, serveSite, type EpisodeSpec, type Site } from "../support/fixture.ts";
import { call, NO_LIMITS } from "../support/http.ts";

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const NOW = Date.UTC(2026, 11, 31);
const SCHEDULED = Date.UTC(2099, 0, 1);
const at = (ms: number) => new Date(ms).toISOString();
const topics = (domains: string[]) => ({ domains, concepts: [], entities: [] });

// 45 episodes, one a day, in two interleaved domains; one published early and discovered late
// (`since` picks it out of the order); a scheduled one, a draft.
const specs: EpisodeSpec[] = Array.from({ length: 45 }, (_, i) => ({
  episode: episode({ episodeNumber: i + 1, publishedAt: at(T0 + (i + 1) * DAY), topics: topics(i % 3 === 0 ? ["ai"] : ["general", "ai"].slice(i % 2)) }),
}));
specs.push({ episode: episode({ episodeNumber: 50, publishedAt: at(T0 - 10 * DAY), discoveredAt: at(T0 + 40 * DAY), topics: topics(["ai"]) }) });
specs.push({ episode: episode({ episodeNumber: 61, publishedAt: at(SCHEDULED) }) });
specs.push({ episode: episode({ episodeNumber: 60, status: "draft", publishedAt: at(T0 + 2 * DAY) }) });

let site: Site;
const times = clock(NOW);
/** The same dist/ served six ways. */
const servers: Record<"file" | "none" | "short" | "cutLater" | "bodiesGone" | "cachePolicy", RunningServer> = {} as never;
const copies: string[] = [];

/** What each server said at start (ServeOptions.log), by its name. */
const said: Record<string, string[]> = {};
const logTo = (name: string) => (line: string) => void (said[name] ??= []).push(line);

/** A copy of the build's dist/, changed by `change` before a server starts on it. */
async function servedCopy(name: string, change: (dist: string) => Promise<unknown>): Promise<RunningServer> {
  const distDir = path.join(site.dir, `dist-${name}`);
  // The build itself, not the pointer that names it (a link: docs/architecture.md#the-build).
  await cp(site.distDir, distDir, { recursive: true, dereference: true });
  copies.push(distDir);
  await change(distDir);
  return serveSite({ ...site, distDir }, { now: times.now, env: NO_LIMITS, log: logTo(name) });
}

beforeAll(async () => {
  site = await makeSite("list-bodies", specs);
  servers.file = await serveSite(site, { now: times.now, env: NO_LIMITS, log: logTo("file") });
  servers.none = await servedCopy("none", (d) => rm(path.join(d, BUILD_FILES.listBodies)));
  servers.short = await servedCopy("short", async (d) => truncate(path.join(d, BUILD_FILES.listBodies), (await stat(path.join(d, BUILD_FILES.listBodies))).size - 100));
  servers.cutLater = await servedCopy("cut-later", async () => {});
  servers.bodiesGone = await servedCopy("bodies-gone", async () => {});
  servers.cachePolicy = await servedCopy("cache-policy", async () => {});
  // After start: the file cut short under the server that checked it; the bodies gone under others.
  await truncate(path.join(site.dir, "dist-cut-later", BUILD_FILES.listBodies), 1000);
  for (const name of ["dist-bodies-gone", "dist-cache-policy"]) {
    const episodes = path.join(site.dir, name, "_api/episodes");
    for (const f of await readdir(episodes)) if (/^\d+\.json/.test(f)) await rm(path.join(episodes, f));
  }
});
afterAll(async () => {
  await Promise.all(Object.values(servers).map((s) => s?.close()));
  await removeSite(site);
});

interface Answer {
  status: number;
  etag: string | null;
  body: string;
}

async function answer(server: RunningServer, query: string, encoding = "identity"): Promise<Answer> {
  const r = await call(server.url, `/v1/episodes${query}`, { headers: { "Accept-Encoding": encoding } });
  return { status: r.status, etag: r.headers.get("etag"), body: Buffer.from(r.bytes).toString("latin1") };
}

/** Every page from `first` on, by cursor, as `server` answers them. */
async function walk(server: RunningServer, first: string): Promise<Answer[]> {
  const pages: Answer[] = [];
  for (let query: string | null = first; query !== null && pages.length < 100; ) {
    const page = await answer(server, query);
    pages.push(page);
    expect(page.status, page.body).toBe(200);
    const next = (JSON.parse(page.body) as { pagination: { nextCursor: string | null } }).pagination.nextCursor;
    query = next === null ? null : `?cursor=${encodeURIComponent(next)}&limit=${new URLSearchParams(first).get("limit") ?? 20}`;
  }
  return pages;
}

const UNFILTERED = ["", "?limit=1", "?limit=7", "?limit=50"];
const FILTERED = ["?domain=ai&limit=4", "?domain=general&limit=6", "?since=2026-02-01&limit=5", "?domain=ai&since=2026-01-20&limit=3", "?since=2026-02-05&limit=50"];

describe("list pages read from the list's bodies in one file", () => {
  it.each([...UNFILTERED, ...FILTERED])("%s: every page the same, bytes and ETag, with the file, without it, and with it cut short", async (first) => {
    const want = await walk(servers.none, first);
    expect(want.length).toBeGreaterThan(0);
    for (const server of [servers.file, servers.short, servers.cutLater]) expect(await walk(server, first)).toEqual(want);
  });

  it("says at start when it cannot use the file, and only then", () => {
    const warning = `${BUILD_FILES.listBodies} is missing or was not written for this index: list pages are read body by body (slower); 'npm run build' writes it`;
    expect(said.none).toEqual([warning]);
    expect(said.short).toEqual([warning]);
    // Checked whole at start (cut short only after it): nothing to say.
    for (const name of ["file", "cut-later", "bodies-gone"]) expect(said[name]).toBeUndefined();
  });

  it.each(UNFILTERED)("%s: served from the file alone once the per-episode bodies are gone", async (first) => {
    expect(await walk(servers.bodiesGone, first)).toEqual(await walk(servers.none, first));
  });

  it("reads filtered pages body by body: they need the per-episode bodies", async () => {
    expect((await answer(servers.bodiesGone, "?domain=general&limit=6")).status).toBe(502);
    // Consecutive in the index even with `since`: the file answers.
    expect((await answer(servers.bodiesGone, "?since=2026-02-10&limit=3")).status).toBe(200);
  });

  it("compresses a page from the file as it compresses one read body by body, under the same ETags", async () => {
    for (const coding of ["gzip", "br"]) expect(await answer(servers.file, "?limit=9", coding)).toEqual(await answer(servers.none, "?limit=9", coding));
  });

  it("pages composed at once into reused buffers are each whole: six walks at the same time", async () => {
    const want = await walk(servers.none, "?limit=1");
    const walks = await Promise.all(Array.from({ length: 6 }, () => walk(servers.file, "?limit=1")));
    for (const got of walks) expect(got).toEqual(want);
  });

  it("keeps a page in memory from its second request: a page asked once is composed again", async () => {
    const [twice, once] = ["?limit=3", "?limit=4"];
    for (const q of [twice, twice, once]) expect((await answer(servers.cachePolicy, q)).status).toBe(200);
    // The per-episode bodies are gone and now the file too: only a page kept in memory can be answered.
    await truncate(path.join(site.dir, "dist-cache-policy", BUILD_FILES.listBodies), 0);
    expect((await answer(servers.cachePolicy, twice)).status).toBe(200);
    expect((await answer(servers.cachePolicy, once)).status).toBe(502);
  });

  it("once a scheduled episode is published, pages hold it, the same either way", async () => {
    times.set(SCHEDULED + DAY);
    try {
      const want = await walk(servers.none, "?limit=10");
      expect(JSON.parse(want[0]!.body).episodes[0].episodeNumber).toBe(61);
      expect(await walk(servers.file, "?limit=10")).toEqual(want);
      expect(await walk(servers.bodiesGone, "?limit=10")).toEqual(want);
    } finally {
      times.set(NOW);
    }
  });
});
