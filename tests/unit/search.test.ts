// The search index (docs/architecture.md#search): the shared tokenizer, the build's shard files
// read back by the query side, BM25F ranking with field weights, phrases, the publication clock,
// snippets, the turn a hit is said in. The index is built with the build's accumulator and read through an in-memory asset
// store, as the shim reads it.
import { describe, expect, it } from "vitest";
import { EpisodeIndex } from "../../functions/episode-index.ts";
import type { Asset, AssetStore, GetOptions } from "../../functions/ports.ts";
import { EpisodeSearch, snippetOf, topOf, turnOf } from "../../functions/search.ts";
import { SearchIndexBuilder } from "../../src/generate/search-index.ts";
import { MAX_SHARDS, parseShard, type SearchMeta } from "../../src/shared/search-format.ts";
import { episodeFile, SEARCH_FILES } from "../../src/shared/layout.ts";
import type { IndexEntry } from "../../src/shared/schema/build-index.ts";
import { foldText, MAX_TOKEN_LENGTH, phrasePattern, searchDocOf, shardOf, tokenize } from "../../src/shared/search-tokens.ts";

describe("tokenize", () => {
  it("lower-cases, folds diacritics and compatibility forms, splits on anything but letters and digits", () => {
    expect(tokenize("Café ÉCONOMIE, naïve—coöperate: 42nd Straße")).toEqual(["cafe", "economie", "naive", "cooperate", "42nd", "straße"]);
    expect(tokenize("ﬁne ＡＢＣ e\u0301te")).toEqual(["fine", "abc", "ete"]);
    expect(tokenize("machine-learning/AI_ops")).toEqual(["machine", "learning", "ai", "ops"]);
    expect(tokenize("東京 Москва")).toEqual(["東京", "москва"]);
    expect(tokenize(" !?… ")).toEqual([]);
  });

  it("folds only the non-ASCII runs, with the result of folding the whole text", () => {
    for (const text of ["Ünïcödé and ASCII", "İstanbul ǅemal", "a\u0308\u0301b", "plain ascii"]) {
      expect(foldText(text)).toBe(text.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase());
    }
  });

  it("cuts runs past MAX_TOKEN_LENGTH", () => {
    expect(tokenize("x".repeat(100))).toEqual(["x".repeat(MAX_TOKEN_LENGTH)]);
  });

  it("finds a phrase across punctuation but not inside longer words", () => {
    const p = phrasePattern(tokenize("Lighthouse keeper"));
    expect(p.test(foldText("the lighthouse, keeper sings"))).toBe(true);
    expect(p.test(foldText("the lighthouse keepers sing"))).toBe(false);
    expect(p.test(foldText("keeper lighthouse"))).toBe(false);
    expect(phrasePattern(["a.b"]).test("axb")).toBe(false);
  });

  it("spreads terms over the shards, the same shard for the same term", () => {
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const s = shardOf(`term${i}`, 16);
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThan(16);
      seen.add(s);
    }
    expect(seen.size).toBe(16);
    expect(shardOf("lighthouse", 64)).toBe(shardOf("lighthouse", 64));
  });
});

const T0 = Date.UTC(2026, 0, 1);

interface Fixture {
  title: string;
  summary?: string;
  description?: string;
  concepts?: string[];
  transcript?: string;
  /** publishedAt offset in days from T0 (later = newer). */
  day: number;
}

