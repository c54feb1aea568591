// The Workers entry on a local workerd (npm run serve:edge's startEdgeServer, Miniflare 4): every
// kind of route once, through the real runtime with its bindings (static assets with
// run_worker_first, R2, the rate-limit Durable Object). Each test speaks from its own client
// address (CF-Connecting-IP, which Cloudflare's edge sets and the local front line passes through),
// so the limit of 5 metadata requests is met only where a test means to meet it.
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleWorker, WORKER_FILE } from "../../scripts/bundle-worker.ts";
import { miniflareTemporaryFolders, startEdgeServer, type EdgeServer } from "../../scripts/serve-edge.ts";
import { episode, makeSite, removeSite, script, type Site } from "../support/fixture.ts";
import { call, expectCors, expectError, json, sameBytes, TONE } from "../support/http.ts";

const ep = episode({ episodeNumber: 1, title: "First light", publishedAt: "2026-01-01T00:00:00Z" });
let site: Site;
let edge: EdgeServer;
/** Closed by the last test, which checks what closing leaves behind. */
let closed = false;
let nextIp = 1;

beforeAll(async () => {
  site = await makeSite("edge-smoke", [{ episode: ep, script: script(), audio: TONE }]);
  edge = await startEdgeServer({ distDir: site.distDir, env: { RATE_LIMIT_METADATA_PER_MIN: "5" }, bundle: false });
});
afterAll(async () => {
  if (!closed) await edge?.close();
  await removeSite(site);
});

/** A request from a client address of its own. */
function client() {
  const ip = `198.51.100.${nextIp++}`;
  return (path: string, init: RequestInit = {}) => call(edge.url, path, { ...init, headers: { "CF-Connecting-IP": ip, ...(init.headers as Record<string, string>) } });
}

