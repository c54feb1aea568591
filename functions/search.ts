// Episode search at request time (docs/architecture.md#search), over the index the build writes
// (src/generate/search-index.ts). Memory stays bounded whatever the number of episodes: a query
// reads only the shards of its terms through the asset store, and parsed shards stay in a small
// byte-bounded cache; the one per-episode table held is the documents' lengths (4 bytes each).
//
// Ranking: documents that contain more of the query's distinct terms first, then BM25 over the
// field-weighted term frequencies (BM25F with the weights of src/shared/search-tokens.ts). The
// index has no word positions (they would multiply its size), so phrases are checked on texts:
// among the best episodes holding every term (up to PHRASE_CANDIDATES_MAX), those whose fields hold the query
// as a phrase go first, so a phrase that occurs in one transcript finds that episode first (unless
// it is made of words so common that more episodes hold them all and outrank it). Only episodes
// published at `now` are ever returned. Snippets are cut from the same texts: an episode's body and
// transcript are read for those candidates and the results only. A result whose transcript is timed
// and holds the hit also gets the moment: the turn where it is said, read from its script, for the
// results only.
import { episodeFile, SEARCH_FILES } from "../src/shared/layout.ts";
import { decodeDocLengths, forEachPosting, parseShard, SEARCH_FORMAT_VERSION, type SearchMeta, type Shard } from "../src/shared/search-format.ts";
import { momentUrl } from "../src/shared/links.ts";
import type { IndexEntry } from "../src/shared/schema/build-index.ts";
import type { EpisodeResource, ScriptResource } from "../src/shared/schema/api.ts";
import type { SearchResult } from "../src/shared/schema/mcp.ts";
import {
  FIELD_WEIGHTS,
  foldText,
  phrasePattern,
  SEARCH_FIELDS,
  searchDocOf,
  shardOf,
  termsOfFolded,
  tokenize,
  wordsOf,
  type SearchDoc,
  type SearchField,
} from "../src/shared/search-tokens.ts";
import type { EpisodeIndex } from "./episode-index.ts";
import { ByteLru } from "./lru.ts";
import type { AssetStore } from "./ports.ts";
import { transcriptLine, type Turn } from "../src/shared/transcript.ts";

export type { SearchResult };

/** BM25 parameters (the usual ones). */
const K1 = 1.2;
const B = 0.75;
/** Query terms beyond this are ignored: each costs one shard read. */
const MAX_QUERY_TERMS = 16;
/** Phrase candidates are read this many at a time, and at most PHRASE_CANDIDATES_MAX of them. */
const PHRASE_BATCH = 50;
const PHRASE_CANDIDATES_MAX = 200;
/** Parsed shards kept (their bytes and dictionaries). */
const SHARD_CACHE_BYTES = 16 * 1024 * 1024;
/** Characters of a snippet, around its first hit. */
const SNIPPET_BEFORE = 60;
const SNIPPET_LENGTH = 220;
/** Fields a snippet may come from, best first when they tie; the title is in the result already. */
const SNIPPET_FIELDS: SearchField[] = ["summary", "description", "transcript", "topics", "title"];

/**
 * How search reads files: not kept in the asset store's cache. Search holds what it reads itself
 * (the meta, the lengths, parsed shards in their own cache) or needs it once per query (the texts
 * of up to PHRASE_CANDIDATES_MAX candidates, ~20 KB each with a transcript, ~4 MB a query): kept,
 * they pushed out of the cache the episode bodies that list pages and requests come back for.
 */
const ONCE = { keep: false } as const;

/** The index is missing or disagrees with the episode index: the deployment is incomplete. */
export class SearchUnavailable extends Error {}

const decoder = new TextDecoder();

const WORD_HEAD = /^[\p{L}\p{N}\p{M}]+/u;
const WORD_TAIL = /[\p{L}\p{N}\p{M}]+$/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

/** Where in `text` the phrase starts, else its first word that is a query term, else 0. Stops at the first hit. */
function hitOf(text: string, terms: ReadonlySet<string>, phrase: string[] | null): number {
  let first = -1;
  // The last phrase.length terms read, with the offset of the word each came from.
  const window: { t: string; at: number }[] = [];
  for (const w of wordsOf(text)) {
    for (const t of w.terms) {
      if (first < 0 && terms.has(t)) {
        first = w.start;
        if (phrase === null) return first;
      }
      if (phrase === null) continue;
      window.push({ t, at: w.start });
      if (window.length > phrase.length) window.shift();
      if (window.length === phrase.length && window.every((x, j) => x.t === phrase[j])) return window[0]!.at;
    }
  }
  return Math.max(0, first);
}

