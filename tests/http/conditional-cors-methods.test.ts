// Cross-cutting HTTP rules of every API route (docs/api.md#http-behaviour, docs/api.md#errors): conditional requests
// (RFC 9110 §13), HEAD, CORS and preflight, methods, the license Link, credentials ignored, and the
// error envelope.
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../functions/node/main.ts";
import { episode, sharedSite, PODCAST, removeSite, script, serveSite, type Site } from "../support/fixture.ts";
import { call, expectCors, expectError, expectLicense, NO_LIMITS, stableHeaders, TONE, type Reply } from "../support/http.ts";

const TERMS = "https://terms.example.test/podcast";
const one = episode({ episodeNumber: 1, title: "One" });
const two = episode({ episodeNumber: 2, title: "Two" });
const broken = episode({ episodeNumber: 3, title: "Broken script" });

let site: Site;
let server: RunningServer;

beforeAll(async () => {
  site = await sharedSite(
    "cross",
    [
      { episode: one, script: script(), audio: TONE },
      { episode: two },
      { episode: broken, script: "[1, 2" },
    ],
    {},
    { ...PODCAST, termsUrl: TERMS },
  );
  server = await serveSite(site, { env: NO_LIMITS });
});
afterAll(async () => {
  await server?.close();
  await removeSite(site);
});

const get = (p: string, headers: Record<string, string> = {}, method = "GET") => call(server.url, p, { method, headers });
/** What a client that takes no content coding sends (docs/api.md#compression). */
const PLAIN = { "Accept-Encoding": "identity" };

/** Routes answering 200 with an ETag. */
const OK_ROUTES = [
  "/v1",
  "/v1/",
  "/v1/episodes",
  "/v1/episodes?limit=1",
  "/v1/episodes?domain=general&since=2020-01-01",
  "/v1/episodes/1",
  `/v1/episodes/${one.id}`,
  "/v1/episodes/1/script",
  "/v1/episodes/1/transcript",
  "/v1/episodes/1/audio",
  "/v1/episodes/1/audio?download=1",
];
/** Error responses of every kind a GET can meet, with their status and code. */
const ERROR_ROUTES: [string, number, string][] = [
  ["/v1/episodes/999", 404, "not_found"],
  ["/v1/episodes/999/audio", 404, "not_found"],
  ["/v1/episodes/2/audio", 404, "not_found"],
  ["/v1/nothing/here", 404, "not_found"],
  ["/v1/episodes/2/script", 404, "script_unavailable"],
  ["/v1/episodes/2/transcript", 404, "transcript_unavailable"],
  ["/v1/episodes/3/script", 422, "script_unparseable"],
  ["/v1/episodes/abc", 400, "invalid_episode_ref"],
  ["/v1/episodes/abc/audio", 400, "invalid_episode_ref"],
  ["/v1/episodes?limit=0", 400, "invalid_limit"],
  ["/v1/episodes?cursor=zzz", 400, "invalid_cursor"],
  ["/v1/episodes?domain=NO", 400, "invalid_domain"],
  ["/v1/episodes?since=2026-02-30", 400, "invalid_since"],
];

