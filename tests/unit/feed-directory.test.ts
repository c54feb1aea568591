// The feed as podcast directories read it (docs/api.md#feed): podcast.json's directory fields
// (categories from Apple's list, type, explicit, updateFrequency, locked, ownerEmail) and an
// episode's season, validated by the content schemas; the channel and item tags feedXml writes for
// them, read back by podcast-partytime and rss-parser; and the Apple guide's rules
// (tests/support/apple-podcasts.ts), shown to catch each kind of breakage. The same feed served
// through the real server is tests/http/feed.test.ts.
import { parseFeed, type FeedObject } from "podcast-partytime";
import { itunesCategoriesSourceOfTruth } from "podcast-partytime/dist/parser/itunes-categories.js";
import Parser from "rss-parser";
import { describe, expect, it } from "vitest";
import { feedXml, GENERATOR, type FeedChannel, type FeedEpisode } from "../../functions/routes/feed.ts";
import { episodeResourceOf } from "../../src/generate/episode.ts";
import { APPLE_CATEGORIES } from "../../src/shared/apple-categories.ts";
import { episodeFileSchema, podcastSchema } from "../../src/shared/schema/content.ts";
import { UPDATE_FREQUENCIES } from "../../src/shared/update-frequency.ts";
import { NOT_TIMED } from "../../src/shared/timed-etags.ts";
import { appleFeedProblems } from "../support/apple-podcasts.ts";

const ORIGINS = { baseUrl: "https://api.example.test", siteUrl: "https://www.example.test" };
const COVER = "https://cdn.example.test/cover.png";
const BASE_SHOW = { title: "Show", slug: "show", description: "About the show.", language: "en", author: "Studio" };
const FULL_SHOW = {
  ...BASE_SHOW,
  coverImageUrl: COVER,
  categories: [{ category: "Technology" }, { category: "Kids & Family", subcategory: "Pets & Animals" }],
  explicit: true,
  updateFrequency: "weekdays",
  locked: true,
  ownerEmail: "owner@example.test",
};

/** No hub and no Podping: the channel's directory tags alone (tests/http/feed.test.ts checks the hub's). */
const NO_ANNOUNCEMENTS = { websubHub: null, pingUrls: [], podping: null, deployedSet: null };

function channelOf(show: Record<string, unknown>): FeedChannel {
  return { show: podcastSchema.parse(show), feedUrl: `${ORIGINS.siteUrl}/feed.xml`, siteHome: `${ORIGINS.siteUrl}/`, guid: "00000000-0000-5000-8000-000000000000", announce: NO_ANNOUNCEMENTS };
}

/** The episode.json of episode `n`, published on January `n`. */
function episodeFile(n: number, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    episodeNumber: n,
    title: `Episode ${n}`,
    publishedAt: new Date(Date.UTC(2026, 0, n)).toISOString(),
    durationSeconds: 60,
    hosts: { a: "Ada", b: "Bo" },
    kind: { type: "normal" },
    topics: { domains: [], concepts: [], entities: [] },
    ...over,
  };
}

/** An episode as the feed gets it: the API body the build makes from episode.json, and its index entry. */
function feedEpisode(n: number, over: Record<string, unknown> = {}, bytes: number | null = 4096): FeedEpisode {
  const parsed = episodeFileSchema.parse(episodeFile(n, over));
  const id = parsed.id;
  const episode = episodeResourceOf(parsed, ORIGINS, `${ORIGINS.siteUrl}/media/${id}.mp3`);
  const p = Date.parse(parsed.publishedAt!);
  const entry = { id, n: parsed.episodeNumber, p, s: p, ref: String(n), title: parsed.title, domains: [], script: "ok" as const, transcript: true, audio: { key: `${id}.mp3`, bytes, etag: '"a"' } };
  // Untimed: the timed forms' tags are tests/http/timed.test.ts's.
  return { entry, episode, timed: NOT_TIMED };
}

const EPISODES = [feedEpisode(3, { season: 2 }), feedEpisode(2, { season: 1 }), feedEpisode(1)];

