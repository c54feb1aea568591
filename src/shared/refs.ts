// Episode references (docs/api.md#get-v1episodesref): a UUID in any letter case, or an episode
// number of 1–9 digits, parsed by the `ref` parameter's schema (src/shared/parameters.ts).
import { PARAMETERS } from "./parameters.ts";

export type EpisodeRef = { kind: "uuid"; id: string } | { kind: "number"; number: number };

/** Parses a path segment; null means malformed (400 invalid_episode_ref). */
export function parseRef(segment: string): EpisodeRef | null {
  const parsed = PARAMETERS.ref.schema.safeParse(segment);
  if (!parsed.success) return null;
  return typeof parsed.data === "number" ? { kind: "number", number: parsed.data } : { kind: "uuid", id: parsed.data };
}

/** The canonical reference of an episode in URLs: its number, or its UUID when it has none. */
export function canonicalRef(ep: { id: string; episodeNumber: number | null }): string {
  return ep.episodeNumber === null ? ep.id : String(ep.episodeNumber);
}
