// HTTP helpers for the suites under tests/http: requests against a running server, the error
// envelope checks every error must pass, header comparison for HEAD, and a multipart/byteranges
// parser (RFC 9110 §14.6) to check 206 bodies byte by byte.
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { expect } from "vitest";
import { ROOT } from "./fixture.ts";

/** A small real MP3 (espeak-ng + lame, mono 22.05 kHz 32 kb/s), committed so tests need neither tool. */
export const TONE = new Uint8Array(readFileSync(path.join(ROOT, "tests/fixtures/tone.mp3")));

/** The tone repeated: still a valid MP3 stream, large enough to take the server's streaming path. */
export function longTone(times: number): Uint8Array {
  const out = new Uint8Array(TONE.byteLength * times);
  for (let i = 0; i < times; i++) out.set(TONE, i * TONE.byteLength);
  return out;
}

/** Rate limits high enough that suites about other rules never meet them. */
export const NO_LIMITS = { RATE_LIMIT_METADATA_PER_MIN: "1000000", RATE_LIMIT_AUDIO_PER_MIN: "1000000" };

export interface Reply {
  res: Response;
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  text: string;
}

/**
 * One request; the whole body is read so the connection is free for the next one. Unless the
 * request names an Accept-Encoding, it asks for the plain bytes: fetch would otherwise ask for
 * gzip, deflate and br and decode the answer, which cost this process ~1 ms of CPU a request
 * (docs/testing.md). The codings are the subject of tests/http/compression.test.ts.
 */
export async function call(base: string, pathAndQuery: string, init: RequestInit = {}): Promise<Reply> {
  const headers = new Headers(init.headers);
  if (!headers.has("accept-encoding")) headers.set("accept-encoding", "identity");
  const res = await fetch(`${base}${pathAndQuery}`, { redirect: "manual", ...init, headers });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { res, status: res.status, headers: res.headers, bytes, text: new TextDecoder().decode(bytes) };
}

/** An answer as it came over the wire: lower-case headers, the body still in its content coding. */
export interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** One request with exactly these headers: node:http adds no Accept-Encoding and decodes nothing (fetch does both). */
export function rawRequest(base: string, pathAndQuery: string, headers: Record<string, string> = {}, method = "GET"): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${pathAndQuery}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers as Record<string, string>, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

export function json<T = any>(reply: Reply): T {
  return JSON.parse(reply.text) as T;
}

/** Markers of a leaked stack trace or server path. */
const LEAKS = [/\bat\s+\S+\s+\(/, /\.ts:\d+/, /\.m?js:\d+/, /node_modules/, /\/work\//, /\/home\//, /\/tmp\//, /file:\/\//, /Error:/];

/** Asserts the error envelope of docs/api.md#errors and returns its `error` member. */
export function expectError(reply: Reply, status: number, code: string): { code: string; message: string; status: number; parameter?: string } {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.headers.get("content-type")).toBe("application/json; charset=utf-8");
  const body = json<{ error: { code: string; message: string; status: number; parameter?: string } }>(reply);
  expect(Object.keys(body)).toEqual(["error"]);
  expect(body.error.code).toBe(code);
  expect(body.error.status).toBe(status);
  expect(typeof body.error.message).toBe("string");
  expect(body.error.message.length).toBeGreaterThan(0);
  for (const leak of LEAKS) expect(reply.text).not.toMatch(leak);
  return body.error;
}

/** Asserts a 400 that names its parameter in the message and in `error.parameter`. */
export function expectBadParameter(reply: Reply, code: string, parameter: string): void {
  const error = expectError(reply, 400, code);
  expect(error.parameter).toBe(parameter);
  expect(error.message).toContain(parameter);
}

/** Headers that legitimately differ between two requests to the same resource. */
const VOLATILE = new Set(["date", "connection", "keep-alive", "ratelimit", "transfer-encoding"]);

export function stableHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((v, k) => {
    if (!VOLATILE.has(k)) out[k] = v;
  });
  return out;
}

export const EXPOSED = ["ETag", "Link", "Retry-After", "Content-Range", "Content-Disposition", "Accept-Ranges", "RateLimit", "RateLimit-Policy"];

