// Contract test: every route of the running server, successes and every error status it can
// produce, GET and HEAD, is held to the OpenAPI document the same build generated. A status, a
// header or a body member the document does not describe fails the test; and every response the
// document describes is produced at least once, except those it marks as reserved.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHandler } from "../../functions/handler.ts";
import { shimConfig } from "../../src/shared/config.ts";
import { EpisodeIndex } from "../../functions/data/episode-index.ts";
import { FileAssetStore } from "../../functions/node/file-assets.ts";
import { LocalAudioStorage } from "../../functions/node/local-storage.ts";
import type { RunningServer } from "../../functions/node/main.ts";
import { createNodeServer } from "../../functions/node/server.ts";
import type { AssetStore, AudioStorage, RateLimitStore } from "../../functions/ports.ts";
import { MemoryRateLimitStore } from "../../functions/limits/rate-limit.ts";
import { ERRORS } from "../../src/shared/errors.ts";
import { DOCUMENTED_ROUTES } from "../../src/generate/openapi/document.ts";
import { BUILD_FILES, MEDIA_DIR } from "../../src/shared/layout.ts";
import { buildIndex } from "../../src/shared/schema/build-index.ts";
import { episode, makeSite, removeSite, script, serveSite, timedScript, type Site } from "../support/fixture.ts";
import { NO_LIMITS, TONE } from "../support/http.ts";
import { ContractChecker, exchange, type Exchange } from "./support/contract.ts";

const API = "https://api.example.test";
const SITE = "https://www.example.test";

const ids = {
  full: "0a8f5e2c-6b1d-4c3e-9f7a-1b2c3d4e5f60",
  accented: "1b9f6e3d-7c2e-4d4f-8a8b-2c3d4e5f6071",
  bare: "2cafe4e5-8d3f-4e5a-9b9c-3d4e5f607182",
  broken: "3dbf05f6-9e4a-4f6b-8cad-4e5f60718293",
  silent: "4ec016a7-af5b-4a7c-9dbe-5f6071829304",
  scheduled: "5fd127b8-b06c-4b8d-8ecf-607182930415",
  draft: "60e238c9-c17d-4c9e-9fd0-718293041526",
};

let site: Site;
let doc: Record<string, unknown>;
let checker: ContractChecker;
let main: RunningServer;
let limited: RunningServer;
let redirecting: RunningServer;
let limiterDown: RunningServer;
let upstreamDown: RunningServer;
let audioSize: number;

/** A server of the real handler and Node adapter with chosen ports (a failing store, say). */
async function serveWith(ports: { assets?: (inner: AssetStore) => AssetStore; storage?: AudioStorage; rateLimitStore?: RateLimitStore }): Promise<RunningServer> {
  const read = async (rel: string) => JSON.parse(await readFile(path.join(site.distDir, rel), "utf8"));
  const inner = new FileAssetStore(site.distDir, await read(BUILD_FILES.manifest));
  const handler = await createHandler({
    config: shimConfig(NO_LIMITS),
    index: new EpisodeIndex(buildIndex.parse(await read(BUILD_FILES.index))),
    assets: ports.assets ? ports.assets(inner) : inner,
    storage: ports.storage ?? new LocalAudioStorage(path.join(site.distDir, MEDIA_DIR)),
    rateLimitStore: ports.rateLimitStore ?? new MemoryRateLimitStore(),
  });
  const server = createNodeServer(handler, 0);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}

const down = () => Promise.reject(new Error("upstream down"));