/** A site of episodes in list order (newest first): the index, the built bodies and the search files. */
function siteOf(fixtures: Fixture[], reads: string[] = [], shardTargetBytes?: number, kept: string[] = []) {
  const sorted = fixtures.map((f, i) => ({ f, n: i + 1 })).sort((a, b) => b.f.day - a.f.day);
  const files = new Map<string, Uint8Array>();
  const encoder = new TextEncoder();
  const builder = new SearchIndexBuilder(shardTargetBytes);
  const entries: IndexEntry[] = sorted.map(({ f, n }) => {
    const id = `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
    const p = T0 + f.day * 86_400_000;
    const resource = {
      id,
      title: f.title,
      summary: f.summary ?? null,
      description: f.description ?? null,
      publishedAt: new Date(p).toISOString(),
      topics: { domains: ["general"], concepts: f.concepts ?? [], entities: [] },
      links: { self: `http://x/v1/episodes/${n}` },
    };
    files.set(episodeFile(String(n), "json"), encoder.encode(JSON.stringify(resource)));
    if (f.transcript !== undefined) files.set(episodeFile(String(n), "transcript"), encoder.encode(f.transcript));
    builder.add(searchDocOf(resource, f.transcript ?? null));
    return { id, n, p, s: p, ref: String(n), title: f.title, domains: ["general"], script: "ok", transcript: f.transcript !== undefined, audio: null };
  });
  for (const [rel, body] of builder.files()) files.set(rel, typeof body === "string" ? encoder.encode(body) : body);
  const assets: AssetStore = {
    get: (rel: string, options?: GetOptions): Promise<Asset | null> => {
      reads.push(rel);
      if (options?.keep !== false) kept.push(rel);
      const body = files.get(rel);
      return Promise.resolve(body === undefined ? null : { body, etag: '"x"' });
    },
  };
  const index = new EpisodeIndex({ version: 1, show: { slug: "s", title: "S" }, termsUrl: "", baseUrl: "", siteUrl: "", episodes: entries });
  return { search: new EpisodeSearch(assets, index), files, index };
}

const LATER = T0 + 1000 * 86_400_000;
const titles = async (s: EpisodeSearch, q: string, limit = 10, now = LATER) => (await s.search(q, limit, now)).map((r) => r.title);

