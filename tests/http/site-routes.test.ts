// Episode pages, the player route and the home page through the real server (docs/api.md#site-routes,
// docs/api.md#publication): references by number or UUID, the publication clock without a rebuild, 404 pages,
// the player's CSP, theme and accent, what the pages say, and moments (?t= on a page, oEmbed with t).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clock, episode, script, timedScript } from "../support/fixture.ts";
import { browserSite, type BrowserSite } from "../browser/support/site.ts";

const NOW0 = Date.UTC(2026, 5, 1, 12);
const HOUR = 3_600_000;
const at = (ms: number) => new Date(ms).toISOString();

const PUBLISHED_ID = "11111111-2222-4333-8444-555555555555";
const SCHEDULED_ID = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";
const UNNUMBERED_ID = "12345678-90ab-4cde-8f01-234567890abc";
const published = episode({
  id: PUBLISHED_ID,
  episodeNumber: 7,
  title: "Keys & <Locks> \"quoted\"",
  summary: "A summary of seven.",
  description: "The long description of seven.",
  publishedAt: at(NOW0 - 48 * HOUR),
  durationSeconds: 1445,
  topics: { domains: ["security", "open-source"], concepts: [], entities: [] },
});
const older = episode({ episodeNumber: 6, title: "Older one", publishedAt: at(NOW0 - 72 * HOUR) });
const unnumbered = episode({ id: UNNUMBERED_ID, episodeNumber: null, title: "Bonus without number", publishedAt: at(NOW0 - 60 * HOUR) });
const scheduled = episode({ id: SCHEDULED_ID, episodeNumber: 8, title: "Scheduled secret title", publishedAt: at(NOW0 + HOUR) });
const draft = episode({ episodeNumber: 9, title: "Draft secret title", status: "draft", publishedAt: at(NOW0 - HOUR) });

const c = clock(NOW0);
let fx: BrowserSite;

beforeAll(async () => {
  fx = await browserSite(
    "site-routes",
    [
      {
        episode: published,
        script: {
          chapters: [{ title: "Opening chapter", summary: "How it starts.", takeaways: ["First takeaway", "Second takeaway"] }],
          segments: [
            { speaker: "a", text: "Hello [laughs] there." },
            { speaker: "b", text: "Hi back." },
          ],
        },
      },
      { episode: older, script: timedScript([["a", "Hello."], ["b", "Hi."], ["a", "Bye."]]) },
      { episode: unnumbered },
      { episode: scheduled, script: script() },
      { episode: draft },
    ],
    { now: c.now },
  );
});
afterAll(async () => {
  await fx?.close();
});

const get = (path: string, init?: RequestInit) => fetch(`${fx.origin}${path}`, init);
async function html(path: string): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await get(path);
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe("episode pages", () => {
  it("are served by number and by UUID in any letter case, with the canonical URL of the number", async () => {
    for (const ref of ["7", PUBLISHED_ID, PUBLISHED_ID.toUpperCase()]) {
      const page = await html(`/episodes/${ref}`);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(page.text).toContain(`<link rel="canonical" href="${fx.origin}/episodes/7">`);
    }
  });

  it("declare the absolute oEmbed endpoint early in the head, with the percent-encoded page URL", async () => {
    const page = await html("/episodes/7");
    const m = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(page.text);
    expect(m).not.toBeNull();
    expect(m!.index).toBeLessThan(1024);
    expect(m!.index).toBeLessThan(page.text.indexOf("</head>"));
    const href = m![1]!.replaceAll("&amp;", "&");
    expect(href).toBe(`${fx.origin}/oembed?url=${encodeURIComponent(`${fx.origin}/episodes/7`)}&format=json`);
  });

  it("carry Open Graph tags, title, hosts, date, duration, summary, description, domains, player, chapters, takeaways, transcript and credit", async () => {
    const { text } = await html("/episodes/7");
    for (const tag of ["og:title", "og:description", "og:url", "og:type", "og:site_name", "og:audio"]) expect(text).toContain(`property="${tag}"`);
    expect(text).toContain(`<meta property="og:url" content="${fx.origin}/episodes/7">`);
    expect(text).toContain("Keys &amp; &lt;Locks&gt; &quot;quoted&quot;");
    expect(text).toContain("Ada Optimist");
    expect(text).toContain("Bo Skeptic");
    expect(text).toContain('<time datetime="2026-05-30">30 May 2026</time>');
    expect(text).toContain("24 min");
    expect(text).toContain("A summary of seven.");
    expect(text).toContain("The long description of seven.");
    expect(text).toContain("<li>security</li>");
    expect(text).toContain("<li>open-source</li>");
    expect(text).toContain(`<iframe src="${fx.origin}/embed/7"`);
    expect(text).toContain("Opening chapter");
    expect(text).toContain("Second takeaway");
    expect(text).toMatch(/<span class="speaker">Ada Optimist:<\/span> Hello there\./);
    expect(text).toMatch(/<span class="speaker">Bo Skeptic:<\/span> Hi back\./);
    expect(text).toContain(`${fx.origin}/episodes/7</p>`); // the citation names the page URL
    expect(text).toContain(`href="${fx.origin}/terms"`);
  });

  it("answer 404 with the HTML not-found page for unknown, malformed, draft and raw file references", async () => {
    for (const path of ["/episodes/99", "/episodes/abc", "/episodes/9", "/episodes/7.html", "/episodes/7/", "/episodes?page=2", "/episodes/00000000-0000-4000-8000-000000000000"]) {
      const page = await html(path);
      expect(page.status, path).toBe(404);
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(page.text).toContain("<h1>Not found</h1>");
    }
  });

  it("an episode without a number is served by its UUID", async () => {
    const page = await html(`/episodes/${UNNUMBERED_ID}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<link rel="canonical" href="${fx.origin}/episodes/${UNNUMBERED_ID}">`);
  });
});