beforeAll(async () => {
  const day = (d: number) => new Date(Date.UTC(2026, 0, d, 8)).toISOString();
  site = await makeSite(
    "contract",
    [
      {
        episode: episode({
          id: ids.full,
          episodeNumber: 1,
          title: "Everything filled in",
          shareTitle: "Everything, filled in",
          description: "A longer description.",
          publishedAt: day(2),
          discoveredAt: day(1),
          durationSeconds: 61,
          sourceUrl: "https://source.example.test/post",
          coverImageUrl: "https://www.example.test/cover.png",
          archetype: "explainer",
          kind: { type: "model-behavior", sourceForm: "blog-post", eventType: "release" },
          topics: { domains: ["security", "ai"], concepts: ["keys"], entities: ["acme"] },
        }),
        script: timedScript([["a", "Hello [laughs] there."], ["b", "*sighs* Hi."], ["Guest Voice", "A third voice."]]),
        audio: TONE,
      },
      { episode: episode({ id: ids.accented, episodeNumber: 2, title: "Café Über Ñandú", publishedAt: day(3) }), script: timedScript(), audio: TONE },
      { episode: episode({ id: ids.bare, episodeNumber: null, title: "No number, no script, no audio", summary: undefined, publishedAt: day(4) }) },
      { episode: episode({ id: ids.broken, episodeNumber: 4, publishedAt: day(5) }), script: "{ not json" },
      { episode: episode({ id: ids.silent, episodeNumber: 5, publishedAt: day(6) }), script: script([["a", "[silence]"]]) },
      { episode: episode({ id: ids.scheduled, episodeNumber: 6, publishedAt: "2099-01-01T00:00:00Z" }), script: script(), audio: TONE },
      { episode: episode({ id: ids.draft, episodeNumber: 7, status: "draft", publishedAt: day(7) }), script: script() },
      ...[8, 9, 10].map((n) => ({ episode: episode({ episodeNumber: n, publishedAt: day(n), topics: { domains: ["security"], concepts: [], entities: [] } }), script: script() })),
    ],
    { API_BASE_URL: API, SITE_URL: SITE },
  );
  doc = JSON.parse(await readFile(path.join(site.distDir, BUILD_FILES.openapi), "utf8"));
  checker = new ContractChecker(doc);
  audioSize = TONE.byteLength;
  main = await serveSite(site, { env: NO_LIMITS });
  limited = await serveSite(site, { env: { RATE_LIMIT_METADATA_PER_MIN: "1", RATE_LIMIT_AUDIO_PER_MIN: "1" } });
  const local = new LocalAudioStorage(path.join(site.distDir, MEDIA_DIR));
  const presigning: AudioStorage = {
    head: (k) => local.head(k),
    read: (k, a, b, s) => local.read(k, a, b, s),
    presign: async (key, disposition) => `https://storage.example.test/${key}?response-content-disposition=${encodeURIComponent(disposition)}&X-Amz-Expires=300`,
  };
  redirecting = await serveSite(site, { env: { ...NO_LIMITS, AUDIO_DELIVERY: "redirect" }, storage: presigning });
  limiterDown = await serveWith({ rateLimitStore: { hit: down } });
  upstreamDown = await serveWith({
    // What the handler reads at start comes through; every body after it fails.
    assets: (inner) => ({ get: (p) => (p === BUILD_FILES.discovery || p === BUILD_FILES.timedEtags ? inner.get(p) : down()) }),
    storage: { head: down, read: down },
  });
});

afterAll(async () => {
  for (const s of [main, limited, redirecting, limiterDown, upstreamDown]) await s?.close();
  await removeSite(site);
});

/** One request, held to the document. */
async function described(base: string, target: string, init: RequestInit = {}): Promise<Exchange> {
  const ex = await exchange(base, target, init);
  expect(checker.check(ex), `${init.method ?? "GET"} ${target}`).toEqual([]);
  return ex;
}

/** GET and HEAD of a target: both described, HEAD with GET's status and no body. */
async function getAndHead(base: string, target: string, headers: Record<string, string> = {}): Promise<Exchange> {
  const get = await described(base, target, { headers });
  const head = await described(base, target, { method: "HEAD", headers });
  expect(head.status, `HEAD ${target}`).toBe(get.status);
  return get;
}

const json = (ex: Exchange) => JSON.parse(new TextDecoder().decode(ex.body));
const TIMED_PARTS = ["/transcript.vtt", "/transcript.srt", "/transcript.json", "/chapters.json"];
const EPISODE_PARTS = ["", "/audio", "/script", "/transcript", ...TIMED_PARTS];

