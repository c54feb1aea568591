// The S3 audio backend (functions/node/s3-storage.ts) against Miniflare's local R2 bucket served as
// an S3 endpoint: byte-exact explicit ranges, head of missing keys, fast failure when storage is
// gone or hung, presigned URLs whose signature covers the response headers, and streams that
// error (never end short) when storage fails mid-read or the client hangs up.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { S3AudioStorage, type S3StorageOptions } from "../../functions/node/s3-storage.ts";
import { longTone, sameBytes } from "../support/http.ts";
import { R2_BUCKET, R2_CREDENTIALS, s3EndpointOf, startLocalR2, type LocalR2 } from "../support/local-r2.ts";
import { freePort, startTcpProxy, type TcpProxy } from "../support/tcp-proxy.ts";

const AUDIO = longTone(20); // ~220 KB: several network chunks
const KEY = "audio/3f8e2c1a-0000-4000-8000-000000000001.mp3";

let r2: LocalR2;
let proxy: TcpProxy;
const storages: S3AudioStorage[] = [];

function storage(endpoint: string, overrides: Partial<S3StorageOptions> = {}): S3AudioStorage {
  const s = new S3AudioStorage({ bucket: R2_BUCKET, endpoint, region: "auto", forcePathStyle: true, presignSeconds: 300, credentials: R2_CREDENTIALS, ...overrides });
  storages.push(s);
  return s;
}

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: PromiseSettledResult<T> }> {
  const start = performance.now();
  const [result] = await Promise.allSettled([work()]);
  return { ms: performance.now() - start, result: result! };
}

beforeAll(async () => {
  r2 = await startLocalR2();
  await r2.put(KEY, AUDIO);
  proxy = await startTcpProxy(Number(new URL(r2.origin).port));
});
afterAll(async () => {
  for (const s of storages) s.close();
  await proxy?.stop();
  await r2?.dispose();
});

