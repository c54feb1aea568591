// The episode index at request time: reference resolution, the publication clock and list pages,
// each by lookup or binary search over arrays precomputed at start-up, so a request costs the same
// at 100 episodes and at 100,000.
//
// Entries are held by column (EntryTable): numbers in typed arrays, each string field of every
// entry in one string, so 100,000 entries are a few dozen heap objects (~20 MB) instead of ~1.5
// million (~60 MB: objects, strings, boxed numbers, two Maps). A request gets its entries as
// fresh objects, made for the few episodes it answers with.
import { z } from "zod";
import { buildIndex, indexEntry, scriptState, type BuildIndex, type IndexEntry } from "../../src/shared/schema/build-index.ts";
import { compareOrder, type OrderKey } from "../../src/shared/order.ts";
import type { EpisodeRef } from "../../src/shared/refs.ts";
import { PositionLookup } from "./position-lookup.ts";
import { StringColumn } from "./string-column.ts";

/** The index's document without its episodes. */
export type IndexHead = Omit<BuildIndex, "episodes">;

const SCRIPT_STATES = scriptState.options;

/** The entries, by column, in list order. */
export class EntryTable {
  readonly size: number;
  readonly p: Float64Array;
  readonly s: Float64Array;
  /** The episode number, NaN for none. */
  readonly n: Float64Array;
  readonly #id: StringColumn;
  readonly #ref: StringColumn;
  readonly #title: StringColumn;
  /** Position in #domainLists: equal lists are one shared array. */
  readonly #domains: Uint32Array;
  readonly #domainLists: string[][];
  /** Position in SCRIPT_STATES. */
  readonly #script: Uint8Array;
  readonly #transcript: Uint8Array;
  readonly #hasAudio: Uint8Array;
  /** The audio's bytes, NaN for null. */
  readonly #audioBytes: Float64Array;
  readonly #audioKey: StringColumn;
  readonly #audioEtag: StringColumn;

  /** `fill` calls `add` once per entry, in list order: the entries need not all exist at once. */
  constructor(fill: (add: (e: IndexEntry) => void) => void) {
    const p: number[] = [];
    const s: number[] = [];
    const n: number[] = [];
    const domains: number[] = [];
    const script: number[] = [];
    const transcript: number[] = [];
    const hasAudio: number[] = [];
    const audioBytes: number[] = [];
    const id: string[] = [];
    const ref: string[] = [];
    const title: string[] = [];
    const audioKey: string[] = [];
    const audioEtag: string[] = [];
    const lists = new Map<string, number>();
    this.#domainLists = [];
    fill((e) => {
      p.push(e.p);
      s.push(e.s);
      n.push(e.n ?? NaN);
      const key = JSON.stringify(e.domains);
      let list = lists.get(key);
      if (list === undefined) lists.set(key, (list = this.#domainLists.push([...e.domains]) - 1));
      domains.push(list);
      script.push(SCRIPT_STATES.indexOf(e.script));
      transcript.push(e.transcript ? 1 : 0);
      hasAudio.push(e.audio === null ? 0 : 1);
      audioBytes.push(e.audio?.bytes ?? NaN);
      id.push(e.id);
      ref.push(e.ref);
      title.push(e.title);
      audioKey.push(e.audio?.key ?? "");
      audioEtag.push(e.audio?.etag ?? "");
    });
    this.size = p.length;
    this.p = Float64Array.from(p);
    this.s = Float64Array.from(s);
    this.n = Float64Array.from(n);
    this.#domains = Uint32Array.from(domains);
    this.#script = Uint8Array.from(script);
    this.#transcript = Uint8Array.from(transcript);
    this.#hasAudio = Uint8Array.from(hasAudio);
    this.#audioBytes = Float64Array.from(audioBytes);
    this.#id = new StringColumn(id);
    this.#ref = new StringColumn(ref);
    this.#title = new StringColumn(title);
    this.#audioKey = new StringColumn(audioKey);
    this.#audioEtag = new StringColumn(audioEtag);
  }

  id(i: number): string {
    return this.#id.at(i);
  }

  /** Whether entry i's id is `id`, without making a string of it. */
  idIs(i: number, id: string): boolean {
    return this.#id.is(i, id);
  }

  number(i: number): number | null {
    const n = this.n[i]!;
    return Number.isNaN(n) ? null : n;
  }

  ref(i: number): string {
    return this.#ref.at(i);
  }

  domainsOf(i: number): readonly string[] {
    return this.#domainLists[this.#domains[i]!]!;
  }

  audioKey(i: number): string | null {
    return this.#hasAudio[i] === 1 ? this.#audioKey.at(i) : null;
  }

  orderKey(i: number): OrderKey {
    return { p: this.p[i]!, n: this.number(i) ?? -1, id: this.id(i) };
  }

  /** Entry i as the schema's object (a new one on every call). */
  entry(i: number): IndexEntry {
    const bytes = this.#audioBytes[i]!;
    return {
      id: this.id(i),
      n: this.number(i),
      p: this.p[i]!,
      s: this.s[i]!,
      ref: this.#ref.at(i),
      title: this.#title.at(i),
      domains: this.domainsOf(i) as string[],
      script: SCRIPT_STATES[this.#script[i]!]!,
      transcript: this.#transcript[i] === 1,
      audio: this.#hasAudio[i] === 1 ? { key: this.#audioKey.at(i), bytes: Number.isNaN(bytes) ? null : bytes, etag: this.#audioEtag.at(i) } : null,
    };
  }
}

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

  /** The position of the newest published episode (the length when none is). */
  firstPublished(now: number): number {
    return this.search((k) => this.table.p[this.at[k]!]! <= now);
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
    const i = ref.kind === "uuid" ? this.#byIdAt(ref.id) : this.#byNumber.find(hashNumber(ref.number), ref.number, this.#numberIs);
    return i >= 0 && this.#table.p[i]! <= now ? this.#table.entry(i) : null;
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

/** The index's document without its episodes, which loadIndex validates one at a time. */
const indexHead = buildIndex.omit({ episodes: true });

/** An entry validated as buildIndex.parse would, or the error it would throw, with the entry's path. */
function validEntry(raw: unknown, i: number): IndexEntry {
  const parsed = indexEntry.safeParse(raw);
  if (!parsed.success) throw new z.ZodError(parsed.error.issues.map((issue) => ({ ...issue, path: ["episodes", i, ...issue.path] })));
  return parsed.data;
}

/**
 * The value of the build's index.json, validated as `buildIndex.parse` would, for a long-running
 * process (the Node entry): each entry is validated on its own, put in the table and its raw
 * object dropped at once, so the whole index never exists three times over (the parsed value, the
 * validated copy, the table).
 */
export function loadIndex(raw: unknown): EpisodeIndex {
  if (typeof raw !== "object" || raw === null || !Array.isArray((raw as { episodes?: unknown }).episodes)) return new EpisodeIndex(buildIndex.parse(raw));
  const list = (raw as { episodes: unknown[] }).episodes;
  const head = indexHead.parse(raw);
  const table = new EntryTable((add) => {
    for (let i = 0; i < list.length; i++) {
      add(validEntry(list[i], i));
      list[i] = null;
    }
  });
  return new EpisodeIndex({ head, table });
}

// index.json's text, read entry by entry: JSON.parse of the whole text made all 100,000 entries'
// objects at once (~100 MB of heap beside the 24 MB text: most of the process's peak at start).
// The scanner below only finds where values start and end, by their brackets and strings; each
// value's slice then goes through JSON.parse, which checks everything else, and the separators
// between values are checked here, so the text is accepted where JSON.parse accepts it.

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The end of the string literal whose opening quote is at i, -1 if it has none. */
function skipString(text: string, i: number): number {
  for (i++; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x22) return i + 1;
  }
  return -1;
}

/** The end of the value starting at i, by its brackets and strings; -1 if they are unbalanced. */
function skipValue(text: string, i: number): number {
  let depth = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = skipString(text, i);
      if (i < 0) return -1;
      if (depth === 0) return i;
      continue;
    }
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      if (depth === 0) return i;
      if (--depth === 0) return i + 1;
    } else if (depth === 0 && (c === 0x2c || isSpace(c))) return i;
    i++;
  }
  return depth === 0 ? i : -1;
}