describe("ranking", () => {
  it("weighs fields: title > topics > summary > description > transcript", async () => {
    const { search } = siteOf([
      { title: "T1", transcript: "Ada: otter otter", day: 5 },
      { title: "T2", description: "otter", day: 4 },
      { title: "T3", summary: "otter", day: 3 },
      { title: "T4", concepts: ["sea-otter"], day: 2 },
      { title: "Otter", day: 1 },
    ]);
    expect(await titles(search, "otter")).toEqual(["Otter", "T4", "T3", "T2", "T1"]);
  });

  it("ranks documents holding more of the query's terms first, then by BM25 (rarer terms count more)", async () => {
    const { search } = siteOf([
      { title: "common", transcript: "the the the the harbour", day: 1 },
      { title: "both", transcript: "the harbour bell", day: 2 },
      { title: "rare", transcript: "bell", day: 3 },
      { title: "filler a", transcript: "the", day: 4 },
      { title: "filler b", transcript: "the", day: 5 },
    ]);
    expect((await titles(search, "harbour bell"))[0]).toBe("both");
    // "bell" is rarer than "the": a document with the rare term outranks one with the common term many times.
    const r = await titles(search, "the bell");
    expect(r.indexOf("rare")).toBeLessThan(r.indexOf("common"));
  });

  it("puts the one transcript holding a phrase first, even when another has the words more often", async () => {
    const { search } = siteOf([
      { title: "phrase", transcript: "Ada: long ago the quiet harbour lights went out.", day: 1 },
      { title: "Quiet lights, harbour lights", summary: "Harbour lights, quiet nights.", transcript: "Bo: lights harbour quiet.", day: 2 },
    ]);
    expect(await titles(search, "quiet harbour lights")).toEqual(["phrase", "Quiet lights, harbour lights"]);
    expect(await titles(search, "lights harbour quiet")).toEqual(["Quiet lights, harbour lights", "phrase"]);
  });

  it("finds the phrase below the first batch of candidates that hold every word", async () => {
    const decoys = Array.from({ length: 120 }, (_, i) => ({ title: `gamma beta alpha ${i}`, summary: "beta alpha gamma", day: i + 2 }));
    const reads: string[] = [];
    const { search } = siteOf([{ title: "needle", transcript: `${"padding words here. ".repeat(200)}Then alpha beta gamma.`, day: 1 }, ...decoys], reads);
    expect((await titles(search, "alpha beta gamma"))[0]).toBe("needle");
    // Every candidate was read to find it: 121 bodies.
    expect(reads.filter((r) => r.startsWith("_api/episodes/") && r.endsWith(".json")).length).toBeGreaterThanOrEqual(121);
    // Without the phrase, it ranks last on the words alone.
    expect((await titles(search, "gamma beta alpha", 50)).includes("needle")).toBe(false);
  });

  it("finds folded forms both ways", async () => {
    const { search } = siteOf([{ title: "Café Économie", day: 1 }, { title: "Other", day: 2 }]);
    expect(await titles(search, "CAFE economie")).toEqual(["Café Économie"]);
    expect(await titles(search, "écônomïe")).toEqual(["Café Économie"]);
  });

  it("returns only episodes published at `now`, and honours limit", async () => {
    const { search } = siteOf([
      { title: "old kestrel", day: 1 },
      { title: "new kestrel", day: 10 },
      { title: "kestrel three", day: 5 },
    ]);
    expect(await titles(search, "kestrel", 10, T0 + 6 * 86_400_000)).toHaveLength(2);
    expect(await titles(search, "kestrel", 10, T0 + 6 * 86_400_000)).not.toContain("new kestrel");
    expect(await titles(search, "kestrel", 1)).toHaveLength(1);
    expect(await titles(search, "kestrel", 10, T0)).toEqual([]);
    expect(await titles(search, "…")).toEqual([]);
  });

  it("gives each result its ref, id, title, publishedAt, snippet and links", async () => {
    const { search } = siteOf([{ title: "Owls", summary: "All about owls at night.", day: 1 }]);
    const [r] = await search.search("owls", 10, LATER);
    expect(r).toEqual({
      ref: "1",
      id: "00000000-0000-4000-8000-000000000001",
      title: "Owls",
      publishedAt: new Date(T0 + 86_400_000).toISOString(),
      snippet: "All about owls at night.",
      links: { self: "http://x/v1/episodes/1" },
    });
  });

  it("reads only the shards of the query's terms, and a shard once while it is cached", async () => {
    const many = Array.from({ length: 3000 }, (_, i) => ({ title: `episode w${i} x${i % 7}`, transcript: `${"filler ".repeat(40)}word${i} lorem${i % 13}`, day: i }));
    const reads: string[] = [];
    const { search, files } = siteOf(many, reads, 4096);
    const meta = JSON.parse(new TextDecoder().decode(files.get(SEARCH_FILES.meta))) as SearchMeta;
    expect(meta.shards).toBeGreaterThan(1);
    expect(meta.shards).toBeLessThanOrEqual(MAX_SHARDS);
    await search.search("word17", 1, T0 + 5000 * 86_400_000);
    const shardReads = () => reads.filter((r) => r.includes("/shard-"));
    expect(shardReads()).toEqual([SEARCH_FILES.shard(shardOf("word17", meta.shards))]);
    await search.search("word17", 1, T0 + 5000 * 86_400_000);
    expect(shardReads()).toHaveLength(1);
    expect((await titles(search, "word2999 x3", 1, T0 + 5000 * 86_400_000))[0]).toBe("episode w2999 x3");
  });

  it("asks the asset store to keep none of what it reads (shards, meta, candidates' bodies and transcripts)", async () => {
    const reads: string[] = [];
    const kept: string[] = [];
    const fixtures = Array.from({ length: 60 }, (_, i) => ({ title: `t${i}`, transcript: `alpha beta ${i % 2 === 0 ? "gamma delta" : "delta gamma"}`, day: i }));
    const { search } = siteOf(fixtures, reads, undefined, kept);
    expect(await titles(search, "gamma delta", 5)).toHaveLength(5);
    expect(reads.some((r) => r.endsWith(".txt"))).toBe(true);
    expect(reads.some((r) => r.includes("/shard-"))).toBe(true);
    expect(kept).toEqual([]);
  });

  it("writes every term of a shard once, with its postings in document order", () => {
    const b = new SearchIndexBuilder();
    for (let i = 0; i < 300; i++) b.add(searchDocOf({ title: i % 2 === 0 ? "even" : "odd", summary: null, description: null, topics: { domains: [], concepts: [], entities: [] } }, null));
    const files = new Map([...b.files()]);
    const meta = JSON.parse(files.get(SEARCH_FILES.meta) as string) as SearchMeta;
    expect(meta.docs).toBe(300);
    const shard = parseShard(files.get(SEARCH_FILES.shard(shardOf("even", meta.shards))) as Uint8Array);
    expect(shard.terms.get("even")?.[2]).toBe(150);
  });
});

