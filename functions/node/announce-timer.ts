// The Node server's look at the published set (docs/deploy.md#announcing-a-publication): once at
// start (the starting point) and then every minute, so a scheduled episode is announced within a
// minute of its time with no rebuild. The timer never keeps the process alive and stops when the
// server closes; with RATE_LIMIT_STORE=redis the instances share the last announced set in Redis.
import { announces } from "../announce/announce.ts";
import { MemoryAnnouncedSets, PublishedSetWatch, type AnnouncedSetStore } from "../announce/watch.ts";
import type { ShimConfig } from "../../src/shared/config.ts";
import type { EpisodeIndex } from "../data/episode-index.ts";

/** How often the server looks at the clock: a scheduled episode is announced within this of its time. */
export const ANNOUNCE_EVERY_MS = 60_000;

export interface AnnounceTimerOptions {
  config: ShimConfig;
  /** The index being served (read at every look, so a server that loads a new build is followed). */
  index: () => EpisodeIndex;
  now: () => number;
  log: (line: string) => void;
  everyMs?: number;
}

/** Starts the looks; null when nothing is configured to announce to. */
export async function startAnnounceTimer(opts: AnnounceTimerOptions): Promise<{ close(): void } | null> {
  const { config } = opts;
  if (!announces(config.announce)) return null;
  let store: AnnouncedSetStore & { close?(): void };
  if (config.rateLimitStore.kind === "redis") {
    const { RedisAnnouncedSets } = await import("./redis-announced-sets.ts");
    store = new RedisAnnouncedSets(config.rateLimitStore.url);
  } else store = new MemoryAnnouncedSets();
  const watch = new PublishedSetWatch({ config: config.announce, store, log: opts.log });
  const look = () => void watch.check(opts.index(), opts.now());
  look();
  const timer = setInterval(look, opts.everyMs ?? ANNOUNCE_EVERY_MS);
  timer.unref();
  return {
    close() {
      clearInterval(timer);
      store.close?.();
    },
  };
}
