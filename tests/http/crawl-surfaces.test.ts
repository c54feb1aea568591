// The crawler surfaces (docs/api.md#crawlers) through the real server: /robots.txt points to the
// sitemap; /sitemap.xml lists home, every archive page and every published episode page (through
// the publication clock); /llms.txt links every machine-readable surface; every URL they name
// answers 200 from the same server (the shim routes by path alone, so API and site hosts are
// configured apart and requested by path); the discovery document links both feeds, MCP and
// llms.txt, and every page declares both feeds in its head.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../functions/node/main.ts";
import { clock, episode, sharedSite, PODCAST, removeSite, script, serveSite, timedScript, type EpisodeSpec, type Site } from "../support/fixture.ts";
import { call, expectCors, json, NO_LIMITS, type Reply } from "../support/http.ts";

const API = "https://api.example.test";
const SITE = "https://www.example.test";
const NOW0 = Date.UTC(2026, 5, 1, 12);
const HOUR = 3_600_000;
const at = (ms: number) => new Date(ms).toISOString();

// 52 published episodes fill two archive pages of 50.
const published = Array.from({ length: 52 }, (_, i) => episode({ episodeNumber: i + 1, publishedAt: at(NOW0 - (60 - i) * HOUR) }));
const unnumbered = episode({ episodeNumber: null, publishedAt: at(NOW0 - 100 * HOUR) });
const SCHEDULED_AT = NOW0 + HOUR;
const scheduled = episode({ episodeNumber: 90, publishedAt: at(SCHEDULED_AT) });
const draft = episode({ episodeNumber: 91, status: "draft", publishedAt: at(NOW0 - HOUR) });
const specs: EpisodeSpec[] = [
  // Timed: the llms.txt patterns of the timed forms answer with a real episode too.
  ...published.map((e) => ({ episode: e, script: timedScript() })),
  { episode: unnumbered },
  { episode: scheduled, script: script() },
  { episode: draft, script: script() },
];

let site: Site;
let server: RunningServer;
const c = clock(NOW0);

beforeAll(async () => {
  site = await sharedSite("crawl", specs, { API_BASE_URL: API, SITE_URL: SITE });
  server = await serveSite(site, { now: c.now, env: NO_LIMITS });
});
afterAll(async () => {
  await server?.close();
  await removeSite(site);
});

/** Requests a URL of the configured hosts from the test server, by path and query. */
function fetchUrl(url: string, init?: RequestInit): Promise<Reply> {
  const u = new URL(url);
  expect([API, SITE]).toContain(u.origin);
  return call(server.url, `${u.pathname}${u.search}`, init);
}

async function expectAllOk(urls: string[]): Promise<void> {
  for (const url of urls) expect((await fetchUrl(url)).status, url).toBe(200);
}

function sitemapOf(text: string): { loc: string; lastmod?: string }[] {
  expect(XMLValidator.validate(text)).toBe(true);
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", isArray: (name) => name === "url" }).parse(text);
  expect(doc.urlset["@xmlns"]).toBe("http://www.sitemaps.org/schemas/sitemap/0.9");
  return doc.urlset.url;
}

/** The markdown links of a text: [label](url). */
function linksOf(text: string): Map<string, string> {
  return new Map([...text.matchAll(/\[([^\]]+)\]\(([^)\s]+)\)/g)].map((m) => [m[1]!, m[2]!]));
}

describe("GET /robots.txt", () => {
  it("allows everything and points to the sitemap, as text/plain with CORS and an ETag", async () => {
    const r = await call(server.url, "/robots.txt");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expectCors(r.headers);
    expect(r.text).toMatch(/^User-agent: \*$/m);
    expect(r.text).toMatch(/^Allow: \/$/m);
    expect(r.text).not.toMatch(/^Disallow:\s*\S/m);
    expect(r.text).toMatch(new RegExp(`^Sitemap: ${SITE}/sitemap\\.xml$`, "m"));
    const etag = r.headers.get("etag")!;
    expect((await call(server.url, "/robots.txt", { headers: { "If-None-Match": etag } })).status).toBe(304);
  });
});