describe("If-None-Match (RFC 9110 §13.1.2)", () => {
  async function check(route: string, header: (etag: string) => string): Promise<void> {
    const fresh = await get(route);
    expect(fresh.status).toBe(200);
    const etag = fresh.headers.get("etag")!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const r = await get(route, { "If-None-Match": header(etag) });
    expect(r.status, `${route} with If-None-Match ${header(etag)}`).toBe(304);
    expect(r.bytes.byteLength).toBe(0);
    expect(r.headers.get("etag")).toBe(etag);
    expect(r.headers.get("cache-control")).toBe(fresh.headers.get("cache-control"));
    expectCors(r.headers);
    expectLicense(r.headers, TERMS);
  }

  it.each(OK_ROUTES)("%s: the exact ETag gives 304 with ETag, Cache-Control, CORS and Link and no body", (route) => check(route, (e) => e));
  it.each(OK_ROUTES)("%s: the weak form W/<etag> gives 304", (route) => check(route, (e) => `W/${e}`));
  it.each(OK_ROUTES)("%s: a list containing the ETag gives 304", (route) => check(route, (e) => `"nope", W/"other", ${e} , "last"`));
  it.each(OK_ROUTES)("%s: * gives 304", (route) => check(route, () => "*"));

  it.each(OK_ROUTES)("%s: a list without the ETag gives 200 with the body", async (route) => {
    const fresh = await get(route);
    const r = await get(route, { "If-None-Match": '"nope", W/"other"' });
    expect(r.status).toBe(200);
    expect(r.bytes.byteLength).toBeGreaterThan(0);
    expect(r.text).toBe(fresh.text);
  });

  it("gives 304 on the direct audioUrl too", async () => {
    const route = `/media/${one.id}.mp3`;
    const etag = (await get(route)).headers.get("etag")!;
    const r = await get(route, { "If-None-Match": etag });
    expect(r.status).toBe(304);
    expect(r.bytes.byteLength).toBe(0);
    expectCors(r.headers);
  });

  it("gives 304 to HEAD as to GET", async () => {
    const etag = (await get("/v1/episodes/1")).headers.get("etag")!;
    const head = await get("/v1/episodes/1", { "If-None-Match": etag }, "HEAD");
    const cond = await get("/v1/episodes/1", { "If-None-Match": etag });
    expect(head.status).toBe(304);
    expect(stableHeaders(head.headers)).toEqual(stableHeaders(cond.headers));
  });

  it("takes precedence over If-Modified-Since", async () => {
    const future = "Fri, 01 Jan 2100 00:00:00 GMT";
    expect((await get("/v1/episodes/1", { "If-None-Match": '"nope"', "If-Modified-Since": future })).status).toBe(200);
    const etag = (await get("/v1/episodes/1")).headers.get("etag")!;
    expect((await get("/v1/episodes/1", { "If-None-Match": etag, "If-Modified-Since": "Thu, 01 Jan 1970 00:00:00 GMT" })).status).toBe(304);
  });

  it("answers a matching If-None-Match on audio with 304 even with a Range", async () => {
    const etag = (await get("/v1/episodes/1/audio")).headers.get("etag")!;
    const r = await get("/v1/episodes/1/audio", { "If-None-Match": etag, Range: "bytes=0-9" });
    expect(r.status).toBe(304);
    expect(r.bytes.byteLength).toBe(0);
  });

  it.each(ERROR_ROUTES)("never turns the error of %s into a 304, not even for If-None-Match: *", async (route, status, code) => {
    expectError(await get(route, { "If-None-Match": "*" }), status, code);
    expectError(await get(route, { "If-None-Match": 'W/"x", "y"' }), status, code);
  });

  it("never turns a missing direct audio file into a 304", async () => {
    expect((await get("/media/00000000-0000-4000-8000-000000000000.mp3", { "If-None-Match": "*" })).status).toBe(404);
  });

  it("gives a new ETag and 200 when the list page differs from the one cached", async () => {
    const a = await get("/v1/episodes?limit=1");
    const b = await get("/v1/episodes?limit=2", { "If-None-Match": a.headers.get("etag")! });
    expect(b.status).toBe(200);
    expect(b.headers.get("etag")).not.toBe(a.headers.get("etag"));
  });
});

