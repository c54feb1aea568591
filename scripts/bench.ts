// npm run bench: build and serve figures, printed with ratios against anchors measured in the same run
// (docs/performance.md). It never fails a build: every step reports what it could and the exit code is 0.
//
//   node scripts/bench.ts [--sizes 1000,10000] [--duration 10] [--connections 32] [--threads 2]
//                         [--serve-size <N>] [--no-build] [--no-http] [--rounds n] [--baseline <dir>] [--no-edge]
//
// Build: for each size, synthetic content (scripts/synthetic-content.ts, seed 1) is written to
// bench/.out/n<N>/content and the real build runs on it (astro build --outDir bench/.out/n<N>/dist),
// timed with /usr/bin/time -v when present (else by polling /proc). HTTP: the build of --serve-size
// (default: the largest) is served by `node scripts/serve.ts`, by nginx (bench/nginx.conf) and by a
// bare node:http server answering the same bytes from memory. The shim's targets: one episode, one
// list page asked again and again, and a walk of every list page by cursor. wrk measures each in
// turn, --rounds times over (each target's median round is reported). --baseline <dir> also serves
// the build with the shim of another checkout (its functions/, src/, scripts/ and a node_modules),
// measured in the same rounds, for before/after figures on a machine whose load varies. The edge
// target: the same dist/ through the Workers entry on a local workerd (scripts/serve-edge.ts, the
// bundle of scripts/bundle-worker.ts), one episode and one list page, in the same rounds (--no-edge
// skips it); beside it, the number of files a Cloudflare deploy of that dist/ would upload.
// See docs/performance.md for the figures and how to read them.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { writeSyntheticContent } from "./synthetic-content.ts";
import { bundleWorker } from "./bundle-worker.ts";
import { startEdgeServer, type EdgeServer } from "./serve-edge.ts";
import { uploadFiles } from "../src/generate/file-budget.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const OUT = path.join(ROOT, "bench/.out");
const NODE = process.execPath;
const ASTRO = path.join(ROOT, "node_modules/astro/bin/astro.mjs");
const EPISODE_PATH = "/v1/episodes/42";
const LIST_PATH = "/v1/episodes?limit=20";
const EPISODE_FILE = "_api/episodes/42.json";
/** A build file outside wrangler's run_worker_first: on the edge target, the asset layer alone serves it (no Worker). */
const EDGE_STATIC_PATH = "/404.html";

interface Options {
  sizes: number[];
  duration: number;
  connections: number;
  threads: number;
  serveSize: number | null;
  build: boolean;
  http: boolean;
  rounds: number;
  /** Another checkout whose shim (scripts/serve.ts) is measured beside this one. */
  baseline: string | null;
  /** Also serve the build through the Workers entry on workerd (off with --no-edge). */
  edge: boolean;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { sizes: [1000, 10000], duration: 10, connections: 32, threads: 2, serveSize: null, build: true, http: true, rounds: 1, baseline: null, edge: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    const whole = (v: string, name: string) => {
      if (!/^\d+$/.test(v) || Number(v) < 1) throw new Error(`${name} must be a whole number >= 1, got '${v}'`);
      return Number(v);
    };
    if (a === "--sizes") o.sizes = value().split(",").map((s) => whole(s.trim(), "--sizes"));
    else if (a === "--duration") o.duration = whole(value(), a);
    else if (a === "--connections") o.connections = whole(value(), a);
    else if (a === "--threads") o.threads = whole(value(), a);
    else if (a === "--serve-size") o.serveSize = whole(value(), a);
    else if (a === "--no-build") o.build = false;
    else if (a === "--no-http") o.http = false;
    else if (a === "--rounds") o.rounds = whole(value(), a);
    else if (a === "--baseline") o.baseline = path.resolve(value());
    else if (a === "--no-edge") o.edge = false;
    else throw new Error(`unknown option ${a}`);
  }
  return o;
}

const dirOf = (size: number) => path.join(OUT, `n${size}`);
const round = (x: number, digits = 1) => Number(x.toFixed(digits));

// ---------------------------------------------------------------------------------------------
// Child processes: every one is tracked and ended by its own pid when the bench ends.

const children = new Set<ChildProcess>();

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

