// The Node adapter: its streaming path on a real node:http server and a real socket, and its fast
// path (no Fetch objects) held to the portable Fetch entry answering the same requests.
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { etagOf } from "../../src/shared/etag.ts";
import { BUILD_FILES, episodeFile, MEDIA_DIR, mediaFile, mediaKey, SITE_FILES } from "../../src/shared/layout.ts";
import { buildIndex } from "../../src/shared/schema/build-index.ts";
import { shimConfig } from "../../src/shared/config.ts";
import { EpisodeIndex } from "../../functions/data/episode-index.ts";
import { BufferPool } from "../../functions/data/buffer-pool.ts";
import { createHandler } from "../../functions/handler.ts";
import { toResponse } from "../../functions/http/response.ts";
import { FileAssetStore } from "../../functions/node/file-assets.ts";
import { LocalAudioStorage } from "../../functions/node/local-storage.ts";
import { createNodeHandler, type RunningServer } from "../../functions/node/main.ts";
import { requestLineOf } from "../../functions/node/request.ts";
import type { Shim } from "../../functions/handler.ts";
import { ERRORS, type ErrorCode } from "../../src/shared/errors.ts";
import { createNodeServer, MAX_HEADER_BYTES, writeResponse } from "../../functions/node/server.ts";
import { MemoryRateLimitStore } from "../../functions/limits/rate-limit.ts";
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