describe("topOf", () => {
  it("selects the k best that pass the filter, best first, as a full sort would", () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    for (const [n, k] of [[0, 5], [3, 5], [1000, 1], [1000, 37], [500, 0], [200, 200]] as const) {
      const score = Array.from({ length: n }, () => Math.floor(rand() * 50));
      const items = Array.from({ length: n }, (_, i) => i);
      const keep = (x: number) => x % 3 !== 0;
      const better = (a: number, b: number) => score[a]! - score[b]! || b - a;
      const want = items.filter(keep).sort((a, b) => better(b, a)).slice(0, k);
      expect(topOf(items, k, keep, better)).toEqual(want);
    }
  });
});

describe("snippets", () => {
  const text = `${"Lorem ipsum dolor sit amet. ".repeat(10)}Here the violet lighthouse keeper sings at night. ${"Consectetur adipiscing elit. ".repeat(10)}`;

  it("cut around the phrase on word boundaries, marked with ellipses where cut", () => {
    const s = snippetOf(text, new Set(["violet", "keeper"]), ["violet", "lighthouse", "keeper"]);
    expect(s).toContain("violet lighthouse keeper sings");
    expect(s.startsWith("…")).toBe(true);
    expect(s.endsWith("…")).toBe(true);
    expect(s.length).toBeLessThanOrEqual(230);
    for (const w of s.replace(/…/g, "").split(" ")) expect(text).toContain(w);
    // Whole words at both ends.
    expect(s).toMatch(/^…(Lorem|ipsum|dolor|sit|amet)\b/);
    expect(s).toMatch(/\b(Consectetur|adipiscing|elit)\.?…$/);
  });

  it("starts at the first query term otherwise, and keeps a short text whole", () => {
    expect(snippetOf(text, new Set(["keeper"]), null)).toContain("keeper sings");
    expect(snippetOf("Short: a Café text.", new Set(["cafe"]), null)).toBe("Short: a Café text.");
  });
});

describe("the turn a hit is said in", () => {
  const turns = [
    { speaker: "Ada", text: "The lighthouse is old.", start: 0, end: 2 },
    { speaker: "Bo", text: "And the Violet keeper sings there.", start: 2, end: 5 },
    { speaker: "Ada", text: "The violet lighthouse keeper sings!", start: 5, end: 9 },
  ];
  const terms = (q: string) => new Set(tokenize(q));

  it("is the first turn holding the phrase, even after turns holding its words", () => {
    const q = "violet lighthouse keeper";
    expect(turnOf(turns, terms(q), phrasePattern(tokenize(q)))).toBe(turns[2]);
  });

  it("is the first turn holding a word, folded, when no turn holds the phrase or there is none", () => {
    expect(turnOf(turns, terms("VIOLET"), null)).toBe(turns[1]);
    const q = "keeper of lighthouses";
    expect(turnOf(turns, terms(q), phrasePattern(tokenize(q)))).toBe(turns[1]);
  });

  it("reads a turn as its transcript line, so a speaker's name finds their first turn; none holding any word is null", () => {
    expect(turnOf(turns, terms("bo"), null)).toBe(turns[1]);
    expect(turnOf(turns, terms("zanzibar"), null)).toBeNull();
    expect(turnOf([], terms("violet"), null)).toBeNull();
  });
});
