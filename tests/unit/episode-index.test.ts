import { describe, expect, it } from "vitest";
import { EpisodeIndex } from "../../functions/data/episode-index.ts";
import { compareOrder, orderKeyOf } from "../../src/shared/order.ts";
import type { BuildIndex, IndexEntry } from "../../src/shared/schema/build-index.ts";
import { prng } from "../../scripts/synthetic-content.ts";

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);

function uuid(i: number): string {
  const hex = i.toString(16).padStart(12, "0");
  return `00000000-0000-4000-8000-${hex}`;
}

function entry(i: number, over: Partial<IndexEntry> = {}): IndexEntry {
  const p = over.p ?? T0 + i * DAY;
  return {
    id: uuid(i),
    n: i,
    p,
    s: p,
    ref: String(over.n === undefined ? i : (over.n ?? uuid(i))),
    title: `Episode ${i}`,
    domains: ["general"],
    script: "ok",
    transcript: true,
    audio: null,
    ...over,
  };
}

/** The index as the build writes it: entries in list order. */
function indexOf(entries: IndexEntry[]): EpisodeIndex {
  const sorted = [...entries].sort((a, b) => compareOrder(orderKeyOf(a), orderKeyOf(b)));
  const data: BuildIndex = {
    version: 1,
    show: { slug: "show", title: "Show" },
    termsUrl: "http://x/terms",
    baseUrl: "http://x",
    siteUrl: "http://x",
    episodes: sorted,
  };
  return new EpisodeIndex(data);
}

/** Every page from the first to nextCursor = null, as a client pages with cursors. */
function walk(idx: EpisodeIndex, now: number, domain: string | null, since: number | null, limit: number) {
  const pages: IndexEntry[][] = [];
  let after = null;
  for (let guard = 0; guard < 10_000; guard++) {
    const { items, more } = idx.page(now, domain, after, since, limit);
    pages.push(items);
    if (!more) return pages;
    after = orderKeyOf(items[items.length - 1]!);
  }
  throw new Error("paging did not end");
}

/** The list by definition: published at now, filtered, in list order. */
function expected(entries: IndexEntry[], now: number, domain: string | null, since: number | null): string[] {
  return entries
    .filter((e) => e.p <= now && (domain === null || e.domains.includes(domain)) && (since === null || e.s >= since))
    .sort((a, b) => compareOrder(orderKeyOf(a), orderKeyOf(b)))
    .map((e) => e.id);
}

describe("list paging over the index", () => {
  const entries = Array.from({ length: 10 }, (_, i) => entry(i + 1));
  const idx = indexOf(entries);
  const now = T0 + 100 * DAY;

  it("the first page holds the newest `limit` episodes and says more follow", () => {
    const { items, more } = idx.page(now, null, null, null, 3);
    expect(items.map((e) => e.n)).toEqual([10, 9, 8]);
    expect(more).toBe(true);
  });

  it("pages from the cursor position cover every episode once, in order", () => {
    const pages = walk(idx, now, null, null, 3);
    expect(pages.map((p) => p.map((e) => e.n))).toEqual([[10, 9, 8], [7, 6, 5], [4, 3, 2], [1]]);
  });

  it("when the count is a multiple of the limit, the last full page says no more (no empty page)", () => {
    const pages = walk(idx, now, null, null, 5);
    expect(pages.map((p) => p.length)).toEqual([5, 5]);
  });

  it("a limit larger than the list gives one page and no more", () => {
    expect(idx.page(now, null, null, null, 50)).toMatchObject({ more: false });
    expect(idx.page(now, null, null, null, 50).items).toHaveLength(10);
  });

  it("a cursor after the last episode gives an empty last page", () => {
    expect(idx.page(now, null, orderKeyOf(entries[0]!), null, 5)).toEqual({ items: [], more: false, from: null });
  });

  it("a cursor whose episode has since been removed resumes at its position", () => {
    const without7 = indexOf(entries.filter((e) => e.n !== 7));
    const after7 = orderKeyOf(entries.find((e) => e.n === 7)!);
    expect(without7.page(now, null, after7, null, 2).items.map((e) => e.n)).toEqual([6, 5]);
  });

  it("ties in publishedAt are ordered by number then id, and paging splits them without loss", () => {
    const tied = [entry(1, { p: T0 }), entry(2, { p: T0 }), entry(3, { p: T0, n: null }), entry(4, { p: T0, n: null })];
    const pages = walk(indexOf(tied), T0, null, null, 1);
    expect(pages.map((p) => p[0]!.id)).toEqual([uuid(2), uuid(1), uuid(4), uuid(3)]);
  });
});

