// The HTTP figures of one build: `npm run serve`'s script (and --baseline's), nginx (bench/nginx.conf)
// and a bare node:http server answering the shim's recorded bytes (./bare-node.ts) on the same dist/;
// the shim's resident memory after each step; list latency on one connection; bytes on the wire;
// search over POST /mcp; and with throughput, wrk against every target in alternating rounds
// (./throughput.ts), the edge target (the Workers entry on a local workerd) beside them.
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { bundleWorker } from "../bundle-worker.ts";
import { startEdgeServer, type EdgeServer } from "../serve-edge.ts";
import { BARE_NODE_SERVER, record, writeRecorded, type Recorded } from "./bare-node.ts";
import { readBuildRecord } from "./build.ts";
import { DEFAULT_LIST_PATH, dirOf, EDGE_STATIC_PATH, EPISODE_FILE, EPISODE_PATH, LIST_PATH, memoryOf, NGINX_LIST_FILE, NODE, OUT, ROOT, round, serveScript, stop, type Memory } from "./common.ts";
import type { Options } from "./options.ts";
import { deployFigures, freePort, mcpSearch, startChild, waitFor, wireFigures, writeListWalk, type DeployFigures, type McpSearchFigures, type WireFigures } from "./probes.ts";
import { measureRounds, requestPathFigures, REQUESTS, targetName, type RequestPathFigures, type Target } from "./throughput.ts";
import { parseWrk, processTree, wrk, type WrkFigures } from "./wrk.ts";

/** One connection, one request at a time: latency without queueing, the figure that must stay flat as the show grows. */
export interface LatencyFigures {
  target: string;
  p50Ms: number | null;
  p99Ms: number | null;
  requestsPerSecond: number | null;
}

export interface SizeFigures {
  episodes: number;
  /** The build these figures are of (this run's, or an earlier run's with the same content parameters). */
  build: { at: string; commit: string } | null;
  deploy: DeployFigures | null;
  notes: string[];
  sameBody: boolean | null;
  /** The shim's resident memory (VmRSS, and VmHWM its peak so far), in MB. */
  shimMemory: Record<string, Memory | null>;
  /** The same of the bare node:http server: the floor of a Node process serving bytes. */
  rawMemory: Memory | null;
  listWalk: { pages: number; mb: number } | null;
  latency: LatencyFigures[];
  wire: WireFigures[];
  search: McpSearchFigures | null;
  /** wrk throughput (sizes 1,000–10,000 or --serve-size). */
  wrk: WrkFigures[];
  /** The request path's table: each server's req/s and CPU per request, the shim's ratio to bare node:http. */
  requestPath: RequestPathFigures[];
}

/** Limits raised so that no 429 is measured. */
const UNLIMITED = { RATE_LIMIT_METADATA_PER_MIN: "1000000000", RATE_LIMIT_AUDIO_PER_MIN: "1000000000" };

const get = async (url: string, headers: Record<string, string> = {}) => {
  const res = await fetch(url, { headers });
  return { status: res.status, etag: res.headers.get("etag"), body: Buffer.from(await res.arrayBuffer()) };
};

/** The request path's paths: the request's target on a shim and on nginx (the same bytes as files). */
const SHIM_PATH = { "episode JSON": EPISODE_PATH, "default list page": DEFAULT_LIST_PATH } as const;
const NGINX_PATH = { "episode JSON": `/${EPISODE_FILE}`, "default list page": `/${NGINX_LIST_FILE}` } as const;
type Body = keyof typeof SHIM_PATH;

/**
 * Each request of the table on one server: its URL, and for a 304 the server's own ETag of the 200
 * as If-None-Match. The tag is the one wrk's requests get (no Accept-Encoding: the identity
 * representation's, as node:http asks; fetch would ask for a compressed one), checked to answer 304.
 */
async function requestTargets(server: string, base: string, paths: Record<Body, string>, pids: number[] | null, notes: string[]): Promise<Target[]> {
  const out: Target[] = [];
  for (const request of REQUESTS) {
    const body = request.replace(/ 304$/, "") as Body;
    const url = `${base}${paths[body]}`;
    let etag: string | null = null;
    if (request.endsWith(" 304")) {
      const ok = await record(base, paths[body]);
      etag = ok.headers.find(([name]) => name.toLowerCase() === "etag")?.[1] ?? null;
      const again = etag === null ? null : await record(base, paths[body], etag);
      if (again?.status !== 304) notes.push(`${targetName(server, request)}: answered ${again?.status ?? "without an ETag"}, not 304`);
    }
    out.push({ target: targetName(server, request), url, pids, ...(etag === null ? {} : { headers: { "If-None-Match": etag } }) });
  }
  return out;
}