describe("HEAD", () => {
  const cases: [string, Record<string, string>][] = [
    ...OK_ROUTES.map((r): [string, Record<string, string>] => [r, {}]),
    // With a client that takes no coding: at the edge the front line may compress an error itself
    // (docs/api.md#compression), the shim never does (tests/http/compression.test.ts).
    ...ERROR_ROUTES.map(([r]): [string, Record<string, string>] => [r, PLAIN]),
    ["/v1/episodes/1/audio", { Range: "bytes=0-9" }],
    [`/media/${one.id}.mp3`, {}],
  ];
  it.each(cases)("HEAD %s gives the status and headers of GET and no body", async (route, headers) => {
    const getReply = await get(route, headers.Range ? {} : headers);
    const head = await get(route, headers, "HEAD");
    expect(head.status).toBe(getReply.status);
    expect(head.bytes.byteLength).toBe(0);
    expect(stableHeaders(head.headers)).toEqual(stableHeaders(getReply.headers));
  });
});

describe("CORS", () => {
  it.each(OK_ROUTES)("%s carries Access-Control-Allow-Origin: * and the exposed headers", async (route) => {
    expectCors((await get(route, { Origin: "https://elsewhere.example" })).headers);
  });

  it.each(ERROR_ROUTES)("the error of %s carries CORS", async (route) => {
    expectCors((await get(route, { Origin: "https://elsewhere.example" })).headers);
  });

  it("a 206 and a 416 carry CORS", async () => {
    expectCors((await get("/v1/episodes/1/audio", { Range: "bytes=0-1" })).headers);
    expectCors((await get("/v1/episodes/1/audio", { Range: "bytes=-0" })).headers);
  });

  it.each(["/v1", "/v1/episodes", "/v1/episodes/1", "/v1/episodes/1/audio", "/v1/episodes/1/script", "/v1/episodes/1/transcript"])(
    "OPTIONS %s is a preflight: 204 with the allowed methods, headers and a max age",
    async (route) => {
      const r = await get(
        route,
        {
          Origin: "https://elsewhere.example",
          "Access-Control-Request-Method": "GET",
          "Access-Control-Request-Headers": "authorization, x-api-key, if-none-match, range",
        },
        "OPTIONS",
      );
      expect(r.status).toBe(204);
      expect(r.bytes.byteLength).toBe(0);
      expectCors(r.headers);
      expect(r.headers.get("access-control-allow-methods")).toBe("GET, HEAD");
      const allowed = (r.headers.get("access-control-allow-headers") ?? "").split(",").map((s) => s.trim().toLowerCase());
      for (const h of ["authorization", "x-api-key", "if-none-match", "range"]) expect(allowed).toContain(h);
      expect(r.headers.get("access-control-max-age")).toMatch(/^[1-9]\d*$/);
    },
  );
});

describe("methods", () => {
  const routes = ["/v1", "/v1/episodes", "/v1/episodes/1", "/v1/episodes/1/audio", "/v1/episodes/1/script", "/v1/episodes/1/transcript", "/v1/episodes/999", "/v1/nothing"];
  it.each(["POST", "PUT", "DELETE", "PATCH"].flatMap((m) => routes.map((r) => [m, r] as const)))(
    "%s %s answers 405 method_not_allowed with Allow: GET, HEAD",
    async (method, route) => {
      const r = await call(server.url, route, { method, body: method === "DELETE" ? undefined : '{"title":"x"}', headers: { "Content-Type": "application/json" } });
      expectError(r, 405, "method_not_allowed");
      expect(r.headers.get("allow")).toBe("GET, HEAD");
      expectCors(r.headers);
      expectLicense(r.headers, TERMS);
    },
  );

  it("POST to the direct audioUrl answers 405 too", async () => {
    const r = await call(server.url, `/media/${one.id}.mp3`, { method: "POST", body: "x" });
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toBe("GET, HEAD");
  });

  it("a method the Fetch API cannot carry (TRACE) answers 405 in the envelope", async () => {
    const url = new URL(`${server.url}/v1/episodes/1`);
    const { status, headers, body } = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: "TRACE" }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(405);
    expect(headers.allow).toBe("GET, HEAD");
    expect(JSON.parse(body).error).toMatchObject({ code: "method_not_allowed", status: 405 });
  });
});

