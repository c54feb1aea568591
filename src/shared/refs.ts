// Episode references (docs/api.md#get-v1episodesref): a UUID in any letter case, or an episode
// number of 1–9 digits: the `ref` parameter's schema (src/shared/parameters.ts), whose two patterns
// parseRef applies directly (the number's digit by digit).
import { UUID_PATTERN } from "./schema/content.ts";

export type EpisodeRef = { kind: "uuid"; id: string } | { kind: "number"; number: number };

/**
 * Parses a path segment; null means malformed (400 invalid_episode_ref). What the schema accepts,
 * with its values, without the allocations of zod's union of pipes on every episode request
 * (docs/performance.md#a-light-request-a-plain-response); tests/property/refs.test.ts holds the two
 * to the same answers.
 */
export function parseRef(segment: string): EpisodeRef | null {
  const number = episodeNumberOf(segment);
  if (number >= 0) return { kind: "number", number };
  if (UUID_PATTERN.test(segment)) return { kind: "uuid", id: segment.toLowerCase() };
  return null;
}

/**
 * The number ./parameters.ts's EPISODE_NUMBER_PATTERN accepts (1 to 9 ASCII digits), else -1.
 * Read digit by digit: most references are numbers, and the regular expression and `Number` cost
 * an episode request more than this loop (docs/performance.md#where-the-episodes-microseconds-go).
 */
function episodeNumberOf(segment: string): number {
  const length = segment.length;
  if (length === 0 || length > 9) return -1;
  let value = 0;
  for (let i = 0; i < length; i++) {
    const digit = segment.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** The canonical reference of an episode in URLs: its number, or its UUID when it has none. */
export function canonicalRef(ep: { id: string; episodeNumber: number | null }): string {
  return ep.episodeNumber === null ? ep.id : String(ep.episodeNumber);
}
