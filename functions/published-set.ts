// A body composed once per set of published episodes: the home page, the feed, the sitemap.
// Published episodes are a suffix of the index's list order (newest first), so the newest of them
// names the set: a scheduled episode's time changes it, nothing else does, and an unchanged set
// costs one binary search. Portable.
import type { EpisodeIndex } from "./episode-index.ts";

/** `compose(at)` once per set of published episodes; its result kept until the set changes. */
export function perPublishedSet<T>(index: EpisodeIndex, now: () => number, compose: (at: number) => Promise<T>): () => Promise<T> {
  let slot: { key: string; value: T } | null = null;
  return async () => {
    const at = now();
    const key = index.latest(at)?.id ?? "";
    if (slot?.key !== key) slot = { key, value: await compose(at) };
    return slot.value;
  };
}
