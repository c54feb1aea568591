// Limits that cannot be sidestepped (docs/api.md#rate-limits): an IPv6 client counts by its /64, so
// rotating addresses within it does not buy new buckets; X-Forwarded-For chooses nothing unless
// TRUST_PROXY says a proxy wrote it; the direct audioUrl (/media/<uuid>.mp3) and the audio route
// spend one bucket, HEAD and 304 included. Time moves through the injected clock, never by sleeping.
// Both servers have small limits (SMALL): a bucket is spent in a dozen requests; the default limits
// are held by tests/http/rate-limit.test.ts.
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../functions/node/main.ts";
import { clock, episode, sharedSite, removeSite, script, serveSite, type Site } from "../support/fixture.ts";
import { ON_EDGE } from "../support/edge.ts";
import { call, expectCors, expectError, json, TONE, type Reply } from "../support/http.ts";
import { expectLimited, field, SMALL, SMALL_LIMITS, spend } from "../support/rate-limit.ts";

const T = Date.UTC(2026, 5, 1, 12, 0, 0);
const ep = episode({ episodeNumber: 1, publishedAt: "2026-01-01T00:00:00Z" });

/** Whether this machine can listen on the IPv6 loopback. */
async function ipv6Loopback(): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(0, "::1", () => probe.close(() => resolve(true)));
  });
}
/** The Node target listens on ::1 when it can, so the IPv6 socket path is the one under test. */
const IPV6 = !ON_EDGE && (await ipv6Loopback());

let site: Site;
/** TRUST_PROXY=1, on ::1 where possible. */
let proxied: RunningServer;
/** No TRUST_PROXY. */
let direct: RunningServer;
const proxiedClock = clock(T);
const directClock = clock(T);

beforeAll(async () => {
  // The site of tests/http/rate-limit.test.ts: one build serves both suites.
  site = await sharedSite("ratelimit", [{ episode: ep, script: script(), audio: TONE }]);
  proxied = await serveSite(site, { now: proxiedClock.now, env: { TRUST_PROXY: "1", ...SMALL_LIMITS }, ...(IPV6 ? { host: "::1" } : {}) });
  direct = await serveSite(site, { now: directClock.now, env: SMALL_LIMITS, ...(IPV6 ? { host: "::1" } : {}) });
});
afterAll(async () => {
  await proxied?.close();
  await direct?.close();
  await removeSite(site);
});

const from = (xff: string, p: string, headers: Record<string, string> = {}, method = "GET") =>
  call(proxied.url, p, { method, headers: { "X-Forwarded-For": xff, ...headers } });

let nextNet = 1;
/** A fresh /64 behind the trusted proxy: `2001:db8:<n>:<n>::`, as a prefix to append an interface id to. */
function freshNet(): string {
  const n = (nextNet++).toString(16);
  return `2001:db8:${n}:${n}:`;
}
let nextIp = 1;
function freshIp(): string {
  return `198.51.100.${nextIp++}`;
}

const POLICY = { metadata: `"metadata";q=${SMALL.metadata};w=60`, audio: `"audio";q=${SMALL.audio};w=60` } as const;
const M = SMALL.metadata;
const A = SMALL.audio;
const limited = (r: Reply, bucket: keyof typeof POLICY) => expectLimited(r, { policy: POLICY[bucket] });

