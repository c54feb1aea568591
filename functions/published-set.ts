// A body composed once per set of published episodes: the home page, the feed, the sitemap.
// Published episodes are a suffix of the index's list order (newest first), so the newest of them
// names the set: a scheduled episode's time changes it, nothing else does, and an unchanged set
// costs one binary search. Portable.
import { toBase64Url } from "../src/shared/base64url.ts";
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

/**
 * The name of the set of episodes published at `now`, the same in every process, runtime and build
 * that publishes the same episodes: their count and the first 16 bytes of the SHA-256 of their ids,
 * sorted (base64url). It is what an announcement is sent once for (functions/announce-watch.ts).
 * Within one build the published episodes are a suffix of the list order, so the set changes only
 * when the clock passes a scheduled episode's publishedAt, and the count alone would name it; across
 * builds an episode can be added and another removed at once, so the ids themselves are hashed.
 */
export async function publishedSetName(index: EpisodeIndex, now: number): Promise<string> {
  const count = index.publishedCount(now);
  const ids: string[] = [];
  for (let position = index.size - count; position < index.size; position++) ids.push(index.idAt(position));
  const text = new TextEncoder().encode(ids.sort().join("\n"));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", text));
  return `${count}-${toBase64Url(digest.subarray(0, 16))}`;
}
