// GET /v1/episodes/<ref>/script and /transcript (docs/api.md#get-v1episodesrefscript, docs/api.md#get-v1episodesreftranscript, README.md#content-format): speakers mapped
// to display names, stage directions removed, empty segments dropped; 404 script_unavailable,
// 422 script_unparseable (a build warning, not a failure), 404 transcript_unavailable.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../functions/node/main.ts";
import { scriptResource } from "../../src/shared/schema/api.ts";
import { episode, HOSTS, sharedSite, removeSite, serveSite, type Site } from "../support/fixture.ts";
import { call, expectError, json, NO_LIMITS } from "../support/http.ts";

const spoken = episode({ episodeNumber: 1, title: "Spoken" });
const SCRIPT = {
  chapters: [
    { title: "Opening", summary: "Hello.", takeaways: ["One", "Two"] },
    { title: "Bare chapter" },
  ],
  segments: [
    { speaker: "a", text: "[laughs] Welcome   back to the show." },
    { speaker: "b", text: "Thanks. *sighs* It has been a  week.\n Truly." },
    { speaker: "a", text: "[music]" },
    { speaker: "b", text: "*pause* [cough]  " },
    { speaker: "Guest Voice", text: "I am the guest [smiles] here." },
    { speaker: "a", text: "" },
    { speaker: "b", text: "So [beat] we *really* begin." },
  ],
};
const WANT_SEGMENTS = [
  { speaker: HOSTS.a, text: "Welcome back to the show." },
  { speaker: HOSTS.b, text: "Thanks. It has been a week. Truly." },
  { speaker: "Guest Voice", text: "I am the guest here." },
  { speaker: HOSTS.b, text: "So we begin." },
];

const noScript = episode({ episodeNumber: 2 });
const notJson = episode({ episodeNumber: 3 });
const wrongShape = episode({ episodeNumber: 4 });
const silent = episode({ episodeNumber: 5 });
const unnumbered = episode({ episodeNumber: null });

let site: Site;
let server: RunningServer;

beforeAll(async () => {
  site = await sharedSite("script", [
    { folder: "spoken", episode: spoken, script: SCRIPT },
    { folder: "no-script", episode: noScript },
    { folder: "not-json", episode: notJson, script: "{ this is not json" },
    { folder: "wrong-shape", episode: wrongShape, script: { segments: "nope", chapters: [] } },
    { folder: "silent", episode: silent, script: { chapters: [], segments: [{ speaker: "a", text: "[silence]" }] } },
    { folder: "unnumbered", episode: unnumbered, script: SCRIPT },
  ]);
  server = await serveSite(site, { env: NO_LIMITS });
});
afterAll(async () => {
  await server?.close();
  await removeSite(site);
});

const get = (p: string) => call(server.url, p);

describe("GET /v1/episodes/<ref>/script", () => {
  it("serves the script with the episode's id, number, title and hosts", async () => {
    const r = await get("/v1/episodes/1/script");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const body = json(r);
    scriptResource.parse(body);
    expect(body).toMatchObject({ id: spoken.id, episodeNumber: 1, title: "Spoken", hosts: HOSTS });
  });

  it("maps speakers a and b to the hosts' display names and keeps other names as written", async () => {
    const { segments } = json(await get("/v1/episodes/1/script"));
    expect(segments.map((s: { speaker: string }) => s.speaker)).toEqual(WANT_SEGMENTS.map((s) => s.speaker));
  });

  it("removes [bracketed] and *starred* stage directions, collapses white space and drops empty segments", async () => {
    const { segments } = json(await get("/v1/episodes/1/script"));
    expect(segments).toEqual(WANT_SEGMENTS);
  });

  it("keeps the chapters as authored", async () => {
    const { chapters } = json(await get("/v1/episodes/1/script"));
    expect(chapters).toEqual([{ title: "Opening", summary: "Hello.", takeaways: ["One", "Two"] }, { title: "Bare chapter" }]);
  });

  it("is the same document by UUID in any case, with a strong ETag", async () => {
    const byNumber = await get("/v1/episodes/1/script");
    const byId = await get(`/v1/episodes/${String(spoken.id).toUpperCase()}/script`);
    expect(byId.text).toBe(byNumber.text);
    expect(byId.headers.get("etag")).toMatch(/^"[^"]+"$/);
    expect(byId.headers.get("etag")).toBe(byNumber.headers.get("etag"));
  });

  it("serves the script of an episode without a number by its UUID, with episodeNumber null", async () => {
    const body = json(await get(`/v1/episodes/${unnumbered.id}/script`));
    expect(body.episodeNumber).toBeNull();
    expect(body.segments).toEqual(WANT_SEGMENTS);
  });

  it("answers 404 script_unavailable for an episode without a script", async () => {
    expectError(await get("/v1/episodes/2/script"), 404, "script_unavailable");
  });

  it("answers 422 script_unparseable when script.json is not JSON", async () => {
    expectError(await get("/v1/episodes/3/script"), 422, "script_unparseable");
  });

  it("answers 422 script_unparseable when script.json is JSON of the wrong shape", async () => {
    expectError(await get(`/v1/episodes/${wrongShape.id}/script`), 422, "script_unparseable");
  });

  it("still serves the metadata of an episode whose script is unparseable", async () => {
    for (const n of [3, 4]) expect(json(await get(`/v1/episodes/${n}`)).episodeNumber).toBe(n);
  });

  it("serves a script whose every line was a stage direction with no segments", async () => {
    const body = json(await get("/v1/episodes/5/script"));
    expect(body.segments).toEqual([]);
  });
});

describe("GET /v1/episodes/<ref>/transcript", () => {
  it("is text/plain; charset=utf-8 with one `Name: text` line per spoken turn, ending with a newline", async () => {
    const r = await get("/v1/episodes/1/transcript");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(r.text).toBe(WANT_SEGMENTS.map((s) => `${s.speaker}: ${s.text}\n`).join(""));
    expect(r.text.endsWith("\n")).toBe(true);
    expect(r.text.endsWith("\n\n")).toBe(false);
  });

  it("follows the script's segments, in speaking order", async () => {
    const { segments } = json(await get("/v1/episodes/1/script"));
    const lines = (await get("/v1/episodes/1/transcript")).text.split("\n").slice(0, -1);
    expect(lines).toEqual(segments.map((s: { speaker: string; text: string }) => `${s.speaker}: ${s.text}`));
  });

  it("is the same text by UUID, with a strong ETag", async () => {
    const byNumber = await get("/v1/episodes/1/transcript");
    const byId = await get(`/v1/episodes/${spoken.id}/transcript`);
    expect(byId.text).toBe(byNumber.text);
    expect(byId.headers.get("etag")).toMatch(/^"[^"]+"$/);
    expect(byId.headers.get("etag")).toBe(byNumber.headers.get("etag"));
  });

  it.each([
    ["has no script", 2],
    ["has a script that is not JSON", 3],
    ["has a script of the wrong shape", 4],
    ["has a script with nothing spoken", 5],
  ])("answers 404 transcript_unavailable when the episode %s", async (_, n) => {
    expectError(await get(`/v1/episodes/${n}/transcript`), 404, "transcript_unavailable");
  });
});

describe("the build with unparseable scripts", () => {
  it("succeeds and prints a warning naming each unparseable script file", () => {
    const output = site.build.stdout + site.build.stderr;
    expect(output).toContain("episodes/not-json/script.json");
    expect(output).toContain("episodes/wrong-shape/script.json");
    expect(output).not.toContain("episodes/spoken/script.json");
  });
});
