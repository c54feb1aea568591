// wrk runs, read back into figures, with the CPU the server processes spent over each run (from
// /proc/<pid>/stat): CPU per request holds still on a shared machine better than req/s does.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { round, track } from "./common.ts";

export interface Load {
  threads: number;
  connections: number;
}

export interface WrkFigures {
  target: string;
  url: string;
  requestsPerSecond: number | null;
  latencyAvgMs: number | null;
  latencyP50Ms: number | null;
  latencyP99Ms: number | null;
  latencyMaxMs: number | null;
  non2xx: number;
  socketErrors: string | null;
  /** Requests wrk completed. */
  requests: number | null;
  /** The server's CPU (user + system, every process of it) over the run ÷ requests, in µs; null when unknown. */
  cpuUsPerRequest: number | null;
  raw: string;
  /** req/s of every round, when there were several (the figures above are the median round's). */
  rounds?: (number | null)[];
}

function ms(value: string, unit: string): number {
  const n = Number(value);
  return unit === "us" ? n / 1000 : unit === "ms" ? n : unit === "s" ? n * 1000 : unit === "m" ? n * 60_000 : NaN;
}

export function parseWrk(target: string, url: string, out: string, cpuSeconds: number | null = null): WrkFigures {
  const lat = /Latency\s+([\d.]+)(us|ms|s|m)\s+([\d.]+)(us|ms|s|m)\s+([\d.]+)(us|ms|s|m)/.exec(out);
  const pct = (p: string) => {
    const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s|m)`).exec(out);
    return m ? round(ms(m[1]!, m[2]!), 3) : null;
  };
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  const total = /(\d+) requests in/.exec(out);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out);
  const errors = /Socket errors:[^\n]*/.exec(out);
  const requests = total ? Number(total[1]) : null;
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
    requests,
    cpuUsPerRequest: cpuSeconds !== null && requests ? round((cpuSeconds * 1e6) / requests, 1) : null,
    raw: out,
  };
}

export interface WrkRequest {
  /** A wrk Lua script (the list walk). */
  script?: string;
  /** Request headers (the 304 runs send If-None-Match). */
  headers?: Record<string, string>;
}

/**
 * One wrk run. Asynchronous, never spawnSync: the edge target's workerd is started by Miniflare in
 * this process, and its throughput collapses (with timeouts) while this process's event loop is
 * blocked, though a run takes little of this process's CPU when it is not.
 */
export function wrk(load: Load, url: string, seconds: number, request: WrkRequest = {}): Promise<string> {
  const headers = Object.entries(request.headers ?? {}).flatMap(([name, value]) => ["-H", `${name}: ${value}`]);
  const args = [`-t${load.threads}`, `-c${load.connections}`, `-d${seconds}s`, "--latency", ...headers, ...(request.script ? ["-s", request.script] : []), url];
  return new Promise((resolve, reject) => {
    const child = track(spawn("wrk", args, { stdio: ["ignore", "pipe", "pipe"] }));
    let out = "";
    child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    child.once("error", reject);
    child.once("close", () => resolve(out));
  });
}

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** User + system CPU seconds of a process so far, or null when it is gone (or this is not Linux). */
function cpuSecondsOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** A process and its children (nginx's master and its worker), from /proc. */
export function processTree(pid: number): number[] {
  const tree = [pid];
  try {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) tree.push(Number(entry));
    }
  } catch {
    // Not Linux, or a process ended while it was read: the CPU figure covers what was found.
  }
  return tree;
}

/** The CPU seconds `pids` spend from now until the returned function is called; null when any is unreadable. */
export function cpuMeter(pids: number[]): () => number | null {
  const start = pids.map(cpuSecondsOf);
  return () => {
    let total = 0;
    for (const [i, pid] of pids.entries()) {
      const [a, b] = [start[i], cpuSecondsOf(pid)];
      if (a == null || b == null) return null;
      total += b - a;
    }
    return total;
  };
}