describe("reads", () => {
  it("reports the size and the strong ETag of an object, and null for a missing key", async () => {
    const s = storage(r2.endpoint);
    const head = await s.head(KEY);
    expect(head?.size).toBe(AUDIO.byteLength);
    expect(head?.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(await s.head("audio/missing.mp3")).toBeNull();
  });

  it.each([
    ["the first bytes", 0, 99],
    ["the middle", 100_000, 150_000],
    ["the last byte", AUDIO.byteLength - 1, AUDIO.byteLength - 1],
    ["the whole file", 0, AUDIO.byteLength - 1],
  ])("reads %s byte for byte", async (_, first, last) => {
    const s = storage(r2.endpoint);
    const got = await bytesOf(await s.read(KEY, first, last, new AbortController().signal));
    expect(got.byteLength).toBe(last - first + 1);
    expect(sameBytes(got, AUDIO.subarray(first, last + 1))).toBe(true);
  });

  it("refuses to read a key that does not exist rather than stream an error body", async () => {
    await expect(storage(r2.endpoint).read("audio/missing.mp3", 0, 9, new AbortController().signal)).rejects.toThrow();
  });
});

describe("storage unreachable", () => {
  it("throws from head within 1 s when nothing listens on the port", async () => {
    const s = storage(s3EndpointOf(`http://127.0.0.1:${await freePort()}`));
    const { ms, result } = await timed(() => s.head(KEY));
    expect(result.status).toBe("rejected");
    expect(ms).toBeLessThan(1000);
  });

  it("throws from head and read within 1 s once the Miniflare behind it is disposed", async () => {
    const other = await startLocalR2();
    await other.put(KEY, AUDIO);
    const s = storage(other.endpoint);
    expect((await s.head(KEY))?.size).toBe(AUDIO.byteLength);
    await other.dispose();
    const head = await timed(() => s.head(KEY));
    expect(head.result.status).toBe("rejected");
    expect(head.ms).toBeLessThan(1000);
    const read = await timed(() => s.read(KEY, 0, 9, new AbortController().signal));
    expect(read.result.status).toBe("rejected");
    expect(read.ms).toBeLessThan(1000);
  });

  it("gives up on a storage that accepts connections but never answers, within its request budget", async () => {
    proxy.hang(true);
    try {
      const s = storage(s3EndpointOf(proxy.origin), { requestTimeoutMs: 200 });
      const { ms, result } = await timed(() => s.head(KEY));
      expect(result.status).toBe("rejected");
      // Two attempts of 200 ms and the SDK's backoff between them.
      expect(ms).toBeLessThan(1000);
    } finally {
      proxy.hang(false);
    }
  });
});

describe("streams that fail", () => {
  it("errors the stream, never ends it short, when storage drops the connection mid-body", async () => {
    proxy.cutAfter(50_000);
    try {
      const s = storage(s3EndpointOf(proxy.origin));
      const stream = await s.read(KEY, 0, AUDIO.byteLength - 1, new AbortController().signal);
      await expect(bytesOf(stream)).rejects.toThrow();
    } finally {
      proxy.cutAfter(null);
    }
  });

  it("stops the storage read when the signal aborts mid-read: the stream errors at once", async () => {
    const s = storage(r2.endpoint);
    const abort = new AbortController();
    const reader = (await s.read(KEY, 0, AUDIO.byteLength - 1, abort.signal)).getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    abort.abort();
    const start = performance.now();
    await expect((async () => {
      while (!(await reader.read()).done);
    })()).rejects.toThrow();
    expect(performance.now() - start).toBeLessThan(500);
  });

  it("rejects a read whose signal is already aborted, and lets a reader cancel", async () => {
    const s = storage(r2.endpoint);
    const aborted = new AbortController();
    aborted.abort();
    await expect(s.read(KEY, 0, 9, aborted.signal)).rejects.toThrow();
    const stream = await s.read(KEY, 0, AUDIO.byteLength - 1, new AbortController().signal);
    const reader = stream.getReader();
    await reader.read();
    await expect(reader.cancel()).resolves.toBeUndefined();
  });
});

describe("presigned URLs", () => {
  const DISPOSITION = `attachment; filename="fixture-show-001-episode.mp3"`;

  it("serves the object's bytes, and signs the audio type, the file name and the expiry", async () => {
    const s = storage(r2.endpoint, { presignSeconds: 120 });
    const url = new URL(await s.presign(KEY, DISPOSITION));
    expect(url.searchParams.get("response-content-type")).toBe("audio/mpeg");
    expect(url.searchParams.get("response-content-disposition")).toBe(DISPOSITION);
    expect(url.searchParams.get("X-Amz-Expires")).toBe("120");
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(sameBytes(new Uint8Array(await res.arrayBuffer()), AUDIO)).toBe(true);
    // Miniflare stores and serves the object's own metadata and ignores the response-* overrides
    // (S3 and R2 apply them), so the headers themselves cannot be checked here; that they are
    // signed, and so cannot be changed by whoever holds the URL, is checked below.
  });

  it("answers 403 when one character of the signature is altered", async () => {
    const url = new URL(await storage(r2.endpoint).presign(KEY, DISPOSITION));
    const signature = url.searchParams.get("X-Amz-Signature")!;
    url.searchParams.set("X-Amz-Signature", `${signature[0] === "0" ? "1" : "0"}${signature.slice(1)}`);
    const res = await fetch(url);
    await res.arrayBuffer();
    expect(res.status).toBe(403);
  });

  it("answers 403 when the file name or the type is changed", async () => {
    const s = storage(r2.endpoint);
    for (const [name, value] of [
      ["response-content-disposition", `attachment; filename="other.mp3"`],
      ["response-content-type", "text/html"],
    ] as const) {
      const url = new URL(await s.presign(KEY, DISPOSITION));
      url.searchParams.set(name, value);
      const res = await fetch(url);
      await res.arrayBuffer();
      expect(res.status, name).toBe(403);
    }
  });
});
