// The episode index at request time: reference resolution, the publication clock and list pages,
// each by lookup or binary search over arrays precomputed at start-up, so a request costs the same
// at 100 episodes and at 100,000.
import type { BuildIndex, IndexEntry } from "../src/shared/schema/build-index.ts";
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
    const published = this.search((k) => this.entry(k).p <= now);
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

  /** The newest published episode, if any. */
  latest(now: number): IndexEntry | null {
    const k = this.search((i) => this.entry(i).p <= now);
    return k < this.at.length ? this.entry(k) : null;
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
}
