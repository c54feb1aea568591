// RATE_LIMIT_STORE=redis: the last announced published set kept in the Redis the instances already
// share for their limits, so that of several Node instances noticing the same new set exactly one
// announces it (functions/announce/watch.ts). `SET … GET` stores the new name and answers the old
// one in one command, which is the atomic swap the watch needs.
import { Redis } from "ioredis";
import type { AnnouncedSetStore } from "../announce/watch.ts";

export class RedisAnnouncedSets implements AnnouncedSetStore {
  readonly #client: Redis;

  constructor(url: string) {
    this.#client = new Redis(url, {
      keyPrefix: "announced-set:",
      connectTimeout: 1000,
      // A swap waits this long for Redis (the first one for the connection), then fails; the
      // watch looks again at its next tick. It runs one look at a time, so at most one swap waits.
      commandTimeout: 2000,
      maxRetriesPerRequest: 0,
      retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times - 1, 10), 5000),
    });
    // The watch reports failed swaps; without a listener ioredis would report each error as unhandled.
    this.#client.on("error", () => {});
  }

  swap(key: string, name: string): Promise<string | null> {
    return this.#client.set(key, name, "GET");
  }

  close(): void {
    this.#client.disconnect();
  }
}
