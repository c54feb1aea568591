// The podcast feeds, /feed.xml and /feed.json (docs/api.md#feed), through the real server. The RSS
// feed read back by two independent parsers (podcast-partytime, the Podcasting 2.0 reference
// parser, and rss-parser) and a strict XML validator, every item checked against the API's own JSON
// for the same episode, the directory tags of the channel and items included, and held to the rules
// of Apple's podcast RSS guide (tests/support/apple-podcasts.ts) with each enclosure checked against
// the file it names; the WebSub hub and Podping it declares when they are configured. The JSON Feed
// validated by a JSON Schema of JSON Feed 1.1 and holding the RSS feed's items. Both: markup
// escaped; the publication clock without a rebuild; ETag/304, HEAD, CORS, the license Link;
// FEED_LIMIT.
import { Ajv } from "ajv";
import formats from "ajv-formats";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { parseFeed, type Episode as PartyEpisode, type FeedObject } from "podcast-partytime";
import Parser from "rss-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GENERATOR } from "../../functions/routes/feed.ts";
import type { RunningServer } from "../../functions/node/main.ts";
import { podcastGuid } from "../../src/shared/uuid-v5.ts";
import { appleFeedProblems } from "../support/apple-podcasts.ts";
import { clock, episode, sharedSite, PODCAST, removeSite, script, serveSite, type EpisodeSpec, type Site } from "../support/fixture.ts";
import { call, expectCors, expectLicense, json, NO_LIMITS, TONE } from "../support/http.ts";
import jsonFeedSchema from "../support/json-feed-1.1.schema.json" with { type: "json" };

const NOW0 = Date.UTC(2026, 5, 1, 12);
const HOUR = 3_600_000;
const at = (ms: number) => new Date(ms).toISOString();
const SITE_URL = "http://localhost:4321";
const FEED_URL = `${SITE_URL}/feed.xml`;
const JSON_FEED_URL = `${SITE_URL}/feed.json`;
const TERMS = `${SITE_URL}/terms`;
const COVER = "https://cdn.example.test/cover.jpg";
const MARKUP = `<b>Tom & "Jerry"</b> it's ]]> here`;
const OWNER = "owner@example.test";
/** The show as directories read it: every field of podcast.json's that the channel says. */
const SHOW = {
  ...PODCAST,
  coverImageUrl: COVER,
  categories: [{ category: "Technology" }, { category: "News", subcategory: "Tech News" }, { category: "Kids & Family", subcategory: "Pets & Animals" }],
  type: "episodic",
  explicit: true,
  updateFrequency: "daily",
  locked: true,
  ownerEmail: OWNER,
};

const markup = episode({
  episodeNumber: 1,
  title: MARKUP,
  description: "Long <i>description</i> & more.",
  durationSeconds: 125,
  season: 2,
  coverImageUrl: "https://cdn.example.test/ep1.jpg",
  publishedAt: at(NOW0 - 3 * HOUR),
});
const unnumbered = episode({ episodeNumber: null, title: "Bonus", summary: "Only a summary.", publishedAt: at(NOW0 - 2 * HOUR) });
const third = episode({ episodeNumber: 3, title: "Third", durationSeconds: 3725, season: 1, publishedAt: at(NOW0 - HOUR) });
const unparseable = episode({ episodeNumber: 6, title: "Broken script", publishedAt: at(NOW0 - 4 * HOUR) });
const SCHEDULED_AT = NOW0 + 20_000;
const scheduled = episode({ episodeNumber: 4, title: "Scheduled title", publishedAt: at(SCHEDULED_AT) });
const draft = episode({ episodeNumber: 5, title: "Draft title", status: "draft", publishedAt: at(NOW0 - 5 * HOUR) });

const specs: EpisodeSpec[] = [
  { episode: markup, script: script(), audio: TONE },
  { episode: unnumbered },
  { episode: third, script: script(), audio: TONE },
  { episode: unparseable, script: "{ not json", audio: TONE },
  { episode: scheduled, script: script(), audio: TONE },
  { episode: draft, script: script(), audio: TONE },
];

