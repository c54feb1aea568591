// Loading the build's index.json into an EpisodeIndex, for a long-running process: each entry is
// validated on its own and put in the table, and the text is read entry by entry, so the whole
// index never exists several times over.
import * as z from "zod";
import { buildIndex, indexEntry, type IndexEntry } from "../../src/shared/schema/build-index.ts";
import { EntryTable } from "./entry-table.ts";
import { EpisodeIndex } from "./episode-index.ts";

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

// index.json's text, read entry by entry: JSON.parse of the whole text would make every entry's
// object at once, most of the process's peak at start (docs/performance.md#start-up).
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

