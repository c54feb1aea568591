// The episode index at request time: reference resolution, the publication clock and list pages,
// each by lookup or binary search over arrays precomputed at start-up, so a request costs the same
// at 100 episodes and at 100,000. Its entries are held by column (./entry-table.ts); loading the
// build's text is ./load-index.ts.
import type { BuildIndex, IndexEntry } from "../../src/shared/schema/build-index.ts";
import { compareOrder, type OrderKey } from "../../src/shared/order.ts";
import type { EpisodeRef } from "../../src/shared/refs.ts";
import { EntryTable } from "./entry-table.ts";
import { PositionLookup } from "./position-lookup.ts";

/** The index's document without its episodes. */
export type IndexHead = Omit<BuildIndex, "episodes">;

function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 15)) >>> 0;
}

function hashNumber(n: number): number {
  return (Math.imul(n | 0, 0x9e3779b1) ^ Math.imul(Math.floor(n / 0x100000000) | 0, 0x85ebca6b)) >>> 0;
}

/** A page of a list. */
export interface Page {
  items: IndexEntry[];
  /** More episodes follow the last item. */
  more: boolean;
  /**
   * The index position of the first item when the items sit at consecutive positions of the index
   * (the list's order), as every page of the unfiltered list does; else null. Such a page's bodies
   * are one range of the list's bodies in one file (functions/ports.ts ListBodies).
   */
  from: number | null;
}

/** One ordered sequence of episodes (all, or one domain's), as positions into the table. */
class Sequence {
  /** Positions into the table, in list order. */
  readonly at: Uint32Array;
  /** suffixMaxS[k] = the largest `s` (discoveredAt) among at[k..]; non-increasing in k. */
  private readonly suffixMaxS: Float64Array;
  private readonly table: EntryTable;

