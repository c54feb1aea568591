// The search tokenizer, one for the build (src/generate/search-index.ts indexes with it) and for
// request time (functions/data/search.ts tokenizes queries and finds snippets with it), so a word is the
// same term on both sides. Lower case, diacritics folded (NFKD, combining marks removed: "Café" and
// "cafe" are one term), split on anything that is not a letter or a digit. Portable.

/** Longer runs are not words (hashes, base64): cut so one cannot bloat a shard's dictionary. */
export const MAX_TOKEN_LENGTH = 40;

const MARKS = /\p{M}+/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/u;

const NON_ASCII = /[^\x00-\x7f]+/g;

/** Folded non-ASCII runs ("é", "’", "ün"): they repeat, and normalizing each anew cost most of a fold. */
const foldedRuns = new Map<string, string>();
const FOLDED_RUNS_MAX = 4096;

function foldRun(run: string): string {
  let folded = foldedRuns.get(run);
  if (folded === undefined) {
    folded = run.normalize("NFKD").replace(MARKS, "");
    if (foldedRuns.size < FOLDED_RUNS_MAX) foldedRuns.set(run, folded);
  }
  return folded;
}

/** Lower-cased, NFKD-decomposed, combining marks removed. Length may differ from the input's. */
export function foldText(text: string): string {
  // NFKD decomposes each character on its own and leaves ASCII as it is, and the marks it may
  // reorder are removed: so only the non-ASCII runs of a mostly-ASCII text are normalized.
  return text.replace(NON_ASCII, foldRun).toLowerCase();
}

/** The terms of a text, in order, repeats kept. */
export function tokenize(text: string): string[] {
  return termsOfFolded(foldText(text));
}

/** The terms of a text already folded (foldText). */
export function termsOfFolded(folded: string): string[] {
  const out: string[] = [];
  for (const t of folded.split(SEPARATORS)) if (t !== "") out.push(t.length > MAX_TOKEN_LENGTH ? t.slice(0, MAX_TOKEN_LENGTH) : t);
  return out;
}

/**
 * The test of a phrase in folded text: the terms in this order, separated by anything that is not
 * a letter or digit. The terms come from tokenize, so they are folded too.
 */
export function phrasePattern(terms: readonly string[]): RegExp {
  const escaped = terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped.join("[^\\p{L}\\p{N}]+")}(?![\\p{L}\\p{N}])`, "u");
}

/** Words of the original text with their offsets: what snippets are cut around. */
export function* wordsOf(text: string): Generator<{ start: number; end: number; terms: string[] }> {
  for (const m of text.matchAll(/[\p{L}\p{N}\p{M}]+/gu)) yield { start: m.index, end: m.index + m[0].length, terms: tokenize(m[0]) };
}

/**
 * The shard of a term: 32-bit FNV-1a of its UTF-16 code units, modulo the shard count. The build
 * and the query side must agree on it (the shard count is in the index's meta file).
 */
export function shardOf(term: string, shards: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) {
    h ^= term.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % shards;
}

/**
 * The searchable fields with their BM25F weights: a term in a title counts as eight in a
 * transcript. Integers, so weighted term frequencies and lengths stay integers in the shards.
 */
export const FIELD_WEIGHTS = { title: 8, topics: 5, summary: 3, description: 2, transcript: 1 } as const;
export type SearchField = keyof typeof FIELD_WEIGHTS;
export const SEARCH_FIELDS = Object.keys(FIELD_WEIGHTS) as SearchField[];

/** A document as the index sees it: each field's text (topic slugs joined by spaces). */
export type SearchDoc = Record<SearchField, string>;

/**
 * What the index holds of an episode: its resource's texts (topic slugs as words:
 * "machine-learning" → machine learning) and its transcript. The build indexes it, and the query
 * side reads it back from the built bodies for phrases and snippets.
 */
export function searchDocOf(
  r: { title: string; summary: string | null; description: string | null; topics: { domains: string[]; concepts: string[]; entities: string[] } },
  transcript: string | null,
): SearchDoc {
  const topics = [...r.topics.domains, ...r.topics.concepts, ...r.topics.entities].join(" ");
  return { title: r.title, topics, summary: r.summary ?? "", description: r.description ?? "", transcript: transcript ?? "" };
}
