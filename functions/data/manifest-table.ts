// The build's manifest (dist-relative path → strong ETag, src/generate/integration.ts) held compactly
// for a long-running server. As one JS object, each pair costs a dictionary entry, a key string and
// a value string, the bulk of a large show's heap (docs/performance.md#what-a-server-is-made-of).
// Here every path is split into a template and a stem: `_api/episodes/42.script.json` → template
// `_api/episodes/\0.script.json`, stem `42` (the last segment up to its first dot). Six templates and
// one stem per episode cover nearly all paths, so each string is kept once; a pair is two integers in
// an open-addressing table and its ETag 16 bytes (the build's tags are `"` + 22 base64url characters
// + `"`, 128 bits). A tag of any other form is kept as a string beside. Portable: no runtime imports.
// The table of positions is ./position-lookup.ts, shared with the episode index.
import { PositionLookup } from "./position-lookup.ts";

/** What the asset store asks of a manifest. */
export interface ManifestLookup {
  etagOf(rel: string): string | undefined;
}

const TAG_BYTES = 16;
const TAG = /^"[A-Za-z0-9_-]{22}"$/;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const VALUE = new Uint8Array(128);
for (let i = 0; i < 64; i++) VALUE[ALPHABET.charCodeAt(i)] = i;

/**
 * The 16 bytes of a 22-character base64url tag into `out` at `at`; false when the tag is not the
 * canonical encoding of 16 bytes (its last character holding bits beyond the 128th).
 * Here rather than through the shared helpers (src/shared/base64url.ts): straight into the one table
 * of 600,000 tags, at an offset, with no array made per tag.
 */
function decodeTag(tag: string, start: number, out: Uint8Array, at: number): boolean {
  let bits = 0;
  let n = 0;
  let o = at;
  for (let i = start; i < start + 22; i++) {
    bits = (bits << 6) | VALUE[tag.charCodeAt(i)]!;
    n += 6;
    if (n >= 8) {
      n -= 8;
      if (o < at + TAG_BYTES) out[o++] = (bits >>> n) & 0xff;
    }
    bits &= (1 << n) - 1;
  }
  return bits === 0;
}

/** The character codes of a tag being encoded (its 24 characters, quotes included), reused. */
const TAG_CODES = new Array<number>(24);

/**
 * The tag's text made in one piece: appending its 24 characters one at a time makes a string of 23
 * linked parts, far larger than a flat one, and a large show's tags held that way (the Node list
 * file's check at start-up) would raise the process's peak
 * (docs/performance.md#the-lists-bodies-in-one-file).
 */
function encodeTag(bytes: Uint8Array, at: number): string {
  const codes = TAG_CODES;
  codes[0] = codes[23] = 0x22;
  let c = 1;
  let bits = 0;
  let n = 0;
  for (let i = at; i < at + TAG_BYTES; i++) {
    bits = (bits << 8) | bytes[i]!;
    n += 8;
    while (n >= 6) {
      n -= 6;
      codes[c++] = ALPHABET.charCodeAt((bits >>> n) & 63);
    }
    bits &= (1 << n) - 1;
  }
  codes[c] = ALPHABET.charCodeAt(bits << (6 - n));
  return String.fromCharCode(...codes);
}

/** Template and stem of a path: split at its last segment's first dot. */
function split(rel: string): [template: string, stem: string] {
  const slash = rel.lastIndexOf("/") + 1;
  const dot = rel.indexOf(".", slash);
  const end = dot < 0 ? rel.length : dot;
  return [`${rel.slice(0, slash)}\0${rel.slice(end)}`, rel.slice(slash, end)];
}

/**
 * Integer ids of distinct strings. A kept string is copied flat: a substring of the manifest's
 * text would otherwise keep the whole text alive for good.
 */
class Interner {
  readonly ids = new Map<string, number>();

  id(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) this.ids.set(s.split("").join(""), (id = this.ids.size));
    return id;
  }
}

