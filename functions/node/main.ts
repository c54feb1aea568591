// The Node entry: loads a built dist/ and serves it through the shim (npm run serve, npm start),
// then takes up each new build `dist` names by itself (./live-build.ts). An entry whose process
// exists to serve starts it through ./own-process.ts (`ownsProcess`).
import { open, readFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { ZodError } from "zod";
import { BUILD_FILES, MEDIA_DIR } from "../../src/shared/layout.ts";
import { compressAsync } from "../../src/node/compress.ts";
import { nodeEtag } from "../../src/node/etag.ts";
import { shimConfig, type ShimConfig } from "../../src/shared/config.ts";
import type { EpisodeIndex } from "../data/episode-index.ts";
import { loadIndexText } from "../data/load-index.ts";
import { createHandler, type Shim } from "../handler.ts";
import { BufferPool } from "../data/buffer-pool.ts";
import { ManifestTable } from "../data/manifest-table.ts";
import type { AudioStorage, RateLimitStore } from "../ports.ts";
import { MemoryRateLimitStore } from "../limits/rate-limit.ts";
import { FileAssetStore } from "./file-assets.ts";
import { ListBodiesFile } from "./list-bodies.ts";
import { LiveBuild, type LoadedBuild } from "./live-build.ts";
import { LocalAudioStorage } from "./local-storage.ts";
import { startAnnounceTimer } from "./announce-timer.ts";
import { createNodeServer } from "./server.ts";
// The S3 and Redis clients (./s3-storage.ts, ./redis-rate-limit.ts) are imported only when the
// configuration asks for them: the AWS SDK and ioredis are much of the resident code of a process
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
  /**
   * Where the server reports what happens to it: a list file it cannot use, a new build taken up
   * (one line with its id) or not, the Redis rate-limit store switching to memory and back, and
   * each announcement's outcome (./announce-timer.ts). console.warn by default.
   */
  log?: (line: string) => void;
  /** How often the server looks for a new published set to announce (tests); a minute by default. */
  announceEveryMs?: number;
  /**
   * The process exists to serve (npm run serve, npm start): the server sets V8's heap growth for
   * a long-running server and hands loading's memory back after each load. Leave it unset where
   * the server shares its process (a test runner): those settings and collections are the whole
   * process's, and cost a large process dearly.
   */
  ownsProcess?: boolean;
}

