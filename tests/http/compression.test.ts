// Compression (docs/api.md#compression), on both targets: the coding Accept-Encoding negotiates (br
// preferred, then gzip, q-values honoured, the plain body otherwise), each representation's own
// strong ETag and its 304, Vary, HEAD, audio never encoded. Responses are read raw (node:http, which
// neither asks for nor decodes a coding), decoded by node:zlib, and by real decoders: curl
// --compressed and Chromium, which list gzip before br and get br.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../functions/node/main.ts";
import { episode, sharedSite, removeSite, script, serveSite, type Site } from "../support/fixture.ts";
import { NO_LIMITS, rawRequest, sameBytes, TONE, type RawReply } from "../support/http.ts";
import { closeContexts, sharedChromium } from "../browser/support/browser.ts";

const run = promisify(execFile);

const LINES: [string, string][] = Array.from({ length: 40 }, (_, i) => [i % 2 ? "b" : "a", `Line ${i}: the signing key leaked, and the rotation took a week because nobody owned it.`]);
const one = episode({ episodeNumber: 1, title: "Leaked Signing Key", summary: "Why the rotation took a week, and what owning a key means." });
const two = episode({ episodeNumber: 2, title: "Second Episode" });

let site: Site;
let server: RunningServer;

beforeAll(async () => {
  site = await sharedSite("compression", [{ episode: one, script: script(LINES), audio: TONE }, { episode: two }]);
  server = await serveSite(site, { env: NO_LIMITS });
});
afterAll(async () => {
  await server?.close();
  await removeSite(site);
});

type Raw = RawReply;