describe("an IPv6 client counts by its /64", () => {
  it("rotating addresses within one /64 shares one bucket, while another /64 has its own", async () => {
    const net = freshNet();
    // Different addresses of one /64, written every way an address can be written.
    const forms = (i: number) => {
      const id = (i + 1).toString(16);
      const full = `${net}0:0:0:${id}`;
      return [`${net}:${id}`, full.toUpperCase(), `${net}${id}:${id}:${id}:${id}`, `${net}:${id}%eth0`, `${net}:192.0.2.${i}`, `[${net}:${id}]:443`][i % 6]!;
    };
    const replies = await spend(M, (i) => from(forms(i), "/v1/episodes/1"));
    expect(replies.map((r) => field(r.headers.get("ratelimit"), "r"))).toEqual(Array.from({ length: M }, (_, i) => M - 1 - i));
    limited(await from(`${net}ffff:ffff:ffff:ffff`, "/v1/episodes/1"), "metadata");
    limited(await from(`${net}:abcd`, "/v1/episodes/1"), "metadata");

    const neighbour = freshNet();
    const other = await from(`${neighbour}:1`, "/v1/episodes/1");
    expect(other.status).toBe(200);
    expect(field(other.headers.get("ratelimit"), "r")).toBe(M - 1);
  });

  it("an IPv4-mapped IPv6 address counts as its IPv4 address", async () => {
    const ip = freshIp();
    await spend(M, (i) => from(i % 2 ? `::ffff:${ip}` : ip, "/v1"));
    limited(await from(`::FFFF:${ip}`, "/v1"), "metadata");
    limited(await from(ip, "/v1"), "metadata");
  });

  it.skipIf(!IPV6)("a client on a real IPv6 socket (::1) is counted, and its X-Forwarded-For is ignored without TRUST_PROXY", async () => {
    expect(direct.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
    directClock.advance(61_000);
    const get = (i: number) => call(direct.url, "/v1/episodes/1", { headers: { "X-Forwarded-For": `2001:db8:${i.toString(16)}::1` } });
    const replies = await spend(M, get);
    expect(field(replies[M - 1]!.headers.get("ratelimit"), "r")).toBe(0);
    limited(await get(M), "metadata");
  });
});

describe("X-Forwarded-For chooses the bucket only under TRUST_PROXY", () => {
  it("without TRUST_PROXY, requests each with a different X-Forwarded-For share the socket's bucket: 429 once it is spent", async () => {
    directClock.advance(61_000);
    const statuses: number[] = [];
    let last: Reply | null = null;
    for (let i = 0; i < 2 * M; i++) {
      const xff = i % 2 ? `203.0.113.${i}` : `2001:db8:${i.toString(16)}:1::1, 192.0.2.${i}`;
      last = await call(direct.url, "/v1/episodes/1", { headers: { "X-Forwarded-For": xff } });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, M).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(M).every((s) => s === 429)).toBe(true);
    limited(last!, "metadata");
  });

  it("with TRUST_PROXY=1 the rightmost entry is the client: twice a bucket's worth of different rightmost entries are as many clients", async () => {
    const base = nextIp;
    nextIp += 2 * M;
    for (let i = 0; i < 2 * M; i++) {
      const r = await from(`192.0.2.1, 10.${(base + i) >> 8}.${(base + i) & 255}.1`, "/v1");
      expect(r.status, `client ${i + 1}`).toBe(200);
      expect(field(r.headers.get("ratelimit"), "r")).toBe(M - 1);
    }
  });

  it("with TRUST_PROXY=1, requests with a fixed rightmost entry behind different left entries are one client", async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 2 * M; i++) statuses.push((await from(`10.1.${i}.1, 2001:db8::${i.toString(16)}, ${ip}`, "/v1")).status);
    expect(statuses.indexOf(429)).toBe(M);
    expect(statuses.slice(M).every((s) => s === 429)).toBe(true);
  });
});

describe("/media/* counts in the audio bucket", () => {
  let media: string;
  beforeAll(async () => {
    // The episode's audioUrl is on the site origin; the server answers it by path.
    media = new URL(json(await from(freshIp(), "/v1/episodes/1")).audioUrl).pathname;
    expect(media).toBe(`/media/${ep.id}.mp3`);
  });

  it("a bucket's worth of requests to the audio route, then the audioUrl: 429 with Retry-After and RateLimit headers", async () => {
    const ip = freshIp();
    await spend(A, (i) => from(ip, "/v1/episodes/1/audio", i % 2 ? { Range: "bytes=0-9" } : {}));
    limited(await from(ip, media), "audio");
    limited(await from(ip, media, { Range: "bytes=0-9" }), "audio");
  });

  it("a bucket's worth of requests to the audioUrl, then the audio route: 429 with Retry-After and RateLimit headers", async () => {
    const ip = freshIp();
    const replies = await spend(A, (i) => from(ip, media, i % 2 ? { Range: "bytes=0-9" } : {}));
    expect(replies.map((r) => r.status)).toEqual(Array.from({ length: A }, (_, i) => (i % 2 ? 206 : 200)));
    expect(replies.map((r) => field(r.headers.get("ratelimit"), "r"))).toEqual(Array.from({ length: A }, (_, i) => A - 1 - i));
    limited(await from(ip, "/v1/episodes/1/audio"), "audio");
    limited(await from(ip, media), "audio");
    // The metadata bucket is its own.
    expect((await from(ip, "/v1/episodes/1")).status).toBe(200);
  });

  it("HEAD and 304 on the audioUrl count, and a limited client gets 429, never 304", async () => {
    const ip = freshIp();
    const head = await from(ip, media, {}, "HEAD");
    expect(head.status).toBe(200);
    const etag = head.headers.get("etag")!;
    await spend(A / 2 - 1, () => from(ip, media, {}, "HEAD"));
    const conditional = await spend(A / 2, () => from(ip, media, { "If-None-Match": etag }));
    expect(conditional.every((r) => r.status === 304)).toBe(true);
    limited(await from(ip, media, { "If-None-Match": etag }), "audio");
    const limitedHead = await from(ip, media, {}, "HEAD");
    expect(limitedHead.status).toBe(429);
    expect(limitedHead.bytes.byteLength).toBe(0);
  });

  it("the limit ends with its window: after Retry-After seconds the audioUrl answers again", async () => {
    const ip = freshIp();
    await spend(A, () => from(ip, media, { Range: "bytes=0-0" }));
    const refused = await from(ip, media, { Range: "bytes=0-0" });
    proxiedClock.advance(limited(refused, "audio") * 1000);
    const again = await from(ip, media, { Range: "bytes=0-0" });
    expect(again.status).toBe(206);
    expect(field(again.headers.get("ratelimit"), "r")).toBe(A - 1);
  });
});