describe("a page's place in the index (functions/ports.ts ListBodies)", () => {
  // Index order: 10 at position 0 … 1 at position 9. Even numbers in "even"; 10, 9 and 8 in "top".
  const entries = Array.from({ length: 10 }, (_, i) =>
    entry(i + 1, { domains: (i + 1) % 2 === 0 ? ["even", ...(i + 1 >= 8 ? ["top"] : [])] : i + 1 === 9 ? ["top"] : ["odd"], s: T0 + (i + 1 === 5 ? 0 : (i + 1) * DAY) }),
  );
  const idx = indexOf(entries);
  const now = T0 + 100 * DAY;

  it("an unfiltered page starts at the position of its first entry, whatever the cursor and the clock", () => {
    expect(idx.page(now, null, null, null, 3).from).toBe(0);
    expect(idx.page(now, null, orderKeyOf(entries[6]!), null, 3).from).toBe(4);
    expect(idx.page(T0 + 8 * DAY, null, null, null, 3)).toMatchObject({ from: 2, more: true });
  });

  it("a filtered page has one only when its entries are consecutive in the index", () => {
    expect(idx.page(now, "even", null, null, 3).from).toBeNull();
    expect(idx.page(now, "top", null, null, 5)).toMatchObject({ from: 0, more: false });
    expect(idx.page(now, "top", orderKeyOf(entries[9]!), null, 5)).toMatchObject({ from: 1, more: false });
    expect(idx.page(now, null, null, T0 + 6 * DAY, 5).from).toBe(0);
    // 5 was discovered before `since`: the page skips position 5.
    expect(idx.page(now, null, orderKeyOf(entries[6]!), T0 + 2 * DAY, 3).from).toBeNull();
  });
});

