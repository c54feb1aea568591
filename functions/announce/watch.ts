// Announcing each new published set once, whichever of several processes notices it
// (docs/deploy.md#announcing-a-publication). A watch looks at the published set when asked (the
// Node server's timer every minute, the Worker's Cron Trigger), and when the set differs from the
// one it last saw, it swaps its name into a store every instance shares (the process's memory, Redis,
// the Durable Object). The swap is atomic and answers the name it replaced, so of all the instances
// that notice the same change exactly one gets the old name back: that one announces. Portable.
import { surfaceUrls } from "../routes/crawl.ts";
import type { AnnounceConfig } from "../../src/shared/config.ts";
import type { EpisodeIndex } from "../data/episode-index.ts";
import { announce, announces, announceTargets, type AnnounceOptions } from "./announce.ts";
import { PublishedSetNamer } from "../data/published-set.ts";

/** The last published set announced (or taken as the starting point), shared by the instances. */
export interface AnnouncedSetStore {
  /** Stores `name` under `key` and answers what was there (null: nothing yet), in one atomic step. */
  swap(key: string, name: string): Promise<string | null>;
}

/** One process's store: enough when one instance serves (RATE_LIMIT_STORE=memory). */
export class MemoryAnnouncedSets implements AnnouncedSetStore {
  readonly #names = new Map<string, string>();

  async swap(key: string, name: string): Promise<string | null> {
    const previous = this.#names.get(key) ?? null;
    this.#names.set(key, name);
    return previous;
  }
}

/**
 * Whether the set `current`, just swapped in for `previous`, is news. The set a deploy answers for
 * (`deployed`: the deploy command announced it, or was told not to) is not. A store that knew no
 * set takes the first one it is given as its starting point, not as news: a fresh store cannot
 * tell a change from a start, and announcing the whole catalogue at every first start would be noise.
 */
export function isNewSet(previous: string | null, current: string, deployed: string | null): boolean {
  if (current === deployed) return false;
  const known = previous ?? deployed;
  return known !== null && known !== current;
}

export interface WatchOptions extends Omit<AnnounceOptions, "log"> {
  config: AnnounceConfig;
  store: AnnouncedSetStore;
  log: (line: string) => void;
}

export class PublishedSetWatch {
  readonly #opts: WatchOptions;
  /** The set this watch last swapped in; a set seen again is not swapped again. */
  #seen: string | null = null;
  readonly #namer = new PublishedSetNamer();
  #running = false;
  #storeDown = false;

  constructor(opts: WatchOptions) {
    this.#opts = opts;
  }

  /**
   * Looks at the set published at `now` and announces it when it is news. Never throws, and one
   * look at a time: a look asked for while one runs (an announcement waits on slow targets) is skipped.
   */
  async check(index: EpisodeIndex, now: number): Promise<void> {
    if (this.#running || !announces(this.#opts.config)) return;
    this.#running = true;
    try {
      await this.#check(index, now);
    } catch (e) {
      this.#opts.log(`announce: could not look at the published set: ${(e as Error).message}`);
    } finally {
      this.#running = false;
    }
  }

  async #check(index: EpisodeIndex, now: number): Promise<void> {
    const { config, store, log } = this.#opts;
    const current = await this.#namer.name(index, now);
    // Unchanged here since the last look: whatever the other instances did about it is done.
    if (current === this.#seen) return;
    const feedUrl = surfaceUrls(index.data).feed;
    let previous: string | null;
    try {
      previous = await store.swap(feedUrl, current);
    } catch (e) {
      // Not seen yet: the next look tries again, so the set is announced late rather than twice.
      if (!this.#storeDown) log(`announce: the store of announced sets failed (${(e as Error).message}); looking again at the next tick`);
      this.#storeDown = true;
      return;
    }
    this.#storeDown = false;
    this.#seen = current;
    if (!isNewSet(previous, current, config.deployedSet)) return;
    await announce(announceTargets(config, feedUrl), `set ${current}`, this.#opts);
  }
}