async function stop(child: ChildProcess | null): Promise<void> {
  if (child === null || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}

function stopAllNow(): void {
  for (const c of children) c.kill("SIGTERM");
}
process.once("SIGINT", () => {
  stopAllNow();
  process.exit(130);
});
process.once("exit", stopAllNow);

// ---------------------------------------------------------------------------------------------
// Build figures

interface BuildFigures {
  episodes: number;
  generateSeconds: number;
  ok: boolean;
  wallSeconds: number;
  peakRssMb: number | null;
  userSeconds: number | null;
  systemSeconds: number | null;
  routesSeconds: number | null;
  files: number | null;
  distMb: number | null;
  log: string;
}

/** Peak RSS of a process by polling /proc (used when /usr/bin/time is missing). */
function pollPeakRss(pid: number): { stop: () => number | null } {
  let peakKb = 0;
  const read = () => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (m) peakKb = Math.max(peakKb, Number(m[1]));
    } catch {
      // gone
    }
  };
  const timer = setInterval(read, 100);
  return {
    stop: () => {
      clearInterval(timer);
      return peakKb > 0 ? peakKb / 1024 : null;
    },
  };
}

function duSize(dir: string): { files: number | null; mb: number | null } {
  const du = spawnSync("du", ["-sb", dir], { encoding: "utf8" });
  const count = spawnSync("find", [dir, "-type", "f"], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  return {
    mb: du.status === 0 ? round(Number(du.stdout.split(/\s/)[0]) / 1e6) : null,
    files: count.status === 0 ? count.stdout.split("\n").filter((l) => l.length > 0).length : null,
  };
}

async function buildOnce(size: number): Promise<BuildFigures> {
  const dir = dirOf(size);
  const content = path.join(dir, "content");
  const dist = path.join(dir, "dist");
  const log = path.join(dir, "build.log");
  const g0 = performance.now();
  writeSyntheticContent(content, size, { seed: 1 });
  const generateSeconds = (performance.now() - g0) / 1000;
  rmSync(dist, { recursive: true, force: true });
  rmSync(path.join(dir, ".astro-cache"), { recursive: true, force: true });

  const useTime = existsSync("/usr/bin/time");
  const cmd = useTime ? "/usr/bin/time" : NODE;
  const args = [...(useTime ? ["-v", NODE] : []), ASTRO, "build", "--outDir", dist];
  // Sizes past ~3,000 episodes exceed the free plan's files per deploy, which the build refuses by
  // default (src/generate/file-budget.ts); the bench measures the build, not a deploy.
  const env = { ...process.env, CONTENT_DIR: content, ASTRO_TELEMETRY_DISABLED: "1", ASTRO_CACHE_DIR: path.join(dir, ".astro-cache"), ASSET_FILE_LIMIT: process.env.ASSET_FILE_LIMIT ?? "10000000" };
  console.log(`  building ${size} episodes: CONTENT_DIR=${path.relative(ROOT, content)} node node_modules/astro/bin/astro.mjs build --outDir ${path.relative(ROOT, dist)}`);
  const t0 = performance.now();
  const child = track(spawn(cmd, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] }));
  const poll = useTime ? null : pollPeakRss(child.pid!);
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const code = await new Promise<number>((resolve) => child.once("exit", (c) => resolve(c ?? 1)));
  const wall = (performance.now() - t0) / 1000;
  const polled = poll?.stop() ?? null;
  writeFileSync(log, output);

  const num = (re: RegExp) => {
    const m = re.exec(output);
    return m ? Number(m[1]) : null;
  };
  const rssKb = num(/Maximum resident set size \(kbytes\): (\d+)/);
  // "generating static routes" ... "✓ Completed in 32.80s." (or "1m 28s.")
  const routes = /generating static routes[\s\S]*?Completed in (?:(\d+)m )?([\d.]+)(m?s)\./.exec(output);
  const routesSeconds = routes ? Number(routes[1] ?? 0) * 60 + Number(routes[2]) / (routes[3] === "ms" ? 1000 : 1) : null;
  const { files, mb } = code === 0 ? duSize(dist) : { files: null, mb: null };
  return {
    episodes: size,
    generateSeconds: round(generateSeconds),
    ok: code === 0,
    wallSeconds: round(wall),
    peakRssMb: rssKb !== null ? round(rssKb / 1024, 0) : polled !== null ? round(polled, 0) : null,
    userSeconds: num(/User time \(seconds\): ([\d.]+)/),
    systemSeconds: num(/System time \(seconds\): ([\d.]+)/),
    routesSeconds: routesSeconds === null ? null : round(routesSeconds),
    files,
    distMb: mb,
    log: path.relative(ROOT, log),
  };
}