/** rss-parser custom fields that keep the element whole: its text as `_`, its attributes as `$`. */
function withAttributes(...tags: string[]) {
  return tags.map((t) => [t, t, { keepArray: true }]);
}

function issuesOf(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  expect(result.success).toBe(false);
  return result.error!.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
}

describe("Apple's category list (src/shared/apple-categories.ts)", () => {
  it("is the list podcast-partytime, the Podcasting 2.0 reference parser, knows, subcategories and all", () => {
    const theirs = Object.fromEntries(itunesCategoriesSourceOfTruth.map((c) => [c.name, [...c.subCategories].sort()]));
    const ours = Object.fromEntries(Object.entries(APPLE_CATEGORIES).map(([name, subs]) => [name, [...subs].sort()]));
    expect(ours).toEqual(theirs);
  });
});

describe("podcast.json's directory fields", () => {
  it("default to an episodic, clean show with no categories, schedule or lock", () => {
    const show = podcastSchema.parse(BASE_SHOW);
    expect(show).toMatchObject({ type: "episodic", explicit: false });
    expect(show.categories).toBeUndefined();
    expect(show.updateFrequency).toBeUndefined();
    expect(show.locked).toBeUndefined();
  });

  it("take one to three categories of Apple's list, each with one of its subcategories or none", () => {
    expect(podcastSchema.parse(FULL_SHOW).categories).toEqual(FULL_SHOW.categories);
    const three = [{ category: "Technology" }, { category: "News", subcategory: "Tech News" }, { category: "Science", subcategory: "Physics" }];
    expect(podcastSchema.safeParse({ ...BASE_SHOW, categories: three }).success).toBe(true);
    expect(issuesOf(podcastSchema.safeParse({ ...BASE_SHOW, categories: [] }))[0]!.path).toBe("categories");
    expect(issuesOf(podcastSchema.safeParse({ ...BASE_SHOW, categories: [...three, { category: "History" }] }))[0]!.path).toBe("categories");
  });

  it("refuse a category or subcategory not on Apple's list, naming the member and the allowed names", () => {
    const issues = issuesOf(
      podcastSchema.safeParse({
        ...BASE_SHOW,
        categories: [{ category: "Tech" }, { category: "News", subcategory: "AI News" }, { category: "Technology", subcategory: "AI" }],
      }),
    );
    expect(issues.map((i) => i.path)).toEqual(["categories.0.category", "categories.1.subcategory", "categories.2.subcategory"]);
    expect(issues[0]!.message).toContain("'Tech' is not an Apple Podcasts category");
    expect(issues[0]!.message).toContain("Technology");
    expect(issues[1]!.message).toContain("Tech News");
    expect(issues[2]!.message).toContain("Technology has none");
  });

  it("refuse a category given twice, and members outside { category, subcategory }", () => {
    const twice = issuesOf(podcastSchema.safeParse({ ...BASE_SHOW, categories: [{ category: "History" }, { category: "History" }] }));
    expect(twice).toEqual([{ path: "categories.1", message: "repeats an earlier category" }]);
    expect(issuesOf(podcastSchema.safeParse({ ...BASE_SHOW, categories: [{ category: "History", sub: "x" }] }))[0]!.path).toBe("categories.0");
  });

  it.each([
    ["type", "seasonal"],
    ["explicit", "no"],
    ["updateFrequency", "hourly"],
    ["locked", "yes"],
    ["ownerEmail", "not an address"],
  ])("refuse %s = %j, naming it", (field, value) => {
    expect(issuesOf(podcastSchema.safeParse({ ...BASE_SHOW, [field]: value }))[0]!.path).toBe(field);
  });

  it("an episode's season is an integer from 1", () => {
    expect(feedEpisode(9, { season: 4 }).episode.season).toBe(4);
    expect(feedEpisode(9).episode.season).toBeNull();
    for (const season of [0, 1.5, "2", null]) expect(issuesOf(episodeFileSchema.safeParse(episodeFile(9, { season }))), String(season)).toEqual([expect.objectContaining({ path: "season" })]);
  });
});

