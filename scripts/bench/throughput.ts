// Throughput: wrk against every target, --rounds times, alternating (each round runs every target
// once, so a change in the machine's load falls on all of them alike), with each server's CPU per
// request. The request path's table sets the shim beside bare node:http answering the same bytes
// and headers (./bare-node.ts) and nginx, for the episode JSON, the default list page and the 304
// of each; the ratios to bare node are the medians of each round's ratio.
import path from "node:path";
import { ROOT, TARGET } from "./common.ts";
import { median, printTable, type TargetRow } from "./table.ts";
import { cpuMeter, parseWrk, wrk, type Load, type WrkFigures, type WrkRequest } from "./wrk.ts";

export interface Target extends WrkRequest {
  /** How it is printed: "<server>, <request>". */
  target: string;
  url: string;
  /** The processes whose CPU the run is charged (null: not measured, e.g. workerd). */
  pids: number[] | null;
}

/** A target's rounds: every round's figures, and the median round (by req/s) standing for it. */
export interface Measured {
  figures: WrkFigures;
  rounds: WrkFigures[];
}

export async function measureRounds(load: Load, targets: Target[], rounds: number, seconds: number): Promise<Measured[]> {
  const runs: WrkFigures[][] = targets.map(() => []);
  for (let r = 1; r <= rounds; r++) {
    if (rounds > 1) console.log(`  round ${r} of ${rounds}`);
    for (const [i, t] of targets.entries()) {
      if (r === 1) {
        const extra = `${t.script ? ` -s ${path.relative(ROOT, t.script)}` : ""}${Object.entries(t.headers ?? {}).map(([n, v]) => ` -H '${n}: ${v}'`).join("")}`;
        console.log(`  wrk -t${load.threads} -c${load.connections} -d${seconds}s --latency${extra} ${t.url}   (${t.target})`);
        await wrk(load, t.url, 2, t); // warm-up: JIT, file cache, connection setup
      }
      const cpu = t.pids === null ? null : cpuMeter(t.pids);
      const out = await wrk(load, t.url, seconds, t);
      runs[i]!.push(parseWrk(t.target, t.url, out, cpu?.() ?? null));
    }
  }
  return runs.map((r) => {
    const sorted = [...r].sort((a, b) => (a.requestsPerSecond ?? 0) - (b.requestsPerSecond ?? 0));
    const mid = sorted[Math.floor((sorted.length - 1) / 2)]!;
    const figures = { ...mid, cpuUsPerRequest: median(r.map((x) => x.cpuUsPerRequest)) };
    return { figures: rounds > 1 ? { ...figures, rounds: r.map((x) => x.requestsPerSecond) } : figures, rounds: r };
  });
}

/** The median over rounds of a's req/s ÷ b's in the same round. */
export function pairedRatio(a: Measured | undefined, b: Measured | undefined): number | null {
  if (a === undefined || b === undefined) return null;
  return median(a.rounds.map((x, i) => (x.requestsPerSecond && b.rounds[i]?.requestsPerSecond ? x.requestsPerSecond / b.rounds[i]!.requestsPerSecond! : null)));
}

/** The requests of the request-path table, and the servers each is sent to, in the order of a round. */
export const REQUESTS = ["episode JSON", "episode JSON 304", "default list page", "default list page 304"] as const;
export const SERVERS = ["shim", "baseline shim", "bare node:http", "nginx"] as const;
export type RequestName = (typeof REQUESTS)[number];
export const targetName = (server: string, request: string) => `${server}, ${request}`;

export interface RequestPathFigures {
  request: RequestName;
  server: string;
  requestsPerSecond: number | null;
  cpuUsPerRequest: number | null;
  /** Median of the rounds' req/s ÷ bare node:http's in the same round (every server but bare node). */
  vsBareNode: number | null;
  /** A 304's row: median of the rounds' req/s ÷ the same server's 200. */
  vsOk: number | null;
  non2xx: number;
}

/** The table's rows from the measured targets (`byName`: a target's rounds by its name). */
export function requestPathFigures(byName: Map<string, Measured>): RequestPathFigures[] {
  const rows: RequestPathFigures[] = [];
  for (const request of REQUESTS) {
    for (const server of SERVERS) {
      const m = byName.get(targetName(server, request));
      if (m === undefined) continue;
      const vsBareNode = server !== "bare node:http" ? pairedRatio(m, byName.get(targetName("bare node:http", request))) : null;
      const vsOk = request.endsWith(" 304") ? pairedRatio(m, byName.get(targetName(server, request.replace(/ 304$/, "")))) : null;
      rows.push({ request, server, requestsPerSecond: m.figures.requestsPerSecond, cpuUsPerRequest: m.figures.cpuUsPerRequest, vsBareNode, vsOk, non2xx: m.figures.non2xx });
    }
  }
  return rows;
}

/** Prints the request path's table and adds its targets to the summary. */
export function reportRequestPath(episodes: number, figures: RequestPathFigures[], how: string, rows: TargetRow[]): void {
  if (figures.length === 0) return;
  printTable(
    `Request path at ${episodes.toLocaleString("en")} episodes: ${how}; CPU µs per request: the server's user + system time (/proc/<pid>/stat) over the run ÷ requests`,
    ["request", "server", "req/s", "CPU µs/req", "× bare node", "304 × 200", "non-2xx/3xx"],
    figures.map((f) => [f.request, f.server, f.requestsPerSecond, f.cpuUsPerRequest, f.vsBareNode?.toFixed(2), f.vsOk?.toFixed(2), f.non2xx]),
  );
  const n = episodes.toLocaleString("en");
  const shim = (request: RequestName) => figures.find((f) => f.server === "shim" && f.request === request);
  const bare = (request: RequestName) => figures.find((f) => f.server === "bare node:http" && f.request === request);
  for (const [request, floor] of [["episode JSON", TARGET.episodeVsNode], ["default list page", TARGET.listVsNode]] as const) {
    const s = shim(request);
    const b = bare(request);
    rows.push({
      figure: `shim ${request} / bare node:http, ${n}`,
      measured: `${s?.vsBareNode?.toFixed(2) ?? "–"} (${s?.cpuUsPerRequest ?? "–"} µs/req)`,
      target: `≥ ${floor}`,
      anchor: `bare node:http ${b?.requestsPerSecond ?? "–"} req/s, ${b?.cpuUsPerRequest ?? "–"} µs/req`,
      met: s?.vsBareNode == null ? null : s.vsBareNode >= floor,
    });
    const notModified = shim(`${request} 304`);
    rows.push({
      figure: `shim ${request} 304 / its 200, ${n}`,
      measured: `${notModified?.vsOk?.toFixed(2) ?? "–"} (${notModified?.cpuUsPerRequest ?? "–"} against ${s?.cpuUsPerRequest ?? "–"} µs/req)`,
      target: "≥ 1 (as fast as the 200)",
      anchor: `the 200: ${s?.requestsPerSecond ?? "–"} req/s`,
      met: notModified?.vsOk == null ? null : notModified.vsOk >= 1,
    });
  }
}
