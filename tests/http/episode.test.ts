// GET /v1/episodes/<ref> (docs/api.md#get-v1episodesref): references by number or UUID in any case,
// the resource's members and links, 400 invalid_episode_ref versus 404 not_found on every route.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../functions/node/main.ts";
import { episodeResource } from "../../src/shared/schema/api.ts";
import { episode, fixtureId, HOSTS, sharedSite, removeSite, script, serveSite, type Site } from "../support/fixture.ts";
import { call, expectBadParameter, expectError, json, NO_LIMITS, TONE } from "../support/http.ts";

const API = "https://api.example.test";
const SITE = "https://www.example.test";

const full = episode({
  id: "AB12CD34-EF56-4A78-9B01-C2D3E4F5A6B7",
  episodeNumber: 7,
  season: 2,
  title: "Full episode",
  shareTitle: "Share me",
  summary: "A summary.",
  description: "A longer description.",
  publishedAt: "2026-03-01T09:30:00Z",
  durationSeconds: 321,
  sourceUrl: "https://source.example.test/paper",
  coverImageUrl: "https://cdn.example.test/cover.png",
  archetype: "explainer",
  kind: { type: "announcement", sourceForm: "paper", eventType: "release" },
  topics: { domains: ["ai", "security"], concepts: ["keys"], entities: ["acme"] },
});
const minimal = {
  id: fixtureId("minimal"),
  episodeNumber: 8,
  title: "Minimal episode",
  publishedAt: "2026-03-02T00:00:00+01:00",
  hosts: HOSTS,
  kind: { type: "normal" },
  topics: { domains: [], concepts: [], entities: [] },
};
const unnumbered = episode({ episodeNumber: null, title: "No number", publishedAt: "2026-03-03T00:00:00Z" });

let site: Site;
let server: RunningServer;

beforeAll(async () => {
  site = await sharedSite(
    "episode",
    [
      { episode: full, script: script(), audio: TONE },
      { episode: minimal },
      { episode: unnumbered, script: script(), audio: TONE },
    ],
    { API_BASE_URL: API, SITE_URL: SITE },
  );
  server = await serveSite(site, { now: () => Date.UTC(2026, 5, 1), env: NO_LIMITS });
});
afterAll(async () => {
  await server?.close();
  await removeSite(site);
});

const get = (p: string, init?: RequestInit) => call(server.url, p, init);
const fullId = String(full.id).toLowerCase();

describe("GET /v1/episodes/<number>", () => {
  it("serves the episode resource with every member of the content file", async () => {
    const r = await get("/v1/episodes/7");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const body = json(r);
    episodeResource.parse(body);
    const { links, ...rest } = body;
    expect(rest).toEqual({
      id: fullId,
      episodeNumber: 7,
      season: 2,
      title: "Full episode",
      shareTitle: "Share me",
      summary: "A summary.",
      description: "A longer description.",
      publishedAt: "2026-03-01T09:30:00Z",
      durationSeconds: 321,
      sourceUrl: "https://source.example.test/paper",
      audioUrl: `${SITE}/media/${fullId}.mp3`,
      coverImageUrl: "https://cdn.example.test/cover.png",
      hosts: HOSTS,
      archetype: "explainer",
      kind: { type: "announcement", sourceForm: "paper", eventType: "release" },
      topics: { domains: ["ai", "security"], concepts: ["keys"], entities: ["acme"] },
    });
  });

  it("links self, audio, script, transcript, page, embed and oembed by episode number", async () => {
    const { links } = json(await get("/v1/episodes/7"));
    expect(links.self).toBe(`${API}/v1/episodes/7`);
    expect(links.audio).toBe(`${API}/v1/episodes/7/audio`);
    expect(links.script).toBe(`${API}/v1/episodes/7/script`);
    expect(links.transcript).toBe(`${API}/v1/episodes/7/transcript`);
    expect(links.page).toBe(`${SITE}/episodes/7`);
    expect(links.embed).toBe(`${SITE}/embed/7`);
    const oembed = new URL(links.oembed);
    expect(`${oembed.origin}${oembed.pathname}`).toBe(`${SITE}/oembed`);
    expect(oembed.searchParams.get("url")).toBe(`${SITE}/episodes/7`);
    expect(links.oembed).toContain(`url=${encodeURIComponent(`${SITE}/episodes/7`)}`);
  });

  it("gives absent optional members as null and shareTitle as the title", async () => {
    const body = json(await get("/v1/episodes/8"));
    episodeResource.parse(body);
    expect(body).toMatchObject({
      id: minimal.id,
      shareTitle: "Minimal episode",
      season: null,
      summary: null,
      description: null,
      durationSeconds: null,
      sourceUrl: null,
      coverImageUrl: null,
      archetype: null,
      kind: { type: "normal", sourceForm: null, eventType: null },
    });
  });

  it("carries a strong ETag and a revalidating Cache-Control", async () => {
    // The plain body, so Content-Length counts the bytes read (docs/api.md#compression).
    const r = await get("/v1/episodes/7", { headers: { "Accept-Encoding": "identity" } });
    expect(r.headers.get("etag")).toMatch(/^"[^"]+"$/);
    expect(r.headers.get("cache-control")).toMatch(/max-age=\d+/);
    expect(r.headers.get("cache-control")).not.toContain("immutable");
    expect(Number(r.headers.get("content-length"))).toBe(r.bytes.byteLength);
  });
});

