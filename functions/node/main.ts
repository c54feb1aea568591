// The Node entry: loads a built dist/ and serves it through the shim (npm run serve, npm start).
import { readFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { BUILD_FILES, MEDIA_DIR } from "../../src/shared/layout.ts";
import { nodeEtag } from "../../src/shared/node-etag.ts";
import { buildIndex } from "../../src/shared/schema/build-index.ts";
import { shimConfig, type ShimConfig } from "../config.ts";
import { EpisodeIndex } from "../episode-index.ts";
import { createHandler, type Shim } from "../handler.ts";
import type { AudioStorage, RateLimitStore } from "../ports.ts";
import { MemoryRateLimitStore } from "../rate-limit.ts";
import { FileAssetStore } from "./file-assets.ts";
import { LocalAudioStorage } from "./local-storage.ts";
import { RedisRateLimitStore } from "./redis-rate-limit.ts";
import { S3AudioStorage } from "./s3-storage.ts";
import { createNodeServer } from "./server.ts";

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

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, "utf8"));
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

function audioStorage(config: ShimConfig, env: Env, distDir: string): { storage: AudioStorage; close(): void } {
  const backend = config.audioBackend;
  if (backend.kind === "local") return { storage: new LocalAudioStorage(path.join(distDir, MEDIA_DIR)), close: () => {} };
  const s3 = new S3AudioStorage({ ...backend, presignSeconds: config.presignSeconds, credentials: s3Credentials(env) });
  return { storage: s3, close: () => s3.close() };
}

async function rateLimitStore(config: ShimConfig, log?: (line: string) => void): Promise<{ store: RateLimitStore; close(): Promise<void> }> {
  if (config.rateLimitStore.kind === "memory") return { store: new MemoryRateLimitStore(), close: async () => {} };
  const redis = new RedisRateLimitStore({ url: config.rateLimitStore.url, ...(log ? { log } : {}) });
  // Wait (briefly) for the first connection, so the first requests are already counted in Redis.
  await redis.started();
  return { store: redis, close: () => redis.close() };
}

export async function createNodeHandler(opts: ServeOptions): Promise<NodeHandler> {
  const env = opts.env ?? process.env;
  const config = shimConfig(env);
  const index = new EpisodeIndex(buildIndex.parse(await readJson(path.join(opts.distDir, BUILD_FILES.index))));
  const manifest = (await readJson(path.join(opts.distDir, BUILD_FILES.manifest))) as Record<string, string>;
  const audio = opts.storage ? { storage: opts.storage, close: () => {} } : audioStorage(config, env, opts.distDir);
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
      ...(opts.now ? { now: opts.now } : {}),
    });
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