describe("the channel's directory tags", () => {
  const xml = feedXml(channelOf(FULL_SHOW), EPISODES);

  it("read back by podcast-partytime: categories from Apple's list, type, explicit, image, lock and owner, medium, generator", () => {
    const feed = parseFeed(xml) as FeedObject;
    expect(feed.itunesCategory).toEqual(["Technology", "Kids & Family > Pets & Animals"]);
    expect(feed.itunesType).toBe("episodic");
    expect(feed.explicit).toBe(true);
    expect(feed.itunesImage).toBe(COVER);
    expect(feed.image).toEqual({ url: COVER, title: "Show", link: `${ORIGINS.siteUrl}/` });
    expect(feed.locked).toBe(true);
    expect(feed.podcastOwner).toBe("owner@example.test");
    expect(feed.owner).toEqual({ name: "Studio", email: "owner@example.test" });
    expect(feed.medium).toBe("podcast");
    expect(feed.generator).toBe(GENERATOR);
  });

  it("read back by rss-parser: nested categories, image, explicit, owner, generator, type, medium, lock and the schedule's rrule", async () => {
    const fields = ["itunes:type", "podcast:medium", ...withAttributes("podcast:locked", "podcast:updateFrequency")];
    const feed = (await new Parser({ customFields: { feed: fields as never[] } }).parseString(xml)) as Record<string, any>;
    expect(feed.itunes.categoriesWithSubs).toEqual([
      { name: "Technology", subs: null },
      { name: "Kids & Family", subs: [{ name: "Pets & Animals" }] },
    ]);
    expect(feed.itunes.image).toBe(COVER);
    expect(feed.image).toEqual({ url: COVER, title: "Show", link: `${ORIGINS.siteUrl}/` });
    expect(feed.itunes.explicit).toBe("true");
    expect(feed.itunes.owner).toEqual({ name: "Studio", email: "owner@example.test" });
    expect(feed.generator).toBe(GENERATOR);
    expect(feed["itunes:type"]).toBe("episodic");
    expect(feed["podcast:medium"]).toBe("podcast");
    expect(feed["podcast:locked"]).toEqual([{ _: "yes", $: { owner: "owner@example.test" } }]);
    expect(feed["podcast:updateFrequency"]).toEqual([{ _: "Every weekday", $: { rrule: UPDATE_FREQUENCIES.weekdays.rrule } }]);
  });

  it("says serial, unlocked and each schedule as podcast.json does", async () => {
    const feed = parseFeed(feedXml(channelOf({ ...FULL_SHOW, type: "serial", locked: false, explicit: false }), EPISODES)) as FeedObject;
    expect(feed.itunesType).toBe("serial");
    expect(feed.locked).toBe(false);
    expect(feed.explicit).toBe(false);
    for (const [name, { rrule, label }] of Object.entries(UPDATE_FREQUENCIES)) {
      const text = feedXml(channelOf({ ...BASE_SHOW, updateFrequency: name }), EPISODES);
      const read = (await new Parser({ customFields: { feed: withAttributes("podcast:updateFrequency") as never[] } }).parseString(text)) as Record<string, any>;
      expect(read["podcast:updateFrequency"], name).toEqual([{ _: label, $: { rrule } }]);
    }
  });

  it("leaves out categories, cover, owner, lock and schedule when podcast.json has none, and still says type, explicit, medium, generator", () => {
    const text = feedXml(channelOf(BASE_SHOW), EPISODES);
    for (const tag of ["<itunes:category", "<itunes:image", "<image>", "<itunes:owner", "<podcast:locked", "<podcast:updateFrequency"]) expect(text).not.toContain(tag);
    const feed = parseFeed(text) as FeedObject;
    expect(feed.itunesType).toBe("episodic");
    expect(feed.explicit).toBe(false);
    expect(feed.medium).toBe("podcast");
    expect(feed.generator).toBe(GENERATOR);
    expect(feed.locked).toBeUndefined();
  });

  it("escapes the ampersands of category names and reads them back whole", () => {
    expect(xml).toContain('<itunes:category text="Kids &amp; Family"><itunes:category text="Pets &amp; Animals"/></itunes:category>');
  });
});

