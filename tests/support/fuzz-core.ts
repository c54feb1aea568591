// The core of `npm run fuzz` (scripts/fuzz.ts) and its smoke test (tests/fuzz/fuzz-smoke.test.ts):
// seeded random requests, valid and hostile, written byte for byte on raw sockets (so malformed
// request lines, bad header syntax and headers past the 32 KiB budget reach the server as sent),
// and the invariants every answer must keep. No vitest here: the command runs it under plain Node.
import { readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import zlib from "node:zlib";
import { encodeCursor } from "../../src/shared/cursor.ts";

// ── The site under test ────────────────────────────────────────────────────────────────────────

/** What the generator knows of the served build: real references, files and tags to aim at. */
export interface FuzzSite {
  numbers: string[];
  uuids: string[];
  media: string[];
  etags: string[];
  astro: string[];
  domains: string[];
  siteUrl: string;
  cursors: string[];
}

export function siteFacts(distDir: string): FuzzSite {
  const index = JSON.parse(readFileSync(path.join(distDir, "_api/index.json"), "utf8")) as {
    siteUrl: string;
    episodes: { id: string; n: number | null; p: number; domains: string[]; audio: { key: string; etag: string } | null }[];
  };
  const manifest = JSON.parse(readFileSync(path.join(distDir, "_api/manifest.json"), "utf8")) as Record<string, string>;
  let astro: string[] = [];
  try {
    astro = readdirSync(path.join(distDir, "_astro"));
  } catch {
    astro = [];
  }
  const eps = index.episodes;
  return {
    numbers: eps.filter((e) => e.n !== null).map((e) => String(e.n)),
    uuids: eps.map((e) => e.id),
    media: eps.flatMap((e) => (e.audio ? [path.basename(e.audio.key)] : [])),
    etags: [...eps.flatMap((e) => (e.audio ? [e.audio.etag] : [])), ...Object.values(manifest).slice(0, 50)],
    astro,
    domains: [...new Set(eps.flatMap((e) => e.domains))],
    siteUrl: index.siteUrl,
    cursors: eps.slice(0, 5).flatMap((e) => [
      encodeCursor({ after: { p: e.p, n: e.n ?? -1, id: e.id }, domain: null, since: null }),
      encodeCursor({ after: { p: e.p, n: e.n ?? -1, id: e.id }, domain: e.domains[0] ?? null, since: null }),
    ]),
  };
}

// ── Seeded randomness ──────────────────────────────────────────────────────────────────────────

export class Rng {
  #s: number;

  constructor(seed: number) {
    this.#s = seed >>> 0 || 1;
  }

  /** mulberry32: [0, 1). */
  next(): number {
    let t = (this.#s = (this.#s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  text(length: number, alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"): string {
    let s = "";
    for (let i = 0; i < length; i++) s += alphabet[Math.floor(this.next() * alphabet.length)];
    return s;
  }
}

// ── Requests ───────────────────────────────────────────────────────────────────────────────────

export interface FuzzRequest {
  /** The bytes written on the socket. */
  raw: Buffer;
  method: string;
  /** The path as the server reads it (URL-normalized), null when the target is not a URL. */
  path: string | null;
  /** Hang up: null never; otherwise ms after writing, or -1 at the first byte of the answer. */
  hangup: number | null;
  /** A short label for reports. */
  label: string;
}

const METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"];
const GARBAGE_METHODS = ["FOO", "get", "M-SEARCH", "PROPFIND", "TRACE", "CONNECT", "X".repeat(40), "BREW", "Get"];

function hex(r: Rng, n: number): string {
  return r.text(n, "0123456789abcdef");
}

function randomUuid(r: Rng, upper = false): string {
  const u = `${hex(r, 8)}-${hex(r, 4)}-${hex(r, 4)}-${hex(r, 4)}-${hex(r, 12)}`;
  return upper ? u.toUpperCase() : u;
}

/** A reference segment: good, well-formed but unknown, malformed, encoded, double-encoded. */
function ref(r: Rng, s: FuzzSite): string {
  const good = [...s.numbers, ...s.uuids];
  switch (r.int(0, 12)) {
    case 0:
    case 1:
    case 2:
    case 3:
      return good.length ? r.pick(good) : "1";
    case 4:
      return r.pick(s.uuids.length ? s.uuids : [randomUuid(r)]).toUpperCase();
    case 5:
      return r.pick(["0", "007", "999999999", "1234567890", String(r.int(1, 200)), randomUuid(r), randomUuid(r, true)]);
    case 6:
      return r.pick(["abc", "-1", "1.5", "+7", "latest", "%7B" + randomUuid(r) + "%7D", hex(r, 32), "1e3", "0x1", "%20", "null"]);
    case 7:
      // Percent-encoded digits and double encoding.
      return r.pick(["%31", "%2531", "%30%30%37", "%25", "%", "%zz", "%00", "%FF%FE", "1%2F2", "1%252F2"]);
    case 8:
      return r.pick([".", "..", "%2e", "%2e%2e", ".%2e", "%2E%2E%2F"]);
    case 9:
      return r.pick(["%C3%A9", "%E2%9C%93", "%F0%9F%8E%A7", "\u00e9", "\u2713"]);
    case 10:
      return r.text(r.int(1, 300), "0123456789");
    default:
      return r.text(r.int(1, 20));
  }
}

function encodeQueryValue(r: Rng, v: string): string {
  if (r.chance(0.1)) return v.replace(/ /g, "+"); // raw, as some clients send
  return encodeURIComponent(v);
}

function cursorValue(r: Rng, s: FuzzSite): string {
  const good = s.cursors.length ? r.pick(s.cursors) : "AAAA";
  switch (r.int(0, 7)) {
    case 0:
    case 1:
      return good;
    case 2: {
      const i = r.int(0, good.length - 1);
      return good.slice(0, i) + r.pick([..."ABCxyz019-_=+/%"]) + good.slice(i + 1);
    }
    case 3:
      return good.slice(0, r.int(0, good.length - 1));
    case 4:
      return r.text(r.int(1, 200), "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_");
    case 5:
      return r.text(r.int(500, 700), "ABCDEFabcdef0123456789-_");
    case 6:
      return good + "==";
    default:
      return r.pick(["", "null", "%00", "\u2713", good.toLowerCase()]);
  }
}

const LIMITS = ["1", "20", "50", "007", "0", "51", "abc", "1.5", "+5", "1e1", "", "-1", "9999999999999", " 5", "\uff15"];
const SINCES = [
  "2026-01-01",
  "2026-02-30",
  "2026-01-05T00:00:00Z",
  "2026-01-05T00:00:00+02:00",
  "2026-01-05T00:00:00.123456789-05:30",
  "2026-01-05T00:00:00",
  "20260105",
  "",
  "9999-12-31",
  "0000-01-01",
  "2025-02-29",
  "2024-02-29",
  "2026-13-01",
  "2026-01-01T25:00:00Z",
];

function listQuery(r: Rng, s: FuzzSite): string {
  const parts: string[] = [];
  const add = (k: string, v: string) => parts.push(`${k}=${encodeQueryValue(r, v)}`);
  if (r.chance(0.4)) add("limit", r.pick(LIMITS));
  if (r.chance(0.3)) add("domain", r.pick([...s.domains, "general", "AI", "-ai", "a_b", "a".repeat(65), "", "\u00e9", "ai/"]));
  if (r.chance(0.3)) add("since", r.pick(SINCES));
  if (r.chance(0.35)) add("cursor", cursorValue(r, s));
  if (parts.length && r.chance(0.1)) parts.push(r.pick(parts)); // repeated
  if (r.chance(0.05)) add(r.pick(["limit", "cursor", "domain", "since", "x"]), r.text(r.int(1000, 20000))); // huge
  if (r.chance(0.05)) parts.push(r.pick(["%E2%9C%93=%E2%9C%93", "limit=%E2%9C%93", "domain=%FF", "since=%", "%=%", "&&&", "=", "limit", "cursor"]));
  if (r.chance(0.05)) parts.push(`unknown${r.int(0, 9)}=${r.text(5)}`);
  return parts.length ? `?${parts.join("&")}` : r.chance(0.05) ? "?" : "";
}

function oembedQuery(r: Rng, s: FuzzSite): string {
  const page = `${s.siteUrl}/episodes/${ref(r, s)}`;
  const url = r.pick([page, page + "/", page + "?t=1#x", "http://evil.example/episodes/1", "", "not a url", `${s.siteUrl}/embed/1`, "javascript:alert(1)"]);
  const parts: string[] = [];
  if (r.chance(0.9)) parts.push(`url=${encodeQueryValue(r, url)}`);
  if (r.chance(0.3)) parts.push(`format=${r.pick(["json", "xml", "", "JSON"])}`);
  if (r.chance(0.3)) parts.push(`maxwidth=${r.pick(["600", "100", "99999999", "abc", "-5", ""])}`);
  if (r.chance(0.2)) parts.push(`maxheight=${r.pick(["180", "10", "x"])}`);
  if (parts.length && r.chance(0.1)) parts.push(r.pick(parts));
  return parts.length ? `?${parts.join("&")}` : "";
}

/** A path (and query) over every route of src/shared/routes.ts, and off them. */
function target(r: Rng, s: FuzzSite): string {
  const e = () => ref(r, s);
  switch (r.int(0, 24)) {
    case 0:
      return r.pick(["/v1", "/v1/"]);
    case 1:
    case 2:
    case 3:
      return r.pick(["/v1/episodes", "/v1/episodes/"]) + listQuery(r, s);
    case 4:
    case 5:
      return `/v1/episodes/${e()}`;
    case 6:
    case 7:
      return `/v1/episodes/${e()}/audio${r.chance(0.3) ? `?download=${r.pick(["1", "0", "true", ""])}` : ""}`;
    case 8:
      return `/v1/episodes/${e()}/script`;
    case 9:
      return `/v1/episodes/${e()}/${r.pick(["transcript", "transcript.vtt", "transcript.srt", "transcript.json", "chapters.json"])}`;
    case 10:
      return r.pick(["/v1/openapi.json", "/v1/openapi.json/", "/v1/openapi.yaml"]);
    case 11:
      return r.pick(["/v1/episode", "/v1/episodes/1/script/", "/v1/x/y/z", `/v1/${r.text(10)}`, "/v1/episodes/1/audio/", "/V1", "/v1//episodes", "/v2/episodes"]);
    case 12:
      return r.pick(["/", "/index", "/index.html", "/terms", "/terms.html", "/404.html"]);
    case 13:
      return `/oembed${oembedQuery(r, s)}`;
    case 14:
      return `/_astro/${s.astro.length && r.chance(0.7) ? r.pick(s.astro) : r.text(8) + ".js"}`;
    case 15:
      return r.pick(["/embed/latest", `/embed/${e()}`, "/embed", "/embed/1/x", `/embed/${e()}?theme=${r.pick(["dark", "light", "DARK"])}&accent=${r.pick(["ff0000", "red", "%23fff", "zzzzzz"])}`]);
    case 16:
      return r.pick([`/episodes/${e()}`, "/episodes", "/episodes/", "/episodes/7/", "/episodes/7.html", `/episodes/${e()}/x`]);
    case 17:
      return `/media/${s.media.length && r.chance(0.6) ? r.pick(s.media) : r.pick([`${randomUuid(r)}.mp3`, "../_api/index.json", "%2e%2e/_api/index.json", "x", "a/b/c.mp3"])}`;
    case 18:
      // Dot segments and private outputs.
      return r.pick([
        "/_api/index.json",
        "/_api/manifest.json",
        "/v1/episodes/../episodes/1",
        "/v1/./episodes",
        "/v1/episodes/1/../../../_api/index.json",
        "/%2e%2e/_api/index.json",
        "/_api%2Findex.json",
        "/./_api/index.json",
        "/media/../_api/manifest.json",
        "//v1",
        "///_api/index.json",
        "/episodes/%2e%2e/_api/index.json",
        "/\\_api\\index.json",
      ]);
    case 19: {
      // Very long paths, some past the header budget.
      const n = r.pick([200, 2000, 8000, 20000, 33000, 40000]);
      return r.pick(["/v1/episodes/", "/", "/episodes/", "/media/"]) + r.text(n);
    }
    case 20:
      return r.pick(["/favicon.ico", "/robots.txt", "/.env", "/wp-login.php", "/%", "/%%", "/a%00b", "/%C0%AE%C0%AE/", "/\u00e9", "/?", "/#frag"]);
    case 21:
      return `/v1/episodes/${e()}/${r.pick(["audio", "script", "transcript", "AUDIO", "audio.mp3", "", "transcript.VTT", "transcript.vtt/", "chapters", "chapters.json.br", "transcript.txt"])}${listQuery(r, s)}`;
    default:
      return r.pick(["/v1/episodes", `/v1/episodes/${e()}`, `/v1/episodes/${e()}/audio`]) + listQuery(r, s);
  }
}

const RANGES = [
  "bytes=0-99",
  "bytes=100-",
  "bytes=-100",
  "bytes=0-9,20-29,-5",
  "bytes=5-2",
  "bytes=abc",
  "items=0-10",
  "bytes=99999999999999999999-",
  "bytes=-0",
  "bytes= 0 - 1 ",
  "bytes=0-0,1-1,2-2,3-3,4-4,5-5,6-6,7-7,8-8,9-9,10-10,11-11,12-12,13-13,14-14,15-15,16-16",
  "bytes=0-,0-,0-",
  "bytes=999999999-",
  "bytes=-99999999999",
  "bytes=,,,",
  "bytes=",
  "bytes=0-" + "9".repeat(400),
];

/** Header lines (without CRLF) of a structured request. */
function headers(r: Rng, s: FuzzSite): string[] {
  const h: string[] = [];
  const tag = () => (s.etags.length ? r.pick(s.etags) : '"x"');
  if (r.chance(0.25)) h.push(`Range: ${r.pick(RANGES)}`);
  if (r.chance(0.12)) h.push(`If-None-Match: ${r.pick([tag(), "*", 'W/"x"', `"a", ${tag()}`, `W/${tag()}`, '"', "garbage", `${tag()}, *`])}`);
  if (r.chance(0.1)) h.push(`If-Range: ${r.pick([tag(), `W/${tag()}`, "Wed, 21 Oct 2015 07:28:00 GMT", "garbage", tag().slice(1, -1)])}`);
  if (r.chance(0.2)) h.push(`Accept-Encoding: ${r.pick(["gzip", "br, gzip;q=0.5", "*", "identity;q=0", "gzip, deflate, br, zstd", "x".repeat(200), ""])}`);
  if (r.chance(0.1)) h.push(`X-Forwarded-For: ${r.pick(["1.2.3.4", "garbage", "::1, 10.0.0.1", Array.from({ length: 100 }, (_, i) => `10.0.${i}.1`).join(", "), ""])}`);
  if (r.chance(0.08)) h.push(`Authorization: ${r.pick(["Bearer abc", "Basic dXNlcjpwYXNz", "Bearer " + r.text(3000), ""])}`);
  if (r.chance(0.05)) h.push(`X-API-Key: ${r.text(r.int(0, 64))}`);
  if (r.chance(0.05)) h.push(`Origin: ${r.pick(["https://evil.example", "null"])}`);
  if (r.chance(0.03)) h.push(`Cookie: ${r.text(r.int(10, 4000))}`);
  if (r.chance(0.03)) for (let i = 0; i < r.int(10, 150); i++) h.push(`X-F${i}: ${r.text(r.int(0, 100))}`);
  if (r.chance(0.04)) {
    // Huge values, up to and past the 32 KiB budget.
    h.push(`X-Huge: ${r.text(r.pick([1024, 16_000, 30_000, 32_500, 33_000, 40_000, 48_000]))}`);
  }
  if (r.chance(0.02)) h.push(`X-Utf8: ${r.pick(["\u00e9t\u00e9", "\u2713", "\ud83c\udfa7"])}`);
  return h;
}

/** Requests Node's parser (or any HTTP/1.1 parser) must refuse, answered 400 without a stack. */
function malformed(r: Rng, host: string): { raw: Buffer; method: string; path: string | null; label: string } {
  const pick = r.int(0, 15);
  const b = (s: string, method = "GET", p: string | null = null, label = `malformed#${pick}`) => ({ raw: Buffer.from(s, "latin1"), method, path: p, label });
  switch (pick) {
    case 0:
      return b("HELLO\r\n\r\n");
    case 1:
      return b(`G@T /v1 HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, "G@T", "/v1");
    case 2:
      return b(`GET /v1 HTTP/9.9\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, "GET", "/v1");
    case 3:
      return b(`GET /v1\r\nHost: ${host}\r\n\r\n`, "GET", "/v1");
    case 4:
      return b(`GET /v1 HTTP/1.1\r\nHost: ${host}\r\nBad Header\r\nConnection: close\r\n\r\n`, "GET", "/v1");
    case 5:
      return b(`GET /v1/episodes HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n`, "GET", "/v1/episodes");
    case 6:
      return b(`GET /v1 HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 1\r\nContent-Length: 2\r\nConnection: close\r\n\r\nab`, "GET", "/v1");
    case 7:
      return b(`GET /v1/episodes HTTP/1.1\r\nConnection: close\r\n\r\n`, "GET", "/v1/episodes", "no-host");
    case 8:
      return b(`GET http://${host}/v1/episodes/1 HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, "GET", "/v1/episodes/1", "absolute-form");
    case 9:
      return b(`OPTIONS * HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, "OPTIONS", null, "asterisk-form");
    case 10:
      return b("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "PRI", null, "h2-preface");
    case 11:
      return { raw: Buffer.from(Array.from({ length: r.int(1, 200) }, () => r.int(0, 255)).concat([13, 10, 13, 10])), method: "GET", path: null, label: "binary" };
    case 12:
      return b(`GET /v1/\x01\x7f HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, "GET", null, "control-chars");
    case 13:
      return b(`GET /v1 HTTP/1.1\nHost: ${host}\nConnection: close\n\n`, "GET", "/v1", "bare-lf");
    case 14:
      return b(`GET /v1 HTTP/1.1\r\nHost: ${host}\r\nX-Bad: a\x00b\r\nConnection: close\r\n\r\n`, "GET", "/v1", "nul-in-header");
    default:
      return b(`GET http://user:pw@${host}/v1 HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, "GET", "/v1", "credentials");
  }
}

/** The path the server reads of an origin-form target (mirrors functions/node/request.ts). */
export function pathOfTarget(t: string): string | null {
  try {
    return new URL(t.startsWith("/") ? `http://localhost${t}` : t, "http://localhost").pathname;
  } catch {
    return null;
  }
}

export function generate(r: Rng, s: FuzzSite, host: string): FuzzRequest {
  if (r.chance(0.06)) return { ...malformed(r, host), hangup: null };
  let method = r.chance(0.7) ? "GET" : r.chance(0.85) ? r.pick(METHODS) : r.pick(GARBAGE_METHODS);
  const t = target(r, s);
  let hangup: number | null = null;
  if (r.chance(0.04)) {
    hangup = r.pick([-1, 0, 1, 5, 20]);
    method = "GET";
  }
  const lines = [`${method} ${t} HTTP/1.1`, `Host: ${host}`, ...headers(r, s), "Connection: close"];
  let body = "";
  if (method !== "GET" && method !== "HEAD" && r.chance(0.3)) {
    body = r.text(r.int(0, 2000));
    lines.push(`Content-Length: ${body.length}`);
  }
  const raw = Buffer.from(`${lines.join("\r\n")}\r\n\r\n${body}`, "utf8");
  const label = `${method} ${t.length > 120 ? `${t.slice(0, 120)}…(${t.length})` : t}${raw.length > 30_000 ? ` [${raw.length} B request]` : ""}`;
  return { raw, method, path: pathOfTarget(t), hangup, label };
}

// ── One exchange on a raw socket ───────────────────────────────────────────────────────────────

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  ms: number;
}

export type Outcome =
  | { kind: "answer"; res: RawResponse }
  | { kind: "timeout"; ms: number; partial: boolean }
  | { kind: "closed"; ms: number; error: string | null }
  | { kind: "hungup" };

const NO_BODY = (status: number, method: string) => method === "HEAD" || status === 204 || status === 304 || (status >= 100 && status < 200);

/** Parses a buffered response; null while incomplete. `closed`: the server closed, so "until close" bodies are complete. */
export function parseResponse(buf: Buffer, method: string, closed: boolean): Omit<RawResponse, "ms"> | null {
  const end = buf.indexOf("\r\n\r\n");
  if (end < 0) return null;
  const head = buf.subarray(0, end).toString("latin1").split("\r\n");
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? "");
  if (!m) return closed ? { status: 0, headers: {}, body: buf } : null;
  const status = Number(m[1]);
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const i = line.indexOf(":");
    if (i <= 0) continue;
    const k = line.slice(0, i).trim().toLowerCase();
    const v = line.slice(i + 1).trim();
    headers[k] = k in headers ? `${headers[k]}, ${v}` : v;
  }
  const rest = buf.subarray(end + 4);
  if (NO_BODY(status, method)) return { status, headers, body: Buffer.alloc(0) };
  if (/chunked/i.test(headers["transfer-encoding"] ?? "")) {
    const parts: Buffer[] = [];
    let at = 0;
    while (true) {
      const lineEnd = rest.indexOf("\r\n", at);
      if (lineEnd < 0) return closed ? { status, headers, body: Buffer.concat(parts) } : null;
      const size = parseInt(rest.subarray(at, lineEnd).toString("latin1"), 16);
      if (!Number.isFinite(size)) return closed ? { status, headers, body: Buffer.concat(parts) } : null;
      if (size === 0) return rest.indexOf("\r\n", lineEnd + 2) >= 0 || closed ? { status, headers, body: Buffer.concat(parts) } : null;
      if (rest.length < lineEnd + 2 + size + 2) return closed ? { status, headers, body: Buffer.concat(parts) } : null;
      parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
  }
  const cl = headers["content-length"];
  if (cl !== undefined && /^\d+$/.test(cl)) {
    const n = Number(cl);
    if (rest.length >= n) return { status, headers, body: rest.subarray(0, n) };
    return closed ? { status, headers, body: rest } : null;
  }
  return closed ? { status, headers, body: rest } : null;
}

export function exchange(host: string, port: number, req: FuzzRequest, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const socket = net.connect({ host, port });
    const finish = (o: Outcome) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(o);
    };
    const tryParse = (closed: boolean) => {
      const parsed = parseResponse(Buffer.concat(chunks), req.method, closed);
      if (parsed) finish({ kind: "answer", res: { ...parsed, ms: performance.now() - started } });
      else if (closed) finish({ kind: "closed", ms: performance.now() - started, error: null });
    };
    timer = setTimeout(() => finish({ kind: "timeout", ms: performance.now() - started, partial: chunks.length > 0 }), timeoutMs);
    socket.on("connect", () => {
      socket.write(req.raw, () => {});
      if (req.hangup !== null && req.hangup >= 0) setTimeout(() => finish({ kind: "hungup" }), req.hangup);
    });
    socket.on("data", (d: Buffer) => {
      if (req.hangup === -1) return finish({ kind: "hungup" });
      chunks.push(d);
      tryParse(false);
    });
    socket.on("end", () => tryParse(true));
    socket.on("close", () => tryParse(true));
    socket.on("error", (e: Error & { code?: string }) => {
      if (req.hangup !== null) return finish({ kind: "hungup" });
      // A reset after a complete answer (the server refused early and closed) still counts as that answer.
      const parsed = parseResponse(Buffer.concat(chunks), req.method, true);
      if (parsed && parsed.status > 0) finish({ kind: "answer", res: { ...parsed, ms: performance.now() - started } });
      else finish({ kind: "closed", ms: performance.now() - started, error: e.code ?? e.message });
    });
  });
}

