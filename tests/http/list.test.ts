// GET /v1/episodes (docs/api.md#get-v1episodes): order, limit, domain, since, keyset cursors and their errors.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../functions/node/main.ts";
import { episode, sharedSite, removeSite, serveSite, type EpisodeSpec, type Site } from "../support/fixture.ts";
import { call, expectBadParameter, json, NO_LIMITS } from "../support/http.ts";

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const NOW = Date.UTC(2026, 11, 31);
const at = (ms: number) => new Date(ms).toISOString();

type Ep = Record<string, any>;
const specs: EpisodeSpec[] = [];
const add = (overrides: Ep) => specs.push({ episode: episode(overrides) });

// 25 numbered episodes, one a day, in three domain groups.
for (let n = 1; n <= 25; n++) {
  const domains = n % 3 === 0 ? ["ai"] : n % 3 === 1 ? ["security", "ai"] : ["general"];
  add({ episodeNumber: n, publishedAt: at(T0 + n * DAY), topics: { domains, concepts: [], entities: [] } });
}
// A tie on publishedAt: numbers break it (descending), then ids (descending) for episodes without a number.
const TIE = at(T0 + 30 * DAY);
add({ episodeNumber: 40, publishedAt: TIE, topics: { domains: ["tie"], concepts: [], entities: [] } });
add({ id: "00000000-0000-4000-8000-000000000000", episodeNumber: null, publishedAt: TIE, topics: { domains: ["tie"], concepts: [], entities: [] } });
add({ episodeNumber: 41, publishedAt: TIE, topics: { domains: ["tie"], concepts: [], entities: [] } });
add({ id: "ffffffff-ffff-4fff-bfff-ffffffffffff", episodeNumber: null, publishedAt: TIE, topics: { domains: ["tie"], concepts: [], entities: [] } });
add({ id: "88888888-8888-4888-8888-888888888888", episodeNumber: null, publishedAt: TIE, topics: { domains: ["tie"], concepts: [], entities: [] } });
// Published early, discovered late: `since` compares discoveredAt.
const LATE_FIND = "2026-06-01T12:00:00+02:00";
add({ episodeNumber: 50, publishedAt: at(T0 - 10 * DAY), discoveredAt: LATE_FIND, topics: { domains: ["archive"], concepts: [], entities: [] } });
// Never listed at NOW: a draft, a scheduled episode, one without publishedAt.
add({ episodeNumber: 60, status: "draft", publishedAt: at(T0 + 2 * DAY) });
add({ episodeNumber: 61, publishedAt: "2099-01-01T00:00:00Z" });
add({ episodeNumber: 62, publishedAt: null });
// Written to disk in an order unrelated to the list order.
specs.reverse();

/** The list order, computed independently of the service: publishedAt, number, id, all descending. */
function expectedOrder(filter: (e: Ep) => boolean = () => true): string[] {
  return specs
    .map((s) => s.episode as Ep)
    .filter((e) => e.status !== "draft" && e.publishedAt !== null && Date.parse(e.publishedAt) <= NOW)
    .filter(filter)
    .sort((a, b) => {
      const p = Date.parse(b.publishedAt) - Date.parse(a.publishedAt);
      if (p !== 0) return p;
      const n = (b.episodeNumber ?? -1) - (a.episodeNumber ?? -1);
      if (n !== 0) return n;
      return a.id < b.id ? 1 : -1;
    })
    .map((e) => e.id);
}
const discovered = (e: Ep) => Date.parse(e.discoveredAt ?? e.publishedAt);

let site: Site;
let server: RunningServer;

beforeAll(async () => {
  site = await sharedSite("list", specs);
  server = await serveSite(site, { now: () => NOW, env: NO_LIMITS });
});
afterAll(async () => {
  await server?.close();
  await removeSite(site);
});

const get = (q: string) => call(server.url, `/v1/episodes${q}`);

interface Page {
  episodes: Ep[];
  pagination: { nextCursor: string | null; limit: number };
}