describe("the OpenAPI document of the build", () => {
  it("describes the API at the build's API_BASE_URL, version 1.0.0, under the usage terms", () => {
    const info = doc.info as Record<string, any>;
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(info.version).toBe("1.0.0");
    expect(doc.servers).toEqual([expect.objectContaining({ url: API })]);
    expect(info.license.url).toBe(`${SITE}/terms`);
    expect(info.termsOfService).toBe(`${SITE}/terms`);
  });

  it("describes every route of the specification with GET and HEAD", () => {
    expect(Object.keys(doc.paths as object).sort()).toEqual(
      [
        "/v1",
        "/v1/episodes",
        "/v1/episodes/{ref}",
        "/v1/episodes/{ref}/audio",
        "/v1/episodes/{ref}/script",
        "/v1/episodes/{ref}/transcript",
        ...TIMED_PARTS.map((p) => `/v1/episodes/{ref}${p}`),
        "/v1/openapi.json",
      ].sort(),
    );
    for (const item of Object.values(doc.paths as Record<string, object>)) expect(Object.keys(item).sort()).toEqual(["get", "head"]);
  });
});

describe("live responses against the document", () => {
  it("the discovery document and the OpenAPI document, GET and HEAD, are described", async () => {
    const discovery = await getAndHead(main.url, "/v1");
    expect(discovery.status).toBe(200);
    expect(json(discovery).links.openapi).toBe(`${API}/v1/openapi.json`);
    const openapi = await getAndHead(main.url, "/v1/openapi.json");
    expect(openapi.status).toBe(200);
    expect(json(openapi)).toEqual(doc);
  });

  it("every episode route answers a described 200 by number, by UUID in either case, and for an episode without a number", async () => {
    for (const ref of ["1", ids.full.toUpperCase(), ids.accented]) {
      for (const part of EPISODE_PARTS) expect((await getAndHead(main.url, `/v1/episodes/${ref}${part}`)).status).toBe(200);
    }
    const bare = await getAndHead(main.url, `/v1/episodes/${ids.bare}`);
    expect(json(bare).episodeNumber).toBeNull();
    expect(json(bare)).not.toHaveProperty("audioUrl");
    expect(json(await described(main.url, "/v1/episodes/1")).audioUrl).toMatch(/^https:\/\/www\.example\.test\/media\//);
  });

  it("credentials in either header form are served like a request without them", async () => {
    for (const headers of [{ Authorization: "Bearer any-key" }, { "X-API-Key": "any-key" }] as Record<string, string>[]) {
      for (const target of ["/v1", "/v1/episodes", "/v1/openapi.json", ...EPISODE_PARTS.map((p) => `/v1/episodes/1${p}`)]) {
        expect((await getAndHead(main.url, target, headers)).status).toBe(200);
      }
    }
  });

  it("the list pages through every published episode with described pages, whatever the filters", async () => {
    const seen: string[] = [];
    let target: string | null = "/v1/episodes?limit=2";
    while (target !== null) {
      const page: Exchange = await getAndHead(main.url, target);
      expect(page.status).toBe(200);
      const body = json(page);
      seen.push(...body.episodes.map((e: { id: string }) => e.id));
      target = body.pagination.nextCursor === null ? null : `/v1/episodes?limit=2&cursor=${body.pagination.nextCursor}`;
    }
    expect(seen).toHaveLength(8);
    expect(seen).not.toContain(ids.scheduled);
    expect(seen).not.toContain(ids.draft);
    for (const query of ["", "?limit=50", "?limit=1", "?domain=security", "?domain=no-such-domain", "?since=2026-01-05", "?since=2026-01-05T00:00:00%2B02:00", "?since=2026-01-05T10:00:00.5Z&limit=3", "?unknown=1"]) {
      expect((await getAndHead(main.url, `/v1/episodes${query}`)).status).toBe(200);
      for (const [name, value] of new URLSearchParams(query)) {
        if (name !== "unknown") expect(checker.parameterAccepts(name, value), `${name}=${value}`).toBe(true);
      }
    }
  });

  it("every response that has an ETag answers a described 304 to If-None-Match, GET and HEAD", async () => {
    const targets = ["/v1", "/v1/openapi.json", "/v1/episodes", "/v1/episodes?limit=2", ...EPISODE_PARTS.map((p) => `/v1/episodes/1${p}`)];
    for (const target of targets) {
      const first = await described(main.url, target);
      const etag = first.headers.get("etag")!;
      for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
        expect((await getAndHead(main.url, target, { "If-None-Match": inm })).status, `${target} If-None-Match: ${inm}`).toBe(304);
      }
      expect((await getAndHead(main.url, target, { "If-None-Match": '"stale"' })).status).toBe(200);
    }
  });

  it("audio ranges are described: 206 single and multipart, 416, and 200 for ranges that do not apply", async () => {
    const audio = "/v1/episodes/1/audio";
    const etag = (await described(main.url, audio)).headers.get("etag")!;
    for (const range of ["bytes=0-99", "bytes=-100", `bytes=${audioSize - 10}-`, `bytes=0-${audioSize * 2}`]) {
      const ex = await described(main.url, audio, { headers: { Range: range } });
      expect(ex.status, range).toBe(206);
      expect(ex.headers.get("content-type")).toBe("audio/mpeg");
    }
    const multi = await described(main.url, audio, { headers: { Range: "bytes=0-9,100-109" } });
    expect(multi.status).toBe(206);
    expect(multi.headers.get("content-type")).toMatch(/^multipart\/byteranges; boundary=/);
    for (const range of [`bytes=${audioSize}-`, "bytes=-0"]) {
      const ex = await described(main.url, audio, { headers: { Range: range } });
      expect(ex.status, range).toBe(416);
      expect(ex.headers.get("content-range")).toBe(`bytes */${audioSize}`);
    }
    for (const range of ["bytes=abc", "items=0-10"]) expect((await described(main.url, audio, { headers: { Range: range } })).status).toBe(200);
    expect((await described(main.url, audio, { headers: { Range: "bytes=0-9", "If-Range": '"stale"' } })).status).toBe(200);
    expect((await described(main.url, audio, { headers: { Range: "bytes=0-9", "If-Range": etag } })).status).toBe(206);
    expect((await described(main.url, audio, { method: "HEAD", headers: { Range: "bytes=0-9" } })).status).toBe(200);
  });

  it("audio downloads are described, with RFC 6266 file names for non-ASCII titles", async () => {
    const attachment = await getAndHead(main.url, "/v1/episodes/2/audio?download=1");
    expect(attachment.headers.get("content-disposition")).toMatch(/^attachment; filename="[^"]+"; filename\*=UTF-8''/);
    const inline = await getAndHead(main.url, "/v1/episodes/1/audio?download=0");
    expect(inline.headers.get("content-disposition")).toMatch(/^inline; /);
    for (const value of ["1", "0", "yes"]) expect(checker.parameterAccepts("download", value)).toBe(true);
  });

  it("the opt-in redirect delivery answers a described 302 to presigned storage", async () => {
    for (const target of ["/v1/episodes/1/audio", "/v1/episodes/1/audio?download=1"]) {
      const ex = await getAndHead(redirecting.url, target);
      expect(ex.status).toBe(302);
      expect(ex.headers.get("location")).toMatch(/^https:\/\/storage\.example\.test\//);
    }
    expect((await getAndHead(redirecting.url, `/v1/episodes/${ids.bare}/audio`)).status).toBe(404);
  });

  it("malformed list parameters are described 400s, and the document's parameter schemas refuse the same values", async () => {
    const first = json(await described(main.url, "/v1/episodes?limit=1&domain=security"));
    const cursor: string = first.pagination.nextCursor;
    const altered = `${cursor.slice(0, -2)}${cursor.endsWith("A") ? "B" : "A"}${cursor.slice(-1)}`;
    const cases: [query: string, code: string, schemaRefuses: boolean][] = [
      ["limit=0", "invalid_limit", true],
      ["limit=51", "invalid_limit", true],
      ["limit=abc", "invalid_limit", true],
      ["limit=1.5", "invalid_limit", true],
      ["limit=", "invalid_limit", true],
      ["limit=2&limit=3", "invalid_limit", false],
      ["domain=Bad_Domain", "invalid_domain", true],
      ["domain=", "invalid_domain", true],
      [`domain=${"a".repeat(65)}`, "invalid_domain", true],
      ["since=2026-02-30", "invalid_since", true],
      ["since=yesterday", "invalid_since", true],
      ["since=2026-01-05T10:00:00", "invalid_since", true],
      ["cursor=not%20a%20cursor", "invalid_cursor", true],
      [`cursor=${altered}`, "invalid_cursor", false],
      [`cursor=${cursor}&domain=ai`, "invalid_cursor", false],
    ];
    for (const [query, code, schemaRefuses] of cases) {
      const ex = await getAndHead(main.url, `/v1/episodes?${query}`);
      expect(ex.status, query).toBe(400);
      const body = json(ex);
      expect(body.error.code, query).toBe(code);
      if (schemaRefuses) {
        const [name, value] = [...new URLSearchParams(query)][0]!;
        expect(checker.parameterAccepts(name, value), `the ${name} schema refuses ${JSON.stringify(value)}`).toBe(false);
      }
    }
  });

  it("malformed episode references are described 400s on every episode route, and the ref schema refuses them", async () => {
    for (const ref of ["abc", "1234567890", "12ab", "-1", `${ids.full}x`]) {
      for (const part of EPISODE_PARTS) {
        const ex = await getAndHead(main.url, `/v1/episodes/${ref}${part}`);
        expect(ex.status, `${ref}${part}`).toBe(400);
        expect(json(ex).error).toMatchObject({ code: "invalid_episode_ref", parameter: "ref" });
      }
      expect(checker.parameterAccepts("ref", ref), ref).toBe(false);
    }
    for (const ref of ["1", "000000001", ids.full, ids.full.toUpperCase()]) expect(checker.parameterAccepts("ref", ref), ref).toBe(true);
  });

  it("episodes that are unknown, scheduled or drafts are described 404s on every episode route", async () => {
    for (const ref of ["999", "0", "1b1b1b1b-2c2c-4d4d-8e8e-3f3f3f3f3f3f", "6", ids.scheduled, ids.draft]) {
      for (const part of EPISODE_PARTS) {
        const ex = await getAndHead(main.url, `/v1/episodes/${ref}${part}`);
        expect(ex.status, `${ref}${part}`).toBe(404);
        expect(json(ex).error.code).toBe("not_found");
      }
    }
  });

  it("missing audio, scripts and transcripts are described 404s, and an unparseable script a described 422", async () => {
    const expectCode = async (target: string, status: number, code: string) => {
      const ex = await getAndHead(main.url, target);
      expect(ex.status, target).toBe(status);
      expect(json(ex).error.code, target).toBe(code);
    };
    await expectCode(`/v1/episodes/${ids.bare}/audio`, 404, "not_found");
    await expectCode(`/v1/episodes/${ids.bare}/script`, 404, "script_unavailable");
    await expectCode(`/v1/episodes/${ids.bare}/transcript`, 404, "transcript_unavailable");
    await expectCode("/v1/episodes/4/script", 422, "script_unparseable");
    await expectCode("/v1/episodes/4/transcript", 404, "transcript_unavailable");
    await expectCode("/v1/episodes/5/transcript", 404, "transcript_unavailable");
    expect((await getAndHead(main.url, "/v1/episodes/5/script")).status).toBe(200);
    // No script, an unparseable one, one with nothing spoken, one without times: no timed form.
    for (const ref of [ids.bare, "4", "5", "8"]) {
      for (const part of TIMED_PARTS) await expectCode(`/v1/episodes/${ref}${part}`, 404, part === "/chapters.json" ? "chapters_unavailable" : "transcript_unavailable");
    }
  });

  it("methods other than GET, HEAD and OPTIONS are described 405s on every path", async () => {
    for (const target of ["/v1", "/v1/episodes", "/v1/openapi.json", ...EPISODE_PARTS.map((p) => `/v1/episodes/1${p}`)]) {
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        const ex = await described(main.url, target, { method });
        expect(ex.status, `${method} ${target}`).toBe(405);
        expect(ex.headers.get("allow")).toBe("GET, HEAD");
      }
    }
  });

  it("beyond the rate limit every limited route answers a described 429, and the OpenAPI document is never limited", async () => {
    const metadata = ["/v1", "/v1/episodes", "/v1/episodes/1", "/v1/episodes/1/script", "/v1/episodes/1/transcript", ...TIMED_PARTS.map((p) => `/v1/episodes/1${p}`)];
    expect((await described(limited.url, metadata[0]!)).status).toBe(200);
    expect((await described(limited.url, "/v1/episodes/1/audio")).status).toBe(200);
    for (const target of [...metadata, "/v1/episodes/1/audio", "/v1/episodes/abc", "/v1/episodes?limit=0", "/v1/episodes/999/audio"]) {
      const ex = await getAndHead(limited.url, target);
      expect(ex.status, target).toBe(429);
      expect(Number(ex.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
    expect((await getAndHead(limited.url, "/v1/openapi.json")).status).toBe(200);
  });

  it("a failing rate-limit store or upstream gives described 502s on every route that depends on it", async () => {
    const routes = ["/v1/episodes", ...EPISODE_PARTS.map((p) => `/v1/episodes/1${p}`)];
    for (const target of ["/v1", ...routes]) {
      const ex = await getAndHead(limiterDown.url, target);
      expect(ex.status, target).toBe(502);
      expect(ex.headers.get("cache-control")).toBe("no-store");
    }
    for (const target of ["/v1/openapi.json", ...routes]) {
      const ex = await getAndHead(upstreamDown.url, target);
      expect(ex.status, target).toBe(502);
      expect(json(ex).error.code).toBe("upstream_unavailable");
    }
  });

  it("an unknown path under /v1 answers the documented error envelope", async () => {
    const ex = await exchange(main.url, "/v1/nope");
    expect(ex.status).toBe(404);
    const validate = checker.validator("/components/schemas/Error");
    expect(validate(json(ex)), JSON.stringify(validate.errors)).toBe(true);
  });

  it("the checker refuses what the document does not describe", async () => {
    const real = await exchange(main.url, "/v1/episodes/1");
    const withBody = (body: unknown): Exchange => ({ ...real, body: new TextEncoder().encode(JSON.stringify(body)) });
    const episodeBody = json(real);
    expect(checker.check(real)).toEqual([]);
    expect(checker.check(withBody({ ...episodeBody, surprise: 1 })).join()).toMatch(/unevaluated/);
    expect(checker.check(withBody({ ...episodeBody, links: { ...episodeBody.links, extra: "https://x.test/" } })).join()).toMatch(/unevaluated/);
    expect(checker.check(withBody({ ...episodeBody, summary: undefined })).join()).toMatch(/summary/);
    expect(checker.check(withBody({ ...episodeBody, kind: { ...episodeBody.kind, type: 7 } })).join()).toMatch(/type/);
    expect(checker.check({ ...real, status: 418 }).join()).toMatch(/not described/);
    const headers = new Headers(real.headers);
    headers.delete("etag");
    headers.set("x-powered-by", "surprise");
    const problems = checker.check({ ...real, headers }).join("\n");
    expect(problems).toMatch(/required header ETag missing/);
    expect(problems).toMatch(/x-powered-by is not documented/);
    const garbled = new Headers(real.headers);
    garbled.set("ratelimit", "plenty");
    garbled.set("link", "<https://www.example.test/terms>");
    const garbledProblems = checker.check({ ...real, headers: garbled }).join("\n");
    expect(garbledProblems).toMatch(/header RateLimit: "plenty"/);
    expect(garbledProblems).toMatch(/header Link: /);
    const notFound = await exchange(main.url, "/v1/episodes/999");
    expect(checker.check({ ...notFound, body: new TextEncoder().encode(JSON.stringify({ error: { code: "gone", message: "m", status: 404 } })) }).join()).toMatch(/code/);
  });

  it("every response the document describes was produced, except the ones it marks as reserved", () => {
    const reserved = new Set<string>();
    for (const route of DOCUMENTED_ROUTES) {
      for (const code of route.reserved ?? []) for (const m of ["GET", "HEAD"]) reserved.add(`${m} ${route.path} ${ERRORS[code].status}`);
    }
    const missing = [...checker.described()].filter((k) => !checker.covered.has(k));
    expect(missing.sort()).toEqual([...reserved].sort());
  });
});