describe("the publication clock", () => {
  it("keeps a scheduled episode's page, player, oEmbed and home entry out until its time, then serves them without a rebuild", async () => {
    c.set(NOW0);
    const pageUrl = encodeURIComponent(`${fx.origin}/episodes/8`);
    const before = await Promise.all(["/episodes/8", `/episodes/${SCHEDULED_ID}`, "/embed/8", `/oembed?url=${pageUrl}`, "/episodes/8.html", "/embed/8.html", "/_api/oembed/8.json"].map((p) => get(p)));
    expect(before.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    expect((await html("/")).text).not.toContain("Scheduled secret title");
    expect((await html("/embed/latest")).text).toContain('data-id="' + PUBLISHED_ID + '"');

    c.set(NOW0 + HOUR);
    const after = await Promise.all(["/episodes/8", `/episodes/${SCHEDULED_ID}`, "/embed/8", `/oembed?url=${pageUrl}`].map((p) => get(p)));
    expect(after.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect((await html("/")).text).toContain("Scheduled secret title");
    expect((await html("/embed/latest")).text).toContain('data-id="' + SCHEDULED_ID + '"');
    c.set(NOW0);
  });

  it("never shows a draft anywhere", async () => {
    expect((await html("/")).text).not.toContain("Draft secret title");
    expect((await get("/embed/9")).status).toBe(404);
  });
});

describe("the player route", () => {
  it("is frameable by any site and locks itself down with a CSP: scripts from its own origin, no inline code", async () => {
    for (const path of ["/embed/7", "/embed/latest", `/embed/${PUBLISHED_ID.toUpperCase()}`]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-frame-options")).toBeNull();
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).toContain("frame-ancestors *");
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toContain("unsafe-inline");
      const text = await res.text();
      expect(text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/); // every script has a src
      expect(text).not.toMatch(/\son[a-z]+=/i); // no inline event handlers
      expect(text).not.toMatch(/\sstyle=/i);
    }
  });

  it("/embed/latest follows new publications with a short cache; an episode's player caches longer", async () => {
    const latest = await get("/embed/latest");
    expect(latest.headers.get("cache-control")).toBe("public, max-age=60");
    expect((await get("/embed/7")).headers.get("cache-control")).toBe("public, max-age=300");
  });

  it("theme=dark gives the dark palette; any other theme is light", async () => {
    expect((await html("/embed/7?theme=dark")).text).toContain('<html lang="en" data-theme="dark">');
    for (const q of ["", "?theme=DARK", "?theme=blue", "?theme=dark%22"]) expect((await html(`/embed/7${q}`)).text).toContain('<html lang="en" data-theme="light">');
    const light = await get("/embed/7");
    const dark = await get("/embed/7?theme=dark");
    expect(dark.headers.get("etag")).not.toBe(light.headers.get("etag"));
    expect((await get("/embed/7?theme=dark", { headers: { "If-None-Match": dark.headers.get("etag")! } })).status).toBe(304);
  });

  it("accent=RRGGBB is applied by the server with its contrast guaranteed, in any letter case, as its own representation", async () => {
    const plain = await get("/embed/7");
    const red = await get("/embed/7?accent=C00000");
    const text = await red.text();
    expect(text).toContain('<html lang="en" data-theme="light" data-accent="#c00000" data-on-accent="#ffffff">');
    expect(text).toBe(await (await get("/embed/7?accent=c00000")).text());
    expect(red.headers.get("etag")).not.toBe(plain.headers.get("etag"));
    // White on white is nudged toward black until it reads; yellow on the dark background is kept.
    expect((await html("/embed/7?accent=ffffff")).text).not.toContain('data-accent="#ffffff"');
    expect((await html("/embed/7?theme=dark&accent=ffd54f")).text).toContain('data-theme="dark" data-accent="#ffd54f" data-on-accent="#16181c"');
    expect((await get("/embed/7?accent=C00000", { headers: { "If-None-Match": red.headers.get("etag")! } })).status).toBe(304);
  });

  it("never writes the accent or other query values into the page", async () => {
    const hostile = encodeURIComponent(`ff0000"><script>alert(1)</script><style>`);
    const { text } = await html(`/embed/7?accent=${hostile}&foo=%3Cb%3E`);
    expect(text).not.toContain("alert(1)");
    expect(text).not.toContain("<b>");
    expect(text).toBe((await html("/embed/7")).text);
  });

  it("answers a small styled 404 page, itself frameable, for unknown, malformed and unpublished references", async () => {
    for (const path of ["/embed/99", "/embed/nope", "/embed/8", "/embed/7.html", "/embed", "/embed/7/x"]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors *");
      expect(await res.text()).toContain("Episode not found");
    }
  });

  it("holds the episode data in the server-rendered page, with a native audio control that loads nothing before play", async () => {
    const { text } = await html("/embed/7");
    expect(text).toContain(`data-id="${PUBLISHED_ID}"`);
    expect(text).toContain('data-number="7"');
    expect(text).toContain('data-duration="1445"');
    expect(text).toMatch(new RegExp(`<audio class="native" controls preload="none" src="${fx.origin}/v1/episodes/7/audio">`));
    expect(text).toContain(`href="${fx.origin}/v1/episodes/7/audio?download=1"`);
    expect(text).toContain(`href="${fx.origin}/episodes/7" target="_blank"`);
  });

  it("serves hashed assets for a year, immutable, and HEAD like GET without a body", async () => {
    const { text } = await html("/embed/7");
    const assets = [...text.matchAll(/(?:src|href)="(\/_astro\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBe(2);
    for (const a of assets) {
      const res = await get(a);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      const head = await get(a, { method: "HEAD" });
      expect(head.status).toBe(200);
      expect(head.headers.get("content-length")).toBe(res.headers.get("content-length"));
      expect(await head.text()).toBe("");
    }
  });
});

describe("moments", () => {
  it("a timed page begins each chapter and turn with its time as a ?t= link, and an untimed one has none", async () => {
    const timed = (await html("/episodes/6")).text;
    expect(timed).toMatch(/<h3><a class="t" href="\?t=0">0:00<\/a> <span dir="auto">Only chapter<\/span><\/h3>/);
    expect(timed).toMatch(/<p><a class="t" href="\?t=2">0:02<\/a> <span class="speaker">Bo Skeptic:<\/span> Hi\.<\/p>/);
    expect([...timed.matchAll(/<p><a class="t" href="\?t=(\d+)">/g)].map((m) => m[1])).toEqual(["0", "2", "4"]);
    expect(timed).toContain('<h3 id="transcript-1" dir="auto">Only chapter</h3>');
    expect((await html("/episodes/7")).text).not.toContain('class="t"');
  });

  it("?t= on a page starts its player there and names the page at that moment for oEmbed; an invalid t is the plain page", async () => {
    const plain = await get("/episodes/7");
    const plainText = await plain.text();
    for (const [t, canonical] of [["93", "93"], ["1m33s", "93"], ["npt%3A1%3A33", "93"], ["1:33,2:00", "93,120"], ["93.5", "93.5"]] as const) {
      const res = await get(`/episodes/7?t=${t}`);
      expect(res.status, t).toBe(200);
      const text = await res.text();
      expect(text, t).toContain(`<iframe src="${fx.origin}/embed/7?t=${canonical}"`);
      const oembed = /type="application\/json\+oembed" href="([^"]+)"/.exec(text)![1]!.replaceAll("&amp;", "&");
      expect(oembed).toBe(`${fx.origin}/oembed?url=${encodeURIComponent(`${fx.origin}/episodes/7?t=${canonical}`)}&format=json`);
      expect(text).toContain(`<link rel="canonical" href="${fx.origin}/episodes/7">`);
      expect(res.headers.get("etag")).not.toBe(plain.headers.get("etag"));
      expect(res.headers.get("content-security-policy")).toBe(plain.headers.get("content-security-policy"));
      expect((await get(`/episodes/7?t=${t}`, { headers: { "If-None-Match": res.headers.get("etag")! } })).status).toBe(304);
    }
    for (const t of ["abc", "-5", "10,5", "1:60", ""]) {
      const res = await get(`/episodes/7?t=${t}`);
      expect(await res.text(), t).toBe(plainText);
      expect(res.headers.get("etag"), t).toBe(plain.headers.get("etag"));
    }
  });

  it("pages run scripts from their own origin only", async () => {
    const csp = (await get("/episodes/6")).headers.get("content-security-policy")!;
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toContain("unsafe-inline");
    const text = (await html("/episodes/6")).text;
    expect(text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
  });

  it("oEmbed embeds the player at the moment a page URL names with ?t= or #t=, and the plain player otherwise", async () => {
    const oembedFor = async (page: string) => {
      const res = await get(`/oembed?url=${encodeURIComponent(page)}`);
      expect(res.status, page).toBe(200);
      return /src="([^"]+)"/.exec(((await res.json()) as { html: string }).html)![1]!.replaceAll("&amp;", "&");
    };
    expect(await oembedFor(`${fx.origin}/episodes/7?t=1:33`)).toBe(`${fx.origin}/embed/7?t=93`);
    expect(await oembedFor(`${fx.origin}/episodes/7#t=npt:10,20`)).toBe(`${fx.origin}/embed/7?t=10,20`);
    expect(await oembedFor(`${fx.origin}/episodes/${PUBLISHED_ID}?utm=x&t=5#chapters`)).toBe(`${fx.origin}/embed/7?t=5`);
    expect(await oembedFor(`${fx.origin}/episodes/7?t=soon`)).toBe(`${fx.origin}/embed/7`);
    const plain = await get(`/oembed?url=${encodeURIComponent(`${fx.origin}/episodes/7`)}`);
    const invalid = await get(`/oembed?url=${encodeURIComponent(`${fx.origin}/episodes/7?t=soon`)}`);
    expect(invalid.headers.get("etag")).toBe(plain.headers.get("etag"));
  });
});

describe("home and terms", () => {
  it("the home page lists the published episodes newest first with links to their pages", async () => {
    const { status, text, headers } = await html("/");
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toBe("public, max-age=60");
    const links = [...text.matchAll(/<h3><a href="([^"]+)"/g)].map((m) => m[1]);
    expect(links).toEqual([`${fx.origin}/episodes/7`, `${fx.origin}/episodes/${UNNUMBERED_ID}`, `${fx.origin}/episodes/6`]);
    expect(text).toContain("Keys &amp; &lt;Locks&gt; &quot;quoted&quot;");
  });

  it("the terms page states the usage terms and is where the API's license link points", async () => {
    const api = await get("/v1/episodes/7");
    expect(api.headers.get("link")).toBe(`<${fx.origin}/terms>; rel="license"`);
    const { status, text } = await html("/terms");
    expect(status).toBe(200);
    expect(text).toMatch(/credit/i);
    expect(text).toMatch(/link to the episode/i);
    expect(text).toMatch(/re-host the full archive as a feed, an app or a dataset/);
    expect(text).toMatch(/rate limits/);
    expect(text).toMatch(/corrected or removed/);
  });

  it("an unknown page is a 404 HTML page", async () => {
    const res = await get("/no/such/page");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  });
});
