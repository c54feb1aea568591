// GET /v1: the discovery document (docs/api.md#get-v1), and unknown paths under /v1 (docs/api.md#api-routes).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../functions/node/main.ts";
import { episode, sharedSite, PODCAST, removeSite, script, serveSite, type Site } from "../support/fixture.ts";
import { call, expectCors, expectError, expectLicense, json } from "../support/http.ts";

const API = "https://api.example.test";
const SITE = "https://www.example.test";
const TERMS = "https://www.example.test/legal/usage-terms";

let site: Site;
let server: RunningServer;
let tuned: RunningServer;

beforeAll(async () => {
  site = await sharedSite(
    "discovery",
    [{ episode: episode({ episodeNumber: 1 }), script: script() }],
    { API_BASE_URL: API, SITE_URL: SITE },
    { ...PODCAST, termsUrl: TERMS },
  );
  server = await serveSite(site);
  tuned = await serveSite(site, { env: { RATE_LIMIT_METADATA_PER_MIN: "7", RATE_LIMIT_AUDIO_PER_MIN: "3" } });
});
afterAll(async () => {
  await server?.close();
  await tuned?.close();
  await removeSite(site);
});

describe("GET /v1 (discovery document)", () => {
  it("is JSON with name, version 1.0.0 and a description", async () => {
    const r = await call(server.url, "/v1");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const doc = json(r);
    expect(typeof doc.name).toBe("string");
    expect(doc.name).toContain(PODCAST.title);
    expect(doc.version).toBe("1.0.0");
    expect(typeof doc.description).toBe("string");
    expect(doc.description.length).toBeGreaterThan(0);
  });

  it("links every surface with absolute URLs on the configured base and site URLs", async () => {
    const { links } = json(await call(server.url, "/v1"));
    expect(links.self).toBe(`${API}/v1`);
    expect(links.episodes).toBe(`${API}/v1/episodes`);
    expect(links.episode).toBe(`${API}/v1/episodes/{ref}`);
    expect(links.openapi).toBe(`${API}/v1/openapi.json`);
    expect(links.license).toBe(TERMS);
    expect(links.site).toMatch(new RegExp(`^${SITE}/?$`));
    expect(links.oembed).toMatch(new RegExp(`^${SITE}/oembed`));
    expect(links.embed).toMatch(new RegExp(`^${SITE}/embed/`));
    for (const [name, value] of Object.entries(links)) {
      expect(typeof value, name).toBe("string");
      // Templates aside, every link parses as an absolute http(s) URL.
      const url = new URL(String(value).replace("{ref}", "1"));
      expect(["http:", "https:"], name).toContain(url.protocol);
    }
  });

  it("states both rate-limit buckets with limit, window, scope ip and the routes they cover", async () => {
    const { rateLimits } = json(await call(server.url, "/v1"));
    expect(rateLimits.metadata).toMatchObject({ limit: 120, windowSeconds: 60, scope: "ip" });
    expect(rateLimits.audio).toMatchObject({ limit: 30, windowSeconds: 60, scope: "ip" });
    expect(rateLimits.metadata.routes).toEqual(
      expect.arrayContaining(["/v1", "/v1/episodes", "/v1/episodes/{ref}", "/v1/episodes/{ref}/script", "/v1/episodes/{ref}/transcript"]),
    );
    expect(rateLimits.audio.routes).toEqual(["/v1/episodes/{ref}/audio"]);
  });

  it("states the rate limits configured at run time", async () => {
    const { rateLimits } = json(await call(tuned.url, "/v1"));
    expect(rateLimits.metadata.limit).toBe(7);
    expect(rateLimits.audio.limit).toBe(3);
  });

  it("states the page sizes of the list", async () => {
    const { pagination } = json(await call(server.url, "/v1"));
    expect(pagination).toEqual({ defaultLimit: 20, maxLimit: 50 });
  });

  it("carries a strong ETag, a revalidating Cache-Control, CORS and the license Link of the podcast's terms", async () => {
    // The plain body, so Content-Length counts the bytes read (docs/api.md#compression).
    const r = await call(server.url, "/v1", { headers: { "Accept-Encoding": "identity" } });
    expect(r.headers.get("etag")).toMatch(/^"[^"]+"$/);
    expect(r.headers.get("cache-control")).toMatch(/max-age=\d+/);
    expect(r.headers.get("cache-control")).not.toContain("immutable");
    expectCors(r.headers);
    expectLicense(r.headers, TERMS);
    expect(Number(r.headers.get("content-length"))).toBe(r.bytes.byteLength);
  });

  it("answers HEAD with the headers of GET and no body", async () => {
    const get = await call(server.url, "/v1");
    const head = await call(server.url, "/v1", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.bytes.byteLength).toBe(0);
    for (const name of ["etag", "content-type", "content-length", "cache-control", "link", "access-control-allow-origin"]) {
      expect(head.headers.get(name), name).toBe(get.headers.get(name));
    }
  });
});

describe("unknown paths under /v1", () => {
  it.each([
    "/v1/nothing",
    "/v1/episode",
    "/v1/episodes/1/nothing",
    "/v1/episodes/1/audio/extra",
    "/v1/episodes/1/script/",
    "/v1/openapi",
    "/v1/v1",
  ])("%s answers 404 not_found in the envelope with CORS and the license Link", async (p) => {
    const r = await call(server.url, p);
    expectError(r, 404, "not_found");
    expectCors(r.headers);
    expectLicense(r.headers, TERMS);
  });
});
