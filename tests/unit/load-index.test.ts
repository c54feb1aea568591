// loadIndex and loadIndexText (functions/data/episode-index.ts): the Node entry's way to load
// index.json, validated entry by entry. They must accept and refuse what buildIndex.parse (and
// JSON.parse) does, and hold and page the same index.
import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { EpisodeIndex } from "../../functions/data/episode-index.ts";
import { loadIndex, loadIndexText } from "../../functions/data/load-index.ts";
import { buildIndex } from "../../src/shared/schema/build-index.ts";

const T0 = Date.UTC(2026, 0, 1);

const idOf = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;

function document(count: number) {
  return {
    version: 1,
    show: { slug: "show", title: "Show" },
    termsUrl: "http://x/terms",
    baseUrl: "http://x",
    siteUrl: "http://x",
    episodes: Array.from({ length: count }, (_, i) => ({
      id: idOf(i),
      n: count - i,
      p: T0 - i * 3_600_000,
      s: T0 - i * 3_600_000,
      ref: String(count - i),
      title: `Episode ${count - i}`,
      domains: i % 3 === 0 ? ["ai", "energy"] : ["science"],
      script: "ok",
      transcript: i % 2 === 0,
      audio: i % 5 === 0 ? { key: `${idOf(i)}.mp3`, bytes: i === 0 ? null : 10, etag: '"e"' } : null,
    })),
  };
}

/** Every entry as the index gives it back, and its pages. */
function sameIndex(loaded: EpisodeIndex, parsed: EpisodeIndex, count: number) {
  expect(loaded.data).toEqual(parsed.data);
  expect(loaded.size).toBe(count);
  const doc = buildIndex.parse(document(count));
  for (let i = 0; i < count; i++) {
    expect(loaded.entryAt(i)).toEqual(doc.episodes[i]);
    expect(loaded.publishedAt(i)).toBe(doc.episodes[i]!.p);
  }
  for (const domain of [null, "ai", "science", "none"]) {
    expect(loaded.page(T0, domain, null, null, 7)).toEqual(parsed.page(T0, domain, null, null, 7));
  }
  expect(loaded.resolve({ kind: "number", number: 7 }, T0)).toEqual(doc.episodes[count - 7]);
  expect(loaded.resolve({ kind: "uuid", id: doc.episodes[5]!.id }, T0)).toEqual(doc.episodes[5]);
  expect(loaded.byMediaKey(`${idOf(5)}.mp3`, T0)).toEqual(doc.episodes[5]);
  expect(loaded.byMediaKey(`${idOf(6)}.mp3`, T0)).toBeNull();
}

describe("loadIndex", () => {
  it("holds the same index as buildIndex.parse, with equal domain lists shared", () => {
    const loaded = loadIndex(structuredClone(document(40)));
    sameIndex(loaded, new EpisodeIndex(buildIndex.parse(document(40))), 40);
    expect(loaded.entryAt(0).domains).toBe(loaded.entryAt(3).domains);
  });

  it("refuses what buildIndex.parse refuses, naming the entry", () => {
    const bad = document(5);
    (bad.episodes[3] as { p: unknown }).p = "soon";
    const error = (() => {
      try {
        loadIndex(bad);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ZodError);
    expect((error as ZodError).issues[0]!.path).toEqual(["episodes", 3, "p"]);
    expect(() => loadIndex({ ...document(1), version: 2 })).toThrow(ZodError);
    expect(() => loadIndex(null)).toThrow(ZodError);
    expect(() => loadIndex({ ...document(1), episodes: "none" })).toThrow(ZodError);
  });
});

describe("loadIndexText", () => {
  it("holds the same index as JSON.parse and buildIndex.parse, whatever the spacing and key order", () => {
    const doc = document(40);
    const parsed = new EpisodeIndex(buildIndex.parse(doc));
    sameIndex(loadIndexText(JSON.stringify(doc)), parsed, 40);
    sameIndex(loadIndexText(JSON.stringify(doc, null, 2)), parsed, 40);
    const { episodes, ...head } = doc;
    sameIndex(loadIndexText(` ${JSON.stringify({ episodes, ...head })}\n`), parsed, 40);
    expect(loadIndexText(JSON.stringify({ ...doc, episodes: [] })).size).toBe(0);
  });

  it("refuses what JSON.parse refuses, with a SyntaxError", () => {
    const text = JSON.stringify(document(3));
    const broken = [
      text.slice(0, -1),
      `${text}x`,
      text.replace('"title":"Episode 2"', '"title":"Episode 2",'),
      text.replace("},{", "}{"),
      text.replace("},{", "},,{"),
      text.replace('"episodes":[', '"episodes":[,'),
      text.replace('"n":2', '"n":2 2'),
      text.replace('"Episode 2"', '"Episode \\x"'),
      text.replace('"episodes":[', '"episodes":[[').replace("]}", "]]}").replace(/\]\]\}$/, "]}"),
    ];
    for (const bad of broken) {
      expect(() => JSON.parse(bad), bad).toThrow(SyntaxError);
      expect(() => loadIndexText(bad), bad).toThrow(SyntaxError);
    }
  });

  it("refuses what buildIndex.parse refuses, naming the entry", () => {
    const bad = document(5);
    (bad.episodes[3] as { p: unknown }).p = "soon";
    const error = (() => {
      try {
        loadIndexText(JSON.stringify(bad));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ZodError);
    expect((error as ZodError).issues[0]!.path).toEqual(["episodes", 3, "p"]);
    expect(() => loadIndexText(JSON.stringify({ ...document(1), version: 2 }))).toThrow(ZodError);
    expect(() => loadIndexText("null")).toThrow(ZodError);
    expect(() => loadIndexText(JSON.stringify({ ...document(1), episodes: "none" }))).toThrow(ZodError);
    expect(() => loadIndexText(JSON.stringify({ ...document(1), episodes: [1] }))).toThrow(ZodError);
  });
});