type Ep = Record<string, any>;
const refOf = (e: Ep) => String(e.episodeNumber ?? e.id);
/** The published episodes at `now`, newest first. */
const publishedAt = (now: number) =>
  specs
    .map((s) => s.episode as Ep)
    .filter((e) => e.status !== "draft" && Date.parse(e.publishedAt) <= now)
    .sort((a, b) => Date.parse(b.publishedAt) - Date.parse(a.publishedAt));

let site: Site;
let server: RunningServer;
let limited: RunningServer;
let announced: RunningServer;
const c = clock(NOW0);
const HUB = "https://hub.example.test/websub";

beforeAll(async () => {
  site = await sharedSite("feed", specs, {}, SHOW);
  server = await serveSite(site, { now: c.now, env: NO_LIMITS });
  limited = await serveSite(site, { now: () => NOW0, env: { ...NO_LIMITS, FEED_LIMIT: "2" } });
  // Its clock stands still, so it never announces (tests/http/announce-schedule.test.ts does).
  announced = await serveSite(site, { now: () => NOW0, env: { ...NO_LIMITS, WEBSUB_HUB: HUB, PODPING_TOKEN: "token", PODPING_URL: "http://127.0.0.1:9/" } });
});
afterAll(async () => {
  await server?.close();
  await limited?.close();
  await announced?.close();
  await removeSite(site);
});

async function feedText(base = server.url): Promise<string> {
  const r = await call(base, "/feed.xml");
  expect(r.status).toBe(200);
  return r.text;
}

/** The API's JSON of each published episode at the server's clock, by id. */
async function apiEpisodes(eps: Ep[]): Promise<Map<string, Ep>> {
  const out = new Map<string, Ep>();
  for (const e of eps) {
    const r = await call(server.url, `/v1/episodes/${refOf(e)}`);
    expect(r.status).toBe(200);
    out.set(e.id, json(r));
  }
  return out;
}