/** The top-level object's members as [key, value start, value end]; null when the text is not one object. */
function topMembers(text: string): [string, number, number][] | null {
  const members: [string, number, number][] = [];
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== 0x7b) return null;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === 0x7d) return skipSpace(text, i + 1) === text.length ? members : null;
  for (;;) {
    if (text.charCodeAt(i) !== 0x22) return null;
    const keyEnd = skipString(text, i);
    if (keyEnd < 0) return null;
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipSpace(text, keyEnd);
    if (text.charCodeAt(i) !== 0x3a) return null;
    const start = skipSpace(text, i + 1);
    const end = skipValue(text, start);
    if (end <= start) return null;
    members.push([key, start, end]);
    i = skipSpace(text, end);
    if (text.charCodeAt(i) === 0x2c) i = skipSpace(text, i + 1);
    else if (text.charCodeAt(i) === 0x7d) return skipSpace(text, i + 1) === text.length ? members : null;
    else return null;
  }
}

/** Calls `visit` with each element's start and end of the array starting at `start`. */
function eachElement(text: string, start: number, visit: (from: number, to: number) => void): void {
  let i = skipSpace(text, start + 1);
  if (text.charCodeAt(i) === 0x5d) return;
  for (;;) {
    const end = skipValue(text, i);
    if (end <= i) throw new SyntaxError(`Unexpected character in JSON at position ${i}`);
    visit(i, end);
    i = skipSpace(text, end);
    if (text.charCodeAt(i) === 0x2c) i = skipSpace(text, i + 1);
    else if (text.charCodeAt(i) === 0x5d) return;
    else throw new SyntaxError(`Unexpected character in JSON at position ${i}`);
  }
}

/**
 * loadIndex of index.json's text, parsing one entry at a time: the same index; a SyntaxError for
 * text JSON.parse refuses, else the ZodError of buildIndex.parse; only the text, one entry and the
 * table in memory at once.
 */
export function loadIndexText(text: string): EpisodeIndex {
  const members = topMembers(text);
  const episodes = members?.filter(([key]) => key === "episodes") ?? [];
  if (members === null || episodes.length !== 1 || text.charCodeAt(episodes[0]![1]) !== 0x5b) return loadIndex(JSON.parse(text));
  const head = indexHead.parse(Object.fromEntries(members.filter(([key]) => key !== "episodes").map(([key, from, to]) => [key, JSON.parse(text.slice(from, to))])));
  let i = 0;
  const table = new EntryTable((add) => eachElement(text, episodes[0]![1], (from, to) => add(validEntry(JSON.parse(text.slice(from, to)), i++))));
  return new EpisodeIndex({ head, table });
}