/** The handler, and what closing it must release (the Redis connection, storage sockets). */
export interface NodeHandler {
  shim: Shim;
  trustProxy: number;
  /** What the announcement timer reads (./announce-timer.ts). */
  index: EpisodeIndex;
  config: ShimConfig;
  log: (line: string) => void;
  close(): Promise<void>;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** A build output read and parsed at start-up; a missing or broken one names the fix (a schema error names itself). */
async function readBuildFile<T>(file: string, parse: (file: string) => Promise<T>): Promise<T> {
  try {
    return await parse(file);
  } catch (e) {
    if (e instanceof ZodError) throw e;
    throw new Error(`${file} is missing or unreadable: run 'npm run build' first`);
  }
}

/** Bytes read at a time by textChunks (one buffer, reused). */
const CHUNK_BYTES = 64 * 1024;

/** A file's UTF-8 text as readFile(file, "utf8") decodes it, in pieces (ManifestTable.parseChunks). */
async function* textChunks(file: string): AsyncGenerator<string> {
  const handle = await open(file);
  try {
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    const chunk = new Uint8Array(CHUNK_BYTES);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES);
      if (bytesRead === 0) break;
      yield decoder.decode(chunk.subarray(0, bytesRead), { stream: true });
    }
    yield decoder.decode();
  } finally {
    await handle.close();
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

/** Audio storage that outlives builds (S3); null for the local backend, whose folder is each build's own. */
async function sharedStorage(config: ShimConfig, env: Env): Promise<{ storage: AudioStorage; close(): void } | null> {
  const backend = config.audioBackend;
  if (backend.kind === "local") return null;
  const { S3AudioStorage } = await import("./s3-storage.ts");
  const s3 = new S3AudioStorage({ ...backend, presignSeconds: config.presignSeconds, credentials: s3Credentials(env) });
  return { storage: s3, close: () => s3.close() };
}

async function rateLimitStore(config: ShimConfig, log: (line: string) => void): Promise<{ store: RateLimitStore; close(): Promise<void> }> {
  if (config.rateLimitStore.kind === "memory") return { store: new MemoryRateLimitStore(), close: async () => {} };
  const { RedisRateLimitStore } = await import("./redis-rate-limit.ts");
  const redis = new RedisRateLimitStore({ url: config.rateLimitStore.url, log });
  // Wait (briefly) for the first connection, so the first requests are already counted in Redis.
  await redis.started();
  return { store: redis, close: () => redis.close() };
}

type Gc = (options: { type: "major" | "minor"; execution?: "sync"; flavor?: "regular" | "last-resort" }) => void;
let gcFunction: Gc | null = null;

/** V8's `gc`, made once: V8 offers no API for it; exposing it to a fresh context needs no command-line flag. */
function v8Gc(): Gc {
  if (gcFunction === null) {
    setFlagsFromString("--expose-gc");
    gcFunction = runInNewContext("gc") as Gc;
  }
  return gcFunction;
}

const youngGenerationBytes = () => getHeapSpaceStatistics().find((s) => s.space_name === "new_space")?.space_size ?? Infinity;

/**
 * The young generation kept after start-up. At V8's minimum, where the collection below leaves
 * it, most of a search's short-lived objects are still in use at each scavenge and get promoted,
 * growing the old generation; this size collects them young (docs/performance.md).
 */
export const YOUNG_GENERATION_BYTES = 8 * 1024 * 1024;

/**
 * Once start-up is done: what loading left behind (the index's and the manifest's texts, their
 * parsed values) is otherwise released only at the next major collection, which a server mostly
 * answering from its caches may not reach for a long time. The memory-reducing ("last-resort")
 * collection also hands the freed pages back to the system and shrinks the young generation
 * (less resident than after a plain collection); the young generation is
 * then grown back to YOUNG_GENERATION_BYTES by scavenges that see enough survivors, and bounded
 * there (./young-generation.ts). V8 shrinks it again after an idle moment, down to the floor the
 * process started with: scripts/serve.mjs starts it with this size as the floor, so there the
 * growing finds it grown (docs/performance.md#the-young-generation).
 */
function releaseStartupMemory(): void {
  const gc = v8Gc();
  gc({ type: "major", execution: "sync", flavor: "last-resort" });
  setFlagsFromString("--semi-space-growth-factor=2");
  for (let i = 0; i < 8 && youngGenerationBytes() < YOUNG_GENERATION_BYTES; i++) {
    const survivors = Array.from({ length: youngGenerationBytes() / 16 }, (_, j) => ({ j }));
    gc({ type: "minor" });
    survivors.length = 0;
  }
  setFlagsFromString("--semi-space-growth-factor=1");
  // The context that lent its `gc` is let go: serving has no use for a second native context (the
  // next build's load makes another). The next major collection frees it.
  gcFunction = null;
}

/**
 * The old generation may grow by 25% between major collections, for the process's life. With V8's
 * own factor, loading leaves the heap full of dead parsing temporaries, and searches over POST /mcp
 * (a few MB of candidate texts each) grow the heap well past what it holds live; a smaller step
 * keeps the server within its memory budget for little CPU
 * (docs/performance.md#the-old-generations-growth).
 */
const HEAP_GROWING_PERCENT = 25;

export async function createNodeHandler(opts: ServeOptions): Promise<NodeHandler> {
  if (opts.ownsProcess === true) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return loadHandler(opts);
}

/** What every build a server takes up shares: the configuration, the rate-limit store, S3 storage. */
interface Shared {
  config: ShimConfig;
  log: (line: string) => void;
  rateLimitStore: RateLimitStore;
  storage: AudioStorage | null;
  now?: () => number;
}

/**
 * One build, loaded whole: its index, manifest and list's bodies, read from `folder`, and a handler
 * over them (with caches of its own). Loaded beside the one served, then swapped in (./live-build.ts).
 */
async function loadBuild(folder: string, shared: Shared): Promise<LoadedBuild> {
  const { config, log } = shared;
  // Parsed and validated entry by entry and held by column (loadIndexText, ../episode-index.ts).
  const index = await readBuildFile(path.join(folder, BUILD_FILES.index), async (file) => loadIndexText(await readFile(file, "utf8")));
  // The index's text and what parsing it left, freed before the manifest is read: a lower peak.
  v8Gc()({ type: "major", execution: "sync" });
  // Compact (../data/manifest-table.ts), and read in pieces, so its text is never held whole.
  const manifest = await readBuildFile(path.join(folder, BUILD_FILES.manifest), (file) => ManifestTable.parseChunks(() => textChunks(file)));
  // The list's bodies in one file, when the build wrote it for this index (./list-bodies.ts).
  // Without it the pages are the same, each read body by body: slower, so it is said.
  const listBodies = ListBodiesFile.open(folder, index, manifest);
  if (listBodies === null) {
    log(`${BUILD_FILES.listBodies} is missing or was not written for this index: list pages are read body by body (slower); 'npm run build' writes it`);
  }
  try {
    const shim = await createHandler({
      config,
      index,
      assets: new FileAssetStore(folder, manifest),
      storage: shared.storage ?? new LocalAudioStorage(path.join(folder, MEDIA_DIR)),
      rateLimitStore: shared.rateLimitStore,
      etag: nodeEtag,
      // Composed bodies (list pages, home page…) are compressed once, off the event loop.
      compress: compressAsync,
      ...(listBodies ? { listBodies } : {}),
      // This server calls each response's `release` once written (./server.ts): list pages not
      // kept reuse these buffers (../data/buffer-pool.ts). A buffer holds most pages whole; a few
      // wait for reuse.
      pageBuffers: new BufferPool(64 * 1024, 32),
      ...(shared.now ? { now: shared.now } : {}),
    });
    return { shim, index, summary: `${index.size} episode${index.size === 1 ? "" : "s"}`, close: () => listBodies?.close() };
  } catch (e) {
    listBodies?.close();
    throw e;
  }
}

async function loadHandler(opts: ServeOptions): Promise<NodeHandler> {
  const env = opts.env ?? process.env;
  const config = shimConfig(env);
  const log = opts.log ?? ((line: string) => console.warn(line));
  // Shared by every build the server takes up: a swap keeps everyone's counts.
  const limits = await rateLimitStore(config, log);
  const s3 = opts.storage ? { storage: opts.storage, close: () => {} } : await sharedStorage(config, env);
  const close = async () => {
    s3?.close();
    await limits.close();
  };
  try {
    const shared: Shared = { config, log, rateLimitStore: limits.store, storage: s3?.storage ?? null, ...(opts.now ? { now: opts.now } : {}) };
    // A build swapped out leaves its tables behind: handed back as after start-up.
    const release = opts.ownsProcess === true ? releaseStartupMemory : () => {};
    const live = await LiveBuild.start(path.resolve(opts.distDir), (folder) => loadBuild(folder, shared), log, release);
    release();
    return {
      shim: live,
      trustProxy: config.trustProxy,
      // The build served now: the announcement timer looks at the published set of each build taken up.
      get index() {
        return live.index;
      },
      config,
      log,
      close: async () => {
        await live.close();
        await close();
      },
    };
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
  const announcer = await startAnnounceTimer({
    config: handler.config,
    index: () => handler.index,
    now: opts.now ?? Date.now,
    log: handler.log,
    ...(opts.announceEveryMs !== undefined ? { everyMs: opts.announceEveryMs } : {}),
  });
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      announcer?.close();
      await handler.close();
    },
  };
}