describe("the publication clock", () => {
  const entries = Array.from({ length: 5 }, (_, i) => entry(i + 1)); // published on days 1..5
  const idx = indexOf(entries);

  it("episodes scheduled after now are absent from the list", () => {
    expect(walk(idx, T0 + 3 * DAY, null, null, 50).flat().map((e) => e.n)).toEqual([3, 2, 1]);
  });

  it("an episode appears at its publishedAt (inclusive), without a rebuild", () => {
    expect(idx.page(T0 + 4 * DAY - 1, null, null, null, 1).items[0]!.n).toBe(3);
    expect(idx.page(T0 + 4 * DAY, null, null, null, 1).items[0]!.n).toBe(4);
  });

  it("before any publication the list is empty", () => {
    expect(idx.page(T0, null, null, null, 20)).toEqual({ items: [], more: false, from: null });
  });

  it("pages neither repeat nor skip an episode while new ones publish", () => {
    const first = idx.page(T0 + 3 * DAY, null, null, null, 2);
    expect(first.items.map((e) => e.n)).toEqual([3, 2]);
    // Two more episodes publish before the client asks for page two.
    const second = idx.page(T0 + 5 * DAY, null, orderKeyOf(first.items[1]!), null, 2);
    expect(second).toEqual({ items: [entries[0]], more: false, from: 4 });
  });

  it("resolve finds an episode by UUID or number only once it is published", () => {
    expect(idx.resolve({ kind: "number", number: 4 }, T0 + 3 * DAY)).toBeNull();
    expect(idx.resolve({ kind: "number", number: 4 }, T0 + 4 * DAY)?.id).toBe(uuid(4));
    expect(idx.resolve({ kind: "uuid", id: uuid(4) }, T0 + 3 * DAY)).toBeNull();
    expect(idx.resolve({ kind: "uuid", id: uuid(4) }, T0 + 4 * DAY)?.n).toBe(4);
    expect(idx.resolve({ kind: "number", number: 99 }, T0 + 99 * DAY)).toBeNull();
    expect(idx.resolve({ kind: "uuid", id: uuid(99) }, T0 + 99 * DAY)).toBeNull();
  });

  it("latest is the newest published episode, and follows new publications", () => {
    expect(idx.latest(T0)).toBeNull();
    expect(idx.latest(T0 + 2 * DAY)?.n).toBe(2);
    expect(idx.latest(T0 + 2 * DAY + 1)?.n).toBe(2);
    expect(idx.latest(T0 + 99 * DAY)?.n).toBe(5);
  });

  it("published counts the published episodes and slices them newest first (the archive's pages)", () => {
    expect(idx.published(T0, 0, 50)).toEqual({ total: 0, items: [] });
    expect(idx.published(T0 + 3 * DAY, 0, 2).items.map((e) => e.n)).toEqual([3, 2]);
    expect(idx.published(T0 + 3 * DAY, 2, 2)).toEqual({ total: 3, items: [entries[0]] });
    expect(idx.published(T0 + 99 * DAY, 5, 2)).toEqual({ total: 5, items: [] });
  });

  it("the published count follows the clock forwards and backwards, at and around every publication", () => {
    // Two episodes at one moment, and the count asked in an order that jumps both ways: an answer
    // remembered for its interval must never outlive it.
    const tied = indexOf([...entries, entry(6, { p: T0 + 5 * DAY }), entry(7, { p: T0 + 7 * DAY })]);
    const moments = [T0 + 5 * DAY, T0 + 5 * DAY - 1, T0 + 9 * DAY, T0, T0 + 7 * DAY, T0 + 7 * DAY - 1, T0 + DAY, T0 + 3 * DAY + 1, T0 + 5 * DAY];
    for (const now of [...moments, ...Array.from({ length: 200 }, (_, i) => T0 + ((i * 7919) % 10) * DAY + ((i % 3) - 1))]) {
      expect(tied.publishedCount(now), `at day ${(now - T0) / DAY}`).toBe([...entries, entry(6, { p: T0 + 5 * DAY }), entry(7, { p: T0 + 7 * DAY })].filter((e) => e.p <= now).length);
    }
  });

  it("resolvePosition and the fields read at a position agree with the entry resolve makes", () => {
    const mixed = indexOf([entry(1, { script: "missing", transcript: false }), entry(2, { script: "unparseable" }), entry(3)]);
    for (const n of [1, 2, 3]) {
      const at = mixed.resolvePosition({ kind: "number", number: n }, T0 + 9 * DAY);
      const whole = mixed.resolve({ kind: "number", number: n }, T0 + 9 * DAY)!;
      expect([mixed.scriptAt(at), mixed.transcriptAt(at), mixed.refAt(at)]).toEqual([whole.script, whole.transcript, whole.ref]);
    }
    expect(mixed.resolvePosition({ kind: "number", number: 3 }, T0 + 2 * DAY)).toBe(-1);
  });

  it("a media key resolves only to a published episode that owns it", () => {
    const withAudio = indexOf([entry(1, { audio: { key: `${uuid(1)}.mp3`, bytes: 10, etag: '"x"' } }), entry(2)]);
    expect(withAudio.byMediaKey(`${uuid(1)}.mp3`, T0 + DAY)?.n).toBe(1);
    expect(withAudio.byMediaKey(`${uuid(1)}.mp3`, T0)).toBeNull();
    expect(withAudio.byMediaKey(`${uuid(2)}.mp3`, T0 + 9 * DAY)).toBeNull();
    expect(withAudio.byMediaKey(uuid(1), T0 + DAY)).toBeNull();
  });
});