describe("GET /sitemap.xml", () => {
  it("lists home, every archive page and every published episode page with its publication date, as XML", async () => {
    c.set(NOW0);
    const r = await call(server.url, "/sitemap.xml");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expectCors(r.headers);
    const urls = sitemapOf(r.text);
    const pages = [...published, unnumbered].map((e) => ({ loc: `${SITE}/episodes/${e.episodeNumber ?? e.id}`, lastmod: String(e.publishedAt).slice(0, 10) }));
    expect(urls.map((u) => u.loc).sort()).toEqual([`${SITE}/`, `${SITE}/episodes`, `${SITE}/episodes?page=2`, ...pages.map((p) => p.loc)].sort());
    for (const p of pages) expect(urls.find((u) => u.loc === p.loc)!.lastmod).toBe(p.lastmod);
    expect(r.text).not.toContain(`/episodes/${scheduled.episodeNumber}<`);
    expect(r.text).not.toContain(`/episodes/${draft.episodeNumber}<`);
  });

  it("every URL it lists answers 200", async () => {
    c.set(NOW0);
    await expectAllOk(sitemapOf((await call(server.url, "/sitemap.xml")).text).map((u) => u.loc));
  });

  it("adds a scheduled episode's page at its time without a rebuild, with a new ETag, and 304s an unchanged one", async () => {
    c.set(SCHEDULED_AT - 1);
    const before = await call(server.url, "/sitemap.xml");
    expect(before.text).not.toContain(`${SITE}/episodes/${scheduled.episodeNumber}<`);
    const etag = before.headers.get("etag")!;
    expect((await call(server.url, "/sitemap.xml", { headers: { "If-None-Match": etag } })).status).toBe(304);
    c.set(SCHEDULED_AT);
    const after = await call(server.url, "/sitemap.xml");
    expect(after.text).toContain(`<loc>${SITE}/episodes/${scheduled.episodeNumber}</loc>`);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect((await call(server.url, "/sitemap.xml", { headers: { "If-None-Match": etag } })).status).toBe(200);
    c.set(NOW0);
  });
});

describe("GET /llms.txt", () => {
  it("is llmstxt.org markdown as text/plain: the show's title, its summary, then sections of links", async () => {
    const r = await call(server.url, "/llms.txt");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expectCors(r.headers);
    const lines = r.text.split("\n");
    expect(lines[0]).toBe(`# ${PODCAST.title}`);
    expect(lines[2]).toBe(`> ${PODCAST.description}`);
    expect(lines.filter((l) => l.startsWith("## ")).length).toBeGreaterThanOrEqual(3);
    expect(lines.filter((l) => l.startsWith("# ")).length).toBe(1);
  });

  it("links the discovery document, OpenAPI, both feeds, MCP, the transcript pattern, the archive and the terms", async () => {
    const links = [...linksOf((await call(server.url, "/llms.txt")).text).values()];
    for (const want of [`${API}/v1`, `${API}/v1/openapi.json`, `${SITE}/feed.xml`, `${SITE}/feed.json`, `${API}/mcp`, `${API}/v1/episodes/{ref}/transcript`, `${SITE}/episodes`, `${SITE}/terms`]) {
      expect(links).toContain(want);
    }
  });

  it("every URL it links answers 200 (the transcript pattern with a real episode); MCP is routed", async () => {
    const links = [...linksOf((await call(server.url, "/llms.txt")).text).values()];
    const mcp = `${API}/mcp`;
    await expectAllOk(links.filter((u) => u !== mcp).map((u) => u.replace("{ref}", "1")));
    // The MCP endpoint speaks JSON-RPC over POST; a plain GET need not be 200, but the path exists.
    expect((await fetchUrl(mcp)).status).not.toBe(404);
  });
});

describe("discovery links", () => {
  it("names both feeds, the MCP endpoint and llms.txt, and the feeds and llms.txt answer", async () => {
    const { links } = json((await call(server.url, "/v1")));
    expect(links.feed).toBe(`${SITE}/feed.xml`);
    expect(links.jsonFeed).toBe(`${SITE}/feed.json`);
    expect(links.mcp).toBe(`${API}/mcp`);
    expect(links.llms).toBe(`${SITE}/llms.txt`);
    await expectAllOk([links.feed, links.jsonFeed, links.llms]);
  });

  it("pages declare both feeds in their head", async () => {
    for (const path of ["/", "/episodes/1", "/episodes", "/terms", "/episodes/999999"]) {
      const r = await call(server.url, path);
      expect(r.text, path).toMatch(new RegExp(`<link rel="alternate" type="application/rss\\+xml" title="${PODCAST.title}" href="${SITE}/feed\\.xml"\\s*/?>`));
      expect(r.text, path).toMatch(new RegExp(`<link rel="alternate" type="application/feed\\+json" title="${PODCAST.title}" href="${SITE}/feed\\.json"\\s*/?>`));
    }
  });
});
