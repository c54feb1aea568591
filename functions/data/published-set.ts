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

/** Ids hashed between two turns of the event loop, so naming a set of 100,000 never holds it long. */
const IDS_PER_TURN = 2048;

/** One 32-bit lane of an id's hash: FNV-1a with its own multiplier and seed, then murmur3's finalizer. */
function lane(id: string, seed: number, multiplier: number): number {
  let h = seed;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), multiplier);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const hex = (n: number) => n.toString(16).padStart(8, "0");

/**
 * Names the set of episodes published at a moment, the same in every process, runtime and build
 * that publishes the same episodes: `<count>-<hash>`, the hash the sum of a 64-bit hash of each
 * published id (two 32-bit lanes, each summed modulo 2^32). It is what an announcement is sent once
 * for (./announce-watch.ts). Within one build the published episodes are a suffix of the list
 * order, so the set changes only when the clock passes a scheduled episode's publishedAt, and the
 * count alone would name it; across builds an episode can be added and another removed at once
 * (the same count, even the same newest episode), so the ids themselves are hashed. A sum needs no
 * order (moving an episode's date is no new set) and grows by the newly published ids alone: a
 * namer that saw the index before hashes only those.
 */
export class PublishedSetNamer {
  #index: EpisodeIndex | null = null;
  #count = 0;
  #a = 0;
  #b = 0;

  async name(index: EpisodeIndex, now: number): Promise<string> {
    const count = index.publishedCount(now);
    if (index !== this.#index || count < this.#count) {
      this.#index = index;
      this.#count = 0;
      this.#a = this.#b = 0;
    }
    // Published: positions size - count to size - 1; those from size - #count on are summed already.
    const end = index.size - this.#count;
    for (let position = index.size - count; position < end; position++) {
      const id = index.idAt(position);
      this.#a = (this.#a + lane(id, 0x811c9dc5, 0x01000193)) >>> 0;
      this.#b = (this.#b + lane(id, 0x9747b28c, 0x5bd1e995)) >>> 0;
      if ((end - position) % IDS_PER_TURN === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    this.#count = count;
    return `${count}-${hex(this.#a)}${hex(this.#b)}`;
  }
}

/** The name of the set published at `now` (PublishedSetNamer), for a single look. */
export function publishedSetName(index: EpisodeIndex, now: number): Promise<string> {
  return new PublishedSetNamer().name(index, now);
}
