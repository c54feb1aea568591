// Rate limits (docs/api.md#rate-limits): 120 metadata and 30 audio requests per minute per client
// IP, 429 rate_limited with Retry-After and the RateLimit headers, HEAD and 304 counted, client
// address from X-Forwarded-For only under TRUST_PROXY, configurable limits. Time moves through the
// injected clock, never by sleeping. The defaults are held on a server with them; what is counted
// and how, on one with small limits (SMALL), where a bucket is spent in a dozen requests.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../functions/node/main.ts";
import { clock, episode, sharedSite, removeSite, script, serveSite, type Site } from "../support/fixture.ts";
import { call, expectCors, expectError, expectLicense, json, stableHeaders, TONE, type Reply } from "../support/http.ts";
import { expectLimited, field, SMALL, SMALL_LIMITS, spend } from "../support/rate-limit.ts";

const T = Date.UTC(2026, 5, 1, 12, 0, 0);
const ep = episode({ episodeNumber: 1, publishedAt: "2026-01-01T00:00:00Z" });
const METADATA = ["/v1", "/v1/episodes", "/v1/episodes?limit=1", "/v1/episodes/1", `/v1/episodes/${ep.id}`, "/v1/episodes/1/script", "/v1/episodes/1/transcript"];
const TERMS = "http://localhost:4321/terms";

let site: Site;
let proxied: RunningServer;
/** TRUST_PROXY=1 with SMALL limits. */
let small: RunningServer;
let direct: RunningServer;
const proxiedClock = clock(T);
const smallClock = clock(T);
const directClock = clock(T);

beforeAll(async () => {
  site = await sharedSite("ratelimit", [{ episode: ep, script: script(), audio: TONE }]);
  proxied = await serveSite(site, { now: proxiedClock.now, env: { TRUST_PROXY: "1" } });
  small = await serveSite(site, { now: smallClock.now, env: { TRUST_PROXY: "1", ...SMALL_LIMITS } });
  direct = await serveSite(site, { now: directClock.now, env: { RATE_LIMIT_METADATA_PER_MIN: "5", RATE_LIMIT_AUDIO_PER_MIN: "2" } });
});
afterAll(async () => {
  await proxied?.close();
  await small?.close();
  await direct?.close();
  await removeSite(site);
});

let nextIp = 1;
/** A fresh client address behind the trusted proxy. */
function freshIp(): string {
  return `203.0.113.${nextIp++}`;
}

/** Requests from `ip` behind the trusted proxy to the server `server()` gives once started. */
const via = (server: () => RunningServer) => (ip: string, p: string, headers: Record<string, string> = {}, method = "GET") =>
  call(server().url, p, { method, headers: { "X-Forwarded-For": ip, ...headers } });
/** To the server with the default limits. */
const from = via(() => proxied);
/** To the server with SMALL limits. */
const fromSmall = via(() => small);

const limited = (r: Reply) => expectLimited(r, { terms: TERMS });

describe("metadata bucket: 120 requests per minute per IP", () => {
  it("answers the 121st metadata request 429 rate_limited with Retry-After, no-store and RateLimit headers", async () => {
    const ip = freshIp();
    const ok = await spend(120, (i) => from(ip, METADATA[i % METADATA.length]!));
    expect(ok.every((r) => r.status === 200)).toBe(true);
    limited(await from(ip, "/v1/episodes/1"));
  });

  it("limits every metadata route once the bucket is spent, errors included", async () => {
    const ip = freshIp();
    await spend(SMALL.metadata, () => fromSmall(ip, "/v1"));
    for (const p of [...METADATA, "/v1/episodes/999", "/v1/episodes/abc", "/v1/episodes?limit=0", "/v1/nothing"]) limited(await fromSmall(ip, p));
  });

  it("counts errors: not-found requests spend the bucket", async () => {
    const ip = freshIp();
    await spend(SMALL.metadata, () => fromSmall(ip, "/v1/episodes/999"));
    limited(await fromSmall(ip, "/v1/episodes/1"));
  });

  it("states the policy and counts down the remaining requests in RateLimit", async () => {
    const ip = freshIp();
    const [first, second] = await spend(2, () => from(ip, "/v1/episodes/1"));
    for (const r of [first!, second!]) {
      expect(field(r.headers.get("ratelimit-policy"), "q")).toBe(120);
      expect(field(r.headers.get("ratelimit-policy"), "w")).toBe(60);
      expect(field(r.headers.get("ratelimit"), "t")).toBeGreaterThanOrEqual(1);
    }
    expect(field(first!.headers.get("ratelimit"), "r")).toBe(119);
    expect(field(second!.headers.get("ratelimit"), "r")).toBe(118);
  });

  it("counts HEAD requests, and answers HEAD with the headers of the GET 429", async () => {
    const ip = freshIp();
    await spend(SMALL.metadata, (i) => fromSmall(ip, METADATA[i % METADATA.length]!, {}, "HEAD"));
    // A client that takes no coding: at the edge the front line may compress an error itself (docs/api.md#compression).
    const plain = { "Accept-Encoding": "identity" };
    const get = await fromSmall(ip, "/v1/episodes/1", plain);
    limited(get);
    const head = await fromSmall(ip, "/v1/episodes/1", plain, "HEAD");
    expect(head.status).toBe(429);
    expect(head.bytes.byteLength).toBe(0);
    expect(stableHeaders(head.headers)).toEqual(stableHeaders(get.headers));
  });

  it("counts 304 answers, and never answers 304 once limited", async () => {
    const ip = freshIp();
    const etag = (await fromSmall(ip, "/v1/episodes/1")).headers.get("etag")!;
    const replies = await spend(SMALL.metadata - 1, () => fromSmall(ip, "/v1/episodes/1", { "If-None-Match": etag }));
    expect(replies.every((r) => r.status === 304)).toBe(true);
    limited(await fromSmall(ip, "/v1/episodes/1", { "If-None-Match": etag }));
  });

  it("lets a request through after waiting the Retry-After seconds", async () => {
    const ip = freshIp();
    await spend(SMALL.metadata, () => fromSmall(ip, "/v1/episodes"));
    const wait = limited(await fromSmall(ip, "/v1/episodes"));
    smallClock.advance(wait * 1000);
    const r = await fromSmall(ip, "/v1/episodes");
    expect(r.status).toBe(200);
    expect(field(r.headers.get("ratelimit"), "r")).toBe(SMALL.metadata - 1);
  });

  it("does not limit the OpenAPI document, and a spent metadata bucket leaves the direct audio URL (audio bucket) alone", async () => {
    const ip = freshIp();
    await spend(SMALL.metadata, () => fromSmall(ip, "/v1"));
    limited(await fromSmall(ip, "/v1"));
    for (let i = 0; i < SMALL.audio; i++) {
      expect((await fromSmall(ip, "/v1/openapi.json")).status).not.toBe(429);
      const media = await fromSmall(ip, `/media/${ep.id}.mp3`, { Range: "bytes=0-0" });
      expect(media.status).toBe(206);
      expect(media.headers.get("ratelimit-policy")).toMatch(/^"audio";/);
    }
  });
});

