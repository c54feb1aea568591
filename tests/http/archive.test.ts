// The archive, {site_url}/episodes, through the real server (docs/api.md#site-routes): 50 episodes a
// page, newest first, previous/next links in the page and in its head, the publication clock
// without a rebuild, drafts never, the styled 404 for any page that is not one, and the home page's
// headers (CSP, caching, ETag and 304).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clock, episode, type EpisodeSpec } from "../support/fixture.ts";
import { browserSite, type BrowserSite } from "../browser/support/site.ts";
import { ARCHIVE_PAGE_SIZE } from "../../src/shared/archive.ts";

const NOW0 = Date.UTC(2026, 5, 1, 12);
const HOUR = 3_600_000;
const PUBLISHED = ARCHIVE_PAGE_SIZE + 3;

const c = clock(NOW0);
let fx: BrowserSite;

beforeAll(async () => {
  const specs: EpisodeSpec[] = Array.from({ length: PUBLISHED }, (_, k) => ({
    episode: episode({ episodeNumber: k + 1, title: `Listed episode ${k + 1}`, publishedAt: new Date(NOW0 - (PUBLISHED - k) * HOUR).toISOString() }),
  }));
  specs.push({ episode: episode({ episodeNumber: 900, title: "Scheduled secret title", publishedAt: new Date(NOW0 + HOUR).toISOString() }) });
  specs.push({ episode: episode({ episodeNumber: 901, title: "Draft secret title", status: "draft", publishedAt: new Date(NOW0 - HOUR).toISOString() }) });
  fx = await browserSite("archive-http", specs, { now: c.now });
});
afterAll(async () => {
  await fx?.close();
});

const get = (path: string, init?: RequestInit) => fetch(`${fx.origin}${path}`, init);
async function page(path: string): Promise<{ status: number; headers: Headers; text: string; numbers: number[] }> {
  const res = await get(path);
  const text = await res.text();
  const numbers = [...text.matchAll(/<h2><a href="[^"]*\/episodes\/(\d+)"/g)].map((m) => Number(m[1]));
  return { status: res.status, headers: res.headers, text, numbers };
}
const range = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, k) => from - k);

describe("the archive", () => {
  it("lists every published episode once, newest first, 50 a page, with previous and next links", async () => {
    c.set(NOW0);
    const first = await page("/episodes");
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(first.numbers).toEqual(range(PUBLISHED, PUBLISHED - ARCHIVE_PAGE_SIZE + 1));
    expect(first.text).toContain(`<link rel="canonical" href="${fx.origin}/episodes">`);
    expect(first.text).toContain(`<link rel="next" href="${fx.origin}/episodes?page=2">`);
    expect(first.text).toContain(`<a rel="next" href="${fx.origin}/episodes?page=2">`);
    expect(first.text).not.toContain('rel="prev"');
    expect(first.text).toContain("Page 1 of 2");
    expect(first.text).toContain("<title>All episodes, page 1 of 2 · ");

    const second = await page("/episodes?page=2");
    expect(second.status).toBe(200);
    expect(second.numbers).toEqual(range(PUBLISHED - ARCHIVE_PAGE_SIZE, 1));
    expect(second.text).toContain(`<link rel="canonical" href="${fx.origin}/episodes?page=2">`);
    expect(second.text).toContain(`<link rel="prev" href="${fx.origin}/episodes">`);
    expect(second.text).toContain(`<a rel="prev" href="${fx.origin}/episodes">`);
    expect(second.text).not.toContain('rel="next"');
    expect(second.text).toContain("Page 2 of 2");
    // The markers the shim fills in are gone.
    for (const p of [first, second]) expect(p.text).not.toMatch(/<!--archive/);
  });

  it("answers /episodes/ like /episodes, and HEAD with the headers alone", async () => {
    const slash = await page("/episodes/");
    expect(slash.status).toBe(200);
    expect(slash.text).toBe((await page("/episodes")).text);
    const head = await get("/episodes?page=2", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("answers a page past the last, page=0, page=abc and other non-pages with the styled 404 page", async () => {
    for (const q of ["?page=3", "?page=0", "?page=abc", "?page=-1", "?page=1.5", "?page=02", "?page=", "?page=1e1", "?page=99999999999"]) {
      const res = await page(`/episodes${q}`);
      expect(res.status, q).toBe(404);
      expect(res.headers.get("content-type"), q).toBe("text/html; charset=utf-8");
      expect(res.text, q).toContain("<h1>Not found</h1>");
    }
  });

  it("sends the pages' CSP, caches for a minute, and answers a matching If-None-Match with 304", async () => {
    const res = await get("/episodes?page=2");
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    const tag = res.headers.get("etag")!;
    expect(tag).toMatch(/^"/);
    expect((await get("/episodes?page=2", { headers: { "If-None-Match": tag } })).status).toBe(304);
    // Another page is another body.
    expect((await get("/episodes", { headers: { "If-None-Match": tag } })).status).toBe(200);
  });

  it("follows the publication clock without a rebuild, and never lists a draft", async () => {
    c.set(NOW0);
    const before = await page("/episodes");
    const beforeTag = before.headers.get("etag");
    expect(before.text).not.toContain("secret title");
    expect((await page("/episodes?page=2")).numbers).toHaveLength(PUBLISHED - ARCHIVE_PAGE_SIZE);

    c.set(NOW0 + HOUR);
    const after = await page("/episodes");
    expect(after.numbers[0]).toBe(900);
    expect(after.numbers).toHaveLength(ARCHIVE_PAGE_SIZE);
    expect(after.headers.get("etag")).not.toBe(beforeTag);
    // Everything moved down by one: page 2 starts where page 1 ended.
    const second = await page("/episodes?page=2");
    expect(second.numbers).toEqual(range(PUBLISHED - ARCHIVE_PAGE_SIZE + 1, 1));
    for (const p of [after, second]) expect(p.text).not.toContain("Draft secret title");

    c.set(NOW0);
    expect((await page("/episodes")).headers.get("etag")).toBe(beforeTag);
  });

  it("pages name the favicon, which the site serves from its own origin", async () => {
    expect((await page("/episodes")).text).toContain(`<link rel="icon" href="${fx.origin}/favicon.svg" type="image/svg+xml">`);
    const icon = await get("/favicon.svg");
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(await icon.text()).toMatch(/^<svg /);
  });

  it("is linked from the home page and the 404 page", async () => {
    for (const path of ["/", "/episodes/404"]) expect((await page(path)).text, path).toContain(`href="${fx.origin}/episodes"`);
  });
});