describe("the license Link", () => {
  it("is on every kind of API response: 200, 206, 304, 400, 404, 416, 422", async () => {
    const etag = (await get("/v1/episodes/1")).headers.get("etag")!;
    const replies: Reply[] = [
      ...(await Promise.all(OK_ROUTES.map((r) => get(r)))),
      await get("/v1/episodes/1/audio", { Range: "bytes=0-9" }),
      await get("/v1/episodes/1/audio", { Range: "bytes=0-1,4-5" }),
      await get("/v1/episodes/1", { "If-None-Match": etag }),
      ...(await Promise.all(ERROR_ROUTES.map(([r]) => get(r)))),
      await get("/v1/episodes/1/audio", { Range: "bytes=-0" }),
    ];
    expect(new Set(replies.map((r) => r.status))).toEqual(new Set([200, 206, 304, 400, 404, 416, 422]));
    for (const r of replies) expectLicense(r.headers, TERMS);
  });
});

describe("credentials are accepted and ignored", () => {
  const credentials: Record<string, string>[] = [
    { Authorization: "Bearer test-key-123" },
    { "X-API-Key": "test-key-123" },
    { Authorization: "Bearer whatever", "X-API-Key": "other" },
    { Authorization: "Basic dXNlcjpwYXNz" },
    { Authorization: "Bearer" },
  ];
  const routes = [...OK_ROUTES, ...ERROR_ROUTES.map(([r]) => r)];
  it.each(routes)("%s is served exactly as without credentials", async (route) => {
    const plain = await get(route);
    for (const c of credentials) {
      const r = await get(route, c);
      expect(r.status).toBe(plain.status);
      expect(r.text).toBe(plain.text);
      expect(stableHeaders(r.headers)).toEqual(stableHeaders(plain.headers));
    }
  });

  it("a credential does not change a range request", async () => {
    const plain = await get("/v1/episodes/1/audio", { Range: "bytes=5-15" });
    const keyed = await get("/v1/episodes/1/audio", { Range: "bytes=5-15", "X-API-Key": "k", Authorization: "Bearer k" });
    expect(keyed.status).toBe(206);
    expect(Buffer.from(keyed.bytes).equals(Buffer.from(plain.bytes))).toBe(true);
  });
});

describe("error bodies", () => {
  const odd = [
    "/v1/episodes/%00",
    "/v1/episodes/%ZZ",
    "/v1/episodes/%E0%A4%A",
    `/v1/episodes/${"9".repeat(5000)}`,
    "/v1/episodes/..%2F..%2Fetc%2Fpasswd",
    "/v1/episodes/1/..%2Fscript",
    "/v1/episodes/%3Cscript%3E",
    "/v1/episodes?limit=%FF",
    "/v1/episodes?cursor=%FF%FE",
    "/v1/_api/index.json",
    "/_api/index.json",
    "/_api/manifest.json",
  ];
  it.each(odd)("%s answers an error in the envelope with no stack trace or server path", async (route) => {
    const r = await get(route);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    const body = JSON.parse(r.text);
    expectError(r, r.status, body.error.code);
  });

  it.each(["//v1/episodes/1", "//v1", "//[", "//localhost/v1/episodes/1"])(
    "the request target %s is a path, never read as a host: 404, not another resource",
    async (target) => {
      const r = await get(target);
      expect(r.status).toBe(404);
      expect(r.text).not.toContain(String(one.id));
      expectCors(r.headers);
    },
  );

  it.each(ERROR_ROUTES)("%s: Content-Type is JSON UTF-8 and error.status equals the HTTP status", async (route, status, code) => {
    const r = await get(route, PLAIN);
    expectError(r, status, code);
    expect(Number(r.headers.get("content-length"))).toBe(r.bytes.byteLength);
  });

  it("no API response, success or error, is marked immutable", async () => {
    for (const route of [...OK_ROUTES, ...ERROR_ROUTES.map(([r]) => r)]) {
      expect((await get(route)).headers.get("cache-control") ?? "").not.toContain("immutable");
    }
  });
});