// ── Invariants ─────────────────────────────────────────────────────────────────────────────────

export const INVARIANTS = {
  answered: "every request is answered (complete response, not a silent close)",
  within2s: "every answer within 2 s",
  no5xx: "no 5xx except 502 in the envelope (and 501 format_not_implemented of /oembed, documented)",
  envelope: "every /v1 error (and every refusal of an unreadable target) in the JSON envelope, error.status = HTTP status, ACAO *",
  noLeak: "no stack trace or server path in any body",
  alive: "the server answers GET /v1 with 200 at the end",
  rss: "the server's RSS grows by at most the bound (64 MiB) over the second half of the run",
} as const;
export type Invariant = keyof typeof INVARIANTS;

const LEAKS: [RegExp, string][] = [
  [/\bat \S+ \(.*:\d+:\d+\)/, "stack frame"],
  [/\n\s+at \S/, "stack line"],
  [/\/work\//, "/work/"],
  [/node:/, "node:"],
  [/file:\/\//, "file://"],
  [/\.ts:/, ".ts:"],
];

type Envelope = { error?: { code?: unknown; message?: unknown; status?: unknown } };

function parseJson(text: string): Envelope | null {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === "object" && v !== null ? (v as Envelope) : null;
  } catch {
    return null;
  }
}

/** The body without its content coding (the edge's local runtime gzips text for clients that accept it). */
function decoded(res: RawResponse): Buffer {
  const coding = (res.headers["content-encoding"] ?? "").trim().toLowerCase();
  try {
    if (coding === "gzip" || coding === "x-gzip") return zlib.gunzipSync(res.body);
    if (coding === "br") return zlib.brotliDecompressSync(res.body);
    if (coding === "deflate") return zlib.inflateSync(res.body);
  } catch {
    return res.body;
  }
  return res.body;
}

export const isApiPath = (p: string | null) => p !== null && /^\/v1(\/|$)/.test(p);

export interface Violation {
  invariant: Invariant;
  detail: string;
  /** What groups like violations in the report: the answer's status or outcome, the method, the first path segment. */
  signature?: string;
  /** The answer was not made by the shim (it lacks the X-Content-Type-Options every shim answer carries): the runtime answered before the handler ran. */
  notShim?: boolean;
}

/** The invariants one outcome breaks. */
export function check(req: FuzzRequest, outcome: Outcome, limitMs = 2000): Violation[] {
  if (outcome.kind === "hungup") return [];
  const m = /^[A-Z]+$/.test(req.method) ? req.method : "<garbage method>";
  if (outcome.kind === "timeout") return [{ invariant: "within2s", detail: `${req.label}: no complete answer after ${Math.round(outcome.ms)} ms${outcome.partial ? " (partial)" : ""}`, signature: `timeout ${m}` }];
  if (outcome.kind === "closed") return [{ invariant: "answered", detail: `${req.label}: connection closed without an answer (${outcome.error ?? "EOF"}) after ${Math.round(outcome.ms)} ms`, signature: `closed ${m}` }];
  const res = outcome.res;
  const out: Violation[] = [];
  const where = `${req.label} → ${res.status}`;
  if (res.ms > limitMs) out.push({ invariant: "within2s", detail: `${where} in ${Math.round(res.ms)} ms` });
  if (res.status === 0) return [...out, { invariant: "answered", detail: `${req.label}: not an HTTP response: ${JSON.stringify(res.body.subarray(0, 80).toString("latin1"))}` }];
  const type = res.headers["content-type"] ?? "";
  const text = type.startsWith("audio/") ? "" : decoded(res).toString("utf8");
  const envelope = type.startsWith("application/json") && res.body.length > 0 ? parseJson(text) : null;
  const envelopeOk = () => {
    if (res.headers["access-control-allow-origin"] !== "*") return "no access-control-allow-origin: *";
    if (!type.startsWith("application/json")) return `content-type '${type}'`;
    if (req.method === "HEAD" || res.body.length === 0) return req.method === "HEAD" ? null : "empty body";
    const e = envelope?.error;
    if (!e || typeof e.code !== "string" || typeof e.message !== "string" || typeof e.status !== "number") return `not an envelope: ${text.slice(0, 120)}`;
    if (e.status !== res.status) return `error.status ${String(e.status)} ≠ ${res.status}`;
    if (Object.keys(envelope!).length !== 1) return "extra top-level members";
    return null;
  };
  if (res.status >= 500) {
    const allowed502 = res.status === 502 && envelopeOk() === null;
    const allowed501 = res.status === 501 && req.path === "/oembed" && (req.method === "HEAD" || envelope?.error?.code === "format_not_implemented");
    if (!allowed502 && !allowed501) out.push({ invariant: "no5xx", detail: `${where}: ${text.slice(0, 160)}` });
  }
  if (res.status >= 400 && (isApiPath(req.path) || req.path === null)) {
    const problem = envelopeOk();
    if (problem !== null) out.push({ invariant: "envelope", detail: `${where}: ${problem}` });
  }
  const sig = `${res.status} ${/^[A-Z]+$/.test(req.method) ? req.method : "<garbage method>"} ${req.path === null ? "<no path>" : `/${req.path.split("/")[1] ?? ""}`}${req.label.startsWith("malformed") || !req.label.includes(" ") ? ` ${req.label}` : ""}`;
  const notShim = res.headers["x-content-type-options"] !== "nosniff";
  for (const v of out) Object.assign(v, { signature: sig, notShim });
  for (const [re, name] of LEAKS) {
    if (re.test(text)) {
      out.push({ invariant: "noLeak", detail: `${where}: ${name} in body: ${text.slice(Math.max(0, text.search(re) - 40), text.search(re) + 80)}`, signature: sig, notShim });
      break;
    }
  }
  return out;
}

// ── The run ────────────────────────────────────────────────────────────────────────────────────

export interface FuzzOptions {
  url: string;
  site: FuzzSite;
  requests: number;
  seed: number;
  concurrency: number;
  /** The server's RSS in bytes (sampled during the run); absent: the RSS invariant is not checked. */
  sampleRss?: () => Promise<number>;
  /** Allowed RSS growth from the sample after warm-up to the end, in bytes. */
  rssGrowthBytes?: number;
  timeoutMs?: number;
  progress?: (done: number) => void;
}

export interface FuzzReport {
  requests: number;
  answered: number;
  hungUp: number;
  statuses: Record<string, number>;
  violations: Record<Invariant, { count: number; example: string | null; notShim: number; bySignature: Record<string, { count: number; example: string }> }>;
  rssStart: number | null;
  rssWarm: number | null;
  rssEnd: number | null;
  rssMax: number | null;
  /** RSS at the half-way sample: the second half's growth is what the bound limits. */
  rssHalf: number | null;
  /** [requests done, RSS bytes], sampled through the run. */
  rssCurve: [number, number][];
  durationMs: number;
  seed: number;
}

export function violationCount(r: FuzzReport): number {
  return Object.values(r.violations).reduce((n, v) => n + v.count, 0);
}

export async function runFuzz(opts: FuzzOptions): Promise<FuzzReport> {
  const u = new URL(opts.url);
  const host = u.hostname;
  const port = Number(u.port);
  const hostHeader = u.host;
  const rng = new Rng(opts.seed);
  const timeoutMs = opts.timeoutMs ?? 2000;
  const violations = Object.fromEntries(Object.keys(INVARIANTS).map((k) => [k, { count: 0, example: null, notShim: 0, bySignature: {} }])) as FuzzReport["violations"];
  const note = (v: Violation) => {
    const slot = violations[v.invariant];
    slot.count++;
    if (v.notShim) slot.notShim++;
    slot.example ??= v.detail;
    const sig = v.signature ?? v.detail.replace(/\d+ ms/, "").slice(0, 60);
    const group = (slot.bySignature[sig] ??= { count: 0, example: v.detail });
    group.count++;
  };
  const statuses: Record<string, number> = {};
  let answered = 0;
  let hungUp = 0;
  const started = performance.now();
  const rssStart = opts.sampleRss ? await opts.sampleRss() : null;
  let rssWarm: number | null = null;
  let rssMax = rssStart;
  let rssHalf: number | null = null;
  const rssCurve: [number, number][] = rssStart === null ? [] : [[0, rssStart]];
  const halfAt = Math.floor(opts.requests / 2);
  const warmAt = Math.min(Math.max(200, Math.floor(opts.requests * 0.05)), opts.requests);
  let issued = 0;
  let finished = 0;
  let sampling: Promise<void> | null = null;
  const sampleEvery = Math.max(500, Math.floor(opts.requests / 50));

  async function worker(): Promise<void> {
    while (issued < opts.requests) {
      issued++;
      // The generator runs in issue order, so a seed gives the same request sequence.
      const req = generate(rng, opts.site, hostHeader);
      const outcome = await exchange(host, port, req, timeoutMs);
      finished++;
      if (outcome.kind === "hungup") hungUp++;
      else if (outcome.kind === "answer") {
        answered++;
        statuses[outcome.res.status] = (statuses[outcome.res.status] ?? 0) + 1;
      }
      for (const v of check(req, outcome, timeoutMs)) note(v);
      if (opts.sampleRss && (finished === warmAt || finished === halfAt || finished % sampleEvery === 0) && sampling === null) {
        const at = finished;
        sampling = opts.sampleRss().then((rss) => {
          if (at >= warmAt) rssWarm ??= rss;
          if (at >= halfAt) rssHalf ??= rss;
          rssMax = Math.max(rssMax ?? 0, rss);
          rssCurve.push([at, rss]);
          sampling = null;
        });
      }
      if (finished % 1000 === 0) opts.progress?.(finished);
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency) }, () => worker()));
  if (sampling) await sampling;

  // The server is alive at the end.
  const alive = await exchange(host, port, { raw: Buffer.from(`GET /v1 HTTP/1.1\r\nHost: ${hostHeader}\r\nConnection: close\r\n\r\n`), method: "GET", path: "/v1", hangup: null, label: "final GET /v1" }, 5000);
  if (alive.kind !== "answer" || alive.res.status !== 200) {
    note({ invariant: "alive", detail: `final GET /v1: ${alive.kind === "answer" ? alive.res.status : alive.kind}` });
  }
  const rssEnd = opts.sampleRss ? await opts.sampleRss() : null;
  if (rssEnd !== null) {
    rssMax = Math.max(rssMax ?? 0, rssEnd);
    rssCurve.push([finished, rssEnd]);
  }
  // Caches fill to their byte bounds and V8 sizes its heap during the first half; a leak keeps
  // growing through the second. The bound limits the growth from the half-way sample to the end.
  const bound = opts.rssGrowthBytes ?? 64 * 1024 * 1024;
  const base = rssHalf ?? rssWarm ?? rssStart;
  if (rssEnd !== null && base !== null && rssEnd - base > bound) {
    note({ invariant: "rss", detail: `RSS ${mib(base)} half-way → ${mib(rssEnd)} at the end (bound +${mib(bound)} over the second half)` });
  }
  return {
    requests: opts.requests,
    answered,
    hungUp,
    statuses,
    violations,
    rssStart,
    rssWarm,
    rssEnd,
    rssMax,
    rssHalf,
    rssCurve,
    durationMs: performance.now() - started,
    seed: opts.seed,
  };
}