export async function sizeFigures(o: Options, size: number, withWrk: boolean, withEdge: boolean): Promise<SizeFigures> {
  const dir = dirOf(size);
  const dist = path.join(dir, "dist");
  const notes: string[] = [];
  const built = readBuildRecord(size);
  const figures: SizeFigures = {
    episodes: size,
    build: built && { at: built.at, commit: built.commit },
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
    requestPath: [],
  };
  if (!existsSync(path.join(dist, EPISODE_FILE))) throw new Error(`${path.relative(ROOT, dist)} has no ${EPISODE_FILE}: build ${size} first`);
  const [shimPort, nginxPort, barePort, basePort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  let shim: ChildProcess | null = null;
  let base: ChildProcess | null = null;
  let nginx: ChildProcess | null = null;
  let bare: ChildProcess | null = null;
  let edge: EdgeServer | null = null;
  try {
    figures.deploy = await deployFigures(dist);
  } catch (e) {
    notes.push(`deploy file count could not be taken: ${(e as Error).message}`);
  }
  try {
    // serve's script serves ./dist of its working directory.
    const shimEnv = (port: number) => ({ ...process.env, PORT: String(port), HOST: "127.0.0.1", ...UNLIMITED });
    shim = startChild("shim", NODE, [serveScript(ROOT)], { cwd: dir, env: shimEnv(shimPort) }, path.join(dir, "serve.log"));
    if (o.baseline !== null && withWrk) {
      base = startChild("baseline shim", NODE, [serveScript(o.baseline)], { cwd: dir, env: shimEnv(basePort) }, path.join(dir, "serve-baseline.log"));
    }
    const ngDir = path.join(OUT, "nginx");
    mkdirSync(ngDir, { recursive: true });
    const conf = readFileSync(path.join(ROOT, "bench/nginx.conf"), "utf8").replaceAll("__OUT__", ngDir).replaceAll("__ROOT__", dist).replaceAll("__PORT__", String(nginxPort));
    writeFileSync(path.join(ngDir, "nginx.conf"), conf);
    nginx = startChild("nginx", "nginx", ["-p", ngDir, "-c", "nginx.conf", "-e", path.join(ngDir, "error.log")], { cwd: ngDir, env: process.env }, path.join(ngDir, "stdout.log"));
    if (withEdge) {
      // The same dist/ through the Workers entry on workerd, bundled as `npm run deploy` bundles
      // it. A failure here costs the edge rows only.
      try {
        const bundle = await bundleWorker();
        edge = await startEdgeServer({ distDir: dist, env: UNLIMITED, host: "127.0.0.1", bundle: false });
        notes.push(`edge: ${path.relative(ROOT, bundle.file)} (${round(bundle.bytes / 1024)} KiB) on a local workerd (Miniflare) at ${edge.url}`);
      } catch (e) {
        notes.push(`edge target could not start: ${(e as Error).message}`);
      }
    }
    const shimUrl = `http://127.0.0.1:${shimPort}`;
    const nginxUrl = `http://127.0.0.1:${nginxPort}`;
    const bareUrl = `http://127.0.0.1:${barePort}`;
    const baseUrl = `http://127.0.0.1:${basePort}`;
    await Promise.all([waitFor(`${shimUrl}/v1`, shim, "shim"), waitFor(`${nginxUrl}/`, nginx, "nginx"), ...(base ? [waitFor(`${baseUrl}/v1`, base, "baseline shim")] : [])]);
    figures.shimMemory.afterStart = memoryOf(shim.pid);

    // nginx serves the shim's default list page as a file of the same bytes (bench/nginx.conf).
    const list = await get(`${shimUrl}${DEFAULT_LIST_PATH}`);
    writeFileSync(path.join(ngDir, NGINX_LIST_FILE), list.body);
    const listBody = JSON.parse(list.body.toString("utf8")) as { episodes?: unknown[] };
    if (list.status !== 200 || listBody.episodes?.length !== 20) notes.push(`list answered ${list.status} with ${listBody.episodes?.length} episodes`);
    // The bare server answers what the shim answered to each request of the table, 304s included.
    const recorded: Recorded[] = [];
    for (const p of Object.values(SHIM_PATH)) {
      const ok = await record(shimUrl, p);
      const etag = ok.headers.find(([name]) => name.toLowerCase() === "etag")?.[1] ?? null;
      recorded.push(ok, ...(etag === null ? [] : [await record(shimUrl, p, etag)]));
    }
    const responsesFile = path.join(dir, "bare-node-responses.json");
    writeRecorded(responsesFile, recorded);
    bare = startChild("bare node:http", NODE, ["--input-type=module", "-e", BARE_NODE_SERVER], { cwd: ROOT, env: { ...process.env, PORT: String(barePort), RESPONSES_FILE: responsesFile } }, path.join(OUT, "bare-node.log"));
    await waitFor(`${bareUrl}/`, bare, "bare node:http");

    // Sanity: all answer 200 with the same episode bytes.
    const episodeUrls = [`${shimUrl}${EPISODE_PATH}`, `${nginxUrl}/${EPISODE_FILE}`, `${bareUrl}${EPISODE_PATH}`, ...(base ? [`${baseUrl}${EPISODE_PATH}`] : []), ...(edge ? [`${edge.url}${EPISODE_PATH}`] : [])];
    const bodies = await Promise.all(episodeUrls.map((u) => get(u)));
    figures.sameBody = bodies.every((b) => b.status === 200 && b.body.equals(bodies[0]!.body));
    if (!figures.sameBody) notes.push(`bodies differ or not 200: ${bodies.map((b) => `${b.status}/${b.body.length} B`).join(", ")}`);
    if (edge) {
      const edgeList = await get(`${edge.url}${DEFAULT_LIST_PATH}`);
      if (edgeList.status !== 200 || !edgeList.body.equals(list.body)) notes.push(`edge list page: ${edgeList.status}, ${edgeList.body.length} B, not the Node shim's ${list.body.length} B`);
      const edgeStatic = await get(`${edge.url}${EDGE_STATIC_PATH}`);
      notes.push(`edge anchor ${EDGE_STATIC_PATH}: ${edgeStatic.status}, ${edgeStatic.body.length} B, served by workerd's asset layer without the Worker`);
    }
    notes.push(`episode body ${bodies[0]!.body.length} B; default list page ${list.body.length} B`);
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
      await wrk(one, url, 1, { script });
      const w = parseWrk(target, url, await wrk(one, url, seconds, { script }));
      figures.latency.push({ target, p50Ms: w.latencyP50Ms, p99Ms: w.latencyP99Ms, requestsPerSecond: w.requestsPerSecond });
    }
    figures.shimMemory.afterLatency = memoryOf(shim.pid);
    figures.wire = await wireFigures(shimUrl, notes);
    figures.search = await mcpSearch(shimUrl, notes);
    figures.shimMemory.afterSearch = memoryOf(shim.pid);

    if (withWrk) {
      const targets: Target[] = [
        ...(await requestTargets("shim", shimUrl, SHIM_PATH, [shim.pid!], notes)),
        ...(base ? await requestTargets("baseline shim", baseUrl, SHIM_PATH, [base.pid!], notes) : []),
        ...(await requestTargets("bare node:http", bareUrl, SHIM_PATH, [bare.pid!], notes)),
        ...(await requestTargets("nginx", nginxUrl, NGINX_PATH, processTree(nginx.pid!), notes)),
        { target: "shim, list page ?limit=20", url: `${shimUrl}${LIST_PATH}`, pids: [shim.pid!] },
        { target: "shim, list walk", url: shimUrl, script: walkScript, pids: [shim.pid!] },
        ...(base ? [{ target: "baseline shim, list walk", url: baseUrl, script: walkScript, pids: [base.pid!] }] : []),
        ...(edge
          ? [
              { target: "edge, episode JSON", url: `${edge.url}${EPISODE_PATH}`, pids: null },
              { target: "edge, default list page", url: `${edge.url}${DEFAULT_LIST_PATH}`, pids: null },
              { target: `edge, asset layer alone ${EDGE_STATIC_PATH}`, url: `${edge.url}${EDGE_STATIC_PATH}`, pids: null },
            ]
          : []),
      ];
      const measured = await measureRounds(o, targets, o.rounds, o.duration);
      figures.wrk = measured.map((m) => m.figures);
      figures.requestPath = requestPathFigures(new Map(targets.map((t, i) => [t.target, measured[i]!])));
      figures.shimMemory.afterLoad = memoryOf(shim.pid);
    }
    figures.rawMemory = memoryOf(bare.pid);
  } finally {
    await Promise.all([stop(shim), stop(nginx), stop(bare), stop(base), edge?.close().catch(() => {})]);
  }
  return figures;
}