// ---------------------------------------------------------------------------------------------
// HTTP figures

interface WrkFigures {
  target: string;
  url: string;
  requestsPerSecond: number | null;
  latencyAvgMs: number | null;
  latencyP50Ms: number | null;
  latencyP99Ms: number | null;
  latencyMaxMs: number | null;
  non2xx: number;
  socketErrors: string | null;
  raw: string;
  /** req/s of every round, when there were several (the figures above are the median round's). */
  rounds?: (number | null)[];
}

function ms(value: string, unit: string): number {
  const n = Number(value);
  return unit === "us" ? n / 1000 : unit === "ms" ? n : unit === "s" ? n * 1000 : unit === "m" ? n * 60_000 : NaN;
}

function parseWrk(target: string, url: string, out: string): WrkFigures {
  const lat = /Latency\s+([\d.]+)(us|ms|s|m)\s+([\d.]+)(us|ms|s|m)\s+([\d.]+)(us|ms|s|m)/.exec(out);
  const pct = (p: string) => {
    const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s|m)`).exec(out);
    return m ? round(ms(m[1]!, m[2]!), 3) : null;
  };
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out);
  const errors = /Socket errors:[^\n]*/.exec(out);
  return {
    target,
    url,
    requestsPerSecond: rps ? round(Number(rps[1]), 0) : null,
    latencyAvgMs: lat ? round(ms(lat[1]!, lat[2]!), 3) : null,
    latencyP50Ms: pct("50"),
    latencyP99Ms: pct("99"),
    latencyMaxMs: lat ? round(ms(lat[5]!, lat[6]!), 3) : null,
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    socketErrors: errors ? errors[0] : null,
    raw: out,
  };
}

/**
 * One wrk run. Asynchronous, never spawnSync: the edge target's workerd is started by Miniflare in
 * this process, and its throughput collapses (to ~100 req/s, with timeouts) while this process's
 * event loop is blocked, though it uses only ~10 ms of this process's CPU per run when it is not.
 */
function wrk(o: Options, url: string, seconds: number, script?: string): Promise<string> {
  const args = [`-t${o.threads}`, `-c${o.connections}`, `-d${seconds}s`, "--latency", ...(script ? ["-s", script] : []), url];
  return new Promise((resolve, reject) => {
    const child = track(spawn("wrk", args, { stdio: ["ignore", "pipe", "pipe"] }));
    let out = "";
    child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    child.once("error", reject);
    child.once("close", () => resolve(out));
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, child: ChildProcess, what: string, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`${what} did not answer ${url} within ${timeoutMs / 1000} s`);
}

function startChild(what: string, cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }, logFile: string): ChildProcess {
  const child = track(spawn(cmd, args, { ...opts, stdio: ["ignore", "pipe", "pipe"] }));
  let log = "";
  const keep = (d: Buffer) => {
    if (log.length < 1_000_000) log += d.toString();
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  child.once("exit", () => writeFileSync(logFile, log));
  child.once("error", (e) => console.log(`  ${what}: ${e.message}`));
  return child;
}

/**
 * Every list page of the build, followed by cursor from the first, as a wrk script that requests
 * them in turn (each wrk thread from its own random start): a crawler's walk, where the shim
 * composes pages its page cache no longer holds, unlike the one page asked again and again.
 */
async function writeListWalk(shimUrl: string, file: string): Promise<{ pages: number; bytes: number }> {
  const paths: string[] = [];
  let bytes = 0;
  let cursor: string | null = null;
  do {
    const p: string = `${LIST_PATH}${cursor ? `&cursor=${cursor}` : ""}`;
    const res = await fetch(`${shimUrl}${p}`);
    const text = await res.text();
    if (res.status !== 200) throw new Error(`list walk: ${p} answered ${res.status}`);
    paths.push(p);
    bytes += Buffer.byteLength(text);
    cursor = (JSON.parse(text) as { pagination: { nextCursor: string | null } }).pagination.nextCursor;
  } while (cursor !== null);
  const lua = [
    `local paths = {\n${paths.map((p) => `  ${JSON.stringify(p)},`).join("\n")}\n}`,
    "local i = 0",
    "function init(args) math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16)); i = math.random(1, #paths) end",
    "function request() i = i + 1; return wrk.format(\"GET\", paths[(i % #paths) + 1]) end",
  ].join("\n");
  writeFileSync(file, `${lua}\n`);
  return { pages: paths.length, bytes };
}

const RAW_NODE_SERVER = `
import http from "node:http";
import { readFileSync } from "node:fs";
const body = readFileSync(process.env.BODY_FILE);
const etag = process.env.BODY_ETAG;
http.createServer((req, res) => {
  res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": body.length, ETag: etag });
  res.end(body);
}).listen(Number(process.env.PORT), "127.0.0.1");
`;

/** What a Cloudflare deploy of this dist/ uploads (the rule of `npm run deploy`), per episode of the index. */
interface DeployFigures {
  uploadFiles: number;
  indexEpisodes: number;
  filesPerEpisode: number;
}

async function deployFigures(dist: string): Promise<DeployFigures> {
  const files = (await uploadFiles(dist)).length;
  const index = JSON.parse(readFileSync(path.join(dist, "_api/index.json"), "utf8")) as { episodes: unknown[] };
  const episodes = index.episodes.length;
  return { uploadFiles: files, indexEpisodes: episodes, filesPerEpisode: round(files / episodes, 2) };
}

async function httpFigures(
  o: Options,
  size: number,
): Promise<{ results: WrkFigures[]; sameBody: boolean | null; notes: string[]; deploy: DeployFigures | null }> {
  const dir = dirOf(size);
  const dist = path.join(dir, "dist");
  const notes: string[] = [];
  if (!existsSync(path.join(dist, EPISODE_FILE))) throw new Error(`${path.relative(ROOT, dist)} has no ${EPISODE_FILE}: build ${size} first`);
  const manifest = JSON.parse(readFileSync(path.join(dist, "_api/manifest.json"), "utf8")) as Record<string, string>;

  const [shimPort, nginxPort, rawPort, basePort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const results: WrkFigures[] = [];
  let shim: ChildProcess | null = null;
  let base: ChildProcess | null = null;
  let nginx: ChildProcess | null = null;
  let raw: ChildProcess | null = null;
  let sameBody: boolean | null = null;
  let edge: EdgeServer | null = null;
  let deploy: DeployFigures | null = null;
  try {
    deploy = await deployFigures(dist);
  } catch (e) {
    notes.push(`deploy file count could not be taken: ${(e as Error).message}`);
  }
  try {
    // serve.ts serves ./dist of its working directory.
    const shimEnv = (port: number) => ({
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      RATE_LIMIT_METADATA_PER_MIN: "1000000000",
      RATE_LIMIT_AUDIO_PER_MIN: "1000000000",
    });
    shim = startChild("shim", NODE, [path.join(ROOT, "scripts/serve.ts")], { cwd: dir, env: shimEnv(shimPort) }, path.join(dir, "serve.log"));
    if (o.baseline !== null) {
      base = startChild("baseline shim", NODE, [path.join(o.baseline, "scripts/serve.ts")], { cwd: dir, env: shimEnv(basePort) }, path.join(dir, "serve-baseline.log"));
    }
    const ngDir = path.join(OUT, "nginx");
    mkdirSync(ngDir, { recursive: true });
    const conf = readFileSync(path.join(ROOT, "bench/nginx.conf"), "utf8")
      .replaceAll("__OUT__", ngDir)
      .replaceAll("__ROOT__", dist)
      .replaceAll("__PORT__", String(nginxPort));
    writeFileSync(path.join(ngDir, "nginx.conf"), conf);
    nginx = startChild("nginx", "nginx", ["-p", ngDir, "-c", "nginx.conf", "-e", path.join(ngDir, "error.log")], { cwd: ngDir, env: process.env }, path.join(ngDir, "stdout.log"));
    raw = startChild(
      "node:http",
      NODE,
      ["--input-type=module", "-e", RAW_NODE_SERVER],
      { cwd: ROOT, env: { ...process.env, PORT: String(rawPort), BODY_FILE: path.join(dist, EPISODE_FILE), BODY_ETAG: manifest[EPISODE_FILE] ?? '"x"' } },
      path.join(OUT, "raw-node.log"),
    );
    if (o.edge) {
      // The same dist/ through the Workers entry on workerd: bundled as `npm run deploy` bundles it,
      // limits raised like the Node shim's. A failure here costs the edge rows only.
      try {
        const bundle = await bundleWorker();
        edge = await startEdgeServer({
          distDir: dist,
          env: { RATE_LIMIT_METADATA_PER_MIN: "1000000000", RATE_LIMIT_AUDIO_PER_MIN: "1000000000" },
          host: "127.0.0.1",
          bundle: false,
        });
        notes.push(`edge: ${path.relative(ROOT, bundle.file)} (${round(bundle.bytes / 1024)} KiB) on a local workerd (Miniflare) at ${edge.url}`);
      } catch (e) {
        notes.push(`edge target could not start: ${(e as Error).message}`);
      }
    }
    const shimUrl = `http://127.0.0.1:${shimPort}`;
    const nginxUrl = `http://127.0.0.1:${nginxPort}`;
    const rawUrl = `http://127.0.0.1:${rawPort}`;
    const baseUrl = `http://127.0.0.1:${basePort}`;
    await Promise.all([
      waitFor(`${shimUrl}/v1`, shim, "shim"),
      waitFor(`${nginxUrl}/`, nginx, "nginx"),
      waitFor(`${rawUrl}/`, raw, "node:http"),
      ...(base ? [waitFor(`${baseUrl}/v1`, base, "baseline shim")] : []),
    ]);

    // Sanity: all answer 200 with the same episode bytes, and the list answers 200.
    const bodies = await Promise.all(
      [
        `${shimUrl}${EPISODE_PATH}`,
        `${nginxUrl}/${EPISODE_FILE}`,
        `${rawUrl}/`,
        ...(base ? [`${baseUrl}${EPISODE_PATH}`] : []),
        ...(edge ? [`${edge.url}${EPISODE_PATH}`] : []),
      ].map(async (u) => {
        const res = await fetch(u);
        return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
      }),
    );
    sameBody = bodies.every((b) => b.status === 200 && b.body.equals(bodies[0]!.body));
    const list = await fetch(`${shimUrl}${LIST_PATH}`);
    const listBody = (await list.json()) as { episodes?: unknown[] };
    if (!sameBody) notes.push(`bodies differ or not 200: ${bodies.map((b) => `${b.status}/${b.body.length} B`).join(", ")}`);
    if (list.status !== 200 || listBody.episodes?.length !== 20) notes.push(`list answered ${list.status} with ${listBody.episodes?.length} episodes`);
    if (edge) {
      const edgeList = await fetch(`${edge.url}${LIST_PATH}`);
      const edgeBody = Buffer.from(await edgeList.arrayBuffer());
      const nodeBody = Buffer.from(await (await fetch(`${shimUrl}${LIST_PATH}`)).arrayBuffer());
      if (edgeList.status !== 200 || !edgeBody.equals(nodeBody)) notes.push(`edge list page: ${edgeList.status}, ${edgeBody.length} B, not the Node shim's ${nodeBody.length} B`);
      const edgeStatic = await fetch(`${edge.url}${EDGE_STATIC_PATH}`);
      const staticBytes = (await edgeStatic.arrayBuffer()).byteLength;
      notes.push(`edge anchor ${EDGE_STATIC_PATH}: ${edgeStatic.status}, ${staticBytes} B, served by workerd's asset layer without the Worker`);
    }
    notes.push(`episode body ${bodies[0]!.body.length} B; list page ${JSON.stringify(listBody).length} B`);
    const walkScript = path.join(OUT, "list-walk.lua");
    const walk = await writeListWalk(shimUrl, walkScript);
    notes.push(`list walk: ${walk.pages} pages of ${LIST_PATH} by cursor, ${round(walk.bytes / 1e6)} MB in all`);

    // [name, url, wrk script]
    const targets: [string, string, string?][] = [
      ["nginx, static file", `${nginxUrl}/${EPISODE_FILE}`],
      ["node:http, same bytes from memory", `${rawUrl}/`],
      ["shim, one episode", `${shimUrl}${EPISODE_PATH}`],
      ["shim, list page", `${shimUrl}${LIST_PATH}`],
      ["shim, list walk", shimUrl, walkScript],
      ...(base
        ? ([
            ["baseline shim, one episode", `${baseUrl}${EPISODE_PATH}`],
            ["baseline shim, list page", `${baseUrl}${LIST_PATH}`],
            ["baseline shim, list walk", baseUrl, walkScript],
          ] as [string, string, string?][])
        : []),
      ...(edge
        ? ([
            ["edge, one episode", `${edge.url}${EPISODE_PATH}`],
            ["edge, list page", `${edge.url}${LIST_PATH}`],
            ["edge, asset layer alone /404.html", `${edge.url}${EDGE_STATIC_PATH}`],
          ] as [string, string, string?][])
        : []),
    ];
    const runs: WrkFigures[][] = targets.map(() => []);
    for (let round = 1; round <= o.rounds; round++) {
      if (o.rounds > 1) console.log(`  round ${round} of ${o.rounds}`);
      for (const [i, [target, url, script]] of targets.entries()) {
        if (round === 1) {
          const s = script ? ` -s ${path.relative(ROOT, script)}` : "";
          console.log(`  wrk -t${o.threads} -c${o.connections} -d${o.duration}s --latency${s} ${url}   (${target})`);
          await wrk(o, url, 2, script); // warm-up: JIT, file cache, connection setup
        }
        runs[i]!.push(parseWrk(target, url, await wrk(o, url, o.duration, script)));
      }
    }
    for (const r of runs) {
      // The median round by req/s stands for the target; every round's req/s is kept beside it.
      const sorted = [...r].sort((a, b) => (a.requestsPerSecond ?? 0) - (b.requestsPerSecond ?? 0));
      const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
      results.push(o.rounds > 1 ? { ...median, rounds: r.map((x) => x.requestsPerSecond) } : median);
    }
  } finally {
    await Promise.all([stop(shim), stop(nginx), stop(raw), stop(base), edge?.close().catch(() => {})]);
  }
  return { results, sameBody, notes, deploy };
}

