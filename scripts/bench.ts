// npm run bench: build and serve figures, each printed beside its target (issue 10's budgets) and an
// anchor measured in the same run (docs/performance.md). It never fails a build: every step reports
// what it could and the exit code is 0 (2 for a usage error). Options: the BENCH table below.
//
// Build: for each size (and always 100 episodes, the anchor of the size-dependent figures), synthetic
// content (scripts/synthetic-content.ts, seed 1, --segments per script) in bench/.out/n<N>/content,
// reused while its parameters are the same, and a clean build of it (BUILD_CLEAN=1 astro build
// --outDir bench/.out/n<N>/dist), timed with /usr/bin/time -v, its log lines stamped with their
// arrival time so the build's phases can be read off; beside it, `cp -r` of the same dist/ (the cost
// of writing those files at all). Incremental: one episode folder added, the build again; the
// one-episode publish (`scripts/publish.ts --dry-run`, then a full local publish, which builds); the
// added folders removed and built once more, which leaves the clean build's dist/. HTTP, for every size
// built (in this run or an earlier one with the same parameters): `npm run serve`'s script, nginx
// (bench/nginx.conf) and a bare node:http server on the same dist/: the shim's resident memory after
// start, after a walk of every list page and after the load; list latency on one connection (first
// page, a deep page, the walk) against nginx's; bytes on the wire by Accept-Encoding; search over
// POST /mcp. At sizes 1,000–10,000 (or --serve-size) wrk also measures throughput: nginx (on the episode
// file, and on the list page's bytes as the shim answered them, the anchor of the list's ratio), node:http,
// the shim's episode, list page and list walk, --rounds times over (each target's median round),
// --baseline <dir>'s shim in the same rounds, and at the largest such size the edge target (the
// Workers entry on a local workerd, scripts/serve-edge.ts; --no-edge skips it). Search: the search
// bench (scripts/search-bench.ts) at each size of 10,000 or more, in its own process. --tree <dir>
// builds and publishes with another tree's code (a snapshot: while others edit src/, the build's key
// changes and an "incremental" build is clean).
// See docs/performance.md for the figures and how to read them.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { argPath, command } from "./cli.ts";
import { writeSyntheticContent } from "./synthetic-content.ts";
import { bundleWorker } from "./bundle-worker.ts";
import { startEdgeServer, type EdgeServer } from "./serve-edge.ts";
import type { SearchBenchFigures } from "./search-bench.ts";
import { filesPerEpisode, uploadFiles } from "../src/generate/file-budget.ts";
import { buildCodeHash } from "../src/generate/stamp.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const OUT = path.join(ROOT, "bench/.out");
const NODE = process.execPath;
/**
 * Whose build code the builds and the publish run (--tree <dir>; this checkout by default). A
 * snapshot keeps the build's key still while others edit src/: an edit makes the next build clean.
 */
let CODE = ROOT;
const astro = () => path.join(CODE, "node_modules/astro/bin/astro.mjs");
/** The build code's hash (part of the build's key); constant for a --tree snapshot. */
const codeHash = () => (CODE === ROOT ? buildCodeHash() : "snapshot");
const EPISODE_PATH = "/v1/episodes/42";
const LIST_PATH = "/v1/episodes?limit=20";
const EPISODE_FILE = "_api/episodes/42.json";
/** The shim's LIST_PATH body, as a file nginx serves from its own folder (bench/nginx.conf). */
const NGINX_LIST_FILE = "list-page.json";
/** A build file outside wrangler's run_worker_first: on the edge target, the asset layer alone serves it (no Worker). */
const EDGE_STATIC_PATH = "/404.html";
/** The smallest build, always made: the anchor of the figures that must not grow with the show. */
const ANCHOR_SIZE = 100;
/** Sizes at which wrk measures throughput (issue 10 asks for the request-path ratios at 1,000 and 10,000). */
const WRK_SIZES = { min: 1000, max: 10_000 };
/** Issue 10's budgets, printed beside the figures. */
const TARGET = {
  buildSecondsPer1000: 2,
  buildAt: 10_000,
  buildRssMb: 1024,
  incrementalSeconds: 10,
  episodeVsNginx: 0.65,
  listVsNginx: 0.45,
  listFlat: 1.2,
  serverRssMb: 200,
};
/** A synthetic script of ~20 KB, the size issue 10's figures are for. */
const SEGMENTS_DEFAULT = 66;
/** Disk a build needs per episode, content and dist/ with its compressed variants, when no smaller build says better. */
const BYTES_PER_EPISODE_GUESS = 80_000;

const BENCH = command({
  name: "bench",
  usage: ["npm run bench -- [options]", "node scripts/bench.ts [options]"],
  about: `Build and serve figures of synthetic shows, each beside its target and an anchor measured in the
same run (docs/performance.md); the results go to bench/.out/. Every step reports what it could and
the exit code is 0. Takes tens of minutes at the default sizes.`,
  options: {
    sizes: { type: "integers", value: "N,N", min: 1, default: [1000, 10_000], help: "show sizes to build and measure (100, the anchor, is always built)" },
    huge: { type: "boolean", help: "also 100,000 episodes" },
    segments: { type: "integer", min: 3, default: SEGMENTS_DEFAULT, help: "spoken segments per synthetic script" },
    duration: { type: "integer", value: "S", min: 1, default: 10, help: "seconds of each wrk run" },
    connections: { type: "integer", min: 1, default: 32, help: "wrk's connections" },
    threads: { type: "integer", min: 1, default: 2, help: "wrk's threads" },
    "serve-size": { type: "integer", min: 1, help: "measure throughput at this size only (default: the sizes of 1,000 to 10,000)" },
    rounds: { type: "integer", min: 1, default: 1, help: "wrk rounds of every target (each target's median is reported)" },
    baseline: { type: "string", value: "DIR", help: "another checkout whose server is measured in the same rounds" },
    tree: { type: "string", value: "DIR", help: "build and publish with that tree's code (a snapshot, still while others edit)" },
    "no-build": { type: "boolean", help: "measure the builds already in bench/.out/" },
    "no-http": { type: "boolean", help: "no HTTP figures" },
    "no-incremental": { type: "boolean", help: "no incremental build or publish" },
    "no-search": { type: "boolean", help: "no search bench" },
    "no-edge": { type: "boolean", help: "no edge target (workerd)" },
  },
  examples: ["npm run bench -- --sizes 1000 --no-search", "npm run bench -- --no-build --serve-size 10000 --rounds 5"],
});

type Options = ReturnType<typeof optionsOf>;

function optionsOf(v: ReturnType<typeof BENCH.parse>["values"]) {
  const sizes = [...new Set([...v.sizes, ...(v.huge ? [100_000] : [])])].sort((x, y) => x - y);
  return {
    sizes,
    segments: v.segments,
    duration: v.duration,
    connections: v.connections,
    threads: v.threads,
    serveSize: v["serve-size"] ?? null,
    build: !v["no-build"],
    http: !v["no-http"],
    incremental: !v["no-incremental"],
    search: !v["no-search"],
    rounds: v.rounds,
    /** Another checkout whose shim (what its `npm run serve` runs) is measured beside this one. */
    baseline: v.baseline === undefined ? null : argPath(v.baseline, ""),
    /** Also serve the build through the Workers entry on workerd (off with --no-edge). */
    edge: !v["no-edge"],
    /** Build (and publish) with this tree's code instead of this checkout's. */
    tree: v.tree === undefined ? null : argPath(v.tree, ""),
  };
}

/** What `npm run serve` runs in a checkout: its bundling launcher, or scripts/serve.ts in checkouts older than it. */
const serveScript = (checkout: string) => [path.join(checkout, "scripts/serve.mjs"), path.join(checkout, "scripts/serve.ts")].find((f) => existsSync(f))!;
const dirOf = (size: number) => path.join(OUT, `n${size}`);
const round = (x: number, digits = 1) => Number(x.toFixed(digits));
const loadAverage = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

