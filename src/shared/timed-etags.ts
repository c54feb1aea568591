// The strong ETags of the timed forms (src/shared/timed.ts), in one build output
// (BUILD_FILES.timedEtags): the build computes them from the rendered bytes (src/generate/episode-writer.ts)
// and the shim answers with them (functions/routes/timed.ts), where it renders a form only when a
// request needs its bytes. 32 bytes an episode, by its position in the index: the tag of its
// segments' forms, then the tag of its chapters, each the 16 bytes every tag of the service is
// made of (src/shared/etag.ts strongEtag), all zero where the part is not timed. Read as bytes, the
// table is what the server holds: no text to parse, no string per tag (docs/architecture.md#timed-forms).
import { fromBase64Url, toBase64Url } from "./base64url.ts";
import type { TimedPart } from "./timed.ts";

/** One part's tags, or null when the part is not timed. */
export type TimedEtags = Record<TimedPart, string | null>;

export const NOT_TIMED: TimedEtags = Object.freeze({ segments: null, chapters: null });

const TAG_BYTES = 16;
const PARTS: readonly TimedPart[] = ["segments", "chapters"];
/** Bytes an episode takes in the file. */
export const TIMED_ETAG_BYTES = TAG_BYTES * PARTS.length;

/** The 16 bytes of one of the service's tags (`"` + 22 base64url characters + `"`). */
function tagBytes(tag: string): Uint8Array {
  const bytes = /^"[A-Za-z0-9_-]{22}"$/.test(tag) ? fromBase64Url(tag.slice(1, -1)) : null;
  if (bytes === null || bytes.byteLength !== TAG_BYTES) throw new Error(`not a tag of the build's form: ${tag}`);
  return bytes;
}

/** The file's bytes: each episode's tags, in the index's order. */
export function encodeTimedEtags(episodes: readonly TimedEtags[]): Uint8Array {
  const out = new Uint8Array(episodes.length * TIMED_ETAG_BYTES);
  episodes.forEach((tags, i) => {
    PARTS.forEach((part, k) => {
      const tag = tags[part];
      if (tag !== null) out.set(tagBytes(tag), i * TIMED_ETAG_BYTES + k * TAG_BYTES);
    });
  });
  return out;
}

/** The file, read: the tags of the episode at each position of the index. */
export class TimedEtagTable {
  readonly #bytes: Uint8Array;

  /** Throws when the bytes are not a table of `count` episodes (a file not written for this index). */
  constructor(bytes: Uint8Array, count: number) {
    if (bytes.byteLength !== count * TIMED_ETAG_BYTES) {
      throw new Error(`the timed forms' ETags hold ${bytes.byteLength} bytes, not ${count * TIMED_ETAG_BYTES} for ${count} episodes: run 'npm run build'`);
    }
    this.#bytes = bytes;
  }

  /** The tag of a part of the episode at `position`, null when that part is not timed. */
  tag(position: number, part: TimedPart): string | null {
    const at = position * TIMED_ETAG_BYTES + PARTS.indexOf(part) * TAG_BYTES;
    const bytes = this.#bytes.subarray(at, at + TAG_BYTES);
    return bytes.some((b) => b !== 0) ? `"${toBase64Url(bytes)}"` : null;
  }
}