describe("the items' directory tags", () => {
  it("every item is a full episode; a season gives itunes:season and podcast:season; explicit follows the show", async () => {
    const xml = feedXml(channelOf(FULL_SHOW), EPISODES);
    const feed = parseFeed(xml) as FeedObject;
    expect(feed.items.map((i) => [i.itunesEpisodeType, i.itunesSeason, i.podcastSeason?.number, i.explicit])).toEqual([
      ["full", 2, 2, true],
      ["full", 1, 1, true],
      ["full", undefined, undefined, true],
    ]);
    const read = await new Parser().parseString(xml);
    expect(read.items.map((i) => [(i as any).itunes.episodeType, (i as any).itunes.season])).toEqual([
      ["full", "2"],
      ["full", "1"],
      ["full", undefined],
    ]);
  });
});

describe("Apple's podcast RSS guide (tests/support/apple-podcasts.ts)", () => {
  const good = feedXml(channelOf(FULL_SHOW), EPISODES);

  it("passes a channel with categories, explicit and a cover, and unique GUIDs", () => {
    expect(appleFeedProblems(good)).toEqual([]);
    expect(appleFeedProblems(feedXml(channelOf({ ...FULL_SHOW, type: "serial" }), EPISODES))).toEqual([]);
  });

  it("fails a channel without categories or without a cover: both are required", () => {
    const { categories: _, coverImageUrl: __, ...bare } = FULL_SHOW;
    expect(appleFeedProblems(feedXml(channelOf(bare), EPISODES))).toEqual(["channel: no itunes:image href", "channel: no itunes:category"]);
  });

  it("fails a serial show with an episode that has no number", () => {
    const unnumbered = feedEpisode(4, { episodeNumber: null });
    expect(appleFeedProblems(feedXml(channelOf({ ...FULL_SHOW, type: "serial" }), [unnumbered, ...EPISODES]))).toEqual([
      "item[0]: a serial show needs itunes:episode on every episode",
    ]);
  });

  it("fails an enclosure of unknown length (an episode whose bytes the build was not told)", () => {
    expect(appleFeedProblems(feedXml(channelOf(FULL_SHOW), [feedEpisode(5, {}, null)]))).toEqual(['item[0]: enclosure length "0" is not a size in bytes']);
  });

  it.each([
    ["an unknown category", 'text="Technology"/>', 'text="Tech"/>', 'itunes:category[0] "Tech" is not an Apple Podcasts category'],
    ["a subcategory of another category", 'text="Pets &amp; Animals"', 'text="Tech News"', '"Tech News" is not a subcategory of Kids & Family'],
    ["explicit as yes", "<itunes:explicit>true</itunes:explicit><itunes:owner>", "<itunes:explicit>yes</itunes:explicit><itunes:owner>", 'itunes:explicit is "yes"'],
    ["a cover that is not a JPEG or PNG", COVER, "https://cdn.example.test/cover.webp", "is not an http(s) .jpg or .png URL"],
    ["a repeated GUID", "00000000-0000-4000-8000-000000000002</guid>", "00000000-0000-4000-8000-000000000003</guid>", 'item[1]: guid "00000000-0000-4000-8000-000000000003" repeats item[0]'],
    ["an enclosure type Apple does not play", 'type="audio/mpeg"', 'type="audio/ogg"', 'enclosure type "audio/ogg"'],
    ["an episode type Apple does not know", "<itunes:episodeType>full</itunes:episodeType>", "<itunes:episodeType>extra</itunes:episodeType>", 'itunes:episodeType "extra"'],
    ["a season 0", "<itunes:season>2</itunes:season>", "<itunes:season>0</itunes:season>", 'itunes:season "0"'],
    ["the itunes namespace misspelt", "http://www.itunes.com/dtds/podcast-1.0.dtd", "http://www.itunes.com/DTDs/Podcast-1.0.dtd", "itunes namespace"],
    ["a language that is not ISO 639", "<language>en</language>", "<language>english</language>", 'language "english"'],
  ])("catches %s", (_name, from, to, problem) => {
    expect(good).toContain(from);
    const problems = appleFeedProblems(good.replace(from, to));
    expect(problems.some((p) => p.includes(problem)), problems.join("\n")).toBe(true);
  });
});
