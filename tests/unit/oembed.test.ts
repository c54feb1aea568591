// oEmbed's pure rules: the body for each size, the iframe markup, the query and which URLs are
// episode pages of the site.
import { describe, expect, it } from "vitest";
import { oembedOf, pageMomentOf, pageRefOf, parseOembedQuery, playerIframe, type OembedFacts } from "../../src/shared/oembed.ts";

const facts: OembedFacts = {
  title: `A "quoted" <title> & more`,
  embedUrl: "https://pod.example/embed/7",
  providerName: "Show",
  providerUrl: "https://pod.example/",
  authorName: "Studio",
  authorUrl: "https://pod.example/",
  coverUrl: null,
};

describe("oEmbed body", () => {
  it("is rich at the default width, 600 px, and 180 px high", () => {
    const b = oembedOf(facts);
    expect(b).toMatchObject({ version: "1.0", type: "rich", width: 600, height: 180, cache_age: 3600 });
  });

  it("honours maxwidth down to 250 and caps it at 1200; below 250 or under 180 high it is a link", () => {
    expect(oembedOf(facts, { maxwidth: 250, maxheight: null })).toMatchObject({ type: "rich", width: 250 });
    expect(oembedOf(facts, { maxwidth: 9999, maxheight: 500 })).toMatchObject({ type: "rich", width: 1200 });
    expect(oembedOf(facts, { maxwidth: 249, maxheight: null }).type).toBe("link");
    expect(oembedOf(facts, { maxwidth: null, maxheight: 179 }).type).toBe("link");
  });

  it("states thumbnails as a set of three when there is a cover", () => {
    const b = oembedOf({ ...facts, coverUrl: "https://img.example/c.jpg" });
    expect([b.thumbnail_url, b.thumbnail_width, b.thumbnail_height]).toEqual(["https://img.example/c.jpg", 1400, 1400]);
  });

  it("escapes the title in the iframe", () => {
    expect(playerIframe(facts.embedUrl, facts.title, 400)).toBe(
      '<iframe src="https://pod.example/embed/7" width="400" height="180" frameborder="0" title="Audio player: A &quot;quoted&quot; &lt;title&gt; &amp; more"></iframe>',
    );
  });
});

describe("oEmbed query", () => {
  const q = (s: string) => parseOembedQuery(new URLSearchParams(s));
  it("requires url, accepts only json, reads whole pixel sizes and ignores the rest", () => {
    expect(q("")).toEqual({ ok: false, problem: "missing_url" });
    expect(q("url=%20")).toEqual({ ok: false, problem: "missing_url" });
    expect(q("url=x&format=xml")).toEqual({ ok: false, problem: "unsupported_format" });
    expect(q("url=x&format=json&maxwidth=300&maxheight=abc&foo=1")).toEqual({ ok: true, url: "x", size: { maxwidth: 300, maxheight: null } });
  });

  it("finds the reference in episode page URLs of the site only", () => {
    const site = "https://pod.example";
    expect(pageRefOf("https://pod.example/episodes/7", site)).toBe("7");
    expect(pageRefOf("https://POD.example:443/episodes/7/?a=1#b", site)).toBe("7");
    expect(pageRefOf("http://pod.example/episodes/7", site)).toBeNull();
    expect(pageRefOf("https://pod.example/embed/7", site)).toBeNull();
    expect(pageRefOf("https://pod.example/episodes/7/x", site)).toBeNull();
    expect(pageRefOf("https://user:pw@pod.example/episodes/7", site)).toBeNull();
    expect(pageRefOf("https://evil.example/episodes/7", site)).toBeNull();
    expect(pageRefOf("not a url", site)).toBeNull();
  });
});

describe("a page URL at a moment", () => {
  it("names the moment of its fragment's t, else its query's; none, an invalid one or no URL at all is null", () => {
    expect(pageMomentOf("https://pod.example/episodes/7?t=1:33")).toEqual({ start: 93, end: null });
    expect(pageMomentOf("https://pod.example/episodes/7?t=5#t=10,20")).toEqual({ start: 10, end: 20 });
    expect(pageMomentOf("https://pod.example/episodes/7?utm_source=x")).toBeNull();
    expect(pageMomentOf("https://pod.example/episodes/7?t=soon")).toBeNull();
    expect(pageMomentOf("not a url?t=5")).toBeNull();
  });
});