describe("domain sequences", () => {
  const entries = [
    entry(1, { domains: ["ai"] }),
    entry(2, { domains: ["security", "ai"] }),
    entry(3, { domains: ["security"] }),
    entry(4, { domains: ["ai", "ai"] }), // a repeated domain counts once
    entry(5, { domains: [] }),
  ];
  const idx = indexOf(entries);
  const now = T0 + 10 * DAY;

  it("a domain lists only its episodes, in list order", () => {
    expect(walk(idx, now, "ai", null, 50).flat().map((e) => e.n)).toEqual([4, 2, 1]);
    expect(walk(idx, now, "security", null, 1).map((p) => p.map((e) => e.n))).toEqual([[3], [2]]);
  });

  it("a domain no episode carries gives an empty page", () => {
    expect(idx.page(now, "nothing-here", null, null, 20)).toEqual({ items: [], more: false, from: null });
  });

  it("the clock applies within a domain", () => {
    expect(walk(idx, T0 + 3 * DAY, "ai", null, 50).flat().map((e) => e.n)).toEqual([2, 1]);
  });
});

describe("since (discoveredAt, inclusive)", () => {
  // discoveredAt does not follow publishedAt: the walk may not stop at the first older one.
  const entries = [
    entry(1, { s: T0 + 50 * DAY }),
    entry(2, { s: T0 }),
    entry(3, { s: T0 + 30 * DAY }),
    entry(4, { s: T0 + 1 * DAY }),
    entry(5, { s: T0 + 30 * DAY }),
    entry(6, { s: T0 + 2 * DAY }),
  ];
  const idx = indexOf(entries);
  const now = T0 + 100 * DAY;

  it("keeps episodes discovered at or after since, even below older ones in the order", () => {
    expect(walk(idx, now, null, T0 + 30 * DAY, 50).flat().map((e) => e.n)).toEqual([5, 3, 1]);
  });

  it("is inclusive at the exact instant", () => {
    expect(walk(idx, now, null, T0 + 50 * DAY, 50).flat().map((e) => e.n)).toEqual([1]);
    expect(walk(idx, now, null, T0 + 50 * DAY + 1, 50).flat()).toEqual([]);
  });

  it("says more only when a later episode still matches (no empty page after the last match)", () => {
    // After 3 only 2 (s=T0) and 1 (s=T0+50d) remain; with limit 2 the page [5,3] must say more (1 matches).
    expect(idx.page(now, null, null, T0 + 30 * DAY, 2)).toMatchObject({ more: true });
    // With since above every remaining episode's s, the first page ends the list.
    const onlyFive = indexOf(entries.filter((e) => e.n !== 1 && e.n !== 3));
    expect(onlyFive.page(now, null, null, T0 + 30 * DAY, 1)).toEqual({ items: [entries[4]], more: false, from: 1 });
  });
});

describe("the index agrees with the definition of the list on random data", () => {
  it("for random episodes, clocks, domains, since values and limits", () => {
    const random = prng(20261001); // deterministic, so failures reproduce
    const DOMAINS = ["ai", "security", "hardware", "policy", "open-source"];
    for (let round = 0; round < 60; round++) {
      const count = 1 + Math.floor(random() * 80);
      const entries = Array.from({ length: count }, (_, i) => {
        const p = T0 + Math.floor(random() * 40) * DAY; // many ties in publishedAt
        return entry(i + 1, {
          p,
          s: p - Math.floor(random() * 20) * DAY,
          n: random() < 0.1 ? null : i + 1,
          domains: DOMAINS.filter(() => random() < 0.35),
        });
      });
      const idx = indexOf(entries);
      for (let q = 0; q < 10; q++) {
        const now = T0 + Math.floor(random() * 45) * DAY;
        const domain = random() < 0.5 ? null : DOMAINS[Math.floor(random() * DOMAINS.length)]!;
        const since = random() < 0.5 ? null : T0 + Math.floor(random() * 40 - 10) * DAY;
        const limit = 1 + Math.floor(random() * 10);
        const pages = walk(idx, now, domain, since, limit);
        const want = expected(entries, now, domain, since);
        expect(pages.flat().map((e) => e.id), `round ${round}, query ${q}`).toEqual(want);
        // every page but the last is full, and the last is empty only when the whole list is
        for (const p of pages.slice(0, -1)) expect(p).toHaveLength(limit);
        if (want.length > 0) expect(pages[pages.length - 1]!.length).toBeGreaterThan(0);
        expect(idx.latest(now)?.id ?? null).toBe(expected(entries, now, null, null)[0] ?? null);
      }
    }
  });
});