/** A snippet of `text` around the query's phrase, else around its first word that is a query term; cut on word boundaries. */
export function snippetOf(text: string, terms: ReadonlySet<string>, phrase: string[] | null): string {
  const center = hitOf(text, terms, phrase);
  let start = center <= SNIPPET_BEFORE ? 0 : center - SNIPPET_BEFORE;
  let end = Math.min(text.length, start + SNIPPET_LENGTH);
  if (start > 0 && WORD_CHAR.test(text[start - 1]!)) start += WORD_HEAD.exec(text.slice(start, center))?.[0].length ?? 0;
  if (end < text.length && WORD_CHAR.test(text[end]!)) end -= WORD_TAIL.exec(text.slice(center, end))?.[0].length ?? 0;
  const body = text.slice(start, end).replace(/\s+/g, " ").trim();
  return `${start > 0 ? "…" : ""}${body}${end < text.length ? "…" : ""}`;
}

interface Ranked {
  doc: number;
  matched: number;
  score: number;
}
type Texts = { resource: EpisodeResource; doc: SearchDoc; folded: SearchDoc };
interface Picked {
  r: Ranked;
  field: SearchField | null;
  texts?: Texts | undefined;
}

export class EpisodeSearch {
  readonly #assets: AssetStore;
  readonly #index: EpisodeIndex;
  readonly #shards = new ByteLru<Shard>(SHARD_CACHE_BYTES, (s) => s.bytes.byteLength + s.terms.size * 64);
  #loaded: Promise<{ meta: SearchMeta; lengths: Uint32Array; scores: Float64Array; matched: Uint8Array; touched: Uint32Array }> | null = null;

  /** Whether an episode's segments are timed (the build's tags: functions/handler.ts); without it, no result gets a moment. */
  readonly #isTimed: (entry: IndexEntry) => boolean;

  constructor(assets: AssetStore, index: EpisodeIndex, isTimed: (entry: IndexEntry) => boolean = () => false) {
    this.#assets = assets;
    this.#index = index;
    this.#isTimed = isTimed;
  }

