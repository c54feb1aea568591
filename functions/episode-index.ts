// The episode index at request time: reference resolution, the publication clock and list pages,
// each by lookup or binary search over arrays precomputed at start-up, so a request costs the same
// at 100 episodes and at 100,000.
import { z } from "zod";
import { buildIndex, indexEntry, type BuildIndex, type IndexEntry } from "../src/shared/schema/build-index.ts";
import { compareOrder, orderKeyOf, type OrderKey } from "../src/shared/order.ts";
import type { EpisodeRef } from "../src/shared/refs.ts";

/** One ordered sequence of episodes (all, or one domain's), as positions into the index. */
class Sequence {
  /** Positions into entries, in list order. */
  readonly at: Uint32Array;
  /** suffixMaxS[k] = the largest `s` (discoveredAt) among at[k..]; non-increasing in k. */
  private readonly suffixMaxS: Float64Array;
  private readonly entries: IndexEntry[];

  constructor(entries: IndexEntry[], positions: number[]) {
    this.entries = entries;
    this.at = Uint32Array.from(positions);
    this.suffixMaxS = new Float64Array(positions.length);
    let max = -Infinity;
    for (let k = positions.length - 1; k >= 0; k--) {
      max = Math.max(max, entries[positions[k]!]!.s);
      this.suffixMaxS[k] = max;
    }
  }

  /** First k in [0, length] for which pred(k) holds, pred being false…false true…true. */
  private search(pred: (k: number) => boolean): number {
    let lo = 0;
    let hi = this.at.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (pred(mid)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  private entry(k: number): IndexEntry {
    return this.entries[this.at[k]!]!;
  }

  /**
   * Up to `limit` published episodes after `after` with s >= since, plus whether more follow.
   * Published ones are a suffix of the order (publishedAt descending), found by binary search; so
   * is the cursor position; the since bound ends the walk where no later episode can match.
   */
  page(now: number, after: OrderKey | null, since: number | null, limit: number): { items: IndexEntry[]; more: boolean } {
    const published = this.firstPublished(now);
    const resume = after === null ? 0 : this.search((k) => compareOrder(orderKeyOf(this.entry(k)), after) > 0);
    const end = since === null ? this.at.length : this.search((k) => this.suffixMaxS[k]! < since);
    const items: IndexEntry[] = [];
    for (let k = Math.max(published, resume); k < end; k++) {
      const e = this.entry(k);
      if (since !== null && e.s < since) continue;
      if (items.length === limit) return { items, more: true };
      items.push(e);
    }
    return { items, more: false };
  }

  /** The position of the newest published episode (the length when none is). */
  firstPublished(now: number): number {
    return this.search((k) => this.entry(k).p <= now);
  }

  /** The newest published episode, if any. */
  latest(now: number): IndexEntry | null {
    const k = this.firstPublished(now);
    return k < this.at.length ? this.entry(k) : null;
  }

  /** How many episodes are published, and `limit` of them from the `offset`-th on (0 the newest). */
  published(now: number, offset: number, limit: number): { total: number; items: IndexEntry[] } {
    const first = this.firstPublished(now);
    const items: IndexEntry[] = [];
    for (let k = first + offset; k < this.at.length && items.length < limit; k++) items.push(this.entry(k));
    return { total: this.at.length - first, items };
  }
}

const EMPTY_SEQUENCE: IndexEntry[] = [];

export class EpisodeIndex {
  private readonly byId = new Map<string, IndexEntry>();
  private readonly byNumber = new Map<number, IndexEntry>();
  private readonly all: Sequence;
  private readonly domains = new Map<string, Sequence>();
  private readonly none = new Sequence(EMPTY_SEQUENCE, []);

  readonly data: BuildIndex;

  constructor(data: BuildIndex) {
    this.data = data;
    const perDomain = new Map<string, number[]>();
    data.episodes.forEach((e, i) => {
      this.byId.set(e.id, e);
      if (e.n !== null) this.byNumber.set(e.n, e);
      for (const d of new Set(e.domains)) {
        const list = perDomain.get(d) ?? [];
        list.push(i);
        perDomain.set(d, list);
      }
    });
    this.all = new Sequence(data.episodes, data.episodes.map((_, i) => i));
    for (const [d, positions] of perDomain) this.domains.set(d, new Sequence(data.episodes, positions));
  }

  /** The episode behind a reference if it is published at `now`, else null. */
  resolve(ref: EpisodeRef, now: number): IndexEntry | null {
    const e = ref.kind === "uuid" ? this.byId.get(ref.id) : this.byNumber.get(ref.number);
    return e !== undefined && e.p <= now ? e : null;
  }

  /** The published episode whose local audio key is `key` (the direct /media/ URL). */
  byMediaKey(key: string, now: number): IndexEntry | null {
    const id = key.endsWith(".mp3") ? key.slice(0, -4) : key;
    const e = this.byId.get(id);
    return e !== undefined && e.p <= now && e.audio?.key === key ? e : null;
  }

  page(now: number, domain: string | null, after: OrderKey | null, since: number | null, limit: number) {
    const seq = domain === null ? this.all : (this.domains.get(domain) ?? this.none);
    return seq.page(now, after, since, limit);
  }

  latest(now: number): IndexEntry | null {
    return this.all.latest(now);
  }

  /** The archive's view: how many episodes are published, and `limit` of them from `offset` on, newest first. */
  published(now: number, offset: number, limit: number): { total: number; items: IndexEntry[] } {
    return this.all.published(now, offset, limit);
  }
}

/** The index's document without its episodes, which loadIndex validates one at a time. */
const indexHead = buildIndex.omit({ episodes: true });

/**
 * The value of the build's index.json, validated as `buildIndex.parse` would and held compactly,
 * for a long-running process (the Node entry): each entry is validated on its own and its raw
 * object dropped at once, so the whole index never exists three times over (the text, the parsed
 * value, the validated copy; ~75 MB of heap at 100,000 episodes at the peak), and equal values
 * (domain lists, script states) are shared between entries instead of held once per entry.
 */
export function loadIndex(raw: unknown): EpisodeIndex {
  if (typeof raw !== "object" || raw === null || !Array.isArray((raw as { episodes?: unknown }).episodes)) return new EpisodeIndex(buildIndex.parse(raw));
  const list = (raw as { episodes: unknown[] }).episodes;
  const head = indexHead.parse(raw);
  const shared = new Map<string, string[]>();
  const episodes: IndexEntry[] = new Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const parsed = indexEntry.safeParse(list[i]);
    // The error buildIndex.parse would throw, with the entry's path.
    if (!parsed.success) throw new z.ZodError(parsed.error.issues.map((issue) => ({ ...issue, path: ["episodes", i, ...issue.path] })));
    const e = parsed.data;
    const key = e.domains.join("\n");
    let domains = shared.get(key);
    if (domains === undefined) shared.set(key, (domains = e.domains));
    e.domains = domains;
    episodes[i] = e;
    list[i] = null;
  }
  return new EpisodeIndex({ ...head, episodes });
}