/** CORS of every response (docs/api.md#http-behaviour). */
export function expectCors(headers: Headers): void {
  expect(headers.get("access-control-allow-origin")).toBe("*");
  const exposed = (headers.get("access-control-expose-headers") ?? "").split(",").map((s) => s.trim().toLowerCase());
  for (const name of EXPOSED) expect(exposed, `Access-Control-Expose-Headers lacks ${name}`).toContain(name.toLowerCase());
}

export function expectLicense(headers: Headers, terms: string): void {
  expect(headers.get("link")).toBe(`<${terms}>; rel="license"`);
}

export interface Part {
  start: number;
  end: number;
  size: number;
  type: string | null;
  bytes: Uint8Array;
}

function indexOf(hay: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = from; i <= hay.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

function contentRange(value: string | null): { start: number; end: number; size: number } {
  const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(value ?? "");
  expect(m, `Content-Range '${value}'`).not.toBeNull();
  return { start: Number(m![1]), end: Number(m![2]), size: Number(m![3]) };
}

/** Parses a multipart/byteranges body strictly: boundaries, part headers, CRLFs, closing delimiter. */
export function parseByteranges(contentType: string, body: Uint8Array): Part[] {
  const m = /^multipart\/byteranges;\s*boundary=("?)([^";]+)\1$/i.exec(contentType);
  expect(m, `Content-Type '${contentType}'`).not.toBeNull();
  const enc = new TextEncoder();
  const delimiter = enc.encode(`--${m![2]}`);
  const parts: Part[] = [];
  let pos = indexOf(body, delimiter, 0);
  expect(pos).toBeGreaterThanOrEqual(0);
  // Only a preamble of CRLFs is acceptable before the first delimiter.
  expect(new TextDecoder().decode(body.subarray(0, pos)).replace(/\r\n/g, "")).toBe("");
  while (true) {
    const after = pos + delimiter.length;
    const tail = new TextDecoder().decode(body.subarray(after, after + 2));
    if (tail === "--") {
      expect(new TextDecoder().decode(body.subarray(after + 2)).replace(/\r\n/g, "")).toBe("");
      return parts;
    }
    expect(tail).toBe("\r\n");
    const headEnd = indexOf(body, enc.encode("\r\n\r\n"), after + 2);
    expect(headEnd).toBeGreaterThan(0);
    const head = new TextDecoder().decode(body.subarray(after + 2, headEnd));
    const fields = new Map(
      head.split("\r\n").map((line) => {
        const i = line.indexOf(":");
        return [line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim()] as const;
      }),
    );
    const r = contentRange(fields.get("content-range") ?? null);
    const start = headEnd + 4;
    const bytes = body.subarray(start, start + r.end - r.start + 1);
    const next = start + bytes.length;
    expect(new TextDecoder().decode(body.subarray(next, next + 2))).toBe("\r\n");
    expect(indexOf(body, delimiter, next + 2)).toBe(next + 2);
    parts.push({ ...r, type: fields.get("content-type") ?? null, bytes });
    pos = next + 2;
  }
}

/** The parts of a 206, single or multipart, each checked against `file`. */
export function partsOf(reply: Reply, file: Uint8Array): Part[] {
  expect(reply.status).toBe(206);
  const type = reply.headers.get("content-type") ?? "";
  expect(Number(reply.headers.get("content-length"))).toBe(reply.bytes.byteLength);
  const parts = type.startsWith("multipart/byteranges")
    ? parseByteranges(type, reply.bytes)
    : [{ ...contentRange(reply.headers.get("content-range")), type, bytes: reply.bytes }];
  for (const p of parts) {
    expect(p.size).toBe(file.byteLength);
    expect(p.type).toBe("audio/mpeg");
    expect(p.bytes.byteLength).toBe(p.end - p.start + 1);
    expect(Buffer.from(p.bytes).equals(Buffer.from(file.subarray(p.start, p.end + 1)))).toBe(true);
  }
  return parts;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a).equals(Buffer.from(b));
}