/** Resident memory of a running process from /proc: now (VmRSS) and its peak so far (VmHWM), in MB. */
function memoryOf(pid: number | undefined): { rssMb: number; peakMb: number } | null {
  if (pid === undefined) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
    return { rssMb: round(kb("VmRSS") / 1024), peakMb: round(kb("VmHWM") / 1024) };
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Timed commands: the builds, the publish

interface Timed {
  ok: boolean;
  wallSeconds: number;
  /** Peak RSS of the largest process of the command's tree (/usr/bin/time -v), else polled from /proc. */
  peakRssMb: number | null;
  userSeconds: number | null;
  systemSeconds: number | null;
  /** Every line of output, prefixed with the seconds since the start at which it arrived. */
  output: string;
  loadAverage: { start: string; end: string };
}

/** Peak RSS of a process by polling /proc (used when /usr/bin/time is missing). */
function pollPeakRss(pid: number): { stop: () => number | null } {
  let peakMb = 0;
  const timer = setInterval(() => (peakMb = Math.max(peakMb, memoryOf(pid)?.peakMb ?? 0)), 100);
  return {
    stop: () => {
      clearInterval(timer);
      return peakMb > 0 ? peakMb : null;
    },
  };
}

async function timed(args: string[], env: NodeJS.ProcessEnv, logFile: string): Promise<Timed> {
  const useTime = existsSync("/usr/bin/time");
  const start = loadAverage();
  const t0 = performance.now();
  const child = track(spawn(useTime ? "/usr/bin/time" : args[0]!, useTime ? ["-v", ...args] : args.slice(1), { cwd: CODE, env, stdio: ["ignore", "pipe", "pipe"] }));
  const poll = useTime ? null : pollPeakRss(child.pid!);
  const stamped: string[] = [];
  const partial = { out: "", err: "" };
  const take = (which: "out" | "err") => (d: Buffer) => {
    const at = ((performance.now() - t0) / 1000).toFixed(2).padStart(7);
    const lines = (partial[which] + d.toString()).split("\n");
    partial[which] = lines.pop()!;
    for (const l of lines) stamped.push(`[${at}s] ${l}`);
  };
  child.stdout!.on("data", take("out"));
  child.stderr!.on("data", take("err"));
  const code = await new Promise<number>((resolve) => {
    child.once("error", () => resolve(1));
    child.once("close", (c) => resolve(c ?? 1));
  });
  const wall = (performance.now() - t0) / 1000;
  for (const rest of [partial.out, partial.err]) if (rest) stamped.push(`[${wall.toFixed(2).padStart(7)}s] ${rest}`);
  const output = stamped.join("\n");
  writeFileSync(logFile, `${output}\n`);
  const num = (re: RegExp) => {
    const m = re.exec(output);
    return m ? Number(m[1]) : null;
  };
  const rssKb = num(/Maximum resident set size \(kbytes\): (\d+)/);
  const polled = poll?.stop() ?? null;
  return {
    ok: code === 0,
    wallSeconds: round(wall, 2),
    peakRssMb: rssKb !== null ? round(rssKb / 1024, 0) : polled,
    userSeconds: num(/User time \(seconds\): ([\d.]+)/),
    systemSeconds: num(/System time \(seconds\): ([\d.]+)/),
    output,
    loadAverage: { start, end: loadAverage() },
  };
}

/**
 * When each phase of the build ended, in seconds since the command started, from its stamped log:
 * prepare (content read, API bodies written: src/generate/site.ts), Astro's rendering of the pages,
 * then the astro:build:done hook's steps (src/generate/integration.ts).
 */
function buildPhases(output: string): Record<string, number | null> {
  const lines = output.split("\n");
  const index = (re: RegExp, from = 0) => lines.findIndex((l, i) => i >= from && re.test(l));
  const at = (re: RegExp, from = 0) => {
    const i = index(re, from);
    const m = i >= 0 ? /^\[\s*([\d.]+)s\]/.exec(lines[i]!) : null;
    return m ? Number(m[1]) : null;
  };
  const pages = index(/generating static routes/);
  return {
    prepared: at(/(clean|incremental) build: \d+/),
    pagesStarted: at(/generating static routes/),
    // Astro's "✓ Completed in" of its page generation (an earlier one closes "Collecting build info").
    pagesDone: pages < 0 ? null : at(/Completed in/, pages),
    searchIndex: at(/search index: \d+ files/),
    compressed: at(/compressed \d+ files/),
    manifest: at(/files with ETags/),
    counted: at(/files to upload/),
  };
}

/** The durations between the phases' ends: where a build's time goes. */
function phaseDurations(phases: Record<string, number | null>, wall: number): Record<string, number | null> {
  const d = (from: number | null, to: number | null) => (from !== null && to !== null ? round(to - from, 2) : null);
  return {
    "start + prepare": phases.prepared ?? null,
    "Astro before pages": d(phases.prepared ?? null, phases.pagesStarted ?? null),
    pages: d(phases.pagesStarted ?? null, phases.pagesDone ?? null),
    "search index": d(phases.pagesDone ?? null, phases.searchIndex ?? null),
    compress: d(phases.searchIndex ?? null, phases.compressed ?? null),
    manifest: d(phases.compressed ?? null, phases.manifest ?? null),
    "count + exit": d(phases.manifest ?? null, wall),
  };
}

// ---------------------------------------------------------------------------------------------
// Content and the clean build

interface ContentParams {
  episodes: number;
  seed: number;
  segments: number;
}

const paramsFile = (size: number) => path.join(dirOf(size), "content-params.json");

function contentMatches(size: number, want: ContentParams): boolean {
  try {
    const have = JSON.parse(readFileSync(paramsFile(size), "utf8")) as ContentParams;
    return have.episodes === want.episodes && have.seed === want.seed && have.segments === want.segments && existsSync(path.join(dirOf(size), "content/episodes"));
  } catch {
    return false;
  }
}

interface BuildFigures extends Omit<Timed, "output"> {
  episodes: number;
  segments: number;
  /** Seconds to write the synthetic content, or null when the same content was reused. */
  generateSeconds: number | null;
  contentMb: number | null;
  phases: Record<string, number | null>;
  files: number | null;
  distMb: number | null;
  /** `cp -r` of the built dist/ on the same disk: the cost of writing those files at all. */
  copySeconds: number | null;
  log: string;
  /** When the build ran, and at which commit (a build of an earlier run is reused for HTTP figures). */
  at: string;
  commit: string;
}

function duSize(named: string): { files: number | null; mb: number | null } {
  // The folder itself when `named` is a link (dist names its live build: docs/architecture.md#the-build).
  const dir = realpathSync(named);
  const du = spawnSync("du", ["-sb", dir], { encoding: "utf8" });
  const count = spawnSync("sh", ["-c", `find "${dir}" -type f | wc -l`], { encoding: "utf8" });
  return {
    mb: du.status === 0 ? round(Number(du.stdout.split(/\s/)[0]) / 1e6) : null,
    files: count.status === 0 ? Number(count.stdout.trim()) : null,
  };
}

function buildEnv(size: number, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const dir = dirOf(size);
  // Sizes past ~3,000 episodes exceed the free plan's files per deploy, which the build refuses by
  // default (src/generate/file-budget.ts); the bench measures the build, not a deploy.
  return {
    ...process.env,
    CONTENT_DIR: path.join(dir, "content"),
    ASTRO_TELEMETRY_DISABLED: "1",
    ASTRO_CACHE_DIR: path.join(dir, ".astro-cache"),
    ASSET_FILE_LIMIT: process.env.ASSET_FILE_LIMIT ?? "10000000",
    ...extra,
  };
}

/** Free disk under bench/.out against what a build of `size` needs (from the largest smaller build, else a guess). */
function diskCheck(size: number): { freeGb: number; needGb: number; ok: boolean } {
  const fs = statfsSync(OUT);
  const freeGb = round((fs.bavail * fs.bsize) / 1e9);
  let perEpisode = BYTES_PER_EPISODE_GUESS;
  const known = readdirSync(OUT)
    .map((d) => /^n(\d+)$/.exec(d)?.[1])
    .filter((d): d is string => d !== undefined)
    .map(Number)
    .filter((n) => n < size && n >= 1000)
    .sort((a, b) => b - a);
  for (const n of known) {
    const b = readBuildRecord(n);
    if (b?.distMb && b.contentMb) {
      perEpisode = ((b.distMb + b.contentMb) * 1e6) / n;
      break;
    }
  }
  // Room for a second dist/ beside the first: the `cp -r` anchor.
  const needGb = round((size * perEpisode * 1.6) / 1e9);
  return { freeGb, needGb, ok: freeGb > needGb };
}

const recordFile = (size: number) => path.join(dirOf(size), "build.json");

function readBuildRecord(size: number): BuildFigures | null {
  try {
    return JSON.parse(readFileSync(recordFile(size), "utf8")) as BuildFigures;
  } catch {
    return null;
  }
}

async function buildClean(size: number, segments: number, commit: string): Promise<BuildFigures> {
  const dir = dirOf(size);
  const content = path.join(dir, "content");
  const dist = path.join(dir, "dist");
  const want: ContentParams = { episodes: size, seed: 1, segments };
  let generateSeconds: number | null = null;
  if (!contentMatches(size, want)) {
    rmSync(paramsFile(size), { force: true });
    console.log(`  writing ${size} synthetic episodes (seed 1, ~${segments} segments per script): node scripts/synthetic-content.ts ${path.relative(ROOT, content)} ${size} --segments ${segments}`);
    const g0 = performance.now();
    writeSyntheticContent(content, size, { seed: 1, segments });
    generateSeconds = round((performance.now() - g0) / 1000);
    writeFileSync(paramsFile(size), JSON.stringify(want));
  }
  const contentMb = duSize(content).mb;
  rmSync(recordFile(size), { force: true });
  // The last dist/ is moved aside and deleted after the build and its copy: deleted before, its
  // inodes were freed seconds before the build allocates as many, which this machine's ext4 makes
  // slow (docs/performance.md, "Build: compressing in threads while building": 76.7 s instead of 45 s at 10,000).
  // dist is a link to its build, beside the folder of builds: both go.
  const old = `${dist}-old-${process.pid}`;
  if (existsSync(dist)) renameSync(dist, old);
  if (existsSync(`${dist}.builds`)) renameSync(`${dist}.builds`, `${old}.builds`);
  rmSync(path.join(dir, ".astro-cache"), { recursive: true, force: true });
  console.log(`  clean build of ${size}: BUILD_CLEAN=1 CONTENT_DIR=${path.relative(ROOT, content)} node node_modules/astro/bin/astro.mjs build --outDir ${path.relative(ROOT, dist)}`);
  const t = await timed([NODE, astro(), "build", "--outDir", dist], buildEnv(size, { BUILD_CLEAN: "1" }), path.join(dir, "build.log"));
  const { output, ...figures } = t;
  const { files, mb } = t.ok ? duSize(dist) : { files: null, mb: null };
  let copySeconds: number | null = null;
  if (t.ok) {
    const copy = path.join(dir, "dist-copy");
    rmSync(copy, { recursive: true, force: true });
    const c0 = performance.now();
    const cp = spawnSync("cp", ["-r", realpathSync(dist), copy]);
    copySeconds = cp.status === 0 ? round((performance.now() - c0) / 1000, 2) : null;
    rmSync(copy, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
  rmSync(`${old}.builds`, { recursive: true, force: true });
  const record: BuildFigures = {
    episodes: size,
    segments,
    generateSeconds,
    contentMb,
    ...figures,
    phases: phaseDurations(buildPhases(output), t.wallSeconds),
    files,
    distMb: mb,
    copySeconds,
    log: path.relative(ROOT, path.join(dir, "build.log")),
    at: new Date().toISOString(),
    commit,
  };
  if (t.ok) writeFileSync(recordFile(size), JSON.stringify(record, null, 2));
  return record;
}

// ---------------------------------------------------------------------------------------------
// Incremental: one episode added, the one-episode publish

interface IncrementalFigures {
  episodes: number;
  /** `astro build` after one episode folder was added; `changed` is what the build says it rebuilt. */
  addOne: (Omit<Timed, "output"> & { changed: string | null; phases: Record<string, number | null> }) | null;
  /** `node scripts/publish.ts --dry-run <folder>` (validate, measure the MP3, no write). */
  publishDryRun: Omit<Timed, "output"> | null;
  /** `node scripts/publish.ts --out-dir <dist> <folder>` in local mode: write the folder, then `npm run build`. */
  publish: (Omit<Timed, "output"> & { cleanBuild: boolean }) | null;
  /** The added folders removed again, built once more: the clean build's dist/ again. */
  removeTwo: (Omit<Timed, "output"> & { changed: string | null }) | null;
  notes: string[];
}

function changedLine(output: string): string | null {
  return /incremental build: [^\n]*|clean build: [^\n]*/.exec(output)?.[0] ?? null;
}

/** A fresh random UUID v4 (the new episodes must not clash with the synthetic ones). */
const newId = () => crypto.randomUUID();

async function incremental(size: number, segments: number): Promise<IncrementalFigures> {
  /** The build code's hash as the last build started: a build that starts with another one is clean. */
  let lastCode = codeHash();
  const dir = dirOf(size);
  const content = path.join(dir, "content");
  const episodes = path.join(content, "episodes");
  const dist = path.join(dir, "dist");
  const notes: string[] = [];
  const result: IncrementalFigures = { episodes: size, addOne: null, publishDryRun: null, publish: null, removeTwo: null, notes };
  const first = readdirSync(episodes).sort()[0]!;
  const addedFolders: string[] = [];
  const publishedFolders: string[] = [];
  const published = `${String(size + 2).padStart(6, "0")}-bench-published`;
  const sources = path.join(dir, "publish-source");
  rmSync(sources, { recursive: true, force: true });
  // The content is changed from here: a bench stopped midway writes it again next time.
  rmSync(paramsFile(size), { force: true });
  const strip = ({ output: _o, ...t }: Timed) => t;
  try {
    // 1. One episode folder more (a copy of the first, a new id, the next number, published a minute ago), built again.
    // The build is clean instead when its key changed (src/ edited meanwhile: docs/architecture.md#the-build);
    // then the same is measured once more, over the build that just ran.
    const episode = JSON.parse(readFileSync(path.join(episodes, first, "episode.json"), "utf8")) as Record<string, unknown>;
    const now = new Date(Date.now() - 60_000).toISOString();
    for (let attempt = 1; attempt <= 2; attempt++) {
      const folder = path.join(episodes, `${String(size + 1).padStart(6, "0")}-bench-added${attempt === 1 ? "" : `-${attempt}`}`);
      mkdirSync(folder);
      const id = newId();
      writeFileSync(path.join(folder, "episode.json"), JSON.stringify({ ...episode, id, episodeNumber: size + 2 + attempt, title: "Bench: one episode added", status: "published", publishedAt: now, discoveredAt: now }, null, 2));
      cpSync(path.join(episodes, first, "script.json"), path.join(folder, "script.json"));
      addedFolders.push(folder);
      console.log(`  incremental (${size}): added ${path.relative(ROOT, folder)}, then node node_modules/astro/bin/astro.mjs build --outDir ${path.relative(ROOT, dist)}`);
      const log = path.join(dir, `build-add-one${attempt === 1 ? "" : `-${attempt}`}.log`);
      lastCode = codeHash();
      const t = await timed([NODE, astro(), "build", "--outDir", dist], buildEnv(size), log);
      result.addOne = { ...strip(t), changed: changedLine(t.output), phases: phaseDurations(buildPhases(t.output), t.wallSeconds) };
      if (!t.ok) notes.push(`incremental build failed: see ${path.relative(ROOT, log)}`);
      if (!t.ok || !/^clean build/.test(result.addOne.changed ?? "")) break;
      notes.push(`the +1 build ${attempt} was clean (its key changed: the build code was edited meanwhile)${attempt === 1 ? "; measured again" : ""}`);
    }

    // 2. The one-episode publish of a folder with an MP3 (local mode: the MP3 is copied to dist/media).
    // Its build's log (scripts/build.ts) is not read: whether it was clean is told by the build
    // code's hash, taken as the builds start (the build's key includes it); a clean one is measured once more.
    const { episodeNumber: _n, audio: _a, durationSeconds: _d, ...rest } = episode;
    const publishEnv = buildEnv(size, { AUDIO_BACKEND: "local", INIT_CWD: ROOT });
    const publishScript = path.join(CODE, "scripts/publish.ts");
    if (!existsSync(publishScript)) notes.push("scripts/publish.ts is missing: no publish figures");
    for (let attempt = 1; attempt <= 2 && existsSync(publishScript); attempt++) {
      const name = `${published}${attempt === 1 ? "" : `-${attempt}`}`;
      const source = path.join(sources, name);
      mkdirSync(source, { recursive: true });
      writeFileSync(path.join(source, "episode.json"), JSON.stringify({ ...rest, id: newId(), title: "Bench: one episode published", status: "published", publishedAt: now, discoveredAt: now }, null, 2));
      cpSync(path.join(episodes, first, "script.json"), path.join(source, "script.json"));
      cpSync(path.join(ROOT, "tests/fixtures/short.mp3"), path.join(source, "audio.mp3"));
      publishedFolders.push(path.join(episodes, name));
      console.log(`  publish (${size}): node scripts/publish.ts --dry-run ${path.relative(ROOT, source)}`);
      const dry = await timed([NODE, publishScript, "--dry-run", source], publishEnv, path.join(dir, "publish-dry-run.log"));
      result.publishDryRun = strip(dry);
      if (!dry.ok) {
        notes.push(`publish --dry-run failed: ${dry.output.split("\n").find((l) => /publish:/.test(l)) ?? "see publish-dry-run.log"}`);
        break;
      }
      console.log(`  publish (${size}): node scripts/publish.ts --out-dir ${path.relative(ROOT, dist)} ${path.relative(ROOT, source)}`);
      const code = codeHash();
      const full = await timed([NODE, publishScript, "--out-dir", dist, source], publishEnv, path.join(dir, "publish.log"));
      result.publish = { ...strip(full), cleanBuild: code !== lastCode };
      lastCode = code;
      if (!full.ok) {
        notes.push(`publish failed: ${full.output.split("\n").find((l) => /publish:/.test(l)) ?? "see publish.log"}`);
        break;
      }
      if (!result.publish.cleanBuild) break;
      notes.push(`publish ${attempt}: its build was clean (the build code was edited meanwhile)${attempt === 1 ? "; measured again" : ""}`);
    }
  } finally {
    // 3. Back to the synthetic content, and a build of it: the HTTP figures are of the same episodes as the clean build.
    for (const f of [...addedFolders, ...publishedFolders]) rmSync(f, { recursive: true, force: true });
    rmSync(sources, { recursive: true, force: true });
    console.log(`  incremental (${size}): the added folders removed, built again`);
    const t = await timed([NODE, astro(), "build", "--outDir", dist], buildEnv(size), path.join(dir, "build-remove.log"));
    result.removeTwo = { ...strip(t), changed: changedLine(t.output) };
    if (t.ok) writeFileSync(paramsFile(size), JSON.stringify({ episodes: size, seed: 1, segments }));
    else notes.push("the build after removing the added folders failed: the next bench writes this size's content again");
  }
  return result;
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
function wrk(load: { threads: number; connections: number }, url: string, seconds: number, script?: string): Promise<string> {
  const args = [`-t${load.threads}`, `-c${load.connections}`, `-d${seconds}s`, "--latency", ...(script ? ["-s", script] : []), url];
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

async function waitFor(url: string, child: ChildProcess, what: string, timeoutMs = 300_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      return;
    } catch {
      await sleep(200);
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
async function writeListWalk(shimUrl: string, file: string): Promise<{ pages: number; bytes: number; paths: string[] }> {
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
  return { pages: paths.length, bytes, paths };
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
  const { episodes, perEpisode } = filesPerEpisode(dist, files);
  return { uploadFiles: files, indexEpisodes: episodes, filesPerEpisode: perEpisode };
}

/** Bytes on the wire of one body per Accept-Encoding, and node:zlib's output for the same bytes (the anchor). */
interface WireFigures {
  what: string;
  path: string;
  identity: number | null;
  gzip: { bytes: number; coding: string | null } | null;
  br: { bytes: number; coding: string | null } | null;
  /** node:zlib at its defaults (gzip level 6, brotli quality 11) on the identity bytes. */
  zlibGzip: number | null;
  zlibBr: number | null;
}

/** A GET with node:http, which (unlike fetch) hands over the body as sent: its length on the wire, its Content-Encoding. */
function rawGet(url: string, acceptEncoding: string): Promise<{ status: number; coding: string | null; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, coding: (res.headers["content-encoding"] as string | undefined) ?? null, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

async function wireFigures(shimUrl: string, notes: string[]): Promise<WireFigures[]> {
  const bodies: [string, string][] = [
    ["episode JSON", EPISODE_PATH],
    ["list page, limit 20", LIST_PATH],
    ["list page, limit 50", "/v1/episodes?limit=50"],
    ["episode page (HTML)", "/episodes/42"],
    ["transcript", `${EPISODE_PATH}/transcript`],
  ];
  const out: WireFigures[] = [];
  for (const [what, p] of bodies) {
    const plain = await rawGet(`${shimUrl}${p}`, "identity");
    if (plain.status !== 200) {
      notes.push(`bytes on the wire: ${p} answered ${plain.status}`);
      out.push({ what, path: p, identity: null, gzip: null, br: null, zlibGzip: null, zlibBr: null });
      continue;
    }
    const coded = async (coding: string) => {
      const r = await rawGet(`${shimUrl}${p}`, coding);
      return r.status === 200 ? { bytes: r.body.length, coding: r.coding } : null;
    };
    out.push({
      what,
      path: p,
      identity: plain.body.length,
      gzip: await coded("gzip"),
      br: await coded("br"),
      zlibGzip: gzipSync(plain.body).length,
      zlibBr: brotliCompressSync(plain.body).length,
    });
  }
  if (out.every((w) => w.gzip?.coding == null && w.br?.coding == null)) notes.push("the shim compressed none of these bodies (no Content-Encoding): compression is not in this tree yet");
  return out;
}

/** Words and phrases of the synthetic content (scripts/synthetic-content.ts), asked of search_episodes over POST /mcp. */
const SEARCH_QUERIES = ["regulator", "inference", "battery life", "the threat model", "open weights release", "telescope", "grid operator", "supply chains", "privacy defaults", "maintainers", "benchmark", "vulnerability", "quietly breaks", "data center", "browser vendor"];

interface McpSearchFigures {
  queries: number;
  p50Ms: number;
  p95Ms: number;
}

/** search_episodes through the shim's MCP endpoint, one request at a time; null (with a note) when it does not answer. */
async function mcpSearch(shimUrl: string, notes: string[]): Promise<McpSearchFigures | null> {
  const ask = async (query: string, id: number) => {
    const res = await fetch(`${shimUrl}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_episodes", arguments: { query, limit: 10 } } }),
    });
    const text = await res.text();
    return { status: res.status, text };
  };
  const probe = await ask(SEARCH_QUERIES[0]!, 0).catch((e: Error) => ({ status: 0, text: e.message }));
  if (probe.status !== 200 || /"isError":\s*true/.test(probe.text) || !/"results"/.test(probe.text)) {
    notes.push(`search over POST /mcp not measured: ${probe.status} ${probe.text.slice(0, 160)}`);
    return null;
  }
  const times: number[] = [];
  for (let i = 0; i < 3 * SEARCH_QUERIES.length; i++) {
    const t = performance.now();
    await ask(SEARCH_QUERIES[i % SEARCH_QUERIES.length]!, i + 1);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => round(times[Math.min(times.length - 1, Math.floor(p * times.length))]!, 2);
  return { queries: times.length, p50Ms: q(0.5), p95Ms: q(0.95) };
}

/** One connection, one request at a time: latency without queueing, the figure that must stay flat as the show grows. */
interface LatencyFigures {
  target: string;
  p50Ms: number | null;
  p99Ms: number | null;
  requestsPerSecond: number | null;
}

interface SizeFigures {
  episodes: number;
  /** The build these figures are of (this run's, or an earlier run's with the same content parameters). */
  build: { at: string; commit: string } | null;
  deploy: DeployFigures | null;
  notes: string[];
  sameBody: boolean | null;
  /** The shim's resident memory (VmRSS, and VmHWM its peak so far), in MB. */
  shimMemory: Record<string, { rssMb: number; peakMb: number } | null>;
  /** The same of the bare node:http server: the floor of a Node process serving bytes. */
  rawMemory: { rssMb: number; peakMb: number } | null;
  listWalk: { pages: number; mb: number } | null;
  latency: LatencyFigures[];
  wire: WireFigures[];
  search: McpSearchFigures | null;
  /** wrk throughput (sizes 1,000–10,000 or --serve-size). */
  wrk: WrkFigures[];
}

async function sizeFigures(o: Options, size: number, withWrk: boolean, withEdge: boolean): Promise<SizeFigures> {
  const dir = dirOf(size);
  const dist = path.join(dir, "dist");
  const notes: string[] = [];
  const record = readBuildRecord(size);
  const figures: SizeFigures = {
    episodes: size,
    build: record && { at: record.at, commit: record.commit },
    deploy: null,
    notes,
    sameBody: null,
    shimMemory: {},
    rawMemory: null,
    listWalk: null,
    latency: [],
    wire: [],
    search: null,
    wrk: [],
  };
  if (!existsSync(path.join(dist, EPISODE_FILE))) throw new Error(`${path.relative(ROOT, dist)} has no ${EPISODE_FILE}: build ${size} first`);
  const manifest = JSON.parse(readFileSync(path.join(dist, "_api/manifest.json"), "utf8")) as Record<string, string>;
  const [shimPort, nginxPort, rawPort, basePort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  let shim: ChildProcess | null = null;
  let base: ChildProcess | null = null;
  let nginx: ChildProcess | null = null;
  let raw: ChildProcess | null = null;
  let edge: EdgeServer | null = null;
  try {
    figures.deploy = await deployFigures(dist);
  } catch (e) {
    notes.push(`deploy file count could not be taken: ${(e as Error).message}`);
  }
  try {
    // serve.ts serves ./dist of its working directory; limits raised so no 429 is measured.
    const shimEnv = (port: number) => ({
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      RATE_LIMIT_METADATA_PER_MIN: "1000000000",
      RATE_LIMIT_AUDIO_PER_MIN: "1000000000",
    });
    shim = startChild("shim", NODE, [serveScript(ROOT)], { cwd: dir, env: shimEnv(shimPort) }, path.join(dir, "serve.log"));
    if (o.baseline !== null && withWrk) {
      base = startChild("baseline shim", NODE, [serveScript(o.baseline)], { cwd: dir, env: shimEnv(basePort) }, path.join(dir, "serve-baseline.log"));
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
    if (withEdge) {
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
    figures.shimMemory.afterStart = memoryOf(shim.pid);

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
    figures.sameBody = bodies.every((b) => b.status === 200 && b.body.equals(bodies[0]!.body));
    const list = await fetch(`${shimUrl}${LIST_PATH}`);
    const listBytes = Buffer.from(await list.arrayBuffer());
    const listBody = JSON.parse(listBytes.toString("utf8")) as { episodes?: unknown[] };
    // nginx serves the same bytes (bench/nginx.conf): the anchor of the list page's ratio.
    writeFileSync(path.join(ngDir, NGINX_LIST_FILE), listBytes);
    if (!figures.sameBody) notes.push(`bodies differ or not 200: ${bodies.map((b) => `${b.status}/${b.body.length} B`).join(", ")}`);
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
    const walkScript = path.join(dir, "list-walk.lua");
    const walk = await writeListWalk(shimUrl, walkScript);
    figures.listWalk = { pages: walk.pages, mb: round(walk.bytes / 1e6) };
    figures.shimMemory.afterWalk = memoryOf(shim.pid);

    // Latency on one connection: the first page, a deep page (90% of the way down), the whole walk; nginx's static file as the anchor.
    const deep = walk.paths[Math.floor(walk.paths.length * 0.9)]!;
    const one = { threads: 1, connections: 1 };
    const latencyTargets: [string, string, string?][] = [
      ["nginx, static file", `${nginxUrl}/${EPISODE_FILE}`],
      ["shim, one episode", `${shimUrl}${EPISODE_PATH}`],
      ["shim, first list page", `${shimUrl}${LIST_PATH}`],
      ["shim, deep list page", `${shimUrl}${deep}`],
      ["shim, list walk", shimUrl, walkScript],
    ];
    const seconds = Math.min(o.duration, 5);
    for (const [target, url, script] of latencyTargets) {
      await wrk(one, url, 1, script);
      const w = parseWrk(target, url, await wrk(one, url, seconds, script));
      figures.latency.push({ target, p50Ms: w.latencyP50Ms, p99Ms: w.latencyP99Ms, requestsPerSecond: w.requestsPerSecond });
    }
    figures.shimMemory.afterLatency = memoryOf(shim.pid);
    figures.wire = await wireFigures(shimUrl, notes);
    figures.search = await mcpSearch(shimUrl, notes);
    figures.shimMemory.afterSearch = memoryOf(shim.pid);

    if (withWrk) {
      // [name, url, wrk script]
      const targets: [string, string, string?][] = [
        ["nginx, static file", `${nginxUrl}/${EPISODE_FILE}`],
        ["nginx, list page bytes", `${nginxUrl}/${NGINX_LIST_FILE}`],
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
      for (let r = 1; r <= o.rounds; r++) {
        if (o.rounds > 1) console.log(`  round ${r} of ${o.rounds}`);
        for (const [i, [target, url, script]] of targets.entries()) {
          if (r === 1) {
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
        figures.wrk.push(o.rounds > 1 ? { ...median, rounds: r.map((x) => x.requestsPerSecond) } : median);
      }
      figures.shimMemory.afterLoad = memoryOf(shim.pid);
    }
    figures.rawMemory = memoryOf(raw.pid);
  } finally {
    await Promise.all([stop(shim), stop(nginx), stop(raw), stop(base), edge?.close().catch(() => {})]);
  }
  return figures;
}

// ---------------------------------------------------------------------------------------------
// Search: scripts/search-bench.ts, each size in its own process (its RSS is the index's, not this bench's)

async function searchBenchFigures(size: number, notes: string[]): Promise<SearchBenchFigures | null> {
  const script = path.join(ROOT, "scripts/search-bench.ts");
  if (!existsSync(script)) {
    // HOOK: scripts/search-bench.ts (searchBench) is not in this tree yet.
    notes.push("scripts/search-bench.ts is missing: no search figures");
    return null;
  }
  console.log(`  node --expose-gc scripts/search-bench.ts --sizes ${size}`);
  const t = await timed([NODE, "--expose-gc", script, "--sizes", String(size)], process.env, path.join(OUT, `search-bench-${size}.log`));
  const line = t.output.split("\n").find((l) => /\{"episodes":/.test(l));
  if (!t.ok || line === undefined) {
    notes.push(`search bench of ${size} failed: see bench/.out/search-bench-${size}.log`);
    return null;
  }
  return JSON.parse(line.slice(line.indexOf("{"))) as SearchBenchFigures;
}

// ---------------------------------------------------------------------------------------------
// Report

/** A table row: the first column left-aligned, figures right-aligned. */
function pad(cells: (string | number | null | undefined)[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? String(c ?? "–").padEnd(widths[i]!) : String(c ?? "–").padStart(widths[i]!))).join("  ");
}

function ratio(a: number | null | undefined, b: number | null | undefined, digits = 2): string {
  return a && b ? (a / b).toFixed(digits) : "–";
}

/** One line of the summary: a figure beside issue 10's target for it and its anchor of the same run. */
interface TargetRow {
  figure: string;
  measured: string;
  target: string;
  anchor: string;
  /** Whether the target is met; null when there is no target or no figure. */
  met: boolean | null;
}

const verdict = (met: boolean | null) => (met === null ? "" : met ? "met" : "MISSED");

function printTable(title: string, header: string[], rows: (string | number | null | undefined)[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i] ?? "–").length)));
  console.log(`\n${title}`);
  console.log(pad(header, widths));
  for (const r of rows) console.log(pad(r, widths));
}

function report(
  o: Options,
  builds: BuildFigures[],
  incrementals: IncrementalFigures[],
  sizes: SizeFigures[],
  searches: SearchBenchFigures[],
): TargetRow[] {
  const rows: TargetRow[] = [];
  const anchorBuild = builds.find((b) => b.episodes === ANCHOR_SIZE && b.ok) ?? readBuildRecord(ANCHOR_SIZE);
  const anchorText = anchorBuild ? `${ANCHOR_SIZE}-episode build ${anchorBuild.wallSeconds} s, ${anchorBuild.peakRssMb} MB` : `no ${ANCHOR_SIZE}-episode build`;

  if (builds.length > 0) {
    printTable(
      "Build (clean): synthetic content → astro build (wall clock; peak RSS of the largest process; `cp -r` of the same dist/ as the anchor)",
      ["episodes", "wall s", "s/1,000", "peak RSS MB", "user s", "sys s", "files", "dist MB", "content MB", "cp -r s", "load at start"],
      builds.map((b) => [
        b.episodes,
        b.ok ? b.wallSeconds : "FAILED",
        round((b.wallSeconds * 1000) / b.episodes, 2),
        b.peakRssMb,
        b.userSeconds,
        b.systemSeconds,
        b.files,
        b.distMb,
        b.contentMb,
        b.copySeconds,
        b.loadAverage.start,
      ]),
    );
    const phaseNames = Object.keys(builds[0]!.phases);
    printTable("Build phases (s, from the arrival of the build's log lines)", ["episodes", ...phaseNames], builds.map((b) => [b.episodes, ...phaseNames.map((p) => b.phases[p])]));
    for (const b of builds) {
      const perThousand = (b.wallSeconds * 1000) / b.episodes;
      const budget = b.episodes === TARGET.buildAt;
      rows.push({
        figure: `clean build, ${b.episodes.toLocaleString("en")} episodes`,
        measured: b.ok ? `${b.wallSeconds} s (${round(perThousand, 2)} s/1,000), ${b.peakRssMb} MB` : "FAILED",
        target:
          b.episodes === TARGET.buildAt
            ? `≤ ${(TARGET.buildSecondsPer1000 * TARGET.buildAt) / 1000} s, ≤ ${TARGET.buildRssMb} MB`
            : b.episodes >= 100_000
              ? "completes; time and memory recorded"
              : `(≤ ${TARGET.buildSecondsPer1000} s/1,000 at ${TARGET.buildAt.toLocaleString("en")})`,
        anchor: `cp -r of its dist/ ${b.copySeconds ?? "–"} s${b.episodes === ANCHOR_SIZE ? "" : `; ${anchorText}`}`,
        met: !b.ok ? false : budget ? perThousand <= TARGET.buildSecondsPer1000 && (b.peakRssMb ?? Infinity) <= TARGET.buildRssMb : b.episodes >= 100_000 ? true : null,
      });
    }
  }

  if (incrementals.length > 0) {
    const t = (x: Omit<Timed, "output"> | null) => (x === null ? "–" : x.ok ? `${x.wallSeconds} s, ${x.peakRssMb} MB` : "FAILED");
    printTable(
      "Incremental: one episode added and built; the one-episode publish; the added episodes removed and built (wall, peak RSS)",
      ["episodes", "+1 episode build", "what the build said", "publish --dry-run", "publish (local, builds)", "added ones removed, build"],
      incrementals.map((i) => [i.episodes, t(i.addOne), i.addOne?.changed ?? "–", t(i.publishDryRun), `${t(i.publish)}${i.publish?.cleanBuild ? " (a clean build)" : ""}`, t(i.removeTwo)]),
    );
    for (const i of incrementals) {
      for (const n of i.notes) console.log(`  ${i.episodes}: ${n}`);
      if (i.addOne?.phases) console.log(`  ${i.episodes}: phases of the +1 build (s): ${JSON.stringify(i.addOne.phases)}`);
      const clean = builds.find((b) => b.episodes === i.episodes);
      const anchor = `clean build ${clean?.wallSeconds ?? "–"} s; ${anchorText}`;
      const target = i.episodes === TARGET.buildAt ? `≤ ${TARGET.incrementalSeconds} s` : `(≤ ${TARGET.incrementalSeconds} s at ${TARGET.buildAt.toLocaleString("en")})`;
      const within = (x: Omit<Timed, "output"> | null) => (x === null || !x.ok ? (x === null ? null : false) : i.episodes === TARGET.buildAt ? x.wallSeconds <= TARGET.incrementalSeconds : null);
      rows.push({ figure: `build after +1 episode, ${i.episodes.toLocaleString("en")}`, measured: t(i.addOne), target, anchor, met: within(i.addOne) });
      rows.push({ figure: `publish --dry-run, ${i.episodes.toLocaleString("en")}`, measured: t(i.publishDryRun), target: "–", anchor, met: null });
      rows.push({ figure: `publish (local, with its build), ${i.episodes.toLocaleString("en")}`, measured: t(i.publish), target: `(its build ≤ ${TARGET.incrementalSeconds} s)`, anchor, met: null });
    }
  }

  for (const s of sizes) {
    if (s.wrk.length === 0) continue;
    console.log(
      `\nHTTP: wrk -t${o.threads} -c${o.connections} -d${o.duration}s against the ${s.episodes}-episode build (wrk and servers share the machine's cores)` +
        (o.rounds > 1 ? `; ${o.rounds} rounds, each target's median round` : "") +
        (o.baseline ? `; baseline shim from ${o.baseline}` : ""),
    );
    for (const n of s.notes) console.log(`  ${n}`);
    console.log(`  the servers answered the same episode bytes: ${s.sameBody}`);
    const w = [36, 10, 9, 9, 9, 9, 8];
    console.log(pad(["target", "req/s", "avg ms", "p50 ms", "p99 ms", "max ms", "non-2xx"], w));
    for (const r of s.wrk) {
      console.log(pad([r.target, r.requestsPerSecond, r.latencyAvgMs, r.latencyP50Ms, r.latencyP99Ms, r.latencyMaxMs, r.non2xx], w));
      if (r.socketErrors) console.log(`  ${r.target}: ${r.socketErrors}`);
      if (r.rounds) console.log(`    rounds: ${r.rounds.join(", ")} req/s`);
    }
    const by = (t: string) => s.wrk.find((r) => r.target.startsWith(t))?.requestsPerSecond;
    const nginx = by("nginx, static");
    const nginxList = by("nginx, list");
    const raw = by("node:http");
    const ep = by("shim, one");
    const list = by("shim, list page");
    console.log(
      `ratios (req/s), each against nginx serving the same bytes: shim episode / nginx = ${ratio(ep, nginx)}, shim list / nginx = ${ratio(list, nginxList)}, ` +
        `shim episode / node:http = ${ratio(ep, raw)}, node:http / nginx = ${ratio(raw, nginx)}`,
    );
    if (s.wrk.some((r) => r.target.startsWith("edge, "))) {
      const edgeEp = by("edge, one");
      const edgeList = by("edge, list page");
      console.log(
        `edge (workerd) ratios (req/s): edge episode / nginx = ${ratio(edgeEp, nginx, 3)}, edge list / nginx = ${ratio(edgeList, nginxList, 3)}, ` +
          `edge episode / Node shim episode = ${ratio(edgeEp, ep, 3)}, edge list / Node shim list = ${ratio(edgeList, list, 3)}, ` +
          `edge episode / edge asset layer alone = ${ratio(edgeEp, by("edge, asset layer"))}`,
      );
    }
    if (o.baseline) {
      console.log(
        `against the baseline shim: episode ×${ratio(ep, by("baseline shim, one"))}, list page ×${ratio(list, by("baseline shim, list page"))}, list walk ×${ratio(by("shim, list walk"), by("baseline shim, list walk"))}`,
      );
    }
    const n = s.episodes.toLocaleString("en");
    rows.push({ figure: `shim episode / nginx, ${n}`, measured: ratio(ep, nginx), target: `≥ ${TARGET.episodeVsNginx}`, anchor: `nginx ${nginx ?? "–"} req/s`, met: ep && nginx ? ep / nginx >= TARGET.episodeVsNginx : null });
    rows.push({ figure: `shim list page / nginx, ${n}`, measured: ratio(list, nginxList), target: `≥ ${TARGET.listVsNginx}`, anchor: `nginx ${nginxList ?? "–"} req/s (same bytes)`, met: list && nginxList ? list / nginxList >= TARGET.listVsNginx : null });
  }
  for (const s of sizes) {
    if (s.deploy) console.log(`deploy of the ${s.episodes}-episode build (src/generate/file-budget.ts): ${s.deploy.uploadFiles} files to upload for ${s.deploy.indexEpisodes} episodes in the index = ${s.deploy.filesPerEpisode} files per episode`);
  }

  if (sizes.length > 0) {
    const targets = ["nginx, static file", "shim, one episode", "shim, first list page", "shim, deep list page", "shim, list walk"];
    const base = sizes.find((s) => s.episodes === ANCHOR_SIZE);
    const p50 = (s: SizeFigures | undefined, t: string) => s?.latency.find((l) => l.target === t)?.p50Ms ?? null;
    printTable(
      `List latency on one connection (wrk -t1 -c1, p50 ms; ×: against the ${ANCHOR_SIZE}-episode build; target ≤ ${TARGET.listFlat}× up to 100,000)`,
      ["episodes", ...targets, "walk pages"],
      [...sizes.map((s) => [s.episodes, ...targets.map((t) => `${p50(s, t) ?? "–"} (×${ratio(p50(s, t), p50(base, t))})`), s.listWalk?.pages]), ...(sizes.some((s) => s.episodes === 100_000) ? [] : [[100_000, "not built"]])],
    );
    for (const s of sizes) {
      if (s.episodes === ANCHOR_SIZE) continue;
      // The sizes are measured one after the other, minutes apart, on a shared machine: the same
      // ratio taken against nginx's static file of each row shows how much of it is the load.
      const nginxHere = p50(s, "nginx, static file");
      const nginxBase = p50(base, "nginx, static file");
      for (const t of ["shim, first list page", "shim, deep list page", "shim, list walk"]) {
        const a = p50(s, t);
        const b = p50(base, t);
        const besideNginx = a && b && nginxHere && nginxBase ? ratio(a / nginxHere, b / nginxBase) : "–";
        rows.push({
          figure: `${t} p50, ${s.episodes.toLocaleString("en")}`,
          measured: `${a ?? "–"} ms (×${ratio(a, b)}; ×${besideNginx} of nginx's)`,
          target: `≤ ${TARGET.listFlat}× the ${ANCHOR_SIZE}-episode p50`,
          anchor: `${b ?? "–"} ms at ${ANCHOR_SIZE}; nginx static ${nginxHere ?? "–"} ms`,
          met: a !== null && b !== null ? a / b <= TARGET.listFlat : null,
        });
      }
    }
    const phases = ["afterStart", "afterWalk", "afterLatency", "afterSearch", "afterLoad"];
    const mem = (m: { rssMb: number; peakMb: number } | null | undefined) => (m ? `${m.rssMb} / ${m.peakMb}` : "–");
    printTable(
      `The shim's resident memory, VmRSS / VmHWM in MB (target ≤ ${TARGET.serverRssMb} MB with 100,000 episodes; anchor: the bare node:http server)`,
      ["episodes", ...phases.map((p) => p.replace("after", "after ").toLowerCase()), "node:http"],
      sizes.map((s) => [s.episodes, ...phases.map((p) => mem(s.shimMemory[p])), mem(s.rawMemory)]),
    );
    for (const s of sizes) {
      const peak = Math.max(...Object.values(s.shimMemory).map((m) => m?.peakMb ?? 0));
      rows.push({
        figure: `shim peak RSS, ${s.episodes.toLocaleString("en")}`,
        measured: peak > 0 ? `${peak} MB` : "–",
        target: s.episodes >= 100_000 ? `≤ ${TARGET.serverRssMb} MB` : `(≤ ${TARGET.serverRssMb} MB at 100,000)`,
        anchor: `node:http ${s.rawMemory?.rssMb ?? "–"} MB`,
        met: peak > 0 ? (s.episodes >= 100_000 ? peak <= TARGET.serverRssMb : peak <= TARGET.serverRssMb ? null : false) : null,
      });
    }
    const wireSize = [...sizes].reverse().find((s) => s.wire.length > 0 && s.episodes <= WRK_SIZES.max);
    if (wireSize) {
      const c = (x: { bytes: number; coding: string | null } | null, plain: number | null) => (x === null ? "–" : `${x.bytes} (${x.coding ?? "identity"}, ×${ratio(x.bytes, plain, 3)})`);
      printTable(
        `Bytes on the wire from the Node shim (${wireSize.episodes}-episode build) by Accept-Encoding; anchor: node:zlib's gzip (6) and brotli (11) of the same bytes`,
        ["body", "identity B", "gzip B", "br B", "zlib gzip B", "zlib br B"],
        wireSize.wire.map((w) => [`${w.what} ${w.path}`, w.identity, c(w.gzip, w.identity), c(w.br, w.identity), w.zlibGzip, w.zlibBr]),
      );
      for (const w of wireSize.wire) {
        rows.push({
          figure: `bytes: ${w.what}`,
          measured: `${w.identity ?? "–"} B; br ${w.br?.coding === "br" ? w.br.bytes : "–"}, gzip ${w.gzip?.coding === "gzip" ? w.gzip.bytes : "–"}`,
          target: "smaller with compression",
          anchor: `zlib br ${w.zlibBr ?? "–"}, gzip ${w.zlibGzip ?? "–"}`,
          met: w.identity === null ? null : w.br?.coding === "br" || w.gzip?.coding === "gzip",
        });
      }
    }
    for (const s of sizes) {
      if (s.deploy) rows.push({ figure: `deploy files per episode, ${s.episodes.toLocaleString("en")}`, measured: String(s.deploy.filesPerEpisode), target: "–", anchor: `${s.deploy.uploadFiles} files, ${s.deploy.indexEpisodes} episodes`, met: null });
    }
  }

  const mcp = sizes.filter((s) => s.search !== null);
  if (searches.length > 0 || mcp.length > 0) {
    printTable(
      "Search: scripts/search-bench.ts (synthetic ~20 KB transcripts, its own process) and search_episodes over the shim's POST /mcp (one request at a time)",
      ["episodes", "bench p50 ms", "bench p95 ms", "bench cpu p50 ms", "bench RSS MB", "index MB", "/mcp p50 ms", "/mcp p95 ms", "shim RSS after MB"],
      [...new Set([...searches.map((x) => x.episodes), ...mcp.map((s) => s.episodes)])]
        .sort((a, b) => a - b)
        .map((n) => {
          const b = searches.find((x) => x.episodes === n);
          const s = sizes.find((x) => x.episodes === n);
          return [n, b?.queryP50Ms, b?.queryP95Ms, b?.queryCpuP50Ms, b?.queryRssMb, b?.indexMb, s?.search?.p50Ms, s?.search?.p95Ms, s?.shimMemory.afterSearch?.rssMb];
        }),
    );
    for (const b of searches) {
      const s = sizes.find((x) => x.episodes === b.episodes);
      rows.push({
        figure: `search p50, ${b.episodes.toLocaleString("en")}`,
        measured: `${b.queryP50Ms} ms (bench), ${s?.search?.p50Ms ?? "–"} ms (/mcp); ${b.queryRssMb} MB`,
        target: "– (none in the issue)",
        anchor: `shim episode p50 ${s?.latency.find((l) => l.target === "shim, one episode")?.p50Ms ?? "–"} ms`,
        met: null,
      });
    }
  }

  if (rows.length > 0) {
    printTable("Every figure beside its target and anchor", ["figure", "measured", "target", "anchor", ""], rows.map((r) => [r.figure, r.measured, r.target, r.anchor, verdict(r.met)]));
  }
  return rows;
}

/** Sizes with a finished build of this content (a build record, a dist/ with its index). */
function builtSizes(segments: number): number[] {
  if (!existsSync(OUT)) return [];
  return readdirSync(OUT)
    .map((d) => Number(/^n(\d+)$/.exec(d)?.[1] ?? NaN))
    .filter((n) => Number.isInteger(n) && readBuildRecord(n)?.segments === segments && existsSync(path.join(dirOf(n), "dist", EPISODE_FILE)))
    .sort((a, b) => a - b);
}

async function main(o: Options): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  if (o.tree !== null) CODE = o.tree;
  const cpu = os.cpus();
  const machine = `${cpu.length} × ${cpu[0]?.model ?? "cpu"}, ${round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
  const startedAt = new Date().toISOString();
  const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).stdout.trim() || "unknown";
  const dirty = spawnSync("git", ["status", "--porcelain", "--", "src", "functions", "astro.config.mjs"], { cwd: ROOT, encoding: "utf8" }).stdout.trim() !== "";
  const loadAtStart = loadAverage();
  console.log(`bench ${startedAt} at ${commit}${dirty ? " (+ uncommitted changes in src/functions)" : ""}${o.tree ? `; builds with the code of ${o.tree}` : ""}\nmachine: ${machine}\nload average at start: ${loadAtStart}\n`);

  const builds: BuildFigures[] = [];
  const incrementals: IncrementalFigures[] = [];
  const notes: string[] = [];
  if (o.build) {
    console.log(`Build (~${o.segments} segments per script)`);
    for (const size of [...new Set([ANCHOR_SIZE, ...o.sizes])].sort((a, b) => a - b)) {
      if (size >= 50_000) {
        const disk = diskCheck(size);
        console.log(`  ${size} episodes: free disk under bench/.out ${disk.freeGb} GB, this size needs ~${disk.needGb} GB (content, dist/, its copy)`);
        if (!disk.ok) {
          console.log(`  skipped: not enough free disk for ${size}`);
          notes.push(`build of ${size} skipped: ${disk.freeGb} GB free, ~${disk.needGb} GB needed`);
          continue;
        }
      }
      try {
        const b = await buildClean(size, o.segments, commit);
        builds.push(b);
        console.log(`  → ${b.ok ? "ok" : "FAILED"} in ${b.wallSeconds} s, peak RSS ${b.peakRssMb ?? "?"} MB (log: ${b.log})`);
        if (b.ok && o.incremental && size !== ANCHOR_SIZE) {
          const inc = await incremental(size, o.segments);
          incrementals.push(inc);
          console.log(`  → +1 episode: ${inc.addOne?.wallSeconds ?? "–"} s; publish --dry-run ${inc.publishDryRun?.wallSeconds ?? "–"} s; publish ${inc.publish?.wallSeconds ?? "–"} s`);
        }
      } catch (e) {
        console.log(`  build of ${size} could not run: ${(e as Error).message}`);
      }
    }
  }

  const sizes: SizeFigures[] = [];
  if (o.http) {
    const present = builtSizes(o.segments);
    const wrkSizes = o.serveSize !== null ? [o.serveSize] : o.sizes.filter((n) => n >= WRK_SIZES.min && n <= WRK_SIZES.max && present.includes(n));
    const edgeSize = o.edge ? (wrkSizes.at(-1) ?? null) : null;
    for (const size of [...new Set([...present, ...(o.serveSize !== null ? [o.serveSize] : [])])].sort((a, b) => a - b)) {
      console.log(`\nHTTP (the ${size}-episode build${wrkSizes.includes(size) ? ", with throughput" : ""})`);
      try {
        sizes.push(await sizeFigures(o, size, wrkSizes.includes(size), size === edgeSize));
      } catch (e) {
        console.log(`  HTTP figures of ${size} could not be taken: ${(e as Error).message}`);
      }
    }
  }

  const searches: SearchBenchFigures[] = [];
  if (o.search) {
    const searchSizes = o.sizes.filter((n) => n >= 10_000);
    if (searchSizes.length > 0) console.log("\nSearch bench");
    for (const size of searchSizes) {
      const s = await searchBenchFigures(size, notes);
      if (s) searches.push(s);
    }
  }

  console.log(`\n=== Results (${commit}${dirty ? "+dirty" : ""}, ${machine}; load average ${loadAtStart} at the start, ${loadAverage()} at the end)`);
  for (const n of notes) console.log(`  ${n}`);
  const targets = report(o, builds, incrementals, sizes, searches);
  const file = path.join(OUT, `results-${startedAt.replace(/[:.]/g, "-")}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        startedAt,
        commit,
        dirty,
        machine,
        loadAverage: { start: loadAtStart, end: loadAverage() },
        options: o,
        notes,
        builds,
        incremental: incrementals,
        http: sizes.map((s) => ({ ...s, wrk: s.wrk.map(({ raw: _raw, ...r }) => r) })),
        search: searches,
        targets,
      },
      null,
      2,
    ),
  );
  console.log(`\n(saved to ${path.relative(ROOT, file)})`);
}

main(optionsOf(BENCH.parse().values))
  .catch((e: Error) => console.log(`bench: ${e.message}`))
  .finally(() => {
    stopAllNow();
    process.exitCode = 0;
  });