export const mib = (b: number | null) => (b === null ? "n/a" : `${(b / 1024 / 1024).toFixed(1)} MiB`);

export function formatReport(r: FuzzReport, target: string): string {
  const lines = [
    `fuzz (${target}), seed ${r.seed}: ${r.requests} requests in ${(r.durationMs / 1000).toFixed(1)} s (${Math.round(r.requests / (r.durationMs / 1000))}/s)`,
    `  answered ${r.answered}, client hang-ups ${r.hungUp}`,
    `  statuses: ${Object.entries(r.statuses)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([s, n]) => `${s}×${n}`)
      .join(" ")}`,
    `  RSS: start ${mib(r.rssStart)}, after warm-up ${mib(r.rssWarm)}, half-way ${mib(r.rssHalf)}, max ${mib(r.rssMax)}, end ${mib(r.rssEnd)}`,
    `  RSS curve (requests: MiB): ${r.rssCurve.map(([n, b]) => `${n}:${(b / 1048576).toFixed(0)}`).join(" ")}`,
    `  violations: ${violationCount(r)}`,
  ];
  for (const [k, v] of Object.entries(r.violations) as [Invariant, FuzzReport["violations"][Invariant]][]) {
    lines.push(`    ${v.count === 0 ? "ok  " : "FAIL"} ${k} (${INVARIANTS[k]}): ${v.count}${v.notShim ? ` (${v.notShim} on answers the runtime gave before the shim ran)` : ""}${v.example ? `\n         e.g. ${v.example}` : ""}`);
    const groups = Object.entries(v.bySignature).sort((a, b) => b[1].count - a[1].count);
    if (groups.length > 1) {
      for (const [sig, g] of groups.slice(0, 12)) lines.push(`         ${String(g.count).padStart(6)} × ${sig}\n                  e.g. ${g.example.slice(0, 220)}`);
      if (groups.length > 12) lines.push(`         … ${groups.length - 12} more kinds`);
    }
  }
  return lines.join("\n");
}

// ── RSS of a process tree (the edge's workerd) ─────────────────────────────────────────────────

/** Sum of VmRSS of the descendants of `root` whose command matches `name` (Linux /proc). */
export function descendantsRss(root: number, name: RegExp): number {
  const children = new Map<number, number[]>();
  const comm = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const ppid = Number(stat.slice(close + 2).split(" ")[1]);
      comm.set(Number(entry), stat.slice(stat.indexOf("(") + 1, close));
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone
    }
  }
  let total = 0;
  const stack = [...(children.get(root) ?? [])];
  while (stack.length) {
    const pid = stack.pop()!;
    stack.push(...(children.get(pid) ?? []));
    if (!name.test(comm.get(pid) ?? "")) continue;
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (m) total += Number(m[1]) * 1024;
    } catch {
      // gone
    }
  }
  return total;
}
