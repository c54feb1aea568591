// oEmbed (docs/api.md#get-oembed, https://oembed.com): discovered from the episode page by two
// independent npm consumers, the rich body field by field, the iframe as WordPress keeps it (checked
// by Chromium's HTML parser), maxwidth/maxheight, and the error statuses.
import { extract } from "@extractus/oembed-extractor";
import { unfurl } from "unfurl.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright";
import { clock, episode } from "../support/fixture.ts";
import { closeContexts, sharedChromium } from "./support/browser.ts";
import { browserSite, type BrowserSite } from "./support/site.ts";

const NOW0 = Date.UTC(2026, 5, 1, 12);
const HOSTILE_TITLE = `Quotes "double" & 'single' <b>bold</b> </iframe><script>alert(1)</script>`;
const COVER = "https://images.example.org/covers/3.jpg";
const UUID3 = "c0ffee00-1234-4abc-8def-0123456789ab";

const c = clock(NOW0);
let fx: BrowserSite;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  fx = await browserSite(
    "oembed",
    [
      { episode: episode({ episodeNumber: 1, title: "Plain title", publishedAt: new Date(NOW0 - 86_400_000).toISOString() }) },
      { episode: episode({ episodeNumber: 2, title: HOSTILE_TITLE, publishedAt: new Date(NOW0 - 3_600_000).toISOString() }) },
      { episode: episode({ id: UUID3, episodeNumber: 3, title: "With a cover", coverImageUrl: COVER, publishedAt: new Date(NOW0 - 7_200_000).toISOString() }) },
      { episode: episode({ episodeNumber: 4, title: "Later", publishedAt: new Date(NOW0 + 3_600_000).toISOString() }) },
    ],
    { now: c.now },
  );
  browser = await sharedChromium();
  page = await browser.newPage();
});
afterAll(async () => {
  await closeContexts(browser);
  await fx?.close();
});

const pageUrl = (ref: string) => `${fx.origin}/episodes/${ref}`;
const oembed = (query: string) => fetch(`${fx.origin}/oembed?${query}`);
const forPage = (ref: string, extra = "") => oembed(`url=${encodeURIComponent(pageUrl(ref))}${extra}`);

async function episodeLinks(ref: string): Promise<{ embed: string; oembed: string; page: string }> {
  const res = await fetch(`${fx.origin}/v1/episodes/${ref}`);
  return ((await res.json()) as { links: { embed: string; oembed: string; page: string } }).links;
}

/** The html member as Chromium parses it: its top-level elements and the iframe's attributes. */
async function parsed(html: string): Promise<{ tags: string[]; attrs: Record<string, string> }> {
  return page.evaluate((markup) => {
    const t = document.createElement("template");
    t.innerHTML = markup;
    const tags = [...t.content.children].map((e) => e.tagName.toLowerCase());
    const iframe = t.content.querySelector("iframe");
    const attrs: Record<string, string> = {};
    for (const a of iframe ? [...iframe.attributes] : []) attrs[a.name] = a.value;
    return { tags, attrs };
  }, html);
}

