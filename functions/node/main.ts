// The Node entry: loads a built dist/ and serves it through the shim (npm run serve, npm start).
import { readFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { buildIndex, BUILD_FILES } from "../../src/shared/schema/build-index.ts";
import { shimConfig } from "../config.ts";
import { EpisodeIndex } from "../episode-index.ts";
import { createHandler, type Shim } from "../handler.ts";
import type { AudioStorage } from "../ports.ts";
import { MemoryRateLimitStore } from "../rate-limit.ts";
import { nodeEtag } from "./etag.ts";
import { FileAssetStore } from "./file-assets.ts";
import { LocalAudioStorage } from "./local-storage.ts";
import { createNodeServer } from "./server.ts";

export interface ServeOptions {
  distDir: string;
  env?: Record<string, string | undefined>;
  port?: number;
  host?: string;
  /** Injected clock (tests of the publication schedule). */
  now?: () => number;
  /** Audio backend; defaults to the local folder dist/media. */
  storage?: AudioStorage;
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

export async function createNodeHandler(opts: ServeOptions): Promise<{ shim: Shim; trustProxy: number }> {
  const env = opts.env ?? process.env;
  const config = shimConfig(env);
  const index = new EpisodeIndex(buildIndex.parse(await readJson(path.join(opts.distDir, BUILD_FILES.index))));
  const manifest = (await readJson(path.join(opts.distDir, BUILD_FILES.manifest))) as Record<string, string>;
  const shim = await createHandler({
    config,
    index,
    assets: new FileAssetStore(opts.distDir, manifest),
    storage: opts.storage ?? new LocalAudioStorage(path.join(opts.distDir, "media")),
    rateLimitStore: new MemoryRateLimitStore(),
    etag: nodeEtag,
    ...(opts.now ? { now: opts.now } : {}),
  });
  return { shim, trustProxy: config.trustProxy };
}

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const { shim, trustProxy } = await createNodeHandler(opts);
  const server = createNodeServer(shim, trustProxy);
  const host = opts.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