// ---------------------------------------------------------------------------------------------
// Report

/** A table row: the first column left-aligned, figures right-aligned. */
function pad(cells: (string | number | null)[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? String(c ?? "–").padEnd(widths[i]!) : String(c ?? "–").padStart(widths[i]!))).join("  ");
}

function ratio(a: number | null | undefined, b: number | null | undefined, digits = 2): string {
  return a && b ? (a / b).toFixed(digits) : "–";
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  mkdirSync(OUT, { recursive: true });
  const cpu = os.cpus();
  const machine = `${cpu.length} × ${cpu[0]?.model ?? "cpu"}, ${round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
  const startedAt = new Date().toISOString();
  const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).stdout.trim() || "unknown";
  const dirty = spawnSync("git", ["status", "--porcelain", "--", "src", "functions", "astro.config.mjs"], { cwd: ROOT, encoding: "utf8" }).stdout.trim() !== "";
  console.log(`bench ${startedAt} at ${commit}${dirty ? " (+ uncommitted changes in src/functions)" : ""}\nmachine: ${machine}\nload average at start: ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}\n`);

  const builds: BuildFigures[] = [];
  if (o.build) {
    console.log("Build");
    for (const size of o.sizes) {
      try {
        const b = await buildOnce(size);
        builds.push(b);
        console.log(`  → ${b.ok ? "ok" : "FAILED"} in ${b.wallSeconds} s, peak RSS ${b.peakRssMb ?? "?"} MB (log: ${b.log})`);
      } catch (e) {
        console.log(`  build of ${size} could not run: ${(e as Error).message}`);
      }
    }
  }

  const serveSize = o.serveSize ?? Math.max(...o.sizes);
  let http: Awaited<ReturnType<typeof httpFigures>> | null = null;
  if (o.http) {
    console.log(`\nHTTP (the ${serveSize}-episode build)`);
    try {
      http = await httpFigures(o, serveSize);
    } catch (e) {
      console.log(`  HTTP figures could not be taken: ${(e as Error).message}`);
    }
  }

  console.log(`\n=== Results (${commit}${dirty ? "+dirty" : ""}, ${machine})`);
  if (builds.length > 0) {
    console.log("\nBuild: synthetic content → astro build (wall clock, peak RSS of the largest process)");
    const w = [9, 8, 8, 8, 8, 8, 8, 9, 12];
    console.log(pad(["episodes", "wall s", "routes s", "user s", "sys s", "RSS MB", "files", "dist MB", "ms/episode"], w));
    for (const b of builds) {
      console.log(
        pad(
          [b.episodes, b.ok ? b.wallSeconds : "FAILED", b.routesSeconds, b.userSeconds, b.systemSeconds, b.peakRssMb, b.files, b.distMb, round((b.wallSeconds * 1000) / b.episodes, 2)],
          w,
        ),
      );
    }
    if (builds.length >= 2) {
      const [a, b] = [builds[0]!, builds[builds.length - 1]!];
      console.log(`scaling ${b.episodes}/${a.episodes} (×${round(b.episodes / a.episodes)} episodes): wall ×${ratio(b.wallSeconds, a.wallSeconds)}, peak RSS ×${ratio(b.peakRssMb, a.peakRssMb)}`);
    }
  }
  if (http) {
    console.log(
      `\nHTTP: wrk -t${o.threads} -c${o.connections} -d${o.duration}s against the ${serveSize}-episode build (wrk and servers share the machine's cores)` +
        (o.rounds > 1 ? `; ${o.rounds} rounds, each target's median round` : "") +
        (o.baseline ? `; baseline shim from ${o.baseline}` : ""),
    );
    for (const n of http.notes) console.log(`  ${n}`);
    if (http.deploy) {
      const d = http.deploy;
      console.log(`  deploy (npm run deploy's count, src/generate/file-budget.ts): ${d.uploadFiles} files to upload for ${d.indexEpisodes} episodes in the index = ${d.filesPerEpisode} files per episode`);
    }
    console.log(`  the servers answered the same episode bytes: ${http.sameBody}`);
    const w = [36, 10, 9, 9, 9, 9, 8];
    console.log(pad(["target", "req/s", "avg ms", "p50 ms", "p99 ms", "max ms", "non-2xx"], w));
    for (const r of http.results) {
      console.log(pad([r.target, r.requestsPerSecond, r.latencyAvgMs, r.latencyP50Ms, r.latencyP99Ms, r.latencyMaxMs, r.non2xx], w));
      if (r.socketErrors) console.log(`  ${r.target}: ${r.socketErrors}`);
      if (r.rounds) console.log(`    rounds: ${r.rounds.join(", ")} req/s`);
    }
    const by = (t: string) => http!.results.find((r) => r.target.startsWith(t))?.requestsPerSecond;
    const nginx = by("nginx");
    const raw = by("node:http");
    const ep = by("shim, one");
    const list = by("shim, list page");
    console.log(`ratios (req/s): shim episode / nginx = ${ratio(ep, nginx)}, shim list / nginx = ${ratio(list, nginx)}, shim episode / node:http = ${ratio(ep, raw)}, node:http / nginx = ${ratio(raw, nginx)}`);
    if (http.results.some((r) => r.target.startsWith("edge, "))) {
      const edgeEp = by("edge, one");
      const edgeList = by("edge, list page");
      console.log(
        `edge (workerd) ratios (req/s): edge episode / nginx = ${ratio(edgeEp, nginx, 3)}, edge list / nginx = ${ratio(edgeList, nginx, 3)}, ` +
          `edge episode / Node shim episode = ${ratio(edgeEp, ep, 3)}, edge list / Node shim list = ${ratio(edgeList, list, 3)}, ` +
          `edge episode / edge asset layer alone = ${ratio(edgeEp, by("edge, asset layer"))}`,
      );
    }
    if (o.baseline) {
      const walk = by("shim, list walk");
      console.log(
        `against the baseline shim: episode ×${ratio(ep, by("baseline shim, one"))}, list page ×${ratio(list, by("baseline shim, list page"))}, list walk ×${ratio(walk, by("baseline shim, list walk"))}`,
      );
    }
  }
  const file = path.join(OUT, `results-${startedAt.replace(/[:.]/g, "-")}.json`);
  writeFileSync(
    file,
    JSON.stringify({ startedAt, commit, dirty, machine, options: o, builds, http: http && { ...http, results: http.results.map(({ raw, ...r }) => r) } }, null, 2),
  );
  console.log(`\n(saved to ${path.relative(ROOT, file)})`);
}

main()
  .catch((e: Error) => console.log(`bench: ${e.message}`))
  .finally(() => {
    stopAllNow();
    process.exitCode = 0;
  });
