// The Node adapter: its streaming path on a real node:http server and a real socket, and its fast
// path (no Fetch objects) held to the portable Fetch entry answering the same requests.
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { etagOf } from "../../src/shared/etag.ts";
import { buildIndex, BUILD_FILES } from "../../src/shared/schema/build-index.ts";
import { shimConfig } from "../../functions/config.ts";
import { EpisodeIndex } from "../../functions/episode-index.ts";
import { createHandler } from "../../functions/handler.ts";
import { toResponse } from "../../functions/http.ts";
import { nodeEtag } from "../../functions/node/etag.ts";
import { FileAssetStore } from "../../functions/node/file-assets.ts";
import { LocalAudioStorage } from "../../functions/node/local-storage.ts";
import type { RunningServer } from "../../functions/node/main.ts";
import { writeResponse } from "../../functions/node/server.ts";
import { MemoryRateLimitStore } from "../../functions/rate-limit.ts";
import { episode, makeSite, removeSite, script, serveSite, type Site } from "../support/fixture.ts";
import { TONE } from "../support/http.ts";

describe("Node adapter streaming", () => {
  it("a client that hangs up while the server waits for drain ends the write and cancels the upstream", async () => {
    let cancelled = false;
    let finished!: () => void;
    const writeDone = new Promise<void>((resolve) => (finished = resolve));
    const chunk = new Uint8Array(1024 * 1024);
    const server = createServer((_req, res) => {
      // An endless body: the socket fills, the adapter waits for "drain".
      const body = new ReadableStream<Uint8Array>({
        pull: (c) => c.enqueue(chunk),
        cancel: () => void (cancelled = true),
      });
      const response = { status: 200, headers: { "content-type": "application/octet-stream", "content-length": String(2 ** 40) }, body };
      void writeResponse(res, response).finally(finished);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    const socket = connect(port, "127.0.0.1");
    socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    // Read the first bytes, then stop reading so the server's socket buffer fills up.
    await new Promise<void>((r) => socket.once("data", () => r()));
    socket.pause();
    await new Promise((r) => setTimeout(r, 300));
    socket.destroy();
    await writeDone;
    expect(cancelled).toBe(true);
    server.close();
  });
});

describe("the Node fast path and the Fetch entry answer alike", () => {
  const NOW = Date.UTC(2026, 5, 1);
  const one = episode({ episodeNumber: 1, title: "One" });
  const later = episode({ episodeNumber: 2, publishedAt: new Date(NOW + 86_400_000).toISOString() });
  let site: Site;
  let server: RunningServer;
  let viaFetch: (req: Request, info: { clientIp: string }) => Promise<Response>;

  beforeAll(async () => {
    site = await makeSite("adapters", [{ episode: one, script: script(), audio: TONE }, { episode: later }]);
    // The Node entry, and the portable handler with its defaults (crypto.subtle ETags) behind the
    // Fetch entry, over the same build and clock. Each counts its own rate limits: the same
    // sequence of requests gives both the same RateLimit headers.
    server = await serveSite(site, { now: () => NOW });
    const read = async (rel: string) => JSON.parse(await readFile(path.join(site.distDir, rel), "utf8"));
    const portable = await createHandler({
      config: shimConfig({}),
      index: new EpisodeIndex(buildIndex.parse(await read(BUILD_FILES.index))),
      assets: new FileAssetStore(site.distDir, await read(BUILD_FILES.manifest)),
      storage: new LocalAudioStorage(path.join(site.distDir, "media")),
      rateLimitStore: new MemoryRateLimitStore(),
      now: () => NOW,
    });
    viaFetch = async (req, info) => toResponse(await portable.handle(req, info));
  });
  afterAll(async () => {
    await server?.close();
    await removeSite(site);
  });

  /** Status, headers (without the connection's own) and body bytes of one answer. */
  async function answer(res: Response) {
    const headers: [string, string][] = [];
    res.headers.forEach((v, k) => {
      if (k !== "date" && k !== "connection" && k !== "keep-alive") headers.push([k, v]);
    });
    return { status: res.status, headers: headers.sort(), body: Buffer.from(await res.arrayBuffer()).toString("base64") };
  }

  const cases: [method: string, target: string, headers?: Record<string, string>][] = [
    ["GET", "/v1"],
    ["GET", "/v1/episodes/1"],
    ["HEAD", "/v1/episodes/1"],
    ["GET", "/v1/episodes/1", { "If-None-Match": "*" }],
    ["GET", "/v1/episodes?limit=1"],
    ["GET", "/v1/episodes/1/script"],
    ["GET", "/v1/episodes/1/transcript"],
    ["GET", "/v1/episodes/1/audio"],
    ["GET", "/v1/episodes/1/audio?download=1", { Range: "bytes=10-99" }],
    ["GET", "/v1/episodes/1/audio", { Range: "bytes=999999-" }],
    ["HEAD", "/v1/episodes/1/audio"],
    ["GET", "/v1/episodes/2"],
    ["GET", "/v1/episodes/x!"],
    ["GET", "/v1/episodes?limit=0"],
    ["OPTIONS", "/v1/episodes"],
    ["DELETE", "/v1/episodes/1"],
    ["GET", "/"],
    ["GET", "/episodes/1"],
    ["GET", "/embed/1?theme=dark"],
    ["GET", "/embed/2"],
    ["GET", "/oembed?url=http://localhost:4321/episodes/1"],
    ["GET", "/oembed?url=http://localhost:4321/episodes/1&maxwidth=300"],
    ["GET", "/no/such/page"],
  ];

  it.each(cases)("%s %s %j: same status, headers and bytes", async (method, target, headers = {}) => {
    const node = await answer(await fetch(`${server.url}${target}`, { method, headers, redirect: "manual" }));
    const portable = await answer(await viaFetch(new Request(`http://localhost${target}`, { method, headers }), { clientIp: "127.0.0.1" }));
    expect(node.status).toBe(portable.status);
    expect(node.headers).toEqual(portable.headers);
    expect(node.body).toBe(portable.body);
  });
});

describe("the Node entry's ETag function", () => {
  const samples: [string, Uint8Array][] = [
    ["no bytes", new Uint8Array()],
    ["one byte", new Uint8Array([0xff])],
    ["UTF-8 text", new TextEncoder().encode('{"title":"Café über naïve — 東京"}')],
    ["32 KB of random bytes", new Uint8Array(randomBytes(32 * 1024))],
  ];
  it.each(samples)("gives the tag etagOf gives (%s)", async (_name, bytes) => {
    expect(nodeEtag(bytes)).toBe(await etagOf(bytes));
  });
});