describe("GET /v1/episodes/<uuid>", () => {
  it.each([
    ["lower case", (id: string) => id.toLowerCase()],
    ["upper case", (id: string) => id.toUpperCase()],
    ["mixed case", (id: string) => [...id].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join("")],
  ])("resolves a UUID in %s to the same body and ETag as the number, with a lower-case id", async (_, form) => {
    const byNumber = await get("/v1/episodes/7");
    const byId = await get(`/v1/episodes/${form(fullId)}`);
    expect(byId.status).toBe(200);
    expect(byId.text).toBe(byNumber.text);
    expect(byId.headers.get("etag")).toBe(byNumber.headers.get("etag"));
    expect(json(byId).id).toBe(fullId);
  });

  it("uses the UUID in every link of an episode without a number", async () => {
    const body = json(await get(`/v1/episodes/${unnumbered.id}`));
    expect(body.episodeNumber).toBeNull();
    const id = String(unnumbered.id);
    expect(body.links.self).toBe(`${API}/v1/episodes/${id}`);
    expect(body.links.audio).toBe(`${API}/v1/episodes/${id}/audio`);
    expect(body.links.script).toBe(`${API}/v1/episodes/${id}/script`);
    expect(body.links.transcript).toBe(`${API}/v1/episodes/${id}/transcript`);
    expect(body.links.page).toBe(`${SITE}/episodes/${id}`);
    expect(body.links.embed).toBe(`${SITE}/embed/${id}`);
    expect(new URL(body.links.oembed).searchParams.get("url")).toBe(`${SITE}/episodes/${id}`);
  });

  it("serves every sub-route of an episode without a number by its UUID in any case", async () => {
    for (const ref of [String(unnumbered.id), String(unnumbered.id).toUpperCase()]) {
      for (const part of ["", "/audio", "/script", "/transcript"]) {
        expect((await get(`/v1/episodes/${ref}${part}`)).status, `${ref}${part}`).toBe(200);
      }
    }
  });
});

const ROUTES = ["", "/audio", "/script", "/transcript"];

describe("malformed references: 400 invalid_episode_ref", () => {
  const malformed = [
    "abc",
    "-1",
    "1.5",
    "1e3",
    "0x1F",
    "+7",
    "1234567890",
    "7a",
    "%207",
    "ab12cd34-ef56-4a78-9b01-c2d3e4f5a6b",
    "ab12cd34ef564a789b01c2d3e4f5a6b7",
    "{ab12cd34-ef56-4a78-9b01-c2d3e4f5a6b7}",
    "gb12cd34-ef56-4a78-9b01-c2d3e4f5a6b7",
    "latest",
    "%E2%80%8B7",
  ];
  it.each(ROUTES.flatMap((route) => malformed.map((ref) => [route, ref] as const)))(
    "/v1/episodes/<ref>%s with ref %s answers 400 invalid_episode_ref naming ref",
    async (route, ref) => {
      expectBadParameter(await get(`/v1/episodes/${ref}${route}`), "invalid_episode_ref", "ref");
    },
  );
});

describe("well-formed references of no published episode: 404 not_found", () => {
  const unknown = ["0", "9", "999999999", "000000009", randomUUID(), randomUUID().toUpperCase(), "00000000-0000-0000-0000-000000000000"];
  it.each(ROUTES.flatMap((route) => unknown.map((ref) => [route, ref] as const)))("/v1/episodes/<ref>%s with ref %s answers 404 not_found", async (route, ref) => {
    expectError(await get(`/v1/episodes/${ref}${route}`), 404, "not_found");
  });

  it("answers 404 not_found on the audio route of an episode that has no audio", async () => {
    expectError(await get("/v1/episodes/8/audio"), 404, "not_found");
  });
});
