// The shim of one isolate, built once from the bindings: the index and the ETag manifest read
// through ASSETS, audio from R2, rate limits in the Durable Object, configuration from vars.
import { BUILD_FILES } from "../../src/shared/layout.ts";
import { buildIndex } from "../../src/shared/schema/build-index.ts";
import { shimConfig } from "../config.ts";
import { EpisodeIndex } from "../episode-index.ts";
import { createHandler, type Shim } from "../handler.ts";
import { fetchJson, WorkersAssetStore } from "./assets.ts";
import type { WorkerEnv } from "./bindings.ts";
import { now } from "./clock.ts";
import { DurableRateLimitStore } from "./rate-limit-object.ts";
import { R2AudioStorage } from "./r2-storage.ts";

let shim: Promise<Shim> | null = null;

/** The plain-text variables among the bindings. */
function vars(env: WorkerEnv): Record<string, string | undefined> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (typeof v === "string") out[k] = v;
  return out;
}

async function build(env: WorkerEnv): Promise<Shim> {
  const [index, assets] = await Promise.all([fetchJson(env.ASSETS, BUILD_FILES.index), WorkersAssetStore.load(env.ASSETS)]);
  return createHandler({
    config: shimConfig(vars(env)),
    index: new EpisodeIndex(buildIndex.parse(index)),
    assets,
    storage: new R2AudioStorage(env.AUDIO),
    rateLimitStore: new DurableRateLimitStore(env.RATE_LIMITER),
    now,
    // Compressed bodies go out plain with Content-Encoding: workerd encodes them (docs/architecture.md#compression).
    runtimeEncodes: true,
  });
}

/** The isolate's shim; a failed start is retried by the next request, not cached. */
export function shimFor(env: WorkerEnv): Promise<Shim> {
  shim ??= build(env).catch((e: unknown) => {
    shim = null;
    throw e;
  });
  return shim;
}
