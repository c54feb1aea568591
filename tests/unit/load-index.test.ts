// loadIndex (functions/episode-index.ts): the Node entry's way to load index.json, validated entry
// by entry. It must accept and refuse what buildIndex.parse does, and page the same way.
import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { EpisodeIndex, loadIndex } from "../../functions/episode-index.ts";
import { buildIndex } from "../../src/shared/schema/build-index.ts";

const T0 = Date.UTC(2026, 0, 1);

function document(count: number) {
  return {
    version: 1,
    show: { slug: "show", title: "Show" },
    termsUrl: "http://x/terms",
    baseUrl: "http://x",
    siteUrl: "http://x",
    episodes: Array.from({ length: count }, (_, i) => ({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      n: count - i,
      p: T0 - i * 3_600_000,
      s: T0 - i * 3_600_000,
      ref: String(count - i),
      title: `Episode ${count - i}`,
      domains: i % 3 === 0 ? ["ai", "energy"] : ["science"],
      script: "ok",
      transcript: i % 2 === 0,
      audio: i % 5 === 0 ? { key: `k${i}.mp3`, bytes: 10, etag: '"e"' } : null,
    })),
  };
}

describe("loadIndex", () => {
  it("holds the same index as buildIndex.parse, with equal domain lists shared", () => {
    const loaded = loadIndex(structuredClone(document(40)));
    const parsed = new EpisodeIndex(buildIndex.parse(document(40)));
    expect(loaded.data).toEqual(parsed.data);
    expect(loaded.data.episodes[0]!.domains).toBe(loaded.data.episodes[3]!.domains);
    for (const domain of [null, "ai", "science", "none"]) {
      expect(loaded.page(T0, domain, null, null, 7)).toEqual(parsed.page(T0, domain, null, null, 7));
    }
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
