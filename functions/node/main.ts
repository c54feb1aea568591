// The Node entry: loads a built dist/ and serves it through the shim (npm run serve, npm start).
import { readFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { BUILD_FILES, MEDIA_DIR } from "../../src/shared/layout.ts";
import { compressAsync } from "../../src/shared/node-compress.ts";
import { nodeEtag } from "../../src/shared/node-etag.ts";
import { shimConfig, type ShimConfig } from "../config.ts";
import { loadIndex } from "../episode-index.ts";
import { createHandler, type Shim } from "../handler.ts";
import { ManifestTable } from "../manifest-table.ts";
import type { AudioStorage, RateLimitStore } from "../ports.ts";
import { MemoryRateLimitStore } from "../rate-limit.ts";
import { FileAssetStore } from "./file-assets.ts";
import { LocalAudioStorage } from "./local-storage.ts";
import { createNodeServer } from "./server.ts";
// The S3 and Redis clients (./s3-storage.ts, ./redis-rate-limit.ts) are imported only when the
// configuration asks for them: the AWS SDK and ioredis add ~35 MB of resident code to a process
// that serves from the local disk with in-memory limits.

export interface ServeOptions {
  distDir: string;
  env?: Record<string, string | undefined>;
  port?: number;
  host?: string;
  /** Injected clock (tests of the publication schedule). */
  now?: () => number;
  /** Audio backend; defaults to what AUDIO_BACKEND says (the local folder dist/media, or S3). */
  storage?: AudioStorage;
  /** Where the Redis rate-limit store reports switching to memory and back; console.warn by default. */
  log?: (line: string) => void;
}

/** The handler, and what closing it must release (the Redis connection, storage sockets). */
export interface NodeHandler {
  shim: Shim;
  trustProxy: number;
  close(): Promise<void>;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** A build output read and parsed at start-up; a missing or broken one names the fix. */
async function readBuildFile<T>(file: string, parse: (text: string) => T): Promise<T> {
  try {
    return parse(await readFile(file, "utf8"));
  } catch {
    throw new Error(`${file} is missing or unreadable: run 'npm run build' first`);
  }
}

type Env = Record<string, string | undefined>;

/**
 * S3 credentials from the same environment record as the rest of the configuration (the SDK's own
 * chain reads only process.env); none there: the SDK's chain (profiles, instance roles…).
 */
function s3Credentials(env: Env) {
  const accessKeyId = env.AWS_ACCESS_KEY_ID?.trim();
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY?.trim();
  if (!accessKeyId || !secretAccessKey) return undefined;
  const sessionToken = env.AWS_SESSION_TOKEN?.trim();
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
}

async function audioStorage(config: ShimConfig, env: Env, distDir: string): Promise<{ storage: AudioStorage; close(): void }> {
  const backend = config.audioBackend;
  if (backend.kind === "local") return { storage: new LocalAudioStorage(path.join(distDir, MEDIA_DIR)), close: () => {} };
  const { S3AudioStorage } = await import("./s3-storage.ts");
  const s3 = new S3AudioStorage({ ...backend, presignSeconds: config.presignSeconds, credentials: s3Credentials(env) });
  return { storage: s3, close: () => s3.close() };
}

async function rateLimitStore(config: ShimConfig, log?: (line: string) => void): Promise<{ store: RateLimitStore; close(): Promise<void> }> {
  if (config.rateLimitStore.kind === "memory") return { store: new MemoryRateLimitStore(), close: async () => {} };
  const { RedisRateLimitStore } = await import("./redis-rate-limit.ts");
  const redis = new RedisRateLimitStore({ url: config.rateLimitStore.url, ...(log ? { log } : {}) });
  // Wait (briefly) for the first connection, so the first requests are already counted in Redis.
  await redis.started();
  return { store: redis, close: () => redis.close() };
}

/**
 * Keeps V8's young generation at its initial size. Loading the index and the manifest makes many
 * objects that survive, and V8 answers a high survival rate by doubling the young generation up to
 * 2 × 64 MB, which it then keeps for good: at 100,000 episodes that was 128 MB of the process's
 * ~345 MB resident after start. Requests allocate short-lived objects, which a small young
 * generation collects just as well (measured in docs/performance.md#request-path-at-scale).
 * Process-wide and settable at run time (the semi-space size limits are not).
 */
function boundYoungGeneration(): void {
  setFlagsFromString("--semi-space-growth-factor=1");
}

/**
 * One full collection once start-up is done: what loading left behind (the index's text and parsed
 * value, the manifest's text: ~100 MB at 100,000 episodes) is otherwise released only at the
 * next major collection, which a server mostly answering from its caches may not reach for a long
 * time, so the process would stay that much larger. V8 offers no API for it; exposing `gc` to a
 * fresh context is the documented way to call it without a command-line flag.
 */
function collectStartupGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

export async function createNodeHandler(opts: ServeOptions): Promise<NodeHandler> {
  boundYoungGeneration();
  const env = opts.env ?? process.env;
  const config = shimConfig(env);
  // Validated entry by entry and held compactly (loadIndex, ../episode-index.ts).
  const index = loadIndex(await readBuildFile(path.join(opts.distDir, BUILD_FILES.index), JSON.parse));
  // Compact (../manifest-table.ts): ~30 MB instead of ~100 MB at 100,000 episodes.
  const manifest = await readBuildFile(path.join(opts.distDir, BUILD_FILES.manifest), ManifestTable.parse);
  const audio = opts.storage ? { storage: opts.storage, close: () => {} } : await audioStorage(config, env, opts.distDir);
  const limits = await rateLimitStore(config, opts.log);
  const close = async () => {
    audio.close();
    await limits.close();
  };
  try {
    const shim = await createHandler({
      config,
      index,
      assets: new FileAssetStore(opts.distDir, manifest),
      storage: audio.storage,
      rateLimitStore: limits.store,
      etag: nodeEtag,
      // Composed bodies (list pages, home page…) are compressed once, off the event loop.
      compress: compressAsync,
      ...(opts.now ? { now: opts.now } : {}),
    });
    collectStartupGarbage();
    return { shim, trustProxy: config.trustProxy, close };
  } catch (e) {
    await close();
    throw e;
  }
}

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const handler = await createNodeHandler(opts);
  const server = createNodeServer(handler.shim, handler.trustProxy);
  const host = opts.host ?? "127.0.0.1";
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(opts.port ?? 0, host, resolve);
    });
  } catch (e) {
    await handler.close();
    throw e;
  }
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await handler.close();
    },
  };
}