  constructor(table: EntryTable, positions: Uint32Array) {
    this.table = table;
    this.at = positions;
    this.suffixMaxS = new Float64Array(positions.length);
    let max = -Infinity;
    for (let k = positions.length - 1; k >= 0; k--) {
      max = Math.max(max, table.s[positions[k]!]!);
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

  /**
   * Up to `limit` published episodes after `after` with s >= since, plus whether more follow.
   * Published ones are a suffix of the order (publishedAt descending), found by binary search; so
   * is the cursor position; the since bound ends the walk where no later episode can match.
   */
  page(now: number, after: OrderKey | null, since: number | null, limit: number): Page {
    const published = this.firstPublished(now);
    const resume = after === null ? 0 : this.search((k) => compareOrder(this.table.orderKey(this.at[k]!), after) > 0);
    const end = since === null ? this.at.length : this.search((k) => this.suffixMaxS[k]! < since);
    const items: IndexEntry[] = [];
    let from: number | null = null;
    let next = -1;
    for (let k = Math.max(published, resume); k < end; k++) {
      const pos = this.at[k]!;
      if (since !== null && this.table.s[pos]! < since) continue;
      if (items.length === limit) return { items, more: true, from };
      if (items.length === 0) from = pos;
      else if (pos !== next) from = null;
      next = pos + 1;
      items.push(this.table.entry(pos));
    }
    return { items, more: false, from: items.length === 0 ? null : from };
  }

  /**
   * The last answer of firstPublished and the clock interval over which it holds: from the newest
   * published episode's time to the next one's. Every request to the list asks at a new moment,
   * and the answer changes only when a scheduled episode's time comes.
   */
  #published = { first: -1, from: Infinity, until: -Infinity };

  /** The position of the newest published episode (the length when none is). */
  firstPublished(now: number): number {
    const last = this.#published;
    if (now >= last.from && now < last.until) return last.first;
    const p = this.table.p;
    const first = this.search((k) => p[this.at[k]!]! <= now);
    const from = first < this.at.length ? p[this.at[first]!]! : -Infinity;
    const until = first > 0 ? p[this.at[first - 1]!]! : Infinity;
    this.#published = { first, from, until };
    return first;
  }

  /** The newest published episode, if any. */
  latest(now: number): IndexEntry | null {
    const k = this.firstPublished(now);
    return k < this.at.length ? this.table.entry(this.at[k]!) : null;
  }

  /** How many episodes are published, and `limit` of them from the `offset`-th on (0 the newest). */
  published(now: number, offset: number, limit: number): { total: number; items: IndexEntry[] } {
    const first = this.firstPublished(now);
    const items: IndexEntry[] = [];
    for (let k = first + offset; k < this.at.length && items.length < limit; k++) items.push(this.table.entry(this.at[k]!));
    return { total: this.at.length - first, items };
  }
}

export class EpisodeIndex {
  readonly #table: EntryTable;
  readonly #byId: PositionLookup;
  readonly #byNumber: PositionLookup;
  private readonly all: Sequence;
  private readonly domains = new Map<string, Sequence>();
  private readonly none: Sequence;

  /** The document's fields beside its episodes (the show, the site's URLs). */
  readonly data: IndexHead;

  /** The document, or its head and its entries already in a table (loadIndex). */
  constructor(document: BuildIndex | { head: IndexHead; table: EntryTable }) {
    if ("table" in document) this.data = document.head;
    else {
      const { episodes, ...head } = document;
      this.data = head;
    }
    const table = (this.#table = "table" in document ? document.table : new EntryTable((add) => document.episodes.forEach(add)));
    const size = table.size;
    const positions = Array.from({ length: size }, (_, i) => i);
    this.#byId = new PositionLookup(size, positions, (i) => hashString(table.id(i)), (a, b) => table.id(a) === table.id(b));
    const numbered = positions.filter((i) => !Number.isNaN(table.n[i]!));
    this.#byNumber = new PositionLookup(numbered.length, numbered, (i) => hashNumber(table.n[i]!), (a, b) => table.n[a] === table.n[b]);
    const perDomain = new Map<string, number[]>();
    for (let i = 0; i < size; i++) {
      for (const d of new Set(table.domainsOf(i))) {
        const list = perDomain.get(d) ?? [];
        list.push(i);
        perDomain.set(d, list);
      }
    }
    this.all = new Sequence(table, Uint32Array.from(positions));
    this.none = new Sequence(table, new Uint32Array(0));
    for (const [d, list] of perDomain) this.domains.set(d, new Sequence(table, Uint32Array.from(list)));
  }

  /** How many entries the index holds (published or not). */
  get size(): number {
    return this.#table.size;
  }

  /** The entry at a position of the index (list order), published or not. */
  entryAt(position: number): IndexEntry {
    return this.#table.entry(position);
  }

  /** The canonical ref of the entry at a position, without making its object. */
  refAt(position: number): string {
    return this.#table.ref(position);
  }

  /** The id of the entry at a position, without making its object. */
  idAt(position: number): string {
    return this.#table.id(position);
  }

  /** publishedAt of the entry at a position, without making its object. */
  publishedAt(position: number): number {
    return this.#table.p[position]!;
  }

  /** The lookups' matchers, made once: no closure per request. */
  readonly #idIs = (i: number, id: string) => this.#table.idIs(i, id);
  readonly #numberIs = (i: number, n: number) => this.#table.n[i] === n;

  #byIdAt(id: string): number {
    return this.#byId.find(hashString(id), id, this.#idIs);
  }

  /** The position in the index of the episode with this (lower-case) id, -1 for none. */
  positionOf(id: string): number {
    return this.#byIdAt(id);
  }

  /** The episode behind a reference if it is published at `now`, else null. */
  resolve(ref: EpisodeRef, now: number): IndexEntry | null {
    const i = this.resolvePosition(ref, now);
    return i >= 0 ? this.#table.entry(i) : null;
  }

  /**
   * resolve's position in the index, -1 for none: what a route that needs only a field or two
   * reads (scriptAt, transcriptAt, refAt) instead of an entry made with all of its strings.
   */
  resolvePosition(ref: EpisodeRef, now: number): number {
    const i = ref.kind === "uuid" ? this.#byIdAt(ref.id) : this.#byNumber.find(hashNumber(ref.number), ref.number, this.#numberIs);
    return i >= 0 && this.#table.p[i]! <= now ? i : -1;
  }

  /** The script state of the entry at a position, without making its object. */
  scriptAt(position: number): IndexEntry["script"] {
    return this.#table.script(position);
  }

  /** Whether the entry at a position has a plain transcript, without making its object. */
  transcriptAt(position: number): boolean {
    return this.#table.transcript(position);
  }

  /** The published episode whose local audio key is `key` (the direct /media/ URL). */
  byMediaKey(key: string, now: number): IndexEntry | null {
    const i = this.#byIdAt(key.endsWith(".mp3") ? key.slice(0, -4) : key);
    return i >= 0 && this.#table.p[i]! <= now && this.#table.audioKey(i) === key ? this.#table.entry(i) : null;
  }

  page(now: number, domain: string | null, after: OrderKey | null, since: number | null, limit: number): Page {
    const seq = domain === null ? this.all : (this.domains.get(domain) ?? this.none);
    return seq.page(now, after, since, limit);
  }

  latest(now: number): IndexEntry | null {
    return this.all.latest(now);
  }

  /**
   * How many episodes are published at `now`. Published ones are a suffix of the order, so the
   * count names the set of them: what any answer that depends on the clock is a function of.
   */
  publishedCount(now: number): number {
    return this.all.at.length - this.all.firstPublished(now);
  }

  /** The archive's view: how many episodes are published, and `limit` of them from `offset` on, newest first. */
  published(now: number, offset: number, limit: number): { total: number; items: IndexEntry[] } {
    return this.all.published(now, offset, limit);
  }
}
