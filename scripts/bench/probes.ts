// What the bench asks of a running shim besides throughput: its servers started and awaited, the
// list walk (every page by cursor, as a wrk script), bytes on the wire by Accept-Encoding, search
// over POST /mcp, and what a deploy of the build uploads per episode.
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { filesPerEpisode, uploadFiles } from "../../src/generate/file-budget.ts";
import { EPISODE_PATH, LIST_PATH, round, sleep, track } from "./common.ts";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export async function waitFor(url: string, child: ChildProcess, what: string, timeoutMs = 300_000): Promise<void> {
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

export function startChild(what: string, cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }, logFile: string): ChildProcess {
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
export async function writeListWalk(shimUrl: string, file: string): Promise<{ pages: number; bytes: number; paths: string[] }> {
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

/** What a Cloudflare deploy of this dist/ uploads (the rule of `npm run deploy`), per episode of the index. */
export interface DeployFigures {
  uploadFiles: number;
  indexEpisodes: number;
  filesPerEpisode: number;
}

export async function deployFigures(dist: string): Promise<DeployFigures> {
  const files = (await uploadFiles(dist)).length;
  const { episodes, perEpisode } = filesPerEpisode(dist, files);
  return { uploadFiles: files, indexEpisodes: episodes, filesPerEpisode: perEpisode };
}

/** Bytes on the wire of one body per Accept-Encoding, and node:zlib's output for the same bytes (the anchor). */
export interface WireFigures {
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

export async function wireFigures(shimUrl: string, notes: string[]): Promise<WireFigures[]> {
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

export interface McpSearchFigures {
  queries: number;
  p50Ms: number;
  p95Ms: number;
}

/** search_episodes through the shim's MCP endpoint, one request at a time; null (with a note) when it does not answer. */
export async function mcpSearch(shimUrl: string, notes: string[]): Promise<McpSearchFigures | null> {
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
