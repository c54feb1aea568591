// Run-time configuration of the shim (PRODUCT.md §5), read from an environment-like record in
// this one place, so the Node entry (process.env) and the Workers entry (env bindings) share it.
import { RATE_LIMIT_AUDIO_DEFAULT, RATE_LIMIT_METADATA_DEFAULT, type RateLimits } from "../src/shared/limits.ts";

export interface ShimConfig {
  rateLimits: RateLimits;
  /** Hops of X-Forwarded-For to trust (0: use the socket address). */
  trustProxy: number;
  /** `stream`: the audio route answers 200/206 itself; `redirect`: 302 to a presigned storage URL. */
  audioDelivery: "stream" | "redirect";
}

type Env = Record<string, string | undefined>;

function wholeNumber(env: Env, name: string, fallback: number, min: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new Error(`${name} must be a whole number >= ${min}, got '${raw}'`);
  return Number(raw);
}

export function shimConfig(env: Env): ShimConfig {
  // The storage port is ready for S3-compatible backends; until one lands, refuse rather than
  // silently serve from the local folder.
  const backend = env.AUDIO_BACKEND?.trim() || "local";
  if (backend !== "local") throw new Error(`AUDIO_BACKEND '${backend}' is not available yet; the only backend is 'local'`);
  const delivery = env.AUDIO_DELIVERY?.trim() || "stream";
  if (delivery !== "stream" && delivery !== "redirect") throw new Error(`AUDIO_DELIVERY must be 'stream' or 'redirect', got '${delivery}'`);
  return {
    rateLimits: {
      metadataPerMinute: wholeNumber(env, "RATE_LIMIT_METADATA_PER_MIN", RATE_LIMIT_METADATA_DEFAULT, 1),
      audioPerMinute: wholeNumber(env, "RATE_LIMIT_AUDIO_PER_MIN", RATE_LIMIT_AUDIO_DEFAULT, 1),
    },
    trustProxy: wholeNumber(env, "TRUST_PROXY", 0, 0),
    audioDelivery: delivery,
  };
}
