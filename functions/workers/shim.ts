// The shim of one isolate, built once from the bindings: the index and the ETag manifest read
// through ASSETS, audio from R2, rate limits in the Durable Object, configuration from vars.
import { BUILD_FILES } from "../../src/shared/layout.ts";
import { buildIndex } from "../../src/shared/schema/build-index.ts";
import { shimConfig } from "../../src/shared/config.ts";
import { EpisodeIndex } from "../data/episode-index.ts";
import { createHandler, type Shim } from "../handler.ts";
import { fetchJson, WorkersAssetStore } from "./assets.ts";
import type { WorkerEnv } from "./bindings.ts";
import { now } from "./clock.ts";
import { DurableRateLimitStore } from "./rate-limit-object.ts";
import { R2AudioStorage } from "./r2-storage.ts";

/** `make(env)` once per isolate; a failure is not kept, the next caller tries again. */
function perIsolate<T>(make: (env: WorkerEnv) => Promise<T>): (env: WorkerEnv) => Promise<T> {
  let pending: Promise<T> | null = null;
  return (env) => {
    pending ??= make(env).catch((e: unknown) => {
      pending = null;
      throw e;
    });
    return pending;
  };
}

/** The plain-text variables among the bindings (secrets such as PODPING_TOKEN are strings too). */
export function vars(env: WorkerEnv): Record<string, string | undefined> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (typeof v === "string") out[k] = v;
  return out;
}

/** The isolate's episode index: the shim's, and what the Cron Trigger reads without the rest of the shim. */
export const indexFor = perIsolate(async (env) => new EpisodeIndex(buildIndex.parse(await fetchJson(env.ASSETS, BUILD_FILES.index))));

/** The isolate's shim; a failed start is retried by the next request, not cached. */
export const shimFor = perIsolate(async (env): Promise<Shim> => {
  const [index, assets] = await Promise.all([indexFor(env), WorkersAssetStore.load(env.ASSETS)]);
  return createHandler({
    config: shimConfig(vars(env)),
    index,
    assets,
    storage: new R2AudioStorage(env.AUDIO),
    rateLimitStore: new DurableRateLimitStore(env.RATE_LIMITER),
    now,
    // Compressed bodies go out plain with Content-Encoding: workerd encodes them (docs/architecture.md#compression).
    runtimeEncodes: true,
  });
});