describe("audio bucket: 30 requests per minute per IP", () => {
  it("answers the 31st audio request 429 rate_limited with Retry-After", async () => {
    const ip = freshIp();
    const ok = await spend(30, (i) => from(ip, "/v1/episodes/1/audio", i % 2 ? { Range: "bytes=0-9" } : {}));
    expect(ok.map((r) => r.status)).toEqual(Array.from({ length: 30 }, (_, i) => (i % 2 ? 206 : 200)));
    const r = await from(ip, "/v1/episodes/1/audio", { Range: "bytes=0-9" });
    limited(r);
    expect(field(r.headers.get("ratelimit-policy"), "q")).toBe(30);
  });

  it("keeps the audio and metadata buckets apart", async () => {
    const ip = freshIp();
    await spend(SMALL.audio, () => fromSmall(ip, "/v1/episodes/1/audio", {}, "HEAD"));
    limited(await fromSmall(ip, "/v1/episodes/1/audio"));
    expect((await fromSmall(ip, "/v1/episodes/1")).status).toBe(200);

    const other = freshIp();
    await spend(SMALL.metadata, () => fromSmall(other, "/v1/episodes/1"));
    limited(await fromSmall(other, "/v1/episodes/1"));
    expect((await fromSmall(other, "/v1/episodes/1/audio")).status).toBe(200);
  });

  it("counts HEAD and 304 on audio", async () => {
    const ip = freshIp();
    const etag = (await fromSmall(ip, "/v1/episodes/1/audio", {}, "HEAD")).headers.get("etag")!;
    await spend(SMALL.audio / 2 - 1, () => fromSmall(ip, "/v1/episodes/1/audio", {}, "HEAD"));
    const conditional = await spend(SMALL.audio / 2, () => fromSmall(ip, "/v1/episodes/1/audio", { "If-None-Match": etag }));
    expect(conditional.every((r) => r.status === 304)).toBe(true);
    limited(await fromSmall(ip, "/v1/episodes/1/audio", { "If-None-Match": etag }));
  });
});

describe("client addresses", () => {
  it("gives separate IPs behind a trusted proxy separate buckets", async () => {
    const a = freshIp();
    const b = freshIp();
    await spend(SMALL.metadata, () => fromSmall(a, "/v1"));
    limited(await fromSmall(a, "/v1"));
    expect((await fromSmall(b, "/v1")).status).toBe(200);
  });

  it("trusts only the configured number of hops from the right of X-Forwarded-For", async () => {
    const ip = freshIp();
    // A client cannot escape its bucket by writing addresses to the left of what the proxy appended.
    await spend(SMALL.metadata, (i) => fromSmall(`10.9.${i}.1, ${ip}`, "/v1"));
    limited(await fromSmall(`192.0.2.77, ${ip}`, "/v1"));
  });

  it("ignores X-Forwarded-For without TRUST_PROXY: the socket address is the client", async () => {
    directClock.advance(61_000);
    const get = (xff: string) => call(direct.url, "/v1/episodes/1", { headers: { "X-Forwarded-For": xff } });
    for (let i = 0; i < 5; i++) expect((await get(`198.51.100.${i}`)).status).toBe(200);
    expectError(await get("198.51.100.200"), 429, "rate_limited");
    expectError(await call(direct.url, "/v1/episodes/1"), 429, "rate_limited");
  });
});

describe("configured limits", () => {
  it("RATE_LIMIT_METADATA_PER_MIN sets the metadata limit, the policy and the discovery document", async () => {
    directClock.advance(61_000);
    const first = await call(direct.url, "/v1");
    expect(json(first).rateLimits.metadata.limit).toBe(5);
    expect(field(first.headers.get("ratelimit-policy"), "q")).toBe(5);
    for (let i = 0; i < 4; i++) expect((await call(direct.url, "/v1/episodes")).status).toBe(200);
    const r = await call(direct.url, "/v1/episodes");
    expectError(r, 429, "rate_limited");
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("RATE_LIMIT_AUDIO_PER_MIN sets the audio limit", async () => {
    directClock.advance(61_000);
    for (let i = 0; i < 2; i++) expect((await call(direct.url, "/v1/episodes/1/audio")).status).toBe(200);
    const r = await call(direct.url, "/v1/episodes/1/audio");
    expectError(r, 429, "rate_limited");
    expect(field(r.headers.get("ratelimit-policy"), "q")).toBe(2);
  });
});
