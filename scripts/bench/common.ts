// What every phase of the bench shares: where things are, the request paths measured, the
// targets, the child processes (each tracked and ended by its own pid when the bench ends), and
// timed commands (the builds, the publish).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildCodeHash } from "../../src/generate/stamp.ts";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const OUT = path.join(ROOT, "bench/.out");
export const NODE = process.execPath;

/**
 * Whose build code the builds and the publish run (--tree <dir>; this checkout by default). A
 * snapshot keeps the build's key still while others edit src/: an edit makes the next build clean.
 */
let code = ROOT;
export const useTree = (dir: string) => void (code = dir);
export const codeDir = () => code;
export const astro = () => path.join(code, "node_modules/astro/bin/astro.mjs");
/** The build code's hash (part of the build's key); constant for a --tree snapshot. */
export const codeHash = () => (code === ROOT ? buildCodeHash() : "snapshot");

export const EPISODE_PATH = "/v1/episodes/42";
/** The list page of the walk, the latency runs and the bytes on the wire. */
export const LIST_PATH = "/v1/episodes?limit=20";
/** The default list page (the same 20 episodes): the list's throughput target. */
export const DEFAULT_LIST_PATH = "/v1/episodes";
export const EPISODE_FILE = "_api/episodes/42.json";
/** The shim's DEFAULT_LIST_PATH body, as a file nginx serves from its own folder (bench/nginx.conf). */
export const NGINX_LIST_FILE = "list-page.json";
/** A build file outside wrangler's run_worker_first: on the edge target, the asset layer alone serves it (no Worker). */
export const EDGE_STATIC_PATH = "/404.html";
/** The smallest build, always made: the anchor of the figures that must not grow with the show. */
export const ANCHOR_SIZE = 100;
/** Sizes at which wrk measures throughput: the request-path ratios are targets at 1,000 and 10,000. */
export const WRK_SIZES = { min: 1000, max: 10_000 };
/** The budgets and the request-path floor of docs/performance.md, printed beside the figures. */
export const TARGET = {
  buildSecondsPer1000: 2,
  buildAt: 10_000,
  buildRssMb: 1024,
  incrementalSeconds: 5,
  episodeVsNginx: 0.65,
  listVsNginx: 0.45,
  listFlat: 1.2,
  serverRssMb: 200,
  /** The shim's req/s against bare node:http answering the same bytes and headers. */
  episodeVsNode: 0.8,
  listVsNode: 0.7,
};

/** What `npm run serve` runs in a checkout: its bundling launcher, or scripts/serve.ts in checkouts older than it. */
export const serveScript = (checkout: string) => [path.join(checkout, "scripts/serve.mjs"), path.join(checkout, "scripts/serve.ts")].find((f) => existsSync(f))!;
export const dirOf = (size: number) => path.join(OUT, `n${size}`);
export const round = (x: number, digits = 1) => Number(x.toFixed(digits));
export const loadAverage = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// Child processes

const children = new Set<ChildProcess>();

export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

export async function stop(child: ChildProcess | null): Promise<void> {
  if (child === null || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}

export function stopAllNow(): void {
  for (const c of children) c.kill("SIGTERM");
}
process.once("SIGINT", () => {
  stopAllNow();
  process.exit(130);
});
process.once("exit", stopAllNow);

export interface Memory {
  rssMb: number;
  peakMb: number;
}

/** Resident memory of a running process from /proc: now (VmRSS) and its peak so far (VmHWM), in MB. */
export function memoryOf(pid: number | undefined): Memory | null {
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
// Timed commands

export interface Timed {
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

export type TimedFigures = Omit<Timed, "output">;

export const withoutOutput = ({ output: _o, ...t }: Timed): TimedFigures => t;

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

export async function timed(args: string[], env: NodeJS.ProcessEnv, logFile: string): Promise<Timed> {
  const useTime = existsSync("/usr/bin/time");
  const start = loadAverage();
  const t0 = performance.now();
  const child = track(spawn(useTime ? "/usr/bin/time" : args[0]!, useTime ? ["-v", ...args] : args.slice(1), { cwd: code, env, stdio: ["ignore", "pipe", "pipe"] }));
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
  const exitCode = await new Promise<number>((resolve) => {
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
    ok: exitCode === 0,
    wallSeconds: round(wall, 2),
    peakRssMb: rssKb !== null ? round(rssKb / 1024, 0) : polled,
    userSeconds: num(/User time \(seconds\): ([\d.]+)/),
    systemSeconds: num(/System time \(seconds\): ([\d.]+)/),
    output,
    loadAverage: { start, end: loadAverage() },
  };
}
