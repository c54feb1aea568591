// npm run serve:edge: serve an existing dist/ through the Workers entry on a local workerd
// (Miniflare 4, no account, no network), with the bindings wrangler.jsonc declares: dist/ as static
// assets with the same run_worker_first routing, audio in a local R2 bucket seeded from dist/media,
// rate limits in the Durable Object, vars overridden by RATE_LIMIT_* from the environment, and the
// Cron Trigger fired as Cloudflare fires it (wrangler.jsonc triggers.crons: every minute). Clients
// reach it through our stand-in for Cloudflare's front line (./front-line.worker.ts), on its own
// workerd socket, not through Miniflare's entry.
import { access, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Miniflare } from "miniflare";
import type { ServeOptions } from "../functions/node/main.ts";
import { BUILD_FILES, MEDIA_DIR } from "../src/shared/layout.ts";
import { bundleWorker, WORKER_FILE } from "./bundle-worker.ts";
import { argPath, command, isMain } from "./cli.ts";
import { readWranglerConfig } from "./wrangler-config.ts";

const SERVE_EDGE = command({
  name: "serve:edge",
  usage: ["npm run serve:edge -- [options]", "node scripts/serve-edge.ts [options]"],
  about: `Serves a build through the Workers entry on a local workerd (Miniflare; no account, no network)
with wrangler.jsonc's bindings, on PORT (default 4321) and HOST (default 127.0.0.1); RATE_LIMIT_*,
AUDIO_* and FEED_LIMIT override its vars. Audio goes into a local R2 bucket from dist/media.`,
  options: {
    dist: { type: "string", value: "DIR", help: "the build to serve (default dist/ of the current folder)" },
  },
  examples: ["npm run serve:edge", "PORT=8787 npm run serve:edge -- --dist /tmp/site"],
});

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

/**
 * Local R2 is empty at start: every file of dist/media goes in under its file name (the index's
 * audio key), through a Worker of its own bound to the same bucket on a loopback socket. Not
 * through Miniflare's R2 helper, whose proxy starts a thread and loads an HTTP client first, a
 * share of what a whole start costs.
 */
const SEEDER = "r2-seeder";
const SEEDER_SCRIPT = `export default {
  async fetch(request, env) {
    await env.BUCKET.put(decodeURIComponent(new URL(request.url).pathname.slice(1)), request.body);
    return new Response(null, { status: 204 });
  },
};`;

async function mediaFiles(distDir: string): Promise<string[]> {
  return readdir(path.join(distDir, MEDIA_DIR)).catch(() => [] as string[]);
}

async function seedAudio(mf: Miniflare, distDir: string, files: string[]): Promise<void> {
  if (files.length === 0) return;
  const seeder = await mf.unsafeGetDirectURL(SEEDER);
  for (const f of files) {
    const put = await fetch(new URL(encodeURIComponent(f), seeder), { method: "PUT", body: await readFile(path.join(distDir, MEDIA_DIR, f)) });
    if (put.status !== 204) throw new Error(`serve:edge: ${f} could not be put into local R2 (HTTP ${put.status})`);
  }
}

const FRONT_LINE = "front-line";
const FRONT_LINE_FILE = path.join(import.meta.dirname, "front-line.worker.ts");

/** Our front line as workerd runs it: JavaScript. */
async function frontLineScript(): Promise<string> {
  const { transform } = await import("esbuild");
  return (await transform(await readFile(FRONT_LINE_FILE, "utf8"), { loader: "ts", format: "esm", target: "es2024" })).code;
}

/** The address every client of a loopback-only socket has; undefined when others may connect. */
function loopbackClient(host: string): string | undefined {
  if (host === "localhost") return "127.0.0.1";
  return host === "::1" || /^127\./.test(host) ? host : undefined;
}

export async function startEdgeServer(opts: EdgeServerOptions): Promise<EdgeServer> {
  const config = readWranglerConfig();
  await access(path.join(opts.distDir, BUILD_FILES.index)).catch(() => {
    throw new Error(`${path.join(opts.distDir, BUILD_FILES.index)} is missing: run 'npm run build' first`);
  });
  if (opts.bundle !== false) await bundleWorker();
  const { Miniflare } = await import("miniflare");
  const now = opts.now;
  const host = opts.host ?? "127.0.0.1";
  const clientAddress = loopbackClient(host);
  const runtime = { compatibilityDate: config.compatibility_date, compatibilityFlags: config.compatibility_flags ?? [] };
  const bucket = config.r2_buckets[0]!.bucket_name;
  const media = await mediaFiles(opts.distDir);
  const mf = new Miniflare({
    // Miniflare's entry socket: loopback only, never the clients' door (its emulation of the front
    // line re-encodes the Worker's answers; docs/deploy.md#the-local-front-line).
    host: "127.0.0.1",
    port: 0,
    // No Request.cf download, no network.
    cf: false,
    workers: [
      {
        // First: Miniflare's entry, getWorker() and the R2 and Durable Object helpers default to it.
        name: config.name,
        // The bundle is one module, named here: Miniflare would otherwise parse its megabytes to find imports.
        modulesRoot: path.dirname(WORKER_FILE),
        modules: [{ type: "ESModule", path: WORKER_FILE }],
        ...runtime,
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
      },
      {
        name: FRONT_LINE,
        modules: true,
        script: await frontLineScript(),
        ...runtime,
        // A service binding to a Worker with assets goes through its asset router, as a request to Cloudflare does.
        serviceBindings: { WORKER: config.name },
        bindings: clientAddress === undefined ? {} : { CLIENT_ADDRESS: clientAddress },
        unsafeDirectSockets: [{ host, port: opts.port ?? 0 }],
      },
      // Only when there is audio to put into R2.
      ...(media.length === 0 ? [] : [{ name: SEEDER, modules: true, script: SEEDER_SCRIPT, ...runtime, r2Buckets: { BUCKET: bucket }, unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }] }]),
    ],
  });
  try {
    await mf.ready;
    const url = await mf.unsafeGetDirectURL(FRONT_LINE);
    await seedAudio(mf, opts.distDir, media);
    return { url: url.origin, miniflare: mf, close: () => disposeMiniflare(mf) };
  } catch (e) {
    await disposeMiniflare(mf);
    throw e;
  }
}

/**
 * Miniflare's `dispose`, and the folder it keeps Durable Objects, R2 objects and caches in when
 * nothing is persisted removed before it returns: `dispose` removes that folder without waiting, so
 * a process that exits right after (a test runner's worker, this script on SIGINT) would leave it
 * in the system's temporary folder. Only Miniflare's own folders there are removed.
 */
export async function disposeMiniflare(mf: Miniflare): Promise<void> {
  const folders = miniflareTemporaryFolders(mf);
  await mf.dispose();
  await Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true })));
}

/** The folders of `mf`'s unpersisted state: `miniflare-*` folders directly in the system's temporary folder. */
export function miniflareTemporaryFolders(mf: Miniflare): string[] {
  const parents = new Set([...mf.unsafeGetPersistPaths().values()].map((p) => path.dirname(p)));
  return [...parents].filter((dir) => path.dirname(dir) === tmpdir() && path.basename(dir).startsWith("miniflare-"));
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

export async function serveEdge(distDir: string): Promise<void> {
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

if (isMain(import.meta)) {
  const { values } = SERVE_EDGE.parse();
  process.env.WRANGLER_SEND_METRICS ??= "false";
  process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
  serveEdge(argPath(values.dist, path.resolve("dist"))).catch((e: Error) => {
    console.error(`serve:edge: ${e.message}`);
    process.exit(1);
  });
}