  /** The meta file and document lengths, read once; a failed read is retried by the next query. */
  #load() {
    this.#loaded ??= (async () => {
      const [metaFile, docsFile] = await Promise.all([this.#assets.get(SEARCH_FILES.meta, ONCE), this.#assets.get(SEARCH_FILES.docs, ONCE)]);
      if (metaFile === null || docsFile === null) throw new SearchUnavailable("search index missing");
      const meta = JSON.parse(decoder.decode(metaFile.body)) as SearchMeta;
      // docNo is a position in the episode index: both must come from the same build.
      const lengths = meta.version === SEARCH_FORMAT_VERSION && meta.docs === this.#index.size ? decodeDocLengths(docsFile.body, meta.docs) : null;
      if (lengths === null) throw new SearchUnavailable("search index does not match the episode index");
      // touched: the documents a query matched, at most every one. Preallocated like the scores: a
      // growing array of up to 100,000 numbers made ~2 MB of garbage per query of common words.
      return { meta, lengths, scores: new Float64Array(meta.docs), matched: new Uint8Array(meta.docs), touched: new Uint32Array(meta.docs) };
    })().catch((e: unknown) => {
      this.#loaded = null;
      throw e;
    });
    return this.#loaded;
  }

  async #shard(n: number): Promise<Shard> {
    const key = String(n);
    const hit = this.#shards.get(key);
    if (hit !== undefined) return hit;
    const file = await this.#assets.get(SEARCH_FILES.shard(n), ONCE);
    if (file === null) throw new SearchUnavailable(`search shard ${n} missing`);
    const shard = parseShard(file.body);
    this.#shards.set(key, shard);
    return shard;
  }

  /** Up to `limit` published episodes for `query`, best first. */
  async search(query: string, limit: number, now: number): Promise<SearchResult[]> {
    const tokens = tokenize(query);
    const terms = [...new Set(tokens)].slice(0, MAX_QUERY_TERMS);
    if (terms.length === 0) return [];
    const { meta, lengths, scores, matched, touched } = await this.#load();
    const shards = await Promise.all(terms.map((t) => this.#shard(shardOf(t, meta.shards))));
    // Synchronous from here to the ranking: the shared score buffers are reset before any await.
    let count = 0;
    const index = this.#index;
    terms.forEach((term, i) => {
      const shard = shards[i]!;
      const entry = shard.terms.get(term);
      if (entry === undefined) return;
      const [offset, length, df] = entry;
      const idf = Math.log(1 + (meta.docs - df + 0.5) / (df + 0.5));
      forEachPosting(shard.bytes, offset, length, (doc, tf) => {
        if (matched[doc] === 0) touched[count++] = doc;
        matched[doc]!++;
        scores[doc]! += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * lengths[doc]!) / meta.avgLength));
      });
    });
    const phrase = tokens.length > 1 ? tokens : null;
    // Only the best few are ever looked at: selected with a bounded heap, not by sorting every match.
    const keep = limit + (phrase === null ? 0 : PHRASE_CANDIDATES_MAX);
    const ranked: Ranked[] = topOf(touched.subarray(0, count), keep, (d) => index.publishedAt(d) <= now, (a, b) => matched[a]! - matched[b]! || scores[a]! - scores[b]! || b - a).map((d) => ({
      doc: d,
      matched: matched[d]!,
      score: scores[d]!,
    }));
    for (let i = 0; i < count; i++) (scores[touched[i]!] = 0), (matched[touched[i]!] = 0);

    const wanted = new Set(terms);
    const pattern = phrase === null ? null : phrasePattern(phrase);
    const picked = pattern === null ? ranked.slice(0, limit).map((r): Picked => ({ r, field: null })) : await this.#phraseFirst(ranked, terms.length, pattern, limit);
    return Promise.all(
      picked.map(async ({ r, field, texts }): Promise<SearchResult> => {
        const entry = index.entryAt(r.doc);
        const { resource, doc, folded } = texts ?? (await this.#texts(entry));
        const result: SearchResult = {
          ref: entry.ref,
          id: resource.id,
          title: resource.title,
          publishedAt: resource.publishedAt,
          snippet: snippetOf(doc[field ?? bestField(folded, wanted)], wanted, field === null ? null : phrase),
          links: resource.links,
        };
        // A cheap test first (a term as a substring of the folded transcript): most results need no script read.
        if (!this.#isTimed(entry) || !terms.some((t) => folded.transcript.includes(t))) return result;
        const turn = turnOf(await this.#segments(entry), wanted, pattern);
        return turn === null ? result : { ...result, start: turn.start, speaker: turn.speaker, text: turn.text, url: momentUrl(resource.links.page, turn.start) };
      }),
    );
  }

  /** A timed episode's segments, from its built script body (read once, not kept). */
  async #segments(entry: IndexEntry): Promise<TimedSegment[]> {
    const file = await this.#assets.get(episodeFile(entry.ref, "script"), ONCE);
    if (file === null) throw new SearchUnavailable(`script missing: ${entry.ref}`);
    return (JSON.parse(decoder.decode(file.body)) as ScriptResource).segments as TimedSegment[];
  }

  /**
   * The best `limit` of `ranked`, those holding the phrase first. Candidates are the episodes holding
   * every term (they rank first), read in batches: past the first batch only while fewer than
   * `limit` phrase matches are found, up to PHRASE_CANDIDATES_MAX. Texts are kept only for results.
   */
  async #phraseFirst(ranked: Ranked[], termCount: number, pattern: RegExp, limit: number) {
    const complete = ranked.findIndex((r) => r.matched < termCount);
    const candidates = Math.min(PHRASE_CANDIDATES_MAX, complete < 0 ? ranked.length : complete);
    const matches: Picked[] = [];
    const others: Picked[] = [];
    for (let at = 0; at < candidates && (at === 0 || matches.length < limit); at += PHRASE_BATCH) {
      const batch = ranked.slice(at, Math.min(candidates, at + PHRASE_BATCH));
      const texts = await Promise.all(batch.map((r) => this.#texts(this.#index.entryAt(r.doc))));
      batch.forEach((r, i) => {
        const field = phraseField(texts[i]!.folded, pattern);
        if (field !== null && matches.length < limit) matches.push({ r, field, texts: texts[i] });
        else if (field === null && others.length < limit) others.push({ r, field: null, texts: texts[i] });
      });
    }
    // Ranked order otherwise: the unchecked episodes follow the checked ones that are not matches.
    for (let at = candidates; others.length < limit && at < ranked.length; at++) others.push({ r: ranked[at]!, field: null });
    return [...matches, ...others].slice(0, limit);
  }

  /** An episode's searchable texts, from its built body and transcript. */
  async #texts(entry: IndexEntry): Promise<Texts> {
    const [body, transcript] = await Promise.all([
      this.#assets.get(episodeFile(entry.ref, "json"), ONCE),
      entry.transcript ? this.#assets.get(episodeFile(entry.ref, "transcript"), ONCE) : Promise.resolve(null),
    ]);
    if (body === null) throw new SearchUnavailable(`episode body missing: ${entry.ref}`);
    const resource = JSON.parse(decoder.decode(body.body)) as EpisodeResource;
    const doc = searchDocOf(resource, transcript === null ? "" : decoder.decode(transcript.body));
    const folded = Object.fromEntries(SEARCH_FIELDS.map((f) => [f, foldText(doc[f])])) as SearchDoc;
    return { resource, doc, folded };
  }
}