/** One request with exactly these headers (node:http adds no Accept-Encoding and decodes nothing). */
const raw = (path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> => rawRequest(server.url, path, headers, method);

function decode(r: Raw): Buffer {
  const coding = r.headers["content-encoding"];
  if (coding === "br") return brotliDecompressSync(r.body);
  if (coding === "gzip") return gunzipSync(r.body);
  expect(coding).toBeUndefined();
  return r.body;
}

/** The representation's ETag: the plain body's with the coding's suffix inside the quotes. */
const tagged = (plain: string, suffix: string) => `${plain.slice(0, -1)}${suffix}"`;

/**
 * A resource of every compressible route family. The other suites ask for the plain bytes
 * (tests/support/http.ts `call`), so the codings of each family are checked here; the timed forms'
 * in tests/http/timed.test.ts.
 */
const RESOURCES: [name: string, path: string, type: string][] = [
  ["the discovery document", "/v1", "application/json; charset=utf-8"],
  ["the OpenAPI document", "/v1/openapi.json", "application/json; charset=utf-8"],
  ["an episode's JSON", "/v1/episodes/1", "application/json; charset=utf-8"],
  ["a list page", "/v1/episodes?limit=2", "application/json; charset=utf-8"],
  ["a script", "/v1/episodes/1/script", "application/json; charset=utf-8"],
  ["a transcript", "/v1/episodes/1/transcript", "text/plain; charset=utf-8"],
  ["an HTML page", "/episodes/1", "text/html; charset=utf-8"],
  ["the home page", "/", "text/html; charset=utf-8"],
  ["the archive", "/episodes", "text/html; charset=utf-8"],
  ["the terms", "/terms", "text/html; charset=utf-8"],
  ["a player", "/embed/1", "text/html; charset=utf-8"],
  ["an oEmbed answer", `/oembed?url=${encodeURIComponent("http://localhost:4321/episodes/1")}`, "application/json; charset=utf-8"],
  ["the feed", "/feed.xml", "application/rss+xml; charset=utf-8"],
  ["the JSON Feed", "/feed.json", "application/feed+json; charset=utf-8"],
  ["the sitemap", "/sitemap.xml", "application/xml; charset=utf-8"],
  ["llms.txt", "/llms.txt", "text/plain; charset=utf-8"],
];

describe.each(RESOURCES)("%s", (_name, path, type) => {
  let plain: Raw;
  beforeAll(async () => {
    plain = await raw(path);
  });

  it("without Accept-Encoding is the plain body with its length, its ETag and Vary: Accept-Encoding", () => {
    expect(plain.status).toBe(200);
    expect(plain.headers["content-type"]).toBe(type);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(Number(plain.headers["content-length"])).toBe(plain.body.byteLength);
    expect(plain.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(plain.headers.vary).toBe("Accept-Encoding");
  });

  it.each([
    ["br", "br", ".br"],
    ["gzip", "gzip", ".gz"],
    // The order of the list says nothing (RFC 9110 §12.5.3): br is preferred, as browsers expect.
    ["gzip, deflate, br", "br", ".br"],
    ["gzip, deflate, br, zstd", "br", ".br"],
    ["br;q=0, gzip", "gzip", ".gz"],
    ["gzip, br;q=0.5", "gzip", ".gz"],
    ["gzip;q=0.5, br", "br", ".br"],
    ["x-gzip", "gzip", ".gz"],
    ["BR", "br", ".br"],
  ])("Accept-Encoding: %s gets %s, smaller, under its own strong ETag, decoding to the plain body", async (header, coding, suffix) => {
    const r = await raw(path, { "Accept-Encoding": header });
    expect(r.status).toBe(200);
    expect(r.headers["content-encoding"]).toBe(coding);
    expect(r.headers.vary).toBe("Accept-Encoding");
    expect(r.headers.etag).toBe(tagged(plain.headers.etag!, suffix));
    expect(r.body.byteLength).toBeLessThan(plain.body.byteLength);
    expect(decode(r).equals(plain.body)).toBe(true);
  });

  it.each([["identity"], [""], ["deflate"], ["br;q=0, gzip;q=0"], ["gzip;q=0.5, identity"], ["*;q=0, identity"]])(
    "Accept-Encoding: %j gets the plain body",
    async (header) => {
      const r = await raw(path, { "Accept-Encoding": header });
      expect(r.status).toBe(200);
      expect(r.headers["content-encoding"]).toBeUndefined();
      expect(r.headers.etag).toBe(plain.headers.etag);
      expect(r.headers.vary).toBe("Accept-Encoding");
      expect(r.body.equals(plain.body)).toBe(true);
    },
  );

  it("answers 304 to the representation the request would get, never to another one's ETag", async () => {
    const br = await raw(path, { "Accept-Encoding": "br" });
    const gz = await raw(path, { "Accept-Encoding": "gzip" });
    const hit = await raw(path, { "Accept-Encoding": "br", "If-None-Match": br.headers.etag! });
    expect(hit.status).toBe(304);
    expect(hit.headers.etag).toBe(br.headers.etag);
    expect(hit.headers.vary).toBe("Accept-Encoding");
    expect(hit.body.byteLength).toBe(0);
    // A browser's list gets br, so the br tag is its own.
    const browser = await raw(path, { "Accept-Encoding": "gzip, deflate, br", "If-None-Match": br.headers.etag! });
    expect(browser.status).toBe(304);
    expect(browser.headers.etag).toBe(br.headers.etag);
    // A gzip-only client revalidating with the br tag gets its own representation in full.
    const miss = await raw(path, { "Accept-Encoding": "gzip", "If-None-Match": br.headers.etag! });
    expect(miss.status).toBe(200);
    expect(miss.headers.etag).toBe(gz.headers.etag);
    expect((await raw(path, { "Accept-Encoding": "gzip", "If-None-Match": gz.headers.etag! })).status).toBe(304);
    expect((await raw(path, { "If-None-Match": plain.headers.etag! })).status).toBe(304);
    expect((await raw(path, { "Accept-Encoding": "br", "If-None-Match": plain.headers.etag! })).status).toBe(200);
  });

  it("answers HEAD with the headers of GET in the same coding, and no body", async () => {
    for (const header of ["br", "gzip", "identity"]) {
      const get = await raw(path, { "Accept-Encoding": header });
      const head = await raw(path, { "Accept-Encoding": header }, "HEAD");
      expect(head.status).toBe(200);
      expect(head.body.byteLength).toBe(0);
      for (const name of ["etag", "content-type", "content-encoding", "content-length", "vary", "cache-control"]) {
        expect(head.headers[name], `${header} ${name}`).toBe(get.headers[name]);
      }
    }
  });
});

describe("audio", () => {
  it.each(["/v1/episodes/1/audio", `/media/${one.id}.mp3`])("%s is never encoded, whatever the client accepts, and Range still applies", async (path) => {
    const whole = await raw(path, { "Accept-Encoding": "br, gzip" });
    expect(whole.status).toBe(200);
    expect(whole.headers["content-encoding"]).toBeUndefined();
    expect(whole.headers.vary).toBeUndefined();
    expect(sameBytes(whole.body, TONE)).toBe(true);
    const part = await raw(path, { "Accept-Encoding": "br, gzip", Range: "bytes=0-9" });
    expect(part.status).toBe(206);
    expect(part.headers["content-encoding"]).toBeUndefined();
    expect(part.headers["content-range"]).toBe(`bytes 0-9/${TONE.byteLength}`);
    expect(sameBytes(part.body, TONE.subarray(0, 10))).toBe(true);
  });
});

describe("refusals the shim does not turn into errors", () => {
  it("identity;q=0 with no acceptable coding still gets the plain body, never 406", async () => {
    const plain = await raw("/v1/episodes/1");
    const r = await raw("/v1/episodes/1", { "Accept-Encoding": "identity;q=0, deflate" });
    expect(r.status).toBe(200);
    expect(r.headers["content-encoding"]).toBeUndefined();
    expect(r.body.equals(plain.body)).toBe(true);
  });

  // Cloudflare's front line may still compress a 403 or 404 itself (docs/deploy.md); the shim never does.
  it("errors in the envelope are sent plain, with their length", async () => {
    const r = await raw("/v1/episodes/999", { "Accept-Encoding": "br, gzip" });
    expect(r.status).toBe(404);
    expect(r.headers["content-encoding"]).toBeUndefined();
    expect(Number(r.headers["content-length"])).toBe(r.body.byteLength);
  });
});

describe("curl --compressed", () => {
  it.each(RESOURCES)("reads %s encoded and decodes it to the plain body", async (_name, path) => {
    const plain = await raw(path);
    const dir = await mkdtemp(join(tmpdir(), "compressed-"));
    try {
      // curl's own Accept-Encoding ("deflate, gzip, br, zstd"), which gets br, then one coding at a
      // time: three transfers of one curl process, `--next` giving each its own options.
      const asked = [null, "gzip", "br"] as const;
      const args = asked.flatMap((only, i) => [
        ...(i > 0 ? ["--next"] : []),
        ...["-sS", "--compressed", "-D", join(dir, `headers-${i}`), "-o", join(dir, `body-${i}`)],
        ...(only !== null ? ["-H", `Accept-Encoding: ${only}`] : []),
        `${server.url}${path}`,
      ]);
      await run("curl", args);
      for (const [i, only] of asked.entries()) {
        const coding = /^content-encoding:\s*(\S+)/im.exec(await readFile(join(dir, `headers-${i}`), "latin1"))?.[1];
        expect(coding, String(only)).toBe(only ?? "br");
        expect((await readFile(join(dir, `body-${i}`))).equals(plain.body), String(only)).toBe(true);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("Chromium", () => {
  it("receives the pages, JSON and transcript in br and reads them as the plain bodies", async () => {
    const browser = await sharedChromium();
    try {
      const page = await browser.newPage();
      for (const [name, path] of RESOURCES) {
        const plain = await raw(path);
        const res = await page.goto(`${server.url}${path}`);
        expect(res?.status(), name).toBe(200);
        // Chromium sends "gzip, deflate, br, zstd".
        expect((await res!.allHeaders())["content-encoding"], name).toBe("br");
        expect(Buffer.from(await res!.body()).equals(plain.body), name).toBe(true);
      }
    } finally {
      await closeContexts(browser);
    }
  });
});