/** Follows nextCursor to the end; a non-null cursor must never lead to an empty page. */
async function pageThrough(first: string, next: (cursor: string, i: number) => string = (c) => `?cursor=${c}`): Promise<{ ids: string[]; pages: Page[] }> {
  const pages: Page[] = [];
  let r = await get(first);
  for (let i = 0; ; i++) {
    expect(r.status, r.text).toBe(200);
    const page = json<Page>(r);
    pages.push(page);
    const cursor = page.pagination.nextCursor;
    if (cursor === null) break;
    expect(page.episodes.length).toBeGreaterThan(0);
    r = await get(next(encodeURIComponent(cursor), i));
    expect(json<Page>(r).episodes.length, "a page after a non-null nextCursor is never empty").toBeGreaterThan(0);
    if (i > 200) throw new Error("paging does not end");
  }
  return { ids: pages.flatMap((p) => p.episodes.map((e) => e.id)), pages };
}

describe("GET /v1/episodes: page shape and order", () => {
  it("applies the default limit of 20 and offers a next cursor", async () => {
    const r = await get("");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const page = json<Page>(r);
    expect(Object.keys(page).sort()).toEqual(["episodes", "pagination"]);
    expect(page.pagination.limit).toBe(20);
    expect(page.episodes.map((e) => e.id)).toEqual(expectedOrder().slice(0, 20));
    expect(typeof page.pagination.nextCursor).toBe("string");
    expect(page.pagination.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it("orders by publishedAt descending, ties by episodeNumber descending, then id descending", async () => {
    const page = json<Page>(await get("?limit=50"));
    expect(page.episodes.map((e) => e.id)).toEqual(expectedOrder());
    const tie = page.episodes.filter((e) => e.publishedAt === TIE).map((e) => e.episodeNumber ?? e.id);
    expect(tie).toEqual([41, 40, "ffffffff-ffff-4fff-bfff-ffffffffffff", "88888888-8888-4888-8888-888888888888", "00000000-0000-4000-8000-000000000000"]);
  });

  it("lists only published episodes: no drafts, no scheduled episodes, none without publishedAt", async () => {
    const numbers = json<Page>(await get("?limit=50")).episodes.map((e) => e.episodeNumber);
    expect(numbers).not.toContain(60);
    expect(numbers).not.toContain(61);
    expect(numbers).not.toContain(62);
  });

  it("serves each listed episode exactly as its own route does", async () => {
    const page = json<Page>(await get("?limit=50"));
    for (const e of page.episodes.slice(0, 6)) {
      const single = await call(server.url, `/v1/episodes/${e.id}`);
      expect(json(single)).toEqual(e);
    }
  });

  it.each(["1", "7", "50"])("accepts limit=%s and states it in pagination.limit", async (limit) => {
    const page = json<Page>(await get(`?limit=${limit}`));
    expect(page.pagination.limit).toBe(Number(limit));
    expect(page.episodes.map((e) => e.id)).toEqual(expectedOrder().slice(0, Number(limit)));
  });

  it("ignores unknown query parameters", async () => {
    const plain = await get("?limit=3");
    const noisy = await get("?limit=3&foo=bar&page=9&offset=4&sort=asc&api_key=x");
    expect(noisy.status).toBe(200);
    expect(noisy.text).toBe(plain.text);
    expect(noisy.headers.get("etag")).toBe(plain.headers.get("etag"));
  });
});

describe("GET /v1/episodes: paging with cursors", () => {
  it("pages through every published episode exactly once, in order, ending with nextCursor null", async () => {
    const { ids, pages } = await pageThrough("?limit=4", (c) => `?cursor=${c}&limit=4`);
    expect(ids).toEqual(expectedOrder());
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages.length).toBe(Math.ceil(expectedOrder().length / 4));
    expect(pages.at(-1)!.pagination.nextCursor).toBeNull();
  });

  it("ends on a full last page with nextCursor null, not an empty page after it", async () => {
    const total = expectedOrder().length;
    const all = json<Page>(await get(`?limit=${total}`));
    expect(all.episodes.length).toBe(total);
    expect(all.pagination.nextCursor).toBeNull();
    // The tie group holds exactly 5 episodes: pages of 5, then of 1, end exactly on the last one.
    expect(json<Page>(await get("?domain=tie&limit=5")).pagination.nextCursor).toBeNull();
    const ones = await pageThrough("?domain=tie&limit=1", (c) => `?cursor=${c}&limit=1`);
    expect(ones.pages.length).toBe(5);
  });

  it("lets the limit change from page to page", async () => {
    const limits = [1, 5, 2, 9, 3, 50];
    const { ids, pages } = await pageThrough("?limit=1", (c, i) => `?cursor=${c}&limit=${limits[i + 1] ?? 50}`);
    expect(ids).toEqual(expectedOrder());
    expect(pages.map((p) => p.pagination.limit)).toEqual(limits.slice(0, pages.length));
  });

  it("keeps the first page's filters when the cursor is sent alone", async () => {
    const want = expectedOrder((e) => e.topics.domains.includes("ai") && discovered(e) >= Date.parse("2026-01-10"));
    expect(want.length).toBeGreaterThan(6);
    const { ids } = await pageThrough("?domain=ai&since=2026-01-10&limit=3", (c) => `?cursor=${c}&limit=3`);
    expect(ids).toEqual(want);
  });

  it("accepts the cursor together with the same filters repeated", async () => {
    const want = expectedOrder((e) => e.topics.domains.includes("ai") && discovered(e) >= Date.parse("2026-01-10"));
    const { ids } = await pageThrough("?domain=ai&since=2026-01-10&limit=3", (c) => `?limit=3&since=2026-01-10&cursor=${c}&domain=ai`);
    expect(ids).toEqual(want);
  });

  it("uses the default limit on a cursor page without limit", async () => {
    const first = json<Page>(await get("?limit=2"));
    const second = json<Page>(await get(`?cursor=${first.pagination.nextCursor}`));
    expect(second.pagination.limit).toBe(20);
    expect(second.episodes.map((e) => e.id)).toEqual(expectedOrder().slice(2, 22));
  });

  it.each([
    ["a different domain", "?domain=ai&limit=2", "&domain=security"],
    ["a domain the first page did not have", "?limit=2", "&domain=ai"],
    ["a different since", "?since=2026-01-05&limit=2", "&since=2026-01-06"],
    ["a since the first page did not have", "?limit=2", "&since=2026-01-01"],
  ])("refuses a cursor sent with %s: 400 invalid_cursor", async (_, first, extra) => {
    const page = json<Page>(await get(first));
    expect(page.pagination.nextCursor).not.toBeNull();
    expectBadParameter(await get(`?cursor=${page.pagination.nextCursor}${extra}`), "invalid_cursor", "cursor");
  });

  it("accepts a cursor with the same since instant written in another offset", async () => {
    const page = json<Page>(await get("?since=2026-01-05&limit=2"));
    const alone = await get(`?cursor=${page.pagination.nextCursor}`);
    const restated = await get(`?cursor=${page.pagination.nextCursor}&since=${encodeURIComponent("2026-01-05T01:00:00+01:00")}`);
    expect(restated.status).toBe(200);
    expect(restated.text).toBe(alone.text);
  });

  it("refuses every single-character alteration of a cursor: 400 invalid_cursor", async () => {
    const cursor = json<Page>(await get("?domain=ai&limit=2")).pagination.nextCursor!;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (let i = 0; i < cursor.length; i++) {
      const c = cursor[i]!;
      const swapped = alphabet[(alphabet.indexOf(c) + 1 + (i % 60)) % 64]!;
      const altered = cursor.slice(0, i) + swapped + cursor.slice(i + 1);
      expectBadParameter(await get(`?cursor=${altered}`), "invalid_cursor", "cursor");
    }
  });

  it("refuses truncated cursors: 400 invalid_cursor", async () => {
    const cursor = json<Page>(await get("?limit=2")).pagination.nextCursor!;
    for (const cut of [1, 2, 3, 4, 5, Math.floor(cursor.length / 2), cursor.length - 1]) {
      expectBadParameter(await get(`?cursor=${cursor.slice(0, cursor.length - cut)}`), "invalid_cursor", "cursor");
      expectBadParameter(await get(`?cursor=${cursor.slice(cut)}`), "invalid_cursor", "cursor");
    }
  });

  it.each([
    ["empty", "?cursor="],
    ["not base64url", "?cursor=%21%21%21%21"],
    ["random base64url", "?cursor=eyJhZnRlciI6MX0"],
    ["padded", "?cursor=AAAA%3D%3D"],
    ["very long", `?cursor=${"A".repeat(4000)}`],
    ["repeated", "?cursor=abc&cursor=abc"],
  ])("refuses a %s cursor: 400 invalid_cursor naming cursor", async (_, q) => {
    expectBadParameter(await get(q), "invalid_cursor", "cursor");
  });

  it("refuses a valid cursor given twice", async () => {
    const cursor = json<Page>(await get("?limit=2")).pagination.nextCursor!;
    expectBadParameter(await get(`?cursor=${cursor}&cursor=${cursor}`), "invalid_cursor", "cursor");
  });
});

describe("GET /v1/episodes: cursors across a rebuild", () => {
  it("continues a cursor from the last build at the same position after a rebuild that adds episodes", async () => {
    const page = json<Page>(await get("?limit=7"));
    const lastSeen = page.episodes.at(-1)!;
    const order = expectedOrder();
    // New content: one newest, one among the episodes already seen, one among those still to come.
    const p = (id: string) => Date.parse((specs.find((s) => s.episode.id === id)!.episode as Ep).publishedAt);
    const added = [
      episode({ episodeNumber: 90, publishedAt: at(NOW - DAY) }),
      episode({ episodeNumber: 91, publishedAt: at(p(order[5]!) - 1000) }),
      episode({ episodeNumber: 92, publishedAt: at(p(order[12]!) - 1000) }),
    ];
    const rebuilt = await sharedSite("list-rebuild", [...specs, ...added.map((e) => ({ episode: e }))]);
    const next = await serveSite(rebuilt, { now: () => NOW, env: NO_LIMITS });
    try {
      const ids: string[] = [];
      let cursor: string | null = page.pagination.nextCursor;
      while (cursor !== null) {
        const r = await call(next.url, `/v1/episodes?limit=7&cursor=${cursor}`);
        expect(r.status, r.text).toBe(200);
        const body = json<Page>(r);
        ids.push(...body.episodes.map((e) => e.id));
        cursor = body.pagination.nextCursor;
      }
      // order[5] and order[12] have publishedAt of their own (no tie), so each addition sits just after one.
      expect(p(order[4]!)).toBeGreaterThan(p(order[5]!));
      expect(p(order[6]!)).toBeLessThan(p(order[5]!) - 1000);
      const want = [...order.slice(7)];
      want.splice(want.indexOf(order[12]!) + 1, 0, String(added[2]!.id));
      expect(ids).toEqual(want);
      expect(ids).not.toContain(lastSeen.id);
    } finally {
      await next.close();
      await removeSite(rebuilt);
    }
  });
});

describe("GET /v1/episodes: the list page's ETag across rebuilds", () => {
  // A list page's tag hashes its pagination and the ETags of the bodies it joins (functions/handler.ts),
  // not its bytes: an edit of one of those bodies must still give the page a new tag.
  it("is the same after an identical rebuild and changes when an episode on the page is edited", async () => {
    const tagOf = async (url: string) => {
      const r = await call(url, "/v1/episodes?limit=5");
      expect(r.status, r.text).toBe(200);
      return { etag: r.headers.get("etag")!, ids: json<Page>(r).episodes.map((e) => e.id) };
    };
    const before = await tagOf(server.url);
    const third = before.ids[2]!;
    const edited = specs.map((s) => (s.episode.id === third ? { ...s, episode: { ...s.episode, title: "An edited title" } } : s));
    const sites = [await sharedSite("list-etag-same", specs), await sharedSite("list-etag-edit", edited)];
    const servers = await Promise.all(sites.map((site) => serveSite(site, { now: () => NOW, env: NO_LIMITS })));
    try {
      const same = await tagOf(servers[0]!.url);
      const edit = await tagOf(servers[1]!.url);
      expect(same).toEqual(before);
      expect(edit.ids).toEqual(before.ids);
      expect(edit.etag).not.toBe(before.etag);
      expect(edit.etag).toMatch(/^"[A-Za-z0-9_-]{22}(?:\.gz|\.br)?"$/);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
      await Promise.all(sites.map((site) => removeSite(site)));
    }
  });
});

describe("GET /v1/episodes: limit", () => {
  it.each(["0", "51", "abc", "1.5", "", "-1", "+5", " 5", "5 ", "1e1", "0x10", "99999999999999999999", "５"])(
    "limit=%j answers 400 invalid_limit naming limit",
    async (value) => {
      expectBadParameter(await get(`?limit=${encodeURIComponent(value)}`), "invalid_limit", "limit");
    },
  );

  it("refuses a repeated limit, even with equal values", async () => {
    expectBadParameter(await get("?limit=5&limit=5"), "invalid_limit", "limit");
    expectBadParameter(await get("?limit=5&limit=6"), "invalid_limit", "limit");
  });

  it("refuses a bare limit without a value", async () => {
    expectBadParameter(await get("?limit"), "invalid_limit", "limit");
  });
});

describe("GET /v1/episodes: domain", () => {
  it("keeps only episodes carrying the domain, in list order", async () => {
    for (const d of ["ai", "security", "general", "archive"]) {
      const { ids } = await pageThrough(`?domain=${d}&limit=50`);
      const want = expectedOrder((e) => e.topics.domains.includes(d));
      expect(want.length).toBeGreaterThan(0);
      expect(ids).toEqual(want);
    }
  });

  it.each(["unknown-domain", "z", "0", "a".repeat(64), "a-b-c-9"])(
    "answers 200 with an empty page for the well-formed domain %s that no episode carries",
    async (d) => {
      const r = await get(`?domain=${d}`);
      expect(r.status).toBe(200);
      expect(json<Page>(r)).toEqual({ episodes: [], pagination: { nextCursor: null, limit: 20 } });
    },
  );

  it("never shows unpublished episodes under a domain filter", async () => {
    // Episodes 60–62 (draft, scheduled, no publishedAt) carry "general" like the published ones.
    const ids = (await pageThrough("?domain=general&limit=50")).ids;
    const hidden = specs.map((s) => s.episode as Ep).filter((e) => [60, 61, 62].includes(e.episodeNumber)).map((e) => e.id);
    for (const id of hidden) expect(ids).not.toContain(id);
  });

  it.each(["AI", "-ai", "a_b", "a.b", "a b", "", "a".repeat(65), "é", "ai/", "%00"])(
    "domain=%j answers 400 invalid_domain naming domain",
    async (d) => {
      expectBadParameter(await get(`?domain=${d === "%00" ? d : encodeURIComponent(d)}`), "invalid_domain", "domain");
    },
  );

  it("refuses a repeated domain", async () => {
    expectBadParameter(await get("?domain=ai&domain=ai"), "invalid_domain", "domain");
    expectBadParameter(await get("?domain=ai&domain=security"), "invalid_domain", "domain");
  });
});

describe("GET /v1/episodes: since", () => {
  it("keeps episodes discovered at or after midnight UTC of a date", async () => {
    const { ids } = await pageThrough("?since=2026-01-20&limit=50");
    const want = expectedOrder((e) => discovered(e) >= Date.UTC(2026, 0, 20));
    expect(ids).toEqual(want);
    expect(want.length).toBeLessThan(expectedOrder().length);
  });

  it("is inclusive and compares discoveredAt, not publishedAt", async () => {
    // Episode 50 was published before every other episode and discovered on 2026-06-01 10:00 UTC.
    const page = json<Page>(await get("?since=2026-06-01T10:00:00Z"));
    expect(page.episodes.map((e) => e.episodeNumber)).toEqual([50]);
    expect(json<Page>(await get("?since=2026-06-01T10:00:00.001Z")).episodes).toEqual([]);
  });

  it("accepts an RFC 3339 date-time with a numeric offset", async () => {
    const page = json<Page>(await get(`?since=${encodeURIComponent("2026-06-01T12:00:00+02:00")}`));
    expect(page.episodes.map((e) => e.episodeNumber)).toEqual([50]);
    const earlier = json<Page>(await get(`?since=${encodeURIComponent("2026-01-25T03:00:00-05:00")}&limit=50`));
    expect(earlier.episodes.map((e) => e.id)).toEqual(expectedOrder((e) => discovered(e) >= Date.parse("2026-01-25T08:00:00Z")));
  });

  it("falls back to publishedAt for episodes without discoveredAt", async () => {
    const when = at(T0 + 25 * DAY); // episode 25's publishedAt, to the millisecond
    const page = json<Page>(await get(`?since=${encodeURIComponent(when)}&limit=50`));
    expect(page.episodes.map((e) => e.episodeNumber)).toContain(25);
    expect(page.episodes.map((e) => e.episodeNumber)).not.toContain(24);
  });

  it.each([
    "2026-02-30",
    "2026-13-01",
    "2026-00-10",
    "2025-02-29",
    "2026-1-5",
    "20260105",
    "2026-01-05T00:00:00",
    "2026-01-05T25:00:00Z",
    "2026-01-05T10:61:00Z",
    "2026-01-05 10:00:00Z",
    "yesterday",
    "1767225600",
    "",
    "2026-01-05Z",
  ])("since=%j answers 400 invalid_since naming since", async (value) => {
    expectBadParameter(await get(`?since=${encodeURIComponent(value)}`), "invalid_since", "since");
  });

  it("refuses a repeated since", async () => {
    expectBadParameter(await get("?since=2026-01-01&since=2026-01-01"), "invalid_since", "since");
  });
});