/**
 * The `k` best of `items` that pass `keep`, best first; `better(a, b) > 0` when a ranks above b.
 * A min-heap of k (its root the worst kept): O(n log k), where sorting all matches cost ~50 ms at
 * 100,000 episodes for a query of common words.
 */
export function topOf(items: Iterable<number>, k: number, keep: (x: number) => boolean, better: (a: number, b: number) => number): number[] {
  const heap: number[] = [];
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < heap.length && better(heap[worst]!, heap[l]!) > 0) worst = l;
      if (r < heap.length && better(heap[worst]!, heap[r]!) > 0) worst = r;
      if (worst === i) return;
      [heap[i], heap[worst]] = [heap[worst]!, heap[i]!];
      i = worst;
    }
  };
  for (const x of items) {
    if (!keep(x)) continue;
    if (heap.length < k) {
      heap.push(x);
      for (let i = heap.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (better(heap[parent]!, heap[i]!) <= 0) break;
        [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
        i = parent;
      }
    } else if (k > 0 && better(x, heap[0]!) > 0) {
      heap[0] = x;
      down(0);
    }
  }
  return heap.sort((a, b) => better(b, a));
}

type TimedSegment = Turn & { start: number; end: number };

/**
 * The turn a hit is said in, by the snippet's rule: the first turn holding the phrase, else the
 * first holding a query term; each turn read as its transcript line, so a speaker's name finds
 * their first turn as it finds the transcript. Null when none holds any.
 */
export function turnOf<T extends Turn>(segments: readonly T[], terms: ReadonlySet<string>, phrase: RegExp | null): T | null {
  let first: T | null = null;
  for (const s of segments) {
    const folded = foldText(transcriptLine(s));
    if (phrase?.test(folded)) return s;
    if (first === null && termsOfFolded(folded).some((t) => terms.has(t))) {
      if (phrase === null) return s;
      first = s;
    }
  }
  return first;
}

/** The first field (in snippet order) that holds the phrase, or null. */
function phraseField(folded: SearchDoc, pattern: RegExp): SearchField | null {
  return SNIPPET_FIELDS.find((f) => pattern.test(folded[f])) ?? null;
}

/** The field a snippet comes from: the one with the most weighted query-term hits. */
function bestField(folded: SearchDoc, terms: ReadonlySet<string>): SearchField {
  let best: SearchField = folded.summary !== "" ? "summary" : folded.description !== "" ? "description" : "title";
  let bestScore = 0;
  for (const f of SNIPPET_FIELDS) {
    // The title is shown beside the snippet: it is the snippet only when nothing else matches.
    const score = termsOfFolded(folded[f]).filter((t) => terms.has(t)).length * (f === "title" ? 0.01 : FIELD_WEIGHTS[f]);
    if (score > bestScore) (best = f), (bestScore = score);
  }
  return best;
}