describe("the Workers entry on workerd", () => {
  it("serves the discovery document with the limits configured in vars", async () => {
    const r = await client()("/v1");
    expect(r.status).toBe(200);
    const doc = json(r);
    expect(doc.version).toBe("1.0.0");
    expect(doc.rateLimits.metadata.limit).toBe(5);
    expectCors(r.headers);
  });

  it("lists episodes and serves one by number and by UUID in any case, with the same ETag", async () => {
    const get = client();
    const list = await get("/v1/episodes?limit=2");
    expect(list.status).toBe(200);
    expect(json(list).episodes.map((e: { id: string }) => e.id)).toEqual([ep.id]);
    const byNumber = await get("/v1/episodes/1");
    const byUuid = await get(`/v1/episodes/${String(ep.id).toUpperCase()}`);
    expect(byNumber.status).toBe(200);
    expect(json(byNumber).title).toBe("First light");
    expect(byUuid.text).toBe(byNumber.text);
    expect(byUuid.headers.get("etag")).toBe(byNumber.headers.get("etag"));
  });

  it("serves the script and the transcript", async () => {
    const get = client();
    const s = await get("/v1/episodes/1/script");
    expect(s.status).toBe(200);
    expect(json(s).segments.length).toBe(2);
    const t = await get("/v1/episodes/1/transcript");
    expect(t.status).toBe(200);
    expect(t.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(t.text).toMatch(/^Ada Optimist: Hello\.\nBo Skeptic: Hi\.\n$/);
  });

  it("streams audio from R2: 200 whole, 206 byte-exact for a Range, 416 past the end", async () => {
    const get = client();
    const whole = await get("/v1/episodes/1/audio");
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-length")).toBe(String(TONE.byteLength));
    expect(sameBytes(whole.bytes, TONE)).toBe(true);
    const part = await get("/v1/episodes/1/audio", { headers: { Range: "bytes=100-1099" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-1099/${TONE.byteLength}`);
    expect(part.headers.get("content-length")).toBe("1000");
    expect(sameBytes(part.bytes, TONE.subarray(100, 1100))).toBe(true);
    const suffix = await get("/v1/episodes/1/audio", { headers: { Range: "bytes=-10" } });
    expect(sameBytes(suffix.bytes, TONE.subarray(TONE.byteLength - 10))).toBe(true);
    const beyond = await get("/v1/episodes/1/audio", { headers: { Range: `bytes=${TONE.byteLength}-` } });
    expectError(beyond, 416, "range_not_satisfiable");
    expect(beyond.headers.get("content-range")).toBe(`bytes */${TONE.byteLength}`);
    const media = await get(`/media/${ep.id}.mp3`, { headers: { Range: "bytes=0-9" } });
    expect(media.status).toBe(206);
    expect(sameBytes(media.bytes, TONE.subarray(0, 10))).toBe(true);
  });

  it("answers unknown API paths and episodes 404 in the error envelope, malformed refs 400", async () => {
    const get = client();
    expectError(await get("/v1/nothing-here"), 404, "not_found");
    expectError(await get("/v1/episodes/999"), 404, "not_found");
    expectError(await get("/v1/episodes/x-1"), 400, "invalid_episode_ref");
  });

  it("answers other methods 405 with Allow, and OPTIONS as a CORS preflight", async () => {
    const get = client();
    const post = await get("/v1/episodes", { method: "POST" });
    expectError(post, 405, "method_not_allowed");
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    const pre = await get("/v1/episodes", { method: "OPTIONS" });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-methods")).toBe("GET, HEAD");
    expectCors(pre.headers);
  });

  it("answers If-None-Match with 304 and HEAD with the headers of GET", async () => {
    const get = client();
    // identity: the plain representation, whose ETag and Content-Length are the plain body's
    // (an encoded one has its own ETag and no Content-Length at the edge: docs/api.md#compression).
    const plain = { "Accept-Encoding": "identity" };
    const first = await get("/v1/episodes/1", { headers: plain });
    const again = await get("/v1/episodes/1", { headers: { ...plain, "If-None-Match": first.headers.get("etag")! } });
    expect(again.status).toBe(304);
    expect(again.bytes.byteLength).toBe(0);
    expect(again.headers.get("etag")).toBe(first.headers.get("etag"));
    const head = await get("/v1/episodes/1", { method: "HEAD", headers: plain });
    expect(head.status).toBe(200);
    expect(head.bytes.byteLength).toBe(0);
    expect(head.headers.get("content-length")).toBe(first.headers.get("content-length"));
  });

  it("answers the 6th metadata request of a client 429 with Retry-After and RateLimit headers, counted in the Durable Object", async () => {
    const get = client();
    const answers = await Promise.all(Array.from({ length: 5 }, () => get("/v1/episodes/1")));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    // Exact under concurrency: five parallel requests took the five distinct counts.
    expect(answers.map((a) => a.headers.get("ratelimit")).sort()).toEqual([0, 1, 2, 3, 4].map((r) => expect.stringMatching(new RegExp(`^"metadata";r=${r};t=\\d+$`))));
    const limited = await get("/v1/episodes/1");
    expectError(limited, 429, "rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get("ratelimit-policy")).toBe('"metadata";q=5;w=60');
    expect(limited.headers.get("ratelimit")).toMatch(/^"metadata";r=0;t=\d+$/);
    expect(limited.headers.get("cache-control")).toBe("no-store");
    // Another client is not affected.
    expect((await client()("/v1/episodes/1")).status).toBe(200);
  });

  it("counts a client that sends no CF-Connecting-IP by its own address, which the front line sets from the connection", async () => {
    const unnamed = await call(edge.url, "/v1/episodes/1");
    const named = await call(edge.url, "/v1/episodes/1", { headers: { "CF-Connecting-IP": "127.0.0.1" } });
    // One bucket: the named request took the next count of the unnamed one's.
    expect(unnamed.headers.get("ratelimit")).toMatch(/^"metadata";r=4;t=\d+$/);
    expect(named.headers.get("ratelimit")).toMatch(/^"metadata";r=3;t=\d+$/);
  });

  it("counts exactly under concurrency: of 20 parallel requests from one client, exactly 5 pass", async () => {
    const get = client();
    const statuses = (await Promise.all(Array.from({ length: 20 }, (_, i) => get(i % 2 ? "/v1" : "/v1/episodes/1/script")))).map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBe(5);
    expect(statuses.filter((s) => s === 429).length).toBe(15);
  });

  it("never serves the private build outputs: /_api/* answers 404", async () => {
    const get = client();
    for (const p of ["/_api/index.json", "/_api/manifest.json", "/_api/episodes/1.json", "/_api/discovery.json"]) {
      const r = await get(p);
      expect(r.status, p).toBe(404);
      expect(r.text).not.toContain(ep.id);
    }
  });

  it("never serves them under an encoded or dotted spelling either (the asset layer redirects to the canonical path)", async () => {
    const ip = `198.51.100.${nextIp++}`;
    for (const p of ["/%5Fapi/index.json", "/%5fapi/manifest.json", "/_api%2Findex.json", "/_api/./index.json", "/media/../_api/index.json", "/%2e%2e/_api/index.json"]) {
      const res = await fetch(`${edge.url}${p}`, { headers: { "CF-Connecting-IP": ip } });
      const text = await res.text();
      expect(res.status, p).toBe(404);
      expect(text, p).not.toContain(ep.id);
    }
  });

  it("serves the episode page, the player and the home page as HTML through the shim", async () => {
    const get = client();
    const page = await get("/episodes/1");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.text).toContain("First light");
    expect(page.text).toContain("application/json+oembed");
    const player = await get(`/embed/${ep.id}`);
    expect(player.status).toBe(200);
    expect(player.headers.get("content-security-policy")).toContain("frame-ancestors *");
    const home = await get("/");
    expect(home.status).toBe(200);
    expect(home.text).toContain("First light");
    const missing = await get("/episodes/77");
    expect(missing.status).toBe(404);
  });
});

describe("the Worker bundle", () => {
  // esbuild names each bundled module in a comment: Ajv would be there if the bundle took it in.
  // tests/http/mcp.test.ts, on this target too, shows the MCP endpoint works without it.
  it("leaves out the MCP SDK's Ajv validator and its dependencies, which the MCP route never uses", () => {
    const bundle = readFileSync(WORKER_FILE, "utf8");
    expect(bundle).toContain("// node_modules/@modelcontextprotocol/sdk/");
    expect(bundle.match(/^\/\/ node_modules\/(?:ajv|ajv-formats|fast-uri)\/.*$/gm)).toBeNull();
    expect(bundle).toContain("// functions/workers/no-ajv.ts");
  });

  // The edge suites' workerds start from WORKER_FILE while tests/edge/deploy.test.ts bundles into it.
  it("is replaced whole on a new bundle, never rewritten in place: a reader holds the whole old file", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "worker-bundle-"));
    try {
      const file = path.join(dir, "worker.js");
      const { bytes } = await bundleWorker(file);
      const before = statSync(file);
      expect(before.size).toBe(bytes);
      const fd = openSync(file, "r");
      try {
        await bundleWorker(file);
        expect(statSync(file).ino).not.toBe(before.ino);
        // The descriptor opened before still reads every byte of the bundle it opened.
        const held = Buffer.alloc(before.size + 1);
        expect(readSync(fd, held, 0, held.length, 0)).toBe(before.size);
        expect(held.subarray(0, before.size).equals(readFileSync(file))).toBe(true);
      } finally {
        closeSync(fd);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("closing", () => {
  // Miniflare's own dispose removes its folder without waiting, which a process that exits at once
  // (a test worker, serve:edge on SIGINT) leaves behind in the temporary folder.
  it("removes Miniflare's temporary folder (Durable Objects, R2, caches) before close() returns", async () => {
    const folders = miniflareTemporaryFolders(edge.miniflare);
    expect(folders).toHaveLength(1);
    expect(existsSync(folders[0]!)).toBe(true);
    closed = true;
    await edge.close();
    expect(existsSync(folders[0]!)).toBe(false);
  });
});