/** The build's tag as written inside the manifest's JSON text: `\"` + 22 characters + `\"`. */
const ESCAPED_TAG = /^\\"[A-Za-z0-9_-]{22}\\"$/;
const PAIR = /"((?:[^"\\]|\\.)*)":"((?:[^"\\]|\\.)*)"([,}])/y;
const unescape = (s: string) => (s.includes("\\") ? (JSON.parse(`"${s}"`) as string) : s);

/** A pair as the manifest's JSON text spells it: the build's tags decoded from the text itself. */
function addRaw(pairs: Pairs, rel: string, value: string): void {
  if (ESCAPED_TAG.test(value) && !rel.includes("\\")) pairs.add(rel, value, 2);
  else pairs.add(unescape(rel), unescape(value));
}

function hash(stem: number, template: number): number {
  return (Math.imul(stem, 0x9e3779b1) ^ Math.imul(template + 1, 0x85ebca6b)) >>> 0;
}

/** Pairs added one at a time (`add`), `size` at most, kept in the order given: what a table is made of. */
class Pairs {
  readonly templates = new Interner();
  readonly stems = new Interner();
  readonly stemOf: Int32Array;
  readonly templateOf: Int32Array;
  readonly tags: Uint8Array;
  /** Tags not of the build's 22-character form, by entry number. */
  readonly otherTags = new Map<number, string>();
  n = 0;

  constructor(size: number) {
    this.stemOf = new Int32Array(size);
    this.templateOf = new Int32Array(size);
    this.tags = new Uint8Array(size * TAG_BYTES);
  }

  // tagStart: where the 22 characters start in `tag` (the parser passes the raw JSON text's value).
  readonly add = (rel: string, tag: string, tagStart?: number): void => {
    const n = this.n++;
    if (n >= this.stemOf.length) return;
    const [template, stem] = split(rel);
    this.stemOf[n] = this.stems.id(stem);
    this.templateOf[n] = this.templates.id(template);
    const decoded = tagStart !== undefined ? decodeTag(tag, tagStart, this.tags, n * TAG_BYTES) : TAG.test(tag) && decodeTag(tag, 1, this.tags, n * TAG_BYTES);
    if (!decoded) this.otherTags.set(n, tagStart !== undefined ? `"${tag.slice(tagStart, tagStart + 22)}"`.split("").join("") : tag);
  };
}

export class ManifestTable implements ManifestLookup {
  readonly #templates: Map<string, number>;
  readonly #stems: Map<string, number>;
  /** Entry numbers by path (template and stem ids). */
  readonly #positions: PositionLookup;
  readonly #stemOf: Int32Array;
  readonly #templateOf: Int32Array;
  readonly #tags: Uint8Array;
  /** Tags not of the build's 22-character form, by entry number. */
  readonly #otherTags: Map<number, string>;

  constructor(pairs: Pairs) {
    const n = pairs.n;
    const { stemOf, templateOf } = pairs;
    this.#tags = pairs.tags;
    this.#otherTags = pairs.otherTags;
    this.#stemOf = stemOf.subarray(0, n);
    this.#templateOf = templateOf.subarray(0, n);
    this.#templates = pairs.templates.ids;
    this.#stems = pairs.stems.ids;
    // A path given twice keeps its last tag, as JSON.parse would (the build never repeats one).
    this.#positions = new PositionLookup(
      n,
      Array.from({ length: n }, (_, i) => i),
      (i) => hash(stemOf[i]!, templateOf[i]!),
      (a, b) => stemOf[a] === stemOf[b] && templateOf[a] === templateOf[b],
    );
  }

  static fromEntries(pairs: readonly (readonly [string, string])[]): ManifestTable {
    const filled = new Pairs(pairs.length);
    for (const [rel, tag] of pairs) filled.add(rel, tag);
    return new ManifestTable(filled);
  }

  /**
   * The manifest file's text, read pair by pair: the build writes it with JSON.stringify of a flat
   * object of strings, which this pattern reads exactly; anything else goes through JSON.parse.
   */
  static parse(text: string): ManifestTable {
    // Two passes over the text: count, then fill, so no list of 600,000 pairs is ever held.
    const each = (visit: (rel: string, value: string) => void): boolean => {
      if (!text.startsWith("{")) return false;
      PAIR.lastIndex = 1;
      for (let m = PAIR.exec(text); m !== null; m = PAIR.exec(text)) {
        visit(m[1]!, m[2]!);
        if (m[3] === "}") return text.slice(PAIR.lastIndex).trim() === "";
      }
      return false;
    };
    let size = 0;
    if (each(() => size++)) {
      const pairs = new Pairs(size);
      each((rel, value) => addRaw(pairs, rel, value));
      const table = new ManifestTable(pairs);
      // The engine's last-match record (RegExp.lastMatch) would otherwise keep the whole text alive.
      /^/.exec("");
      return table;
    }
    const value = JSON.parse(text) as unknown;
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("manifest is not an object");
    return ManifestTable.fromEntries(Object.entries(value as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === "string"));
  }

  /**
   * `parse` of the manifest's text given in pieces (`chunks` is called once per pass, twice), so
   * the whole text is never held: the text and the buffer it is decoded from would otherwise be most
   * of the process's peak at start (docs/performance.md#what-a-server-is-made-of). Pairs are read as
   * `parse` reads them, a pair cut by a chunk's end being read with the next chunk; text of any
   * other form is joined and goes through `parse`.
   */
  static async parseChunks(chunks: () => AsyncIterable<string>): Promise<ManifestTable> {
    // One pass: true when the text is exactly the build's form (every pair read, then `}`).
    const each = async (visit: (rel: string, value: string) => void): Promise<boolean> => {
      let text = "";
      let started = false;
      let ended = false;
      for await (const chunk of chunks()) {
        text += chunk;
        if (ended) continue;
        if (!started) {
          if (text === "") continue;
          if (!text.startsWith("{")) return false;
          started = true;
          text = text.slice(1);
        }
        PAIR.lastIndex = 0;
        let read = 0;
        for (let m = PAIR.exec(text); m !== null; m = PAIR.exec(text)) {
          visit(m[1]!, m[2]!);
          read = PAIR.lastIndex;
          if (m[3] === "}") {
            ended = true;
            break;
          }
        }
        // What follows the last pair read: the start of the next one (or, after `}`, the end).
        text = text.slice(read);
      }
      return ended && text.trim() === "";
    };
    let size = 0;
    if (await each(() => size++)) {
      const pairs = new Pairs(size);
      // A text that changed between the passes (the count no longer holds) is read again whole.
      const same = (await each((rel, value) => addRaw(pairs, rel, value))) && pairs.n === size;
      // The engine's last-match record (RegExp.lastMatch) would otherwise keep the last chunk alive.
      /^/.exec("");
      if (same) return new ManifestTable(pairs);
    }
    let text = "";
    for await (const chunk of chunks()) text += chunk;
    return ManifestTable.parse(text);
  }

  etagOf(rel: string): string | undefined {
    const [template, stem] = split(rel);
    const t = this.#templates.get(template);
    const s = t === undefined ? undefined : this.#stems.get(stem);
    if (t === undefined || s === undefined) return undefined;
    const i = this.#positions.find(hash(s, t), null, (k) => this.#stemOf[k] === s && this.#templateOf[k] === t);
    return i < 0 ? undefined : (this.#otherTags.get(i) ?? encodeTag(this.#tags, i * TAG_BYTES));
  }
}
