// GET /v1/episodes/<ref>/audio and the direct audioUrl /media/<file> (docs/api.md#get-v1episodesrefaudio, docs/api.md#get-mediafile): whole file,
// single and multiple ranges (RFC 9110 §14), 416, If-Range, HEAD, Content-Disposition, byte-exact.
import { createHash, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { openFilesUnder } from "../support/open-files.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../functions/node/main.ts";
import { strongEtag } from "../../src/shared/etag.ts";
import { episode, sharedSite, PODCAST, removeSite, serveSite, type Site } from "../support/fixture.ts";
import { call, expectError, json, longTone, NO_LIMITS, partsOf, sameBytes, TONE, type Reply } from "../support/http.ts";

const SHOW = { ...PODCAST, title: "Signal and Noise", slug: "signal-and-noise" };
const ascii = episode({ episodeNumber: 42, title: "Leaked Signing Key: What Now?" });
const unicode = episode({ episodeNumber: 43, title: "Café über naïve — 東京" });
const big = episode({ episodeNumber: 44, title: "Big one" });
const silent = episode({ episodeNumber: 45, title: "No audio yet" });
const unnumbered = episode({ episodeNumber: null, title: "Unnumbered" });
const BIG = longTone(40);
/** Larger than what loopback socket buffers absorb, so a download is still reading when the client leaves. */
const HUGE = longTone(800);
const huge = episode({ episodeNumber: 46, title: "Huge one" });
const SIZE = TONE.byteLength;
/** The one form of the audio's ETag: the strong tag of the file's SHA-256, whatever the build. */
const audioTag = (file: Uint8Array) => strongEtag(createHash("sha256").update(file).digest());

let site: Site;
let server: RunningServer;

beforeAll(async () => {
  site = await sharedSite(
    "audio",
    [
      { episode: ascii, audio: TONE },
      { episode: unicode, audio: TONE },
      { episode: big, audio: BIG },
      { episode: silent },
      { episode: huge, audio: HUGE },
      { episode: unnumbered, audio: TONE },
    ],
    {},
    SHOW,
  );
  server = await serveSite(site, { env: NO_LIMITS });
});
afterAll(async () => {
  await server?.close();
  await removeSite(site);
});

const AUDIO = "/v1/episodes/42/audio";
const get = (p: string, headers: Record<string, string> = {}, method = "GET") => call(server.url, p, { method, headers });
const range = (value: string, p = AUDIO) => get(p, { Range: value });

function expectWhole(r: Reply, file: Uint8Array = TONE): void {
  expect(r.status, r.text.slice(0, 200)).toBe(200);
  expect(r.headers.get("content-type")).toBe("audio/mpeg");
  expect(r.headers.get("content-length")).toBe(String(file.byteLength));
  expect(r.headers.get("content-range")).toBeNull();
  expect(sameBytes(r.bytes, file)).toBe(true);
}

function single(r: Reply, start: number, end: number, file: Uint8Array = TONE): void {
  const parts = partsOf(r, file);
  expect(parts.map((p) => [p.start, p.end])).toEqual([[start, end]]);
  expect(r.headers.get("content-range")).toBe(`bytes ${start}-${end}/${file.byteLength}`);
}

describe("GET /v1/episodes/<ref>/audio: whole file", () => {
  it("answers 200 audio/mpeg with the file's exact bytes, Accept-Ranges: bytes and a strong ETag", async () => {
    const r = await get(AUDIO);
    expectWhole(r);
    expect(r.headers.get("accept-ranges")).toBe("bytes");
    expect(r.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
  });

  it("its ETag is the strong tag of the file's SHA-256: the same bytes have the same ETag in every build", async () => {
    expect((await get(AUDIO)).headers.get("etag")).toBe(audioTag(TONE));
    expect((await get("/v1/episodes/43/audio", {}, "HEAD")).headers.get("etag")).toBe(audioTag(TONE));
    expect((await get("/v1/episodes/44/audio", {}, "HEAD")).headers.get("etag")).toBe(audioTag(BIG));
    expect(audioTag(BIG)).not.toBe(audioTag(TONE));
  });

  it("is never compressed, whatever the client accepts", async () => {
    const r = await get(AUDIO, { "Accept-Encoding": "gzip, deflate, br, zstd" });
    expectWhole(r);
    expect(r.headers.get("content-encoding")).toBeNull();
  });

  it("keeps the same ETag from request to request and by UUID", async () => {
    const a = await get(AUDIO);
    const b = await get(`/v1/episodes/${String(ascii.id).toUpperCase()}/audio`);
    expectWhole(b);
    expect(b.headers.get("etag")).toBe(a.headers.get("etag"));
  });

  it("streams a file larger than the server's buffers byte for byte", async () => {
    expectWhole(await get("/v1/episodes/44/audio"), BIG);
  });

  it("survives a client that hangs up in the middle of a download", async () => {
    const abort = new AbortController();
    const res = await fetch(`${server.url}/v1/episodes/44/audio`, { signal: abort.signal });
    const reader = res.body!.getReader();
    await reader.read();
    abort.abort();
    await reader.read().catch(() => {});
    expectWhole(await get("/v1/episodes/44/audio"), BIG);
  });

  it.skipIf(!existsSync("/proc/self/fd"))("stops reading the file when the client hangs up mid-download", async () => {
    // The server runs in this process: its open audio files are visible in /proc/self/fd.
    const openAudio = () => openFilesUnder(site.distDir, ".mp3");
    expect(openAudio()).toBe(0);
    const aborts = Array.from({ length: 4 }, () => new AbortController());
    for (const abort of aborts) {
      const res = await fetch(`${server.url}/v1/episodes/46/audio`, { signal: abort.signal, headers: { Range: "bytes=1000-" } });
      await res.body!.getReader().read();
    }
    expect(openAudio()).toBeGreaterThan(0);
    for (const abort of aborts) abort.abort();
    // Wait for the server to notice the hang-ups; a server that kept reading would hold the files open.
    for (let i = 0; i < 100 && openAudio() > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(openAudio()).toBe(0);
    expectWhole(await get("/v1/episodes/46/audio"), HUGE);
  });

  it("answers 404 not_found for an episode without audio", async () => {
    expectError(await get("/v1/episodes/45/audio"), 404, "not_found");
  });
});

describe("GET /v1/episodes/<ref>/audio: single ranges", () => {
  it("answers bytes=0-99 with 206 and Content-Range bytes 0-99/<size>", async () => {
    const r = await range("bytes=0-99");
    single(r, 0, 99);
    expect(r.headers.get("content-length")).toBe("100");
    expect(r.headers.get("accept-ranges")).toBe("bytes");
    expect(r.headers.get("etag")).toBe(audioTag(TONE));
  });

  it("answers a single byte range bytes=0-0", async () => single(await range("bytes=0-0"), 0, 0));

  it("answers the suffix range bytes=-100 with the last 100 bytes", async () => single(await range("bytes=-100"), SIZE - 100, SIZE - 1));

  it("answers a suffix longer than the file with the whole file as 206", async () => single(await range(`bytes=-${SIZE + 50}`), 0, SIZE - 1));

  it("answers the open range bytes=100- up to the last byte", async () => single(await range("bytes=100-"), 100, SIZE - 1));

  it("clamps an end past the file to the last byte", async () => single(await range(`bytes=${SIZE - 10}-${SIZE + 1000}`), SIZE - 10, SIZE - 1));

  it("answers the last byte exactly", async () => single(await range(`bytes=${SIZE - 1}-${SIZE - 1}`), SIZE - 1, SIZE - 1));

  it("serves a range across the server's read chunks of a large file byte for byte", async () => {
    single(await range("bytes=60000-400000", "/v1/episodes/44/audio"), 60000, 400000, BIG);
  });

  it("compares the range unit case-insensitively (RFC 9110 §14.1)", async () => single(await range("BYTES=10-19"), 10, 19));
});

describe("GET /v1/episodes/<ref>/audio: unsatisfiable ranges", () => {
  it.each([`bytes=${SIZE}-`, "bytes=-0", `bytes=${SIZE + 100}-${SIZE + 200}`, `bytes=${SIZE}-${SIZE}`])(
    "%s answers 416 range_not_satisfiable with Content-Range: bytes */<size>",
    async (value) => {
      const r = await range(value);
      expectError(r, 416, "range_not_satisfiable");
      expect(r.headers.get("content-range")).toBe(`bytes */${SIZE}`);
      expect(r.headers.get("access-control-allow-origin")).toBe("*");
    },
  );
});

describe("GET /v1/episodes/<ref>/audio: ranges that are ignored", () => {
  it.each(["bytes=abc", "bytes=5-2", "bytes=", "bytes=-", "bytes=--5", "bytes=1-2-3", "items=0-10", "bytes 0-10", "0-10", "bytes=0x10-0x20", "bytes=1.5-3"])(
    "the invalid or foreign Range %j gets the whole file with 200",
    async (value) => expectWhole(await range(value)),
  );

  it("HEAD ignores Range and states the whole file", async () => {
    const r = await get(AUDIO, { Range: "bytes=0-99" }, "HEAD");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-length")).toBe(String(SIZE));
    expect(r.headers.get("content-range")).toBeNull();
    expect(r.bytes.byteLength).toBe(0);
  });

  it("HEAD with an unsatisfiable Range still answers 200", async () => {
    const r = await get(AUDIO, { Range: `bytes=${SIZE}-` }, "HEAD");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-length")).toBe(String(SIZE));
  });
});

describe("GET /v1/episodes/<ref>/audio: several ranges", () => {
  it("answers a correct multipart/byteranges 206 with every requested range", async () => {
    const r = await range("bytes=0-9, 20-29, -5");
    expect(r.headers.get("content-type")).toMatch(/^multipart\/byteranges; boundary=/);
    const parts = partsOf(r, TONE);
    expect(parts.map((p) => [p.start, p.end])).toEqual([
      [0, 9],
      [20, 29],
      [SIZE - 5, SIZE - 1],
    ]);
    expect(r.headers.get("content-range")).toBeNull();
  });

  it("serves large parts of a large file in a multipart body byte for byte", async () => {
    const r = await range("bytes=1000-200000,300000-", "/v1/episodes/44/audio");
    const parts = partsOf(r, BIG);
    expect(parts.map((p) => [p.start, p.end])).toEqual([
      [1000, 200000],
      [300000, BIG.byteLength - 1],
    ]);
  });

  it("never repeats bytes for overlapping ranges and covers them all", async () => {
    const r = await range("bytes=0-50,40-60,100-110");
    const parts = partsOf(r, TONE);
    const covered = new Set<number>();
    for (const p of parts) for (let i = p.start; i <= p.end; i++) {
      expect(covered.has(i)).toBe(false);
      covered.add(i);
    }
    for (let i = 0; i <= 60; i++) expect(covered.has(i)).toBe(true);
    for (let i = 100; i <= 110; i++) expect(covered.has(i)).toBe(true);
  });

  it("drops unsatisfiable ranges from a set that has a satisfiable one", async () => {
    const r = await range(`bytes=0-9,${SIZE + 10}-${SIZE + 20}`);
    const parts = partsOf(r, TONE);
    expect(parts.map((p) => [p.start, p.end])).toEqual([[0, 9]]);
  });
});

describe("GET /v1/episodes/<ref>/audio: If-Range", () => {
  it("honours the range when If-Range carries the current strong ETag", async () => {
    const etag = (await get(AUDIO, {}, "HEAD")).headers.get("etag")!;
    single(await get(AUDIO, { Range: "bytes=0-99", "If-Range": etag }), 0, 99);
  });

  it.each([
    ["a weak copy of the current ETag", (etag: string) => `W/${etag}`],
    ["a stale ETag", () => '"stale-validator"'],
    ["an HTTP date", () => "Wed, 21 Oct 2015 07:28:00 GMT"],
    ["the ETag without quotes", (etag: string) => etag.slice(1, -1)],
  ])("sends the whole file with 200 when If-Range carries %s", async (_, make) => {
    const etag = (await get(AUDIO, {}, "HEAD")).headers.get("etag")!;
    expectWhole(await get(AUDIO, { Range: "bytes=0-99", "If-Range": make(etag) }));
  });
});

describe("GET /v1/episodes/<ref>/audio: Content-Disposition", () => {
  it("download=1 gives an attachment with a descriptive file name <show>-<number>-<title>.mp3", async () => {
    const r = await get(`${AUDIO}?download=1`);
    expectWhole(r);
    expect(r.headers.get("content-disposition")).toBe('attachment; filename="signal-and-noise-042-leaked-signing-key-what-now.mp3"');
  });

  it.each(["0", "true", "yes", "", "2", "1x"])("download=%j gives an inline response", async (value) => {
    const r = await get(`${AUDIO}?download=${value}`);
    expectWhole(r);
    expect(r.headers.get("content-disposition")).toMatch(/^inline(;|$)/);
  });

  it("no download parameter gives an inline response", async () => {
    expect((await get(AUDIO)).headers.get("content-disposition")).toMatch(/^inline(;|$)/);
  });

  it("a non-ASCII title gets an ASCII filename and an RFC 8187 filename* that keeps its letters", async () => {
    const value = (await get("/v1/episodes/43/audio?download=1")).headers.get("content-disposition")!;
    expect(value).toMatch(/^attachment;/);
    const plain = /filename="([^"]*)"/.exec(value);
    expect(plain).not.toBeNull();
    expect(plain![1]).toMatch(/^[\x20-\x7e]+$/);
    expect(plain![1]).toMatch(/^signal-and-noise-043-cafe-uber-naive.*\.mp3$/);
    const extended = /filename\*=UTF-8''([^;\s]+)/i.exec(value);
    expect(extended).not.toBeNull();
    const decoded = decodeURIComponent(extended![1]!);
    expect(decoded).toMatch(/^signal-and-noise-043-/);
    expect(decoded).toContain("café");
    expect(decoded).toContain("東京");
    expect(decoded.endsWith(".mp3")).toBe(true);
  });

  it("an ASCII title needs no filename*", async () => {
    expect((await get(`${AUDIO}?download=1`)).headers.get("content-disposition")).not.toContain("filename*");
  });

  it("an episode without a number is named by its id", async () => {
    const value = (await get(`/v1/episodes/${unnumbered.id}/audio?download=1`)).headers.get("content-disposition")!;
    expect(value).toMatch(new RegExp(`^attachment; filename="signal-and-noise-${String(unnumbered.id).slice(0, 8)}[^"]*unnumbered\\.mp3"`));
  });

  it("a range request of a download keeps the attachment disposition", async () => {
    const r = await get(`${AUDIO}?download=1`, { Range: "bytes=0-9" });
    single(r, 0, 9);
    expect(r.headers.get("content-disposition")).toMatch(/^attachment;/);
  });
});

describe("GET /media/<file> (the episode's audioUrl)", () => {
  async function mediaPath(ref: string): Promise<string> {
    const { audioUrl } = json(await get(`/v1/episodes/${ref}`));
    expect(typeof audioUrl).toBe("string");
    return new URL(audioUrl).pathname;
  }

  it("serves the whole file with 200 and the audio route's ETag", async () => {
    const p = await mediaPath("42");
    expect(p).toBe(`/media/${ascii.id}.mp3`);
    const r = await get(p);
    expectWhole(r);
    expect(r.headers.get("accept-ranges")).toBe("bytes");
    expect(r.headers.get("etag")).toBe((await get(AUDIO)).headers.get("etag"));
  });

  it("serves single ranges, suffix ranges and several ranges", async () => {
    const p = await mediaPath("42");
    single(await range("bytes=0-99", p), 0, 99);
    single(await range("bytes=-100", p), SIZE - 100, SIZE - 1);
    expect(partsOf(await range("bytes=0-1,5-6", p), TONE).length).toBe(2);
  });

  it("answers 416 for an unsatisfiable range", async () => {
    const r = await range(`bytes=${SIZE}-`, await mediaPath("42"));
    expect(r.status).toBe(416);
    expect(r.headers.get("content-range")).toBe(`bytes */${SIZE}`);
  });

  it("serves a large file byte for byte", async () => expectWhole(await get(await mediaPath("44")), BIG));

  it.each([`/media/${randomUUID()}.mp3`, "/media/", "/media/..%2F_api%2Findex.json", "/media/../_api/index.json", "/media/%2e%2e/_api/manifest.json"])(
    "answers 404 for %s",
    async (p) => {
      const r = await get(p);
      expect(r.status).toBe(404);
      expect(r.text).not.toContain('"episodes"');
    },
  );
});