describe("Node adapter: a response's release", () => {
  it("is called once the body is written, not before: a pooled buffer is not reused under a slow reader", async () => {
    // 16 MiB: more than the sockets' buffers hold, so a paused reader keeps the write unfinished.
    const SIZE = 16 * 1024 * 1024;
    const pool = new BufferPool(SIZE, 1);
    const taken: ArrayBufferLike[] = [];
    const released: number[] = [];
    let n = 0;
    const server = createServer((_req, res) => {
      const i = ++n;
      const lease = pool.take(SIZE)!;
      taken.push(lease.bytes.buffer);
      lease.bytes.fill(i);
      const response = { status: 200, headers: { "content-type": "application/octet-stream", "content-length": String(SIZE) }, body: lease.bytes, release: () => (released.push(i), lease.release()) };
      void writeResponse(res, response);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    try {
      // A: read the first bytes, then stop reading.
      const socket = connect(port, "127.0.0.1");
      const chunks: Buffer[] = [];
      socket.on("data", (c: Buffer) => chunks.push(c));
      socket.write("GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      await new Promise<void>((r) => socket.once("data", () => r()));
      socket.pause();
      await new Promise((r) => setTimeout(r, 200));
      expect(released).toEqual([]);
      // B, read whole meanwhile: not A's buffer, which is still being written.
      const b = new Uint8Array(await (await fetch(`http://127.0.0.1:${port}/b`)).arrayBuffer());
      expect(b.byteLength).toBe(SIZE);
      expect(b.every((x) => x === 2)).toBe(true);
      expect(taken[1]).not.toBe(taken[0]);
      // A, read to the end: every byte as written, then its buffer given back.
      const ended = new Promise<void>((r) => socket.once("end", () => r()));
      socket.resume();
      await ended;
      const a = Buffer.concat(chunks);
      const body = a.subarray(a.indexOf("\r\n\r\n") + 4);
      expect(body.byteLength).toBe(SIZE);
      expect(body.every((x) => x === 1)).toBe(true);
      await new Promise((r) => setTimeout(r, 50));
      expect(released.sort()).toEqual([1, 2]);
      // The pool keeps one: the next answer is written from a buffer given back.
      await (await fetch(`http://127.0.0.1:${port}/c`)).arrayBuffer();
      expect([taken[0], taken[1]]).toContain(taken[2]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
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
      storage: new LocalAudioStorage(path.join(site.distDir, MEDIA_DIR)),
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

  it.each(cases)("%s %s %j: same status, headers and bytes", async (method, target, more = {}) => {
    // Plain bodies: fetch would ask the Node server for a coding and decode it, the Fetch entry's
    // Response would not (compression: tests/http/compression.test.ts).
    const headers = { "Accept-Encoding": "identity", ...more };
    const node = await answer(await fetch(`${server.url}${target}`, { method, headers, redirect: "manual" }));
    const portable = await answer(await viaFetch(new Request(`http://localhost${target}`, { method, headers }), { clientIp: "127.0.0.1" }));
    expect(node.status).toBe(portable.status);
    expect(node.headers).toEqual(portable.headers);
    expect(node.body).toBe(portable.body);
  });

  describe("the build it serves", () => {
    it("holds every file src/shared/layout.ts names, each in the manifest with its etagOf tag", async () => {
      const manifest = JSON.parse(await readFile(path.join(site.distDir, BUILD_FILES.manifest), "utf8")) as Record<string, string>;
      const perEpisode = (ref: string) => [episodeFile(ref, "json"), SITE_FILES.page(ref), SITE_FILES.embed(ref), SITE_FILES.oembed(ref)];
      const files = [
        BUILD_FILES.index,
        BUILD_FILES.discovery,
        BUILD_FILES.openapi,
        SITE_FILES.home,
        SITE_FILES.terms,
        SITE_FILES.notFound,
        SITE_FILES.embedNotFound,
        ...perEpisode("1"),
        ...perEpisode("2"),
        episodeFile("1", "script"),
        episodeFile("1", "transcript"),
      ];
      for (const file of files) expect(manifest[file], file).toBe(await etagOf(await readFile(path.join(site.distDir, file))));
      // Written by the integration beside the manifest; the audio is copied, not listed.
      expect(JSON.parse(await readFile(path.join(site.distDir, BUILD_FILES.stamp), "utf8"))).toHaveProperty("stamp");
      expect(await readFile(path.join(site.distDir, mediaFile(mediaKey(String(one.id)))))).toEqual(Buffer.from(TONE));
      expect(Object.keys(manifest).filter((f) => f.startsWith(`${MEDIA_DIR}/`))).toEqual([]);
    });
  });
});

/** One answer read off a raw socket: the status line, lower-case headers and the body. */
interface RawAnswer {
  statusLine: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends bytes as they are (malformed ones too) and reads the one answer, by its Content-Length. */
function rawRequest(url: string, bytes: string | Buffer): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let data = Buffer.alloc(0);
    let settled = false;
    const parse = (ended: boolean) => {
      const end = data.indexOf("\r\n\r\n");
      if (end < 0) return ended ? reject(new Error(`no answer: ${JSON.stringify(data.toString("latin1"))}`)) : undefined;
      const [statusLine = "", ...lines] = data.subarray(0, end).toString("latin1").split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = data.subarray(end + 4);
      const length = Number(headers["content-length"] ?? NaN);
      if (!ended && !(body.byteLength >= length)) return;
      settled = true;
      socket.destroy();
      resolve({ statusLine, status: Number(statusLine.split(" ")[1]), headers, body: body.toString("utf8") });
    };
    socket.on("data", (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      parse(false);
    });
    socket.on("end", () => settled || parse(true));
    socket.on("error", (err) => settled || reject(err));
    socket.write(bytes);
  });
}

/** `n` header fields of 1 KiB each. */
function padding(n: number): string {
  let out = "";
  for (let i = 0; i < n; i++) out += `X-Pad-${i}: ${"a".repeat(1024 - 12 - String(i).length)}\r\n`;
  return out;
}

/** The answer is the error of the one table, in the envelope, telling nothing of the server's insides. */
function expectEnvelope(answer: RawAnswer, code: ErrorCode): void {
  expect(answer.status).toBe(ERRORS[code].status);
  expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
  expect(answer.headers["access-control-allow-origin"]).toBe("*");
  expect(Number(answer.headers["content-length"])).toBe(Buffer.byteLength(answer.body));
  expect(JSON.parse(answer.body)).toEqual({ error: { code, status: ERRORS[code].status, message: ERRORS[code].message } });
  // No stack frame, server path or source file.
  expect(answer.body).not.toMatch(/\bat |\/(?:work|home|tmp|usr)\/|\.(?:ts|js|mjs):|node:/);
}

describe("the Node adapter answers what it cannot hand over through the shim's error table", () => {
  let site: Site;
  let server: RunningServer;

  beforeAll(async () => {
    site = await makeSite("adapter-errors", [{ episode: episode({ episodeNumber: 1 }) }]);
    server = await serveSite(site);
  });
  afterAll(async () => {
    await server?.close();
    await removeSite(site);
  });

  it("a request line Node cannot parse gets 400 in the envelope, with CORS, on a closed connection", async () => {
    const answer = await rawRequest(server.url, "\x01\x02 nonsense\r\n\r\n");
    expect(answer.statusLine).toBe("HTTP/1.1 400 Bad Request");
    expectEnvelope(answer, "bad_request");
    expect(answer.headers.connection).toBe("close");
    // No readable path, so not known to be an API request: no Link.
    expect(answer.headers.link).toBeUndefined();
  });

  it("a header line Node cannot parse on /v1 gets 400 in the envelope, with CORS and Link", async () => {
    const answer = await rawRequest(server.url, "GET /v1 HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n");
    expectEnvelope(answer, "bad_request");
    expect(answer.headers.link).toMatch(/rel="license"/);
  });

  it("headers past the 32 KiB budget get 431 in the envelope, with CORS and Link", async () => {
    expect(MAX_HEADER_BYTES).toBe(32 * 1024);
    const answer = await rawRequest(server.url, `GET /v1/episodes HTTP/1.1\r\nHost: x\r\n${padding(40)}\r\n`);
    expect(answer.statusLine).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    expectEnvelope(answer, "request_header_fields_too_large");
    expect(answer.headers.link).toMatch(/rel="license"/);
    expect(answer.headers.connection).toBe("close");
  });

  it("headers past the budget on a page of the site get 431 as a small HTML page, with CORS and no Link", async () => {
    const answer = await rawRequest(server.url, `GET /episodes/1 HTTP/1.1\r\nHost: x\r\n${padding(40)}\r\n`);
    expect(answer.status).toBe(431);
    expect(answer.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(answer.headers["access-control-allow-origin"]).toBe("*");
    expect(answer.headers.link).toBeUndefined();
    expect(Number(answer.headers["content-length"])).toBe(Buffer.byteLength(answer.body));
    expect(answer.body).toContain(ERRORS.request_header_fields_too_large.message);
    expect(answer.body).not.toMatch(/\bat |\/(?:work|home|tmp|usr)\/|\.(?:ts|js|mjs):|node:/);
  });

  it("headers under the budget (20 KiB) are served as usual: 200", async () => {
    const answer = await rawRequest(server.url, `GET /v1/episodes HTTP/1.1\r\nHost: x\r\n${padding(20)}\r\n`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).episodes).toHaveLength(1);
  });

  it("an absolute-form target with credentials gets 400 in the envelope, with CORS and Link", async () => {
    const answer = await rawRequest(server.url, "GET http://u:p@localhost/v1 HTTP/1.1\r\nHost: localhost\r\n\r\n");
    expectEnvelope(answer, "bad_request");
    expect(answer.headers.link).toMatch(/rel="license"/);
  });

  it("an HTTP/1.1 request without Host gets 400 in the envelope (RFC 9112 §3.2)", async () => {
    const answer = await rawRequest(server.url, "GET /v1 HTTP/1.1\r\n\r\n");
    expectEnvelope(answer, "bad_request");
  });

  it("a HEAD refused by the parser gets the status and headers, no body", async () => {
    const answer = await rawRequest(server.url, `HEAD /v1 HTTP/1.1\r\nHost: x\r\n${padding(40)}\r\n`);
    expect(answer.status).toBe(431);
    expect(answer.body).toBe("");
    expect(answer.headers.link).toMatch(/rel="license"/);
  });

  describe("a failure once the handler was called", () => {
    let failing: { url: string; close(): Promise<void> };
    let handle: Shim["handle"];

    beforeAll(async () => {
      const { shim } = await createNodeHandler({ distDir: site.distDir, env: {} });
      const node = createNodeServer({ handle: (req, info) => handle(req, info), refuse: shim.refuse }, 0);
      await new Promise<void>((r) => node.listen(0, "127.0.0.1", r));
      failing = {
        url: `http://127.0.0.1:${(node.address() as AddressInfo).port}`,
        close: () => new Promise<void>((r) => (node.close(() => r()), node.closeAllConnections())),
      };
    });
    afterAll(async () => {
      await failing?.close();
    });

    it("a handler that throws anyway is answered 500 internal_error in the envelope, without its message", async () => {
      handle = () => Promise.reject(new Error("boom in /work/main/functions/handler.ts:1"));
      const answer = await rawRequest(failing.url, "GET /v1/episodes HTTP/1.1\r\nHost: x\r\n\r\n");
      expectEnvelope(answer, "internal_error");
      expect(answer.headers.link).toMatch(/rel="license"/);
      expect(answer.headers["cache-control"]).toBe("no-store");
    });

    it("an answer Node refuses to write (a header value with a line break) becomes 500 internal_error", async () => {
      handle = async () => ({ status: 200, headers: { "x-bad": "a\r\nb" }, body: new Uint8Array([1]) });
      const answer = await rawRequest(failing.url, "GET /v1 HTTP/1.1\r\nHost: x\r\n\r\n");
      expectEnvelope(answer, "internal_error");
      expect(answer.headers["x-bad"]).toBeUndefined();
    });

    it("a stream that fails after the headers went out cuts the connection: no second answer", async () => {
      let sent = false;
      handle = async () => ({
        status: 200,
        headers: { "content-type": "audio/mpeg", "content-length": "10" },
        body: new ReadableStream<Uint8Array>({
          pull: async (c) => {
            // The first bytes go out with the headers; the upstream fails a moment later.
            if (sent) return void (await new Promise((r) => setTimeout(r, 50)), c.error(new Error("upstream gone")));
            sent = true;
            c.enqueue(new TextEncoder().encode("ab"));
          },
        }),
      });
      const answer = await rawRequest(failing.url, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
      // The client sees 2 of the 10 bytes announced, then the close: a cut answer, not a second one.
      expect(answer.status).toBe(200);
      expect(answer.body).toBe("ab");
    });
  });
});

describe("the request line of a request Node's parser rejected", () => {
  const line = (text: string) => requestLineOf(Buffer.from(text, "latin1"));
  it.each([
    ["GET /v1/episodes HTTP/1.1\r\nHost: x\r\n", { method: "GET", path: "/v1/episodes" }],
    ["HEAD /v1?x=1 HTTP/1.1\r\n", { method: "HEAD", path: "/v1" }],
    ["GET /v1 HTTP/1.1 junk\r\n", { method: "GET", path: "/v1" }],
    ["GET http://u:p@example.com/v1/ HTTP/1.1\r\n", { method: "GET", path: "/v1/" }],
    ["GET //v1 HTTP/1.1\r\n", { method: "GET", path: "//v1" }],
  ])("is read when the bytes start with one: %j", (text, expected) => {
    expect(line(text)).toEqual(expected);
  });
  it.each([
    ["\x01\x02 nonsense\r\n"],
    ["GET\r\n"],
    ["X-Pad-3: aaaa\r\n"],
  ])("is unknown (null path) otherwise: %j", (text) => {
    expect(line(text).path).toBeNull();
  });
  it("is unknown without bytes", () => {
    expect(requestLineOf(undefined)).toEqual({ method: "GET", path: null });
  });
});
