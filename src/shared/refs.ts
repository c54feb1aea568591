// Episode references (docs/api.md#get-v1episodesref): a UUID in any letter case, or an episode
// number of 1–9 digits: the `ref` parameter's schema (src/shared/parameters.ts), whose two patterns
// parseRef tests directly.
import { EPISODE_NUMBER_PATTERN } from "./parameters.ts";
import { UUID_PATTERN } from "./schema/content.ts";

export type EpisodeRef = { kind: "uuid"; id: string } | { kind: "number"; number: number };

/**
 * Parses a path segment; null means malformed (400 invalid_episode_ref). What the schema accepts,
 * with its values, without zod's union of pipes on every episode request (~1 KB of allocation
 * each); tests/unit/refs.test.ts holds the two to the same answers.
 */
export function parseRef(segment: string): EpisodeRef | null {
  if (EPISODE_NUMBER_PATTERN.test(segment)) return { kind: "number", number: Number(segment) };
  if (UUID_PATTERN.test(segment)) return { kind: "uuid", id: segment.toLowerCase() };
  return null;
}

/** The canonical reference of an episode in URLs: its number, or its UUID when it has none. */
export function canonicalRef(ep: { id: string; episodeNumber: number | null }): string {
  return ep.episodeNumber === null ? ep.id : String(ep.episodeNumber);
}
