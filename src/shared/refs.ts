// Episode references (PRODUCT.md §3.1): a UUID in any letter case, or an episode number of 1–9 digits.
import { UUID_PATTERN } from "./schema/content.ts";

export type EpisodeRef = { kind: "uuid"; id: string } | { kind: "number"; number: number };

const NUMBER_PATTERN = /^[0-9]{1,9}$/;

/** Parses a path segment; null means malformed (400 invalid_episode_ref). */
export function parseRef(segment: string): EpisodeRef | null {
  if (NUMBER_PATTERN.test(segment)) return { kind: "number", number: Number(segment) };
  if (UUID_PATTERN.test(segment)) return { kind: "uuid", id: segment.toLowerCase() };
  return null;
}

/** The canonical reference of an episode in URLs: its number, or its UUID when it has none. */
export function canonicalRef(ep: { id: string; episodeNumber: number | null }): string {
  return ep.episodeNumber === null ? ep.id : String(ep.episodeNumber);
}
