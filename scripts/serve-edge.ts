// npm run serve:edge: serve an existing dist/ through the Workers entry on a local workerd
// (Miniflare 4, no account, no network), with the bindings wrangler.jsonc declares: dist/ as static
// assets with the same run_worker_first routing, audio in a local R2 bucket seeded from dist/media,
// rate limits in the Durable Object, vars overridden by RATE_LIMIT_* from the environment, and the
// Cron Trigger fired as Cloudflare fires it (wrangler.jsonc triggers.crons: every minute).
import { access, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { Miniflare } from "miniflare";
import type { ServeOptions } from "../functions/node/main.ts";
import { BUILD_FILES, MEDIA_DIR } from "../src/shared/layout.ts";
import { bundleWorker, WORKER_FILE } from "./bundle-worker.ts";
import { readWranglerConfig } from "./wrangler-config.ts";

/**
 * The Node server's options that mean something at the edge: `env` becomes the Worker's variables
 * (on top of wrangler.jsonc's vars), and `now` — TEST ONLY — is bound as TEST_CLOCK (never in
 * wrangler.jsonc). Storage and the Redis log have no edge counterpart: R2 and the Durable Object.
 */
export type EdgeServerOptions = Pick<ServeOptions, "distDir" | "env" | "port" | "host" | "now"> & {
  /** Bundle the entry first (default true); the test suites bundle once per run. */
  bundle?: boolean;
};

export interface EdgeServer {
  url: string;
  miniflare: Miniflare;
  close(): Promise<void>;
}

/** The variables the Worker reads, as wrangler passes vars: strings only. */
function workerVars(defaults: Record<string, string>, env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = { ...defaults };
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

/** Local R2 is empty at start: put every file of dist/media under its file name (the index's audio key). */
async function seedAudio(mf: Miniflare, binding: string, distDir: string): Promise<number> {
  const dir = path.join(distDir, MEDIA_DIR);
  const files = await readdir(dir).catch(() => [] as string[]);
  // Typed loosely: Miniflare's R2 types come from @cloudflare/workers-types, which we do not install.
  const bucket = (await mf.getR2Bucket(binding)) as unknown as { put(key: string, value: Uint8Array): Promise<unknown> };
  for (const f of files) await bucket.put(f, new Uint8Array(await readFile(path.join(dir, f))));
  return files.length;
}

export async function startEdgeServer(opts: EdgeServerOptions): Promise<EdgeServer> {
  const config = readWranglerConfig();
  await access(path.join(opts.distDir, BUILD_FILES.index)).catch(() => {
    throw new Error(`${path.join(opts.distDir, BUILD_FILES.index)} is missing: run 'npm run build' first`);
  });
  if (opts.bundle !== false) await bundleWorker();
  const now = opts.now;
  const mf = new Miniflare({
    modules: true,
    scriptPath: WORKER_FILE,
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags ?? [],
    host: opts.host ?? "127.0.0.1",
    port: opts.port ?? 0,
    // No Request.cf download, no network.
    cf: false,
    assets: {
      directory: opts.distDir,
      binding: config.assets.binding,
      routerConfig: { has_user_worker: true, static_routing: { user_worker: config.assets.run_worker_first } },
      assetConfig: {
        html_handling: (config.assets.html_handling ?? "auto-trailing-slash") as "none",
        not_found_handling: (config.assets.not_found_handling ?? "none") as "none",
      },
    },
    r2Buckets: Object.fromEntries(config.r2_buckets.map((b) => [b.binding, b.bucket_name])),
    durableObjects: Object.fromEntries(config.durable_objects.bindings.map((d) => [d.name, d.class_name])),
    bindings: workerVars(config.vars, opts.env ?? {}),
    ...(now ? { serviceBindings: { TEST_CLOCK: () => new Response(String(now())) } } : {}),
  });
  try {
    const url = await mf.ready;
    await seedAudio(mf, config.r2_buckets[0]!.binding, opts.distDir);
    return { url: url.origin, miniflare: mf, close: () => mf.dispose() };
  } catch (e) {
    await mf.dispose();
    throw e;
  }
}

/** The shim's run-time variables of the process environment: RATE_LIMIT_*, AUDIO_*, FEED_LIMIT and the announcements'. */
function envVars(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => /^(RATE_LIMIT_|AUDIO_|FEED_LIMIT$|WEBSUB_HUB$|PING_URLS$|PODPING_)/.test(k)));
}

/**
 * The Worker's `scheduled` handler at start and then every minute, as Cloudflare runs the Cron
 * Trigger (Miniflare runs none by itself); the look at start is the starting point, as on Node.
 */
async function runCron(server: EdgeServer): Promise<() => void> {
  const cron = readWranglerConfig().triggers?.crons[0];
  if (cron === undefined) return () => {};
  // Typed loosely: Miniflare's Fetcher types come from @cloudflare/workers-types, which we do not install.
  const worker = (await server.miniflare.getWorker()) as unknown as { scheduled(options: { cron: string }): Promise<unknown> };
  const fire = () => void worker.scheduled({ cron }).catch((e: Error) => console.error(`serve:edge: the Cron Trigger failed: ${e.message}`));
  fire();
  const timer = setInterval(fire, 60_000);
  return () => clearInterval(timer);
}

export async function serveEdge(distDir = path.resolve("dist")): Promise<void> {
  const port = Number(process.env.PORT?.trim() || 4321);
  const host = process.env.HOST?.trim() || "127.0.0.1";
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be 0–65535, got '${process.env.PORT}'`);
  const server = await startEdgeServer({ distDir, env: envVars(), port, host });
  console.log(`Serving ${path.relative(process.cwd(), distDir) || "."} through the Workers entry (workerd) on ${server.url}`);
  const stopCron = await runCron(server);
  const stop = () => {
    stopCron();
    void server.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.env.WRANGLER_SEND_METRICS ??= "false";
  process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
  serveEdge().catch((e: Error) => {
    console.error(`serve:edge: ${e.message}`);
    process.exit(1);
  });
}

