// Run-time configuration of the shim (the configuration table of README.md), read from an
// environment-like record in this one place, so the Node entry (process.env) and the Workers entry
// (env vars, functions/workers/shim.ts) share it. Every value is checked at start: a wrong one stops
// the server with a message naming the variable. The Workers entry reads audio from its R2 binding
// and counts limits in a Durable Object, so it ignores the backend and store settings.
// The announcement variables (WEBSUB_HUB, PING_URLS, PODPING_TOKEN) are read here too, because
// the feed the shim composes declares the hub and Podping that the announcements use; the deploy
// command reads them with `announceConfig` alone.
import { AUDIO_BACKENDS, flag, oneOf, text, url, wholeNumber, type Env } from "./env.ts";
import { FEED_LIMIT_DEFAULT, RATE_LIMIT_AUDIO_DEFAULT, RATE_LIMIT_METADATA_DEFAULT, type RateLimits } from "./limits.ts";

/** Where audio bytes live. `s3`: any S3-compatible store (R2, AWS S3, MinIO…). */
export type AudioBackendConfig =
  | { kind: "local" }
  | {
      kind: "s3";
      bucket: string;
      /** Null: AWS S3 itself, addressed by region. */
      endpoint: string | null;
      region: string;
      forcePathStyle: boolean;
    };

/** Where rate-limit windows are counted: this process, or one Redis shared by several instances. */
export type RateLimitStoreConfig = { kind: "memory" } | { kind: "redis"; url: string };

/** Where a new published set is announced (functions/announce/announce.ts; docs/deploy.md#announcing-a-publication). */
export interface AnnounceConfig {
  /** WEBSUB_HUB: the hub the feed declares and each announcement POSTs to. */
  websubHub: string | null;
  /** PING_URLS: URL templates announced with a GET, `{feed}` replaced by the percent-encoded feed URL. */
  pingUrls: string[];
  /** PODPING_TOKEN, and the Podping endpoint it is sent to (PODPING_URL). */
  podping: { token: string; url: string } | null;
  /**
   * DEPLOYED_SET: set on the Worker by `npm run deploy` (--var), never by hand: the published set the
   * deploy command announced itself (or skipped with --no-notify), which the Cron Trigger leaves alone.
   */
  deployedSet: string | null;
}

/** Podping's HTTP front end (github.com/Podcastindex-org/podping.cloud). */
export const PODPING_URL_DEFAULT = "https://podping.cloud/";

export interface ShimConfig {
  rateLimits: RateLimits;
  /** Hops of X-Forwarded-For to trust (0: use the socket address). */
  trustProxy: number;
  /** `stream`: the audio route answers 200/206 itself; `redirect`: 302 to a presigned storage URL. */
  audioDelivery: "stream" | "redirect";
  audioBackend: AudioBackendConfig;
  /** Lifetime of presigned audio URLs (redirect delivery). */
  presignSeconds: number;
  rateLimitStore: RateLimitStoreConfig;
  /** Items in the feed (FEED_LIMIT): the newest published episodes. */
  feedLimit: number;
  announce: AnnounceConfig;
}

/** SigV4 presigned URLs live at most seven days. */
const PRESIGN_MAX_SECONDS = 7 * 24 * 3600;

function audioBackend(env: Env): AudioBackendConfig {
  if (oneOf(env, "AUDIO_BACKEND", AUDIO_BACKENDS, "local") === "local") return { kind: "local" };
  const bucket = text(env, "S3_BUCKET");
  if (bucket === undefined) throw new Error("AUDIO_BACKEND=s3 needs S3_BUCKET, the bucket that holds the audio objects");
  const endpoint = url(env, "S3_ENDPOINT", ["http:", "https:"]) ?? null;
  // `auto` is R2's region; AWS S3 itself (no endpoint) is addressed by a real region.
  const region = text(env, "S3_REGION") ?? (endpoint === null ? text(env, "AWS_REGION") : undefined) ?? "auto";
  if (endpoint === null && region === "auto") {
    throw new Error("AUDIO_BACKEND=s3 without S3_ENDPOINT means AWS S3: set S3_REGION to the bucket's region (or S3_ENDPOINT for R2, MinIO…)");
  }
  // Most non-AWS stores (MinIO, Miniflare's R2) only answer path-style URLs.
  return { kind: "s3", bucket, endpoint, region, forcePathStyle: flag(env, "S3_FORCE_PATH_STYLE", endpoint !== null) };
}

function rateLimitStore(env: Env): RateLimitStoreConfig {
  if (oneOf(env, "RATE_LIMIT_STORE", ["memory", "redis"], "memory") === "memory") return { kind: "memory" };
  const redisUrl = url(env, "REDIS_URL", ["redis:", "rediss:"]);
  if (redisUrl === undefined) throw new Error("RATE_LIMIT_STORE=redis needs REDIS_URL (e.g. redis://127.0.0.1:6379)");
  return { kind: "redis", url: redisUrl };
}

/** PING_URLS: space-separated templates, each an http(s) URL once `{feed}` is filled in. */
function pingUrls(env: Env): string[] {
  const templates = text(env, "PING_URLS")?.split(/\s+/) ?? [];
  for (const template of templates) {
    let protocol = "";
    try {
      protocol = new URL(template.replaceAll("{feed}", "feed")).protocol;
    } catch {}
    if (protocol !== "http:" && protocol !== "https:") {
      throw new Error(`PING_URLS must be space-separated http or https URLs ({feed} stands for the feed URL), got '${template}'`);
    }
  }
  return templates;
}

export function announceConfig(env: Env): AnnounceConfig {
  const token = text(env, "PODPING_TOKEN");
  const hub = url(env, "WEBSUB_HUB", ["http:", "https:"]);
  const podpingUrl = url(env, "PODPING_URL", ["http:", "https:"]) ?? PODPING_URL_DEFAULT;
  return {
    // Normalized (WHATWG URL serialization percent-encodes `<`, `>` and spaces): it is written into a Link header.
    websubHub: hub === undefined ? null : new URL(hub).href,
    pingUrls: pingUrls(env),
    podping: token === undefined ? null : { token, url: podpingUrl },
    deployedSet: text(env, "DEPLOYED_SET") ?? null,
  };
}

export function shimConfig(env: Env): ShimConfig {
  return {
    rateLimits: {
      metadataPerMinute: wholeNumber(env, "RATE_LIMIT_METADATA_PER_MIN", RATE_LIMIT_METADATA_DEFAULT, 1),
      audioPerMinute: wholeNumber(env, "RATE_LIMIT_AUDIO_PER_MIN", RATE_LIMIT_AUDIO_DEFAULT, 1),
    },
    trustProxy: wholeNumber(env, "TRUST_PROXY", 0, 0),
    // Whether the storage can presign (what redirect needs) is checked where the storage is built:
    // functions/node/main.ts refuses redirect over the local folder.
    audioDelivery: oneOf(env, "AUDIO_DELIVERY", ["stream", "redirect"], "stream"),
    audioBackend: audioBackend(env),
    presignSeconds: wholeNumber(env, "AUDIO_PRESIGN_SECONDS", 300, 1, PRESIGN_MAX_SECONDS),
    rateLimitStore: rateLimitStore(env),
    feedLimit: wholeNumber(env, "FEED_LIMIT", FEED_LIMIT_DEFAULT, 1),
    announce: announceConfig(env),
  };
}