describe("discovery by independent consumers", () => {
  it("@extractus/oembed-extractor discovers the endpoint from the episode page and gets the episode's player", async () => {
    const links = await episodeLinks("1");
    const result = (await extract(links.page)) as Record<string, unknown>;
    expect(result.type).toBe("rich");
    expect(result.title).toBe("Plain title");
    expect((await parsed(String(result.html))).attrs.src).toBe(links.embed);
  });

  it("unfurl.js discovers the endpoint from the episode page and gets the episode's player", async () => {
    const links = await episodeLinks("2");
    const result = await unfurl(links.page);
    const o = result.oEmbed as unknown as Record<string, unknown>;
    expect(o.type).toBe("rich");
    expect(o.title).toBe(HOSTILE_TITLE);
    expect(o.height).toBe(180);
    expect((await parsed(String(o.html))).attrs.src).toBe(links.embed);
  });

  it("both consumers, given a page URL at a moment (?t=), get the player starting there", async () => {
    const links = await episodeLinks("1");
    const extracted = (await extract(`${links.page}?t=1m33s`)) as Record<string, unknown>;
    expect((await parsed(String(extracted.html))).attrs.src).toBe(`${links.embed}?t=93`);
    const unfurled = (await unfurl(`${links.page}?t=1:02:03,1:02:10`)).oEmbed as unknown as Record<string, unknown>;
    expect(unfurled.type).toBe("rich");
    expect((await parsed(String(unfurled.html))).attrs.src).toBe(`${links.embed}?t=3723,3730`);
  });

  it("a page URL with #t= (which consumers never send to the page) embeds the player at that moment", async () => {
    const body = (await (await oembed(`url=${encodeURIComponent(`${pageUrl("1")}#t=npt:90`)}`)).json()) as { html: string };
    expect((await parsed(body.html)).attrs.src).toBe(`${fx.origin}/embed/1?t=90`);
    const sized = (await (await oembed(`url=${encodeURIComponent(`${pageUrl("1")}?t=90`)}&maxwidth=300`)).json()) as { html: string; width: number };
    expect(sized.width).toBe(300);
    expect((await parsed(sized.html)).attrs).toMatchObject({ src: `${fx.origin}/embed/1?t=90`, width: "300" });
  });

  it("the API's links.oembed gives the same response as the page's discovery link", async () => {
    const links = await episodeLinks("3");
    const html = await (await fetch(links.page)).text();
    const href = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(html)![1]!.replaceAll("&amp;", "&");
    expect(href).toBe(links.oembed);
    const a = await fetch(links.oembed);
    expect(a.status).toBe(200);
    expect(await a.text()).toBe(await (await forPage("3")).text());
  });
});

describe("the rich response", () => {
  it("has exactly the oEmbed 1.0 members with integer sizes and height 180", async () => {
    const res = await forPage("1");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(
      ["author_name", "author_url", "cache_age", "height", "html", "provider_name", "provider_url", "title", "type", "version", "width"].sort(),
    );
    expect(body).toMatchObject({
      version: "1.0",
      type: "rich",
      title: "Plain title",
      provider_name: "Fixture Show",
      provider_url: `${fx.origin}/`,
      author_name: "Test Suite",
      width: 600,
      height: 180,
    });
    expect(Number.isInteger(body.cache_age)).toBe(true);
    expect(Number.isInteger(body.width)).toBe(true);
  });

  it("html is a single iframe of the episode's player with only the attributes WordPress keeps", async () => {
    const body = (await (await forPage("1")).json()) as { html: string };
    const { tags, attrs } = await parsed(body.html);
    expect(tags).toEqual(["iframe"]);
    expect(Object.keys(attrs).sort()).toEqual(["frameborder", "height", "src", "title", "width"]);
    expect(attrs).toEqual({ src: `${fx.origin}/embed/1`, width: "600", height: "180", frameborder: "0", title: "Audio player: Plain title" });
  });

  it("escapes titles with quotes, angle brackets and ampersands, in the html and in JSON", async () => {
    const body = (await (await forPage("2")).json()) as { html: string; title: string };
    expect(body.title).toBe(HOSTILE_TITLE);
    expect(body.html).not.toContain("<b>");
    expect(body.html).not.toContain("<script>");
    const { tags, attrs } = await parsed(body.html);
    expect(tags).toEqual(["iframe"]);
    expect(attrs.title).toBe(`Audio player: ${HOSTILE_TITLE}`);
    expect(attrs.src).toBe(`${fx.origin}/embed/2`);
  });

  it("gives the three thumbnail fields together when the episode has a cover, and none without", async () => {
    const withCover = (await (await forPage(UUID3.toUpperCase())).json()) as Record<string, unknown>;
    expect(withCover.thumbnail_url).toBe(COVER);
    expect(Number.isInteger(withCover.thumbnail_width)).toBe(true);
    expect(Number.isInteger(withCover.thumbnail_height)).toBe(true);
    const without = (await (await forPage("1")).json()) as Record<string, unknown>;
    for (const k of ["thumbnail_url", "thumbnail_width", "thumbnail_height"]) expect(without).not.toHaveProperty(k);
  });

  it("a page URL by UUID, with a trailing slash, a query or a fragment resolves to the canonical player", async () => {
    for (const u of [pageUrl(UUID3.toUpperCase()), `${pageUrl("3")}/`, `${pageUrl("3")}?utm_source=x`, `${pageUrl("3")}#chapters`]) {
      const res = await oembed(`url=${encodeURIComponent(u)}&format=json&unknown=1`);
      expect(res.status, u).toBe(200);
      const { attrs } = await parsed(((await res.json()) as { html: string }).html);
      expect(attrs.src).toBe(`${fx.origin}/embed/3`);
    }
  });
});

describe("maxwidth and maxheight", () => {
  async function sized(extra: string): Promise<Record<string, unknown>> {
    const res = await forPage("1", extra);
    expect(res.status).toBe(200);
    return (await res.json()) as Record<string, unknown>;
  }

  it("maxwidth is honoured down to the player's 250 px minimum, in width and in the iframe", async () => {
    for (const w of [250, 400, 599]) {
      const body = await sized(`&maxwidth=${w}`);
      expect(body.type).toBe("rich");
      expect(body.width).toBe(w);
      expect(body.height).toBe(180);
      expect((await parsed(String(body.html))).attrs.width).toBe(String(w));
    }
    expect((await sized("&maxwidth=5000")).width).toBe(1200);
    expect((await sized("&maxwidth=abc")).width).toBe(600);
    expect((await sized("&maxheight=180")).type).toBe("rich");
  });

  it("a maxwidth below 250 or a maxheight below 180 answers a link-type response", async () => {
    for (const extra of ["&maxwidth=249", "&maxheight=179", "&maxwidth=100&maxheight=100"]) {
      const body = await sized(extra);
      expect(body.type).toBe("link");
      expect(body.version).toBe("1.0");
      expect(body.title).toBe("Plain title");
      for (const k of ["html", "width", "height"]) expect(body).not.toHaveProperty(k);
    }
  });
});

describe("errors", () => {
  it("a missing or empty url is 400", async () => {
    for (const q of ["", "format=json", "url="]) {
      const res = await oembed(q);
      expect(res.status, q).toBe(400);
      expect(((await res.json()) as { error: { parameter: string } }).error.parameter).toBe("url");
    }
  });

  it("a format other than json is 501", async () => {
    for (const f of ["xml", "JSON", ""]) expect((await forPage("1", `&format=${f}`)).status, f).toBe(501);
  });

  it("a URL that is not a published episode page of this site is 404", async () => {
    const urls = [
      "https://elsewhere.example/episodes/1",
      `${fx.origin.replace("127.0.0.1", "localhost")}/episodes/1`,
      `${fx.origin}/embed/1`,
      `${fx.origin}/episodes/99`,
      `${fx.origin}/episodes/not-a-ref`,
      `${fx.origin}/episodes/1/extra`,
      `${fx.origin}/episodes/4`,
      `${fx.origin}/`,
      "not a url",
    ];
    for (const u of urls) expect((await oembed(`url=${encodeURIComponent(u)}`)).status, u).toBe(404);
  });

  it("a scheduled episode's page becomes embeddable at its publication time, without a rebuild", async () => {
    expect((await forPage("4")).status).toBe(404);
    c.set(NOW0 + 3_600_000);
    expect((await forPage("4")).status).toBe(200);
    c.set(NOW0);
  });
});