describe("GET /feed.xml", () => {
  it("is well-formed RSS 2.0 with the iTunes, Podcasting 2.0 and Atom namespaces, as application/rss+xml", async () => {
    c.set(NOW0);
    const r = await call(server.url, "/feed.xml");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    expect(XMLValidator.validate(r.text)).toBe(true);
    expect(r.text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const root = /<rss [^>]*>/.exec(r.text)![0];
    expect(root).toContain('version="2.0"');
    expect(root).toContain('xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"');
    expect(root).toContain('xmlns:podcast="https://podcastindex.org/namespace/1.0"');
    expect(root).toContain('xmlns:atom="http://www.w3.org/2005/Atom"');
    expect(r.text).not.toContain("CDATA");
  });

  it("describes the show in the channel, read back by the Podcasting 2.0 reference parser", async () => {
    c.set(NOW0);
    const feed = parseFeed(await feedText()) as FeedObject;
    expect(feed).not.toBeNull();
    expect(feed.title).toBe(PODCAST.title);
    expect(feed.link).toBe(`${SITE_URL}/`);
    expect(feed.description).toBe(PODCAST.description);
    expect(feed.language).toBe(PODCAST.language);
    expect(feed.author).toBe(PODCAST.author);
    expect(feed.itunesImage).toBe(COVER);
    expect(feed.explicit).toBe(true);
    expect(feed.guid).toBe(await podcastGuid(FEED_URL));
    expect(feed.pubsub?.self).toBe(FEED_URL);
  });

  it("gives directories the show's categories, type, explicit flag, cover, lock, medium and generator (partytime)", async () => {
    c.set(NOW0);
    const feed = parseFeed(await feedText()) as FeedObject;
    // partytime keeps only the names on Apple's list, and writes a subcategory after its parent.
    expect(feed.itunesCategory).toEqual(["Technology", "News > Tech News", "Kids & Family > Pets & Animals"]);
    expect(feed.itunesType).toBe("episodic");
    expect(feed.explicit).toBe(true);
    expect(feed.image).toEqual({ url: COVER, title: PODCAST.title, link: `${SITE_URL}/` });
    expect(feed.locked).toBe(true);
    expect(feed.podcastOwner).toBe(OWNER);
    expect(feed.owner).toEqual({ name: PODCAST.author, email: OWNER });
    expect(feed.medium).toBe("podcast");
    expect(feed.generator).toBe(GENERATOR);
  });

  it("gives the same channel to rss-parser, with the release schedule as a recurrence rule", async () => {
    c.set(NOW0);
    const whole = (t: string) => [t, t, { keepArray: true }];
    const fields = [whole("itunes:type"), whole("podcast:medium"), whole("podcast:locked"), whole("podcast:updateFrequency")];
    const feed = (await new Parser({ customFields: { feed: fields as never[] } }).parseString(await feedText())) as Record<string, any>;
    expect(feed.itunes.categoriesWithSubs).toEqual([
      { name: "Technology", subs: null },
      { name: "News", subs: [{ name: "Tech News" }] },
      { name: "Kids & Family", subs: [{ name: "Pets & Animals" }] },
    ]);
    expect(feed.itunes.image).toBe(COVER);
    expect(feed.image).toEqual({ url: COVER, title: PODCAST.title, link: `${SITE_URL}/` });
    expect(feed.itunes.explicit).toBe("true");
    expect(feed.itunes.owner).toEqual({ name: PODCAST.author, email: OWNER });
    expect(feed.generator).toBe(GENERATOR);
    expect(feed["itunes:type"]).toEqual(["episodic"]);
    expect(feed["podcast:medium"]).toEqual(["podcast"]);
    expect(feed["podcast:locked"]).toEqual([{ _: "yes", $: { owner: OWNER } }]);
    expect(feed["podcast:updateFrequency"]).toEqual([{ _: "Daily", $: { rrule: "FREQ=DAILY" } }]);
  });

  it("passes the rules of Apple's podcast RSS guide, each enclosure's length and type those of the file it names", async () => {
    c.set(NOW0);
    const text = await feedText();
    expect(appleFeedProblems(text)).toEqual([]);
    const feed = await new Parser().parseString(text);
    const guids = feed.items.map((i) => i.guid);
    expect(new Set(guids).size).toBe(guids.length);
    const enclosures = feed.items.flatMap((i) => (i.enclosure === undefined ? [] : [i.enclosure]));
    expect(enclosures.length).toBe(3);
    for (const e of enclosures) {
      const file = await call(server.url, new URL(e.url).pathname, { method: "HEAD" });
      expect(file.status, e.url).toBe(200);
      expect(file.headers.get("content-length")).toBe(e.length);
      expect(file.headers.get("content-type")).toBe(e.type);
    }
  });

  it("has one item per published episode, newest first, each matching the API's JSON (partytime: items with audio)", async () => {
    c.set(NOW0);
    const want = publishedAt(NOW0);
    const api = await apiEpisodes(want);
    const feed = parseFeed(await feedText()) as FeedObject;
    // partytime skips items without an enclosure, as podcast apps do.
    const withAudio = want.filter((e) => api.get(e.id)!.audioUrl !== undefined);
    expect(withAudio.length).toBe(3);
    expect(feed.items.map((i) => i.guid)).toEqual(withAudio.map((e) => e.id));
    for (const item of feed.items as PartyEpisode[]) {
      const ep = api.get(item.guid)!;
      expect(item.title).toBe(ep.title);
      expect(item.link).toBe(ep.links.page);
      expect(item.pubDate?.getTime()).toBe(Date.parse(ep.publishedAt));
      expect(item.description).toBe(ep.description ?? ep.summary ?? ep.title);
      expect(item.enclosure).toEqual({ url: ep.links.audio, length: TONE.byteLength, type: "audio/mpeg" });
      if (ep.durationSeconds === null) expect(item.duration).toBe(0);
      else expect(item.duration).toBe(ep.durationSeconds);
      expect(item.itunesEpisode).toBe(ep.episodeNumber ?? undefined);
      expect(item.itunesEpisodeType).toBe("full");
      expect(item.itunesSeason).toBe(ep.season ?? undefined);
      expect(item.podcastSeason?.number).toBe(ep.season ?? undefined);
      expect(item.explicit).toBe(true);
      expect(item.itunesImage).toBe(ep.coverImageUrl ?? undefined);
      const transcript = await call(server.url, new URL(ep.links.transcript).pathname);
      if (transcript.status === 200) expect(item.podcastTranscripts).toEqual([expect.objectContaining({ url: ep.links.transcript, type: "text/plain" })]);
      else expect(item.podcastTranscripts ?? []).toEqual([]);
      // The role is matched case-insensitively against the taxonomy; partytime gives its own label.
      expect(item.podcastPeople?.map((p) => [p.name, p.role.toLowerCase(), p.group?.toLowerCase()])).toEqual([
        [ep.hosts.a, "host", "cast"],
        [ep.hosts.b, "host", "cast"],
      ]);
    }
    // The unparseable script has no transcript, and the reference parser agrees.
    expect(feed.items.find((i) => i.guid === unparseable.id)!.podcastTranscripts ?? []).toEqual([]);
  });

  it("reads the same items with rss-parser, including the one without audio", async () => {
    c.set(NOW0);
    const want = publishedAt(NOW0);
    const api = await apiEpisodes(want);
    const feed = await new Parser({ customFields: { item: ["itunes:episode"] as never[] } }).parseString(await feedText());
    expect(feed.title).toBe(PODCAST.title);
    expect(feed.feedUrl).toBe(FEED_URL);
    expect(feed.items.map((i) => i.guid)).toEqual(want.map((e) => e.id));
    for (const item of feed.items) {
      const ep = api.get(item.guid!)!;
      expect(item.title).toBe(ep.title);
      expect(item.link).toBe(ep.links.page);
      expect(item.isoDate).toBe(new Date(Date.parse(ep.publishedAt)).toISOString());
      expect(item.content).toBe(ep.description ?? ep.summary ?? ep.title);
      if (ep.audioUrl === undefined) expect(item.enclosure).toBeUndefined();
      else expect(item.enclosure).toEqual({ url: ep.links.audio, length: String(TONE.byteLength), type: "audio/mpeg" });
      expect((item as Ep).itunes?.duration).toBe(ep.durationSeconds === null ? undefined : String(ep.durationSeconds));
      expect((item as Ep)["itunes:episode"]).toBe(ep.episodeNumber === null ? undefined : String(ep.episodeNumber));
      expect((item as Ep).itunes?.episodeType).toBe("full");
      expect((item as Ep).itunes?.season).toBe(ep.season === null ? undefined : String(ep.season));
    }
  });

  it("escapes markup in titles and descriptions (never CDATA) and gives them back unchanged", async () => {
    c.set(NOW0);
    const text = await feedText();
    expect(text).toContain("<title>&lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt; it&apos;s ]]&gt; here</title>");
    expect(text).not.toContain("<b>");
    expect(text).not.toContain("<i>");
    const feed = await new Parser().parseString(text);
    expect(feed.items.find((i) => i.guid === markup.id)!.title).toBe(MARKUP);
  });

  it("adds a scheduled episode at its time without a rebuild, and never a draft", async () => {
    c.set(SCHEDULED_AT - 1);
    const before = await call(server.url, "/feed.xml");
    expect(before.text).not.toContain(scheduled.id as string);
    expect(before.text).not.toContain("Scheduled title");
    c.set(SCHEDULED_AT);
    const after = await call(server.url, "/feed.xml");
    const items = (await new Parser().parseString(after.text)).items;
    expect(items.map((i) => i.guid)).toEqual(publishedAt(SCHEDULED_AT).map((e) => e.id));
    expect(items[0]!.guid).toBe(scheduled.id);
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
    for (const r of [before, after]) {
      expect(r.text).not.toContain(draft.id as string);
      expect(r.text).not.toContain("Draft title");
    }
    c.set(NOW0);
  });

  it("holds at most FEED_LIMIT items, the newest", async () => {
    const items = (await new Parser().parseString(await feedText(limited.url))).items;
    expect(items.map((i) => i.guid)).toEqual(
      publishedAt(NOW0)
        .slice(0, 2)
        .map((e) => e.id),
    );
    expect(publishedAt(NOW0).length).toBeGreaterThan(2);
  });

  it("declares the WebSub hub (channel link and Link header, beside rel=self) and Podping when they are configured", async () => {
    const r = await call(announced.url, "/feed.xml");
    expect(r.status).toBe(200);
    expect(XMLValidator.validate(r.text)).toBe(true);
    const feed = parseFeed(r.text) as FeedObject;
    expect(feed.pubsub).toEqual({ hub: HUB, self: FEED_URL });
    const channel = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", isArray: (name) => name === "atom:link" }).parse(r.text).rss.channel;
    expect(channel["atom:link"].map((l: Ep) => [l["@rel"], l["@href"]])).toEqual([
      ["self", FEED_URL],
      ["hub", HUB],
    ]);
    expect(channel["podcast:podping"]).toEqual({ "@usesPodping": "true" });
    const links = `<${TERMS}>; rel="license", <${HUB}>; rel="hub", <${FEED_URL}>; rel="self"`;
    expect(r.headers.get("link")).toBe(links);
    const not = await call(announced.url, "/feed.xml", { headers: { "If-None-Match": r.headers.get("etag")! } });
    expect(not.status).toBe(304);
    expect(not.headers.get("link")).toBe(links);
    // Only the feed names the hub: the API keeps its license Link alone.
    expectLicense((await call(announced.url, "/v1/episodes")).headers, TERMS);
  });

  it("declares neither without WEBSUB_HUB and PODPING_TOKEN", async () => {
    const text = await feedText();
    expect((parseFeed(text) as FeedObject).pubsub).toEqual({ self: FEED_URL });
    expect(text).not.toContain("podcast:podping");
    expectLicense((await call(server.url, "/feed.xml")).headers, TERMS);
  });
});

describe("GET /feed.json", () => {
  // ajv-formats is CommonJS: under NodeNext its default import is the module, the plugin its `default`.
  const ajv = new Ajv({ allErrors: true });
  formats.default(ajv);
  const validate = ajv.compile(jsonFeedSchema);

  async function jsonFeed(base = server.url): Promise<Ep> {
    const r = await call(base, "/feed.json");
    expect(r.status).toBe(200);
    return json(r);
  }

  it("is a JSON Feed 1.1, valid by its schema, as application/feed+json", async () => {
    c.set(NOW0);
    const r = await call(server.url, "/feed.json");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/feed+json; charset=utf-8");
    const doc = json(r);
    expect(validate(doc), ajv.errorsText(validate.errors)).toBe(true);
    expect(doc.version).toBe("https://jsonfeed.org/version/1.1");
  });

  it("the schema refuses what JSON Feed 1.1 does not allow", async () => {
    c.set(NOW0);
    const doc = await jsonFeed();
    const item = doc.items[0];
    const broken = [
      { ...doc, version: "https://jsonfeed.org/version/1" },
      { ...doc, title: undefined },
      { ...doc, podcast: true },
      { ...doc, items: [{ ...item, content_text: undefined }] },
      { ...doc, items: [{ ...item, date_published: "yesterday" }] },
      { ...doc, items: [{ ...item, attachments: [{ url: item.attachments[0].url }] }] },
      { ...doc, authors: [{}] },
    ];
    for (const b of broken) expect(validate(JSON.parse(JSON.stringify(b))), JSON.stringify(b).slice(0, 120)).toBe(false);
  });

  it("describes the show: title, home page, its own URL, description, cover as icon, author, language", async () => {
    c.set(NOW0);
    const { items: _, ...top } = await jsonFeed();
    expect(top).toEqual({
      version: "https://jsonfeed.org/version/1.1",
      title: PODCAST.title,
      home_page_url: `${SITE_URL}/`,
      feed_url: JSON_FEED_URL,
      description: PODCAST.description,
      icon: COVER,
      authors: [{ name: PODCAST.author, url: `${SITE_URL}/` }],
      language: PODCAST.language,
    });
  });

  it("holds the RSS feed's items in its order, each restating the API's JSON, audio as an attachment", async () => {
    c.set(NOW0);
    const want = publishedAt(NOW0);
    const api = await apiEpisodes(want);
    const rss = await new Parser().parseString(await feedText());
    const { items } = await jsonFeed();
    expect(items.map((i: Ep) => i.id)).toEqual(rss.items.map((i) => i.guid));
    expect(items.map((i: Ep) => i.id)).toEqual(want.map((e) => e.id));
    for (const item of items as Ep[]) {
      const ep = api.get(item.id)!;
      expect(item.url).toBe(ep.links.page);
      expect(item.title).toBe(ep.title);
      expect(item.content_text).toBe(ep.description ?? ep.summary ?? ep.title);
      expect(item.summary).toBe(ep.summary ?? undefined);
      expect(item.image).toBe(ep.coverImageUrl ?? undefined);
      expect(Date.parse(item.date_published)).toBe(Date.parse(ep.publishedAt));
      expect(item.authors).toEqual([{ name: ep.hosts.a }, { name: ep.hosts.b }]);
      if (ep.audioUrl === undefined) expect(item.attachments).toBeUndefined();
      else {
        const attachment = { url: ep.links.audio, mime_type: "audio/mpeg", size_in_bytes: TONE.byteLength };
        expect(item.attachments).toEqual([ep.durationSeconds === null ? attachment : { ...attachment, duration_in_seconds: ep.durationSeconds }]);
      }
    }
    // Markup in a title is text: JSON carries it as it is.
    expect(items.find((i: Ep) => i.id === markup.id).title).toBe(MARKUP);
  });

  it("adds a scheduled episode at its time without a rebuild, like the RSS feed, and never a draft", async () => {
    c.set(SCHEDULED_AT - 1);
    const before = await call(server.url, "/feed.json");
    expect(json(before).items.map((i: Ep) => i.id)).toEqual(publishedAt(SCHEDULED_AT - 1).map((e) => e.id));
    expect(before.text).not.toContain(scheduled.id as string);
    c.set(SCHEDULED_AT);
    const after = await call(server.url, "/feed.json");
    expect(json(after).items.map((i: Ep) => i.id)).toEqual(publishedAt(SCHEDULED_AT).map((e) => e.id));
    expect(json(after).items[0].id).toBe(scheduled.id);
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
    expect((await call(server.url, "/feed.json", { headers: { "If-None-Match": before.headers.get("etag")! } })).status).toBe(200);
    for (const r of [before, after]) expect(r.text).not.toContain(draft.id as string);
    c.set(NOW0);
  });

  it("holds at most FEED_LIMIT items, the RSS feed's", async () => {
    const rss = await new Parser().parseString(await feedText(limited.url));
    const { items } = await jsonFeed(limited.url);
    expect(items.map((i: Ep) => i.id)).toEqual(rss.items.map((i) => i.guid));
    expect(items.length).toBe(2);
  });
});

describe.each(["/feed.xml", "/feed.json"])("%s over HTTP", (path) => {
  it("carries a strong ETag, answers 304 to If-None-Match, with CORS, the license Link and a revalidating Cache-Control", async () => {
    c.set(NOW0);
    const r = await call(server.url, path);
    const etag = r.headers.get("etag")!;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(r.headers.get("cache-control")).toBe("public, max-age=60");
    expectCors(r.headers);
    expectLicense(r.headers, TERMS);
    const again = await call(server.url, path);
    expect(again.headers.get("etag")).toBe(etag);
    const not = await call(server.url, path, { headers: { "If-None-Match": `W/${etag}, "other"` } });
    expect(not.status).toBe(304);
    expect(not.bytes.byteLength).toBe(0);
    expect(not.headers.get("etag")).toBe(etag);
    expectCors(not.headers);
    expectLicense(not.headers, TERMS);
  });

  it("answers HEAD with GET's headers and no body, OPTIONS as a preflight, other methods 405", async () => {
    c.set(NOW0);
    const get = await call(server.url, path, { headers: { "Accept-Encoding": "identity" } });
    const head = await call(server.url, path, { method: "HEAD", headers: { "Accept-Encoding": "identity" } });
    expect(head.status).toBe(200);
    expect(head.bytes.byteLength).toBe(0);
    for (const h of ["etag", "content-type", "content-length", "cache-control", "link"]) expect(head.headers.get(h), h).toBe(get.headers.get(h));
    const pre = await call(server.url, path, { method: "OPTIONS" });
    expect(pre.status).toBe(204);
    expectCors(pre.headers);
    expect((await call(server.url, path, { method: "POST" })).status).toBe(405);
  });
});
