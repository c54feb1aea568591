// The MCP endpoint (docs/api.md#mcp), driven by the official SDK's own client over streamable
// HTTP against the real server (Node, and workerd in the edge project): initialize, the five tools
// with their annotations and output schemas (every result checked by the client against them, and
// by Ajv with a broken copy refused), the API's bodies and errors through the tools, search
// (ranking, phrase, folding, snippets, the moment in a timed transcript), transcript windows,
// resource templates and reads of every form, the publication clock through every tool and
// resource, rate limits per tool call and resource read, that a tool call consults the router only
// for POST /mcp itself, and the HTTP around it (methods, preflight, CORS, body limit). Time moves
// through the injected clock, never by sleeping.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { RunningServer } from "../../functions/node/main.ts";
import { Router } from "../../functions/router.ts";
import { clock, episode, HOSTS, sharedSite, PODCAST, removeSite, script, serveSite, timedScript, type EpisodeSpec, type Site } from "../support/fixture.ts";
import { call, expectCors, expectError, json, NO_LIMITS } from "../support/http.ts";
import { field } from "../support/rate-limit.ts";

const NOW0 = Date.UTC(2026, 5, 1, 12, 0, 0);
const at = (ms: number) => new Date(ms).toISOString();
const DAY = 86_400_000;

const PHRASE = "violet lighthouse keeper sings";
/** The only transcript with the phrase: its words appear elsewhere, but never in this order. */
const phraseEp = episode({ episodeNumber: 1, title: "Weather at sea", summary: "Storms and tides.", publishedAt: at(NOW0 - 10 * DAY) });
/** Every word of the phrase, in its title too, so it outranks phraseEp on the words alone. */
const decoy = episode({
  episodeNumber: 2,
  title: "Lighthouse keeper, violet sky",
  summary: "A keeper sings; the lighthouse is violet.",
  publishedAt: at(NOW0 - 9 * DAY),
  topics: { domains: ["coast"], concepts: ["lighthouse-keeper"], entities: [] },
});
const folded = episode({ episodeNumber: 3, title: "Café Économie", summary: "Prices in a Parisian café.", publishedAt: at(NOW0 - 8 * DAY) });
const noScript = episode({ episodeNumber: 4, title: "Unscripted", publishedAt: at(NOW0 - 7 * DAY) });
const fillers = [5, 6, 7].map((n) => episode({ episodeNumber: n, title: `Filler ${n}`, publishedAt: at(NOW0 - (7 - n + 1) * 3_600_000) }));
const SCHEDULED_AT = NOW0 + 20_000;
const scheduled = episode({ episodeNumber: 8, title: "Zanzibar scheduled special", publishedAt: at(SCHEDULED_AT), durationSeconds: 4 });
const draft = episode({ episodeNumber: 9, status: "draft", title: "Zanzibar draft", publishedAt: at(NOW0 - DAY) });

const MOMENT = "copper kettle whistles at dawn";
/** Timed from its audio: the phrase is said in its third turn, from 8 s (a gap of 0.1 s before it). */
const timedEp = episode({ episodeNumber: 10, title: "Morning rituals", summary: "Tea and habits.", publishedAt: at(NOW0 - 2 * DAY), durationSeconds: 41 });
const TURNS = [
  { speaker: HOSTS.a, text: "Good morning, everyone.", start: 0, end: 4.2 },
  { speaker: HOSTS.b, text: "Morning. Coffee first?", start: 4.2, end: 7.9 },
  { speaker: HOSTS.a, text: `Tea. My ${MOMENT} and wakes the house.`, start: 8, end: 35.5 },
  { speaker: HOSTS.b, text: "Every single day.", start: 35.5, end: 40.6 },
];
const TIMED_SCRIPT = {
  chapters: [
    { title: "Opening", start: 0 },
    { title: "The kettle", start: 8 },
  ],
  segments: TURNS.map((t, i) => ({ ...t, speaker: i % 2 === 0 ? "a" : "b" })),
};

const specs: EpisodeSpec[] = [
  { episode: phraseEp, script: script([["a", "Tonight the harbour is calm."], ["b", `They say the ${PHRASE} every night.`], ["a", "Sings what?"]]) },
  {
    episode: decoy,
    script: script([["a", "The keeper of the lighthouse paints it violet."], ["b", "And the lighthouse keeper? He sings. Violet keeper, violet lighthouse."]]),
  },
  { episode: folded, script: script([["a", "Un café crème, s'il vous plaît."], ["b", "Économie de marché."]]) },
  { episode: noScript },
  ...fillers.map((e) => ({ episode: e, script: script() })),
  { episode: scheduled, script: timedScript([["a", "Zanzibar at last."], ["b", "Zanzibar indeed."]]) },
  { episode: draft, script: script([["a", "Zanzibar drafts."], ["b", "Never."]]) },
  { episode: timedEp, script: TIMED_SCRIPT },
];

type Ep = Record<string, any>;
const ORDER = () => [...fillers].reverse().map((e) => e.id as string);
const PUBLISHED = 8;

let site: Site;
let server: RunningServer;
let limited: RunningServer;
const c = clock(NOW0);
const limitedClock = clock(NOW0);
const clients: Client[] = [];

beforeAll(async () => {
  site = await sharedSite("mcp", specs);
  server = await serveSite(site, { now: c.now, env: NO_LIMITS });
  limited = await serveSite(site, { now: limitedClock.now, env: { RATE_LIMIT_METADATA_PER_MIN: "3" } });
});
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await server?.close();
  await limited?.close();
  await removeSite(site);
});

async function connect(base: string): Promise<Client> {
  const client = new Client({ name: "mcp-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  clients.push(client);
  return client;
}

let shared: Client | null = null;
/** The suite's client, its tools listed first: from then on it checks every result against the tool's output schema. */
const mcp = async () => {
  if (shared === null) {
    shared = await connect(server.url);
    await shared.listTools();
  }
  return shared;
};

async function tool(name: string, args: Record<string, unknown>, client?: Client): Promise<CallToolResult> {
  const r = (await (client ?? (await mcp())).callTool({ name, arguments: args })) as CallToolResult;
  // Every success carries its data twice: as structured content and as its JSON in the text.
  if (!r.isError) expect(JSON.parse(textOf(r))).toEqual(r.structuredContent);
  return r;
}

function textOf(r: CallToolResult): string {
  const first = r.content[0];
  if (first?.type !== "text") throw new Error("expected text content");
  return first.text;
}

/** A successful tool result: its text, which must be the HTTP API's body for the same request. */
async function sameAsApi(r: CallToolResult, path: string): Promise<string> {
  expect(r.isError ?? false, textOf(r)).toBe(false);
  const http = await call(server.url, path);
  expect(http.status).toBe(200);
  expect(textOf(r)).toBe(http.text);
  return textOf(r);
}

/** A tool error carrying the API's envelope, identical to the HTTP API's answer to the same request. */
async function sameErrorAsApi(r: CallToolResult, path: string, status: number, code: string): Promise<void> {
  expect(r.isError).toBe(true);
  const http = await call(server.url, path);
  expectError(http, status, code);
  expect(JSON.parse(textOf(r))).toEqual(json(http));
}

/** A tool error's envelope. */
const errorOf = (r: CallToolResult) => {
  expect(r.isError, textOf(r)).toBe(true);
  return JSON.parse(textOf(r)).error as { code: string; status: number; message: string; parameter?: string };
};

interface Hit {
  ref: string;
  id: string;
  title: string;
  publishedAt: string;
  snippet: string;
  links: Record<string, string>;
  start?: number;
  speaker?: string;
  text?: string;
  url?: string;
}
async function search(query: string, limit?: number): Promise<Hit[]> {
  const r = await tool("search_episodes", limit === undefined ? { query } : { query, limit });
  expect(r.isError ?? false, textOf(r)).toBe(false);
  const body = JSON.parse(textOf(r)) as { results: Hit[] };
  expect(r.structuredContent).toEqual(body);
  return body.results;
}

describe("protocol", () => {
  it("initializes over streamable HTTP, stateless: no session id, the show as server name", async () => {
    const client = await mcp();
    expect(client.getServerVersion()?.name).toBe(PODCAST.title);
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    const transport = (client as unknown as { transport: StreamableHTTPClientTransport }).transport;
    expect(transport.sessionId).toBeUndefined();
  });

  it("lists the five tools, read-only, with object input and output schemas naming their members", async () => {
    const { tools } = await (await mcp()).listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual(["get_episode", "get_script", "get_transcript", "list_episodes", "search_episodes"]);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe("object");
      expect(t.description?.length).toBeGreaterThan(10);
      expect(t.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
      expect(t.outputSchema?.type, t.name).toBe("object");
      expect(t.outputSchema?.required?.length, t.name).toBeGreaterThan(0);
    }
    const outputs = (name: string) => Object.keys(byName[name]!.outputSchema!.properties ?? {}).sort();
    expect(outputs("list_episodes")).toEqual(["episodes", "pagination"]);
    expect(outputs("search_episodes")).toEqual(["results"]);
    expect(outputs("get_episode")).toEqual(expect.arrayContaining(["id", "title", "links", "publishedAt"]));
    expect(outputs("get_script")).toEqual(expect.arrayContaining(["id", "segments", "chapters"]));
    expect(outputs("get_transcript")).toEqual(["transcript", "turns"]);
    const result = (byName.search_episodes!.outputSchema!.properties!.results as { items: { properties: Record<string, unknown> } }).items;
    expect(Object.keys(result.properties)).toEqual(expect.arrayContaining(["start", "speaker", "text", "url"]));
    expect(Object.keys(byName.get_transcript!.inputSchema.properties ?? {}).sort()).toEqual(["end", "ref", "start"]);
    expect(Object.keys(byName.list_episodes!.inputSchema.properties ?? {}).sort()).toEqual(["cursor", "domain", "limit", "since"]);
    expect(byName.list_episodes!.inputSchema.required ?? []).toEqual([]);
    expect(byName.search_episodes!.inputSchema.required).toEqual(["query"]);
    expect((byName.search_episodes!.inputSchema.properties as Record<string, { maximum?: number }>).limit?.maximum).toBe(50);
    for (const name of ["get_episode", "get_script", "get_transcript"]) expect(byName[name]!.inputSchema.required).toEqual(["ref"]);
  });

  it("gives results that the output schemas accept, as the SDK's client checks them, and a broken copy they refuse", async () => {
    const { tools } = await (await mcp()).listTools();
    const schemas = Object.fromEntries(tools.map((t): [string, Tool["outputSchema"]] => [t.name, t.outputSchema]));
    const ajv = new AjvJsonSchemaValidator();
    const calls: [string, Record<string, unknown>][] = [
      ["list_episodes", { limit: 50 }],
      ["search_episodes", { query: MOMENT }],
      ["search_episodes", { query: PHRASE }],
      ["get_episode", { ref: 10 }],
      ["get_script", { ref: 10 }],
      ["get_script", { ref: 1 }],
      ["get_transcript", { ref: 1 }],
      ["get_transcript", { ref: 10, start: 5, end: 10 }],
    ];
    for (const [name, args] of calls) {
      const r = await tool(name, args);
      expect(r.isError ?? false, `${name}: ${textOf(r)}`).toBe(false);
      const check = ajv.getValidator<Record<string, unknown>>(schemas[name]!);
      expect(check(r.structuredContent).valid, `${name} ${JSON.stringify(args)}`).toBe(true);
      // The schema is not vacuous: without its first required member, the same result is refused.
      const broken: Record<string, unknown> = { ...r.structuredContent };
      delete broken[schemas[name]!.required![0]!];
      expect(check(broken).valid, `${name} without ${schemas[name]!.required![0]}`).toBe(false);
    }
  });

  it("answers arguments that fail the input schema with an MCP error", async () => {
    for (const [name, args] of [
      ["list_episodes", { limit: "ten" }],
      ["list_episodes", { limit: 1.5 }],
      ["search_episodes", {}],
      ["search_episodes", { query: "x", limit: 51 }],
      ["get_episode", {}],
      ["get_transcript", { ref: true }],
    ] as const) {
      const r = await tool(name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(r)).toMatch(/Input validation error/);
    }
    const unknown = await tool("delete_everything", {});
    expect(unknown.isError).toBe(true);
  });
});

describe("list_episodes: the API's list", () => {
  it("gives GET /v1/episodes' pages, byte for byte, and follows its cursors to the end", async () => {
    const first = await sameAsApi(await tool("list_episodes", { limit: 2 }), "/v1/episodes?limit=2");
    const page1 = JSON.parse(first) as { episodes: Ep[]; pagination: { nextCursor: string | null } };
    expect(page1.episodes.map((e) => e.id)).toEqual(ORDER().slice(0, 2));
    const cursor = page1.pagination.nextCursor!;
    const r2 = await tool("list_episodes", { limit: 50, cursor });
    const page2 = JSON.parse(await sameAsApi(r2, `/v1/episodes?limit=50&cursor=${cursor}`)) as { episodes: Ep[]; pagination: { nextCursor: string | null } };
    expect(r2.structuredContent).toEqual(page2);
    expect(page2.pagination.nextCursor).toBeNull();
    const seen = [...page1.episodes, ...page2.episodes].map((e) => e.id);
    expect(seen).toContain(phraseEp.id);
    expect(seen).not.toContain(scheduled.id);
    expect(seen).not.toContain(draft.id);
    expect(new Set(seen).size).toBe(PUBLISHED);
  });

  it("filters by domain and since as the API does", async () => {
    await sameAsApi(await tool("list_episodes", { domain: "coast" }), "/v1/episodes?domain=coast");
    const coast = JSON.parse(textOf(await tool("list_episodes", { domain: "coast" }))) as { episodes: Ep[] };
    expect(coast.episodes.map((e) => e.id)).toEqual([decoy.id]);
    await sameAsApi(await tool("list_episodes", { since: at(NOW0 - DAY) }), `/v1/episodes?since=${encodeURIComponent(at(NOW0 - DAY))}`);
  });

  it("answers the API's 400s as tool errors with the envelope: limit, cursor, domain, since", async () => {
    await sameErrorAsApi(await tool("list_episodes", { limit: 0 }), "/v1/episodes?limit=0", 400, "invalid_limit");
    await sameErrorAsApi(await tool("list_episodes", { limit: 51 }), "/v1/episodes?limit=51", 400, "invalid_limit");
    await sameErrorAsApi(await tool("list_episodes", { cursor: "not-a-cursor" }), "/v1/episodes?cursor=not-a-cursor", 400, "invalid_cursor");
    await sameErrorAsApi(await tool("list_episodes", { domain: "Bad Domain" }), "/v1/episodes?domain=Bad%20Domain", 400, "invalid_domain");
    await sameErrorAsApi(await tool("list_episodes", { since: "2026-02-30" }), "/v1/episodes?since=2026-02-30", 400, "invalid_since");
    // A cursor sent with other filters than its first page's.
    const page = JSON.parse(textOf(await tool("list_episodes", { limit: 1 }))) as { pagination: { nextCursor: string } };
    const r = await tool("list_episodes", { cursor: page.pagination.nextCursor, domain: "coast" });
    expect(JSON.parse(textOf(r)).error.code).toBe("invalid_cursor");
  });
});

describe("get_episode, get_script, get_transcript: the API's bodies and errors", () => {
  it("gives the episode by number and by UUID in any case", async () => {
    await sameAsApi(await tool("get_episode", { ref: 1 }), "/v1/episodes/1");
    await sameAsApi(await tool("get_episode", { ref: "1" }), "/v1/episodes/1");
    const r = await tool("get_episode", { ref: String(phraseEp.id).toUpperCase() });
    await sameAsApi(r, `/v1/episodes/${phraseEp.id}`);
    expect((r.structuredContent as Ep).id).toBe(phraseEp.id);
  });

  it("gives the script, timed or not, and the whole transcript as the API's text", async () => {
    await sameAsApi(await tool("get_script", { ref: 1 }), "/v1/episodes/1/script");
    const timed = await tool("get_script", { ref: 10 });
    expect(JSON.parse(await sameAsApi(timed, "/v1/episodes/10/script")).segments).toEqual(TURNS);
    for (const ref of [1, 10]) {
      const t = await tool("get_transcript", { ref });
      expect(t.isError ?? false, textOf(t)).toBe(false);
      const http = await call(server.url, `/v1/episodes/${ref}/transcript`);
      expect(t.structuredContent).toEqual({ transcript: http.text });
    }
    expect((await tool("get_transcript", { ref: 1 })).structuredContent!.transcript).toContain(PHRASE);
  });

  it("answers invalid references, unknown episodes and missing scripts with the API's envelopes", async () => {
    await sameErrorAsApi(await tool("get_episode", { ref: "abc" }), "/v1/episodes/abc", 400, "invalid_episode_ref");
    await sameErrorAsApi(await tool("get_episode", { ref: -1 }), "/v1/episodes/-1", 400, "invalid_episode_ref");
    await sameErrorAsApi(await tool("get_episode", { ref: 999 }), "/v1/episodes/999", 404, "not_found");
    await sameErrorAsApi(await tool("get_script", { ref: 4 }), "/v1/episodes/4/script", 404, "script_unavailable");
    await sameErrorAsApi(await tool("get_transcript", { ref: 4 }), "/v1/episodes/4/transcript", 404, "transcript_unavailable");
    // A reference with a slash must not reach another route.
    expect(JSON.parse(textOf(await tool("get_episode", { ref: "1/script" }))).error.code).toBe("invalid_episode_ref");
  });
});

describe("search_episodes", () => {
  it("finds the one transcript holding a phrase first, although another episode has its words in its title", async () => {
    const hits = await search(PHRASE);
    expect(hits.map((h) => h.id).slice(0, 2)).toEqual([phraseEp.id, decoy.id]);
    expect(hits[0]!.snippet).toContain(PHRASE);
    // Without the phrase, the words alone rank the title that holds them first.
    expect((await search("violet keeper lighthouse sings"))[0]!.id).toBe(decoy.id);
  });

  it("returns ref, id, title, publishedAt, a snippet and the episode's links", async () => {
    const [hit] = await search("tonight harbour");
    const resource = json(await call(server.url, "/v1/episodes/1"));
    expect(hit).toEqual({ ref: "1", id: phraseEp.id, title: "Weather at sea", publishedAt: resource.publishedAt, snippet: expect.any(String), links: resource.links });
    expect(hit!.snippet).toContain("Tonight the harbour is calm.");
  });

  it("folds case and diacritics both ways, and honours limit", async () => {
    expect((await search("CAFE economie"))[0]!.id).toBe(folded.id);
    expect((await search("café"))[0]!.id).toBe(folded.id);
    expect(await search("filler", 2)).toHaveLength(2);
    expect(await search("filler")).toHaveLength(3);
    expect(await search("qwertyuiop")).toEqual([]);
    expect(await search("!!!")).toEqual([]);
  });
});

describe("search_episodes: the moment in a timed transcript", () => {
  it("gives a phrase said in a timed transcript with its turn's start, speaker, text and the page URL at that moment", async () => {
    const [hit] = await search(MOMENT);
    const resource = json(await call(server.url, "/v1/episodes/10"));
    expect(hit).toEqual({
      ref: "10",
      id: timedEp.id,
      title: "Morning rituals",
      publishedAt: resource.publishedAt,
      snippet: expect.stringContaining(MOMENT),
      links: resource.links,
      start: 8,
      speaker: HOSTS.a,
      text: TURNS[2]!.text,
      url: `${resource.links.page}?t=8`,
    });
    // The same moment the API's timed transcript gives that turn.
    const cues = json(await call(server.url, "/v1/episodes/10/transcript.json")).segments as { startTime: number; body: string; speaker: string }[];
    expect(cues.find((c) => c.body === hit!.text)).toMatchObject({ startTime: hit!.start, speaker: hit!.speaker });
  });

  it("points a word to the first turn that says it, and its URL to that second", async () => {
    const [hit] = await search("coffee");
    expect(hit).toMatchObject({ id: timedEp.id, start: 4.2, speaker: HOSTS.b, text: "Morning. Coffee first?" });
    expect(new URL(hit!.url!).searchParams.get("t")).toBe("4.2");
    expect(hit!.url!.startsWith(`${hit!.links.page}?`)).toBe(true);
  });

  it("keeps today's shape for untimed transcripts, and for a timed episode found by its title alone", async () => {
    const [untimed] = await search(PHRASE);
    expect(untimed!.id).toBe(phraseEp.id);
    expect(Object.keys(untimed!).sort()).toEqual(["id", "links", "publishedAt", "ref", "snippet", "title"]);
    const [byTitle] = await search("rituals");
    expect(byTitle!.id).toBe(timedEp.id);
    expect(Object.keys(byTitle!).sort()).toEqual(["id", "links", "publishedAt", "ref", "snippet", "title"]);
  });
});

describe("get_transcript: a time window", () => {
  type Window = { transcript: string; turns: typeof TURNS };
  const windowOf = async (args: Record<string, unknown>): Promise<Window> => {
    const r = await tool("get_transcript", { ref: 10, ...args });
    expect(r.isError ?? false, textOf(r)).toBe(false);
    return r.structuredContent as Window;
  };
  const texts = async (args: Record<string, unknown>) => (await windowOf(args)).turns.map((t) => t.text);

  it("gives the turns that overlap the window, with their times, and their transcript lines as the API writes them", async () => {
    const w = await windowOf({ start: 5, end: 10 });
    expect(w.turns).toEqual([TURNS[1], TURNS[2]]);
    const lines = (await call(server.url, "/v1/episodes/10/transcript")).text.split("\n");
    expect(w.transcript).toBe(`${lines[1]}\n${lines[2]}\n`);
    // The times are the API's timed transcript's.
    const cues = json(await call(server.url, "/v1/episodes/10/transcript.json")).segments as { startTime: number; endTime: number }[];
    expect(w.turns.map((t) => [t.start, t.end])).toEqual(cues.slice(1, 3).map((c) => [c.startTime, c.endTime]));
    // By UUID too.
    expect((await windowOf({ ref: String(timedEp.id).toUpperCase(), start: 5, end: 10 })).turns).toEqual(w.turns);
  });

  it("counts touching at an edge as no overlap; a window of one instant holds the turn spoken then", async () => {
    // A turn that ends where the window starts, and one that starts where it ends, are outside it.
    expect(await texts({ start: 7.9, end: 8 })).toEqual([]);
    expect(await texts({ start: 7.9, end: 8.001 })).toEqual([TURNS[2]!.text]);
    expect(await texts({ start: 4.2, end: 4.2 })).toEqual([TURNS[1]!.text]);
    expect(await texts({ start: 8, end: 8 })).toEqual([TURNS[2]!.text]);
    expect(await texts({ start: 7.95, end: 7.95 })).toEqual([]);
    // One bound alone: the other is the start or the end of the audio.
    expect(await texts({ start: 35.5 })).toEqual([TURNS[3]!.text]);
    expect(await texts({ end: 4.2 })).toEqual([TURNS[0]!.text]);
    expect(await texts({ start: 0 })).toEqual(TURNS.map((t) => t.text));
    const past = await windowOf({ start: 100, end: 200 });
    expect(past).toEqual({ transcript: "", turns: [] });
  });

  it("refuses an invalid window naming the parameter: start after end, a negative time, a time that is not a number", async () => {
    for (const [args, parameter] of [
      [{ start: 10, end: 5 }, "end"],
      [{ start: -1 }, "start"],
      [{ end: -0.5 }, "end"],
      [{ start: "5" }, "start"],
      [{ end: null }, "end"],
    ] as const) {
      const r = await tool("get_transcript", { ref: 10, ...args });
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(r)).toMatch(/Input validation error/);
      expect(textOf(r), textOf(r)).toMatch(new RegExp(`\\bat ${parameter}\\b`));
    }
  });

  it("answers a window on an untimed transcript with the timed transcripts' transcript_unavailable; without one, as before", async () => {
    await sameErrorAsApi(await tool("get_transcript", { ref: 1, start: 0, end: 5 }), "/v1/episodes/1/transcript.json", 404, "transcript_unavailable");
    await sameErrorAsApi(await tool("get_transcript", { ref: 4, end: 5 }), "/v1/episodes/4/transcript.json", 404, "transcript_unavailable");
    await sameErrorAsApi(await tool("get_transcript", { ref: 999, start: 0 }), "/v1/episodes/999/transcript.json", 404, "not_found");
    await sameErrorAsApi(await tool("get_transcript", { ref: "abc", start: 0 }), "/v1/episodes/abc/transcript.json", 400, "invalid_episode_ref");
    expect((await tool("get_transcript", { ref: 1 })).isError ?? false).toBe(false);
  });
});

/** The resource forms, each with the path the API serves it at and the discovery document's template member, if any. */
const FORMS = [
  { name: "episode", path: "", discovery: "episode" },
  { name: "script", path: "/script", discovery: null },
  { name: "transcript", path: "/transcript", discovery: null },
  { name: "transcript.vtt", path: "/transcript.vtt", discovery: "transcriptVtt" },
  { name: "transcript.srt", path: "/transcript.srt", discovery: "transcriptSrt" },
  { name: "transcript.json", path: "/transcript.json", discovery: "transcriptJson" },
  { name: "chapters.json", path: "/chapters.json", discovery: "chapters" },
] as const;

let templates: Record<string, { uriTemplate: string; mimeType?: string | undefined }> | null = null;
async function templateOf(name: string): Promise<string> {
  if (templates === null) {
    const { resourceTemplates } = await (await mcp()).listResourceTemplates();
    templates = Object.fromEntries(resourceTemplates.map((t) => [t.name, t]));
  }
  return templates[name]!.uriTemplate;
}
const uriOf = async (name: string, ref: string | number) => (await templateOf(name)).replace("{ref}", String(ref));

async function readText(uri: string, client?: Client): Promise<{ text: string; mimeType: string | undefined; uri: string }> {
  const { contents } = await (client ?? (await mcp())).readResource({ uri });
  expect(contents).toHaveLength(1);
  const [c] = contents;
  if (c === undefined || !("text" in c)) throw new Error("expected text contents");
  return { text: c.text, mimeType: c.mimeType, uri: c.uri };
}

/** The JSON-RPC error of a refused read: its code and the API's envelope in `data`. */
async function readError(uri: string, client?: Client): Promise<{ code: number; envelope: { code: string; status: number } }> {
  try {
    await (client ?? (await mcp())).readResource({ uri });
  } catch (e) {
    expect(e).toBeInstanceOf(McpError);
    const error = e as McpError;
    return { code: error.code, envelope: (error.data as { error: { code: string; status: number } }).error };
  }
  throw new Error(`expected ${uri} to be refused`);
}
const NOT_FOUND = -32002;

describe("resources: templates of every form, read through the API", () => {
  it("lists the templates at the API's URLs, as the discovery document names them, with their media types", async () => {
    const client = await mcp();
    expect(client.getServerCapabilities()?.resources).toBeDefined();
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.name).sort()).toEqual(FORMS.map((f) => f.name).sort());
    const discovery = json(await call(server.url, "/v1")).links as Record<string, string>;
    for (const f of FORMS) {
      const t = resourceTemplates.find((x) => x.name === f.name)!;
      expect(t.uriTemplate).toBe(`${discovery.episode}${f.path}`);
      if (f.discovery !== null) expect(t.uriTemplate).toBe(discovery[f.discovery]);
      const http = await call(server.url, `/v1/episodes/10${f.path}`);
      expect(t.mimeType, f.name).toBe(http.headers.get("content-type")!.split(";")[0]);
      expect(t.description?.length).toBeGreaterThan(10);
    }
    // No concrete list: every published episode's resources are reached through the templates.
    expect((await client.listResources()).resources).toEqual([]);
  });

  it("reads each form of a timed episode, by number and by UUID, as the API's body byte for byte", async () => {
    for (const f of FORMS) {
      const http = await call(server.url, `/v1/episodes/10${f.path}`);
      expect(http.status, f.name).toBe(200);
      for (const ref of [10, String(timedEp.id)]) {
        const uri = await uriOf(f.name, ref);
        const read = await readText(uri);
        expect(read.text, `${f.name} ${ref}`).toBe(http.text);
        expect(read.uri).toBe(uri);
        expect(read.mimeType).toBe(http.headers.get("content-type")!.split(";")[0]);
      }
    }
  });

  it("refuses with the API's errors: unknown, draft or malformed episodes, untimed forms, missing scripts", async () => {
    for (const f of FORMS) {
      for (const ref of [999, 9, "4b8a3c3e-0000-4000-8000-000000000000"]) {
        const refused = await readError(await uriOf(f.name, ref));
        expect(refused, `${f.name} ${ref}`).toEqual({ code: NOT_FOUND, envelope: expect.objectContaining({ code: "not_found", status: 404 }) });
      }
      const bad = await readError(await uriOf(f.name, "abc"));
      expect(bad).toEqual({ code: -32602, envelope: expect.objectContaining({ code: "invalid_episode_ref", status: 400, parameter: "ref" }) });
    }
    const codes = async (name: string, ref: number) => (await readError(await uriOf(name, ref))).envelope.code;
    expect(await codes("transcript.vtt", 1)).toBe("transcript_unavailable");
    expect(await codes("transcript.srt", 1)).toBe("transcript_unavailable");
    expect(await codes("chapters.json", 1)).toBe("chapters_unavailable");
    expect(await codes("script", 4)).toBe("script_unavailable");
    expect(await codes("transcript", 4)).toBe("transcript_unavailable");
    // Untimed forms still read.
    expect((await readText(await uriOf("transcript", 1))).text).toContain(PHRASE);
    // A URI of no template (another host, another path) is refused too.
    const other = (await uriOf("episode", 1)).replace(/^https?:\/\/[^/]+/, "https://elsewhere.example");
    await expect((await mcp()).readResource({ uri: other })).rejects.toBeInstanceOf(McpError);
    await expect((await mcp()).readResource({ uri: `${await uriOf("episode", 1)}/audio` })).rejects.toBeInstanceOf(McpError);
  });
});

describe("the publication clock", () => {
  it("keeps a scheduled episode out of the list, search and get until its time; drafts never appear", async () => {
    const ids = async () => (JSON.parse(textOf(await tool("list_episodes", { limit: 50 }))) as { episodes: Ep[] }).episodes.map((e) => e.id);
    expect(await search("zanzibar")).toEqual([]);
    expect(await ids()).not.toContain(scheduled.id);
    expect(JSON.parse(textOf(await tool("get_episode", { ref: 8 }))).error.code).toBe("not_found");
    c.set(SCHEDULED_AT);
    try {
      expect((await search("zanzibar")).map((h) => h.id)).toEqual([scheduled.id]);
      expect((await ids())[0]).toBe(scheduled.id);
      const t = await tool("get_transcript", { ref: 8 });
      expect(t.structuredContent).toEqual({ transcript: (await call(server.url, "/v1/episodes/8/transcript")).text });
      expect(JSON.parse(textOf(await tool("get_episode", { ref: 9 }))).error.code).toBe("not_found");
    } finally {
      c.set(NOW0);
    }
  });

  it("keeps a scheduled episode absent from every tool and every resource until its time, then serves them all", async () => {
    const calls: [string, Record<string, unknown>][] = [
      ["get_episode", { ref: 8 }],
      ["get_episode", { ref: scheduled.id }],
      ["get_script", { ref: 8 }],
      ["get_transcript", { ref: 8 }],
      ["get_transcript", { ref: 8, start: 0, end: 1 }],
    ];
    const uris = await Promise.all(FORMS.flatMap((f) => [uriOf(f.name, 8), uriOf(f.name, String(scheduled.id))]));
    for (const [name, args] of calls) expect(errorOf(await tool(name, args)).code, `${name} ${JSON.stringify(args)}`).toBe("not_found");
    for (const uri of uris) expect((await readError(uri)).envelope.code, uri).toBe("not_found");
    expect((await search("zanzibar")).map((h) => h.id)).toEqual([]);
    c.set(SCHEDULED_AT - 1);
    try {
      expect(errorOf(await tool("get_episode", { ref: 8 })).code).toBe("not_found");
      expect((await readError(uris[0]!)).envelope.code).toBe("not_found");
    } finally {
      c.set(NOW0);
    }
    c.set(SCHEDULED_AT);
    try {
      for (const [name, args] of calls) expect((await tool(name, args)).isError ?? false, `${name} ${JSON.stringify(args)}`).toBe(false);
      expect(((await tool("get_transcript", { ref: 8, start: 0, end: 1 })).structuredContent as { turns: unknown[] }).turns).toEqual([
        { speaker: HOSTS.a, text: "Zanzibar at last.", start: 0, end: 2 },
      ]);
      for (const uri of uris) expect((await readText(uri)).text.length, uri).toBeGreaterThan(0);
      const [hit] = await search("zanzibar indeed");
      expect(hit).toMatchObject({ id: scheduled.id, start: 2, speaker: HOSTS.b, text: "Zanzibar indeed." });
    } finally {
      c.set(NOW0);
    }
  });
});

describe("rate limits: each tool call and resource read counts once in the metadata bucket", () => {
  it("does not count initialize or the lists; the call past the limit is a tool error with the seconds to wait", async () => {
    const client = await connect(limited.url);
    for (let i = 0; i < 5; i++) await client.listTools();
    for (let i = 0; i < 3; i++) {
      const r = await tool("get_episode", { ref: 1 }, client);
      expect(r.isError ?? false, textOf(r)).toBe(false);
    }
    const over = await tool("search_episodes", { query: "harbour" }, client);
    expect(over.isError).toBe(true);
    const error = JSON.parse(textOf(over)).error as { code: string; status: number; retryAfter: number; message: string };
    expect(error.code).toBe("rate_limited");
    expect(error.status).toBe(429);
    expect(error.retryAfter).toBeGreaterThanOrEqual(1);
    expect(error.message).toContain(`${error.retryAfter} seconds`);
    // The same bucket as the HTTP API's metadata routes, and resource reads are refused too.
    expect((await call(limited.url, "/v1/episodes/1")).status).toBe(429);
    const refused = await readError(await uriOf("episode", 1), client);
    expect(refused.envelope).toMatchObject({ code: "rate_limited", status: 429 });
    limitedClock.advance(error.retryAfter * 1000);
    const again = await tool("get_episode", { ref: 1 }, client);
    expect(again.isError ?? false, textOf(again)).toBe(false);
  });

  it("counts exactly one request per tool call and per resource read, none per protocol message (RateLimit's remaining)", async () => {
    // The suite's server counts too, under a limit no test reaches: its RateLimit header still says what is left.
    const remaining = async () => field((await call(server.url, "/v1")).headers.get("ratelimit"), "r");
    const client = await connect(server.url);
    const before = await remaining();
    await client.listTools();
    await client.listResourceTemplates();
    await client.listResources();
    await client.ping();
    // Only the GET of /v1 itself counted since.
    expect(await remaining()).toBe(before - 1);
    const steps: [string, () => Promise<unknown>][] = [
      ["list_episodes", () => tool("list_episodes", { limit: 2 }, client)],
      ["search_episodes", () => tool("search_episodes", { query: MOMENT }, client)],
      ["get_episode", () => tool("get_episode", { ref: 10 }, client)],
      ["get_script", () => tool("get_script", { ref: 10 }, client)],
      ["get_transcript", () => tool("get_transcript", { ref: 10, start: 0, end: 5 }, client)],
      ["an error", () => tool("get_episode", { ref: 999 }, client)],
      ["resources/read", async () => readText(await uriOf("transcript.vtt", 10), client)],
      ["a refused read", async () => readError(await uriOf("chapters.json", 1), client)],
    ];
    for (const [name, step] of steps) {
      const at = await remaining();
      await step();
      expect(await remaining(), name).toBe(at - 2);
    }
  });
});

describe("no request inside the process", () => {
  // The router is the shim's only way from a path to a route: spied on in this process (the Node
  // server runs in it), a tool call or a resource read consults it only for POST /mcp itself. With
  // a request forged inside, it would also match the API path read (e.g. /v1/episodes/10).
  it.skipIf(process.env.SHIM_TARGET === "edge")("consults the router only for POST /mcp: never for the API paths a tool or resource reads", async () => {
    await uriOf("episode", 1);
    const match = vi.spyOn(Router.prototype, "match");
    try {
      // The spy sees the server's routing: a GET of the API is matched by its path.
      await call(server.url, "/v1/episodes/1/script");
      expect(match.mock.calls.map(([path]) => path)).toContain("/v1/episodes/1/script");
      const steps: (() => Promise<unknown>)[] = [
        () => tool("list_episodes", { limit: 3 }),
        () => tool("search_episodes", { query: MOMENT }),
        () => tool("get_episode", { ref: 10 }),
        () => tool("get_script", { ref: 10 }),
        () => tool("get_transcript", { ref: 10 }),
        () => tool("get_transcript", { ref: 10, start: 1, end: 9 }),
        () => tool("get_episode", { ref: 999 }),
        async () => readText(await uriOf("episode", 10)),
        async () => readText(await uriOf("transcript.srt", 10)),
        async () => readText(await uriOf("chapters.json", 10)),
      ];
      for (const [i, step] of steps.entries()) {
        match.mockClear();
        await step();
        // POST /mcp itself, and nothing else (a client may also try GET /mcp for a stream, once).
        const paths = match.mock.calls.map(([path]) => path);
        expect(paths.length, `step ${i}`).toBeGreaterThan(0);
        expect(new Set(paths), `step ${i}: ${paths.join(" ")}`).toEqual(new Set(["/mcp"]));
      }
    } finally {
      match.mockRestore();
    }
  });
});

describe("HTTP around the endpoint", () => {
  it("answers GET, DELETE and HEAD 405 with Allow: POST, CORS and the envelope", async () => {
    for (const method of ["GET", "DELETE", "PUT"]) {
      const r = await call(server.url, "/mcp", { method });
      expectError(r, 405, "method_not_allowed");
      expect(r.headers.get("allow")).toBe("POST");
      expectCors(r.headers);
    }
    const head = await call(server.url, "/mcp", { method: "HEAD" });
    expect(head.status).toBe(405);
    expect(head.headers.get("allow")).toBe("POST");
  });

  it("answers the preflight allowing POST and the headers MCP clients send", async () => {
    const r = await call(server.url, "/mcp", {
      method: "OPTIONS",
      headers: { Origin: "https://client.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type, mcp-protocol-version" },
    });
    expect(r.status).toBe(204);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("access-control-allow-methods")).toContain("POST");
    const allowed = (r.headers.get("access-control-allow-headers") ?? "").toLowerCase().split(/\s*,\s*/);
    for (const h of ["content-type", "accept", "mcp-session-id", "mcp-protocol-version", "authorization"]) expect(allowed).toContain(h);
  });

  it("carries CORS on protocol answers and is never cached", async () => {
    const r = await call(server.url, "/mcp", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Protocol-Version": "2025-06-18" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expectCors(r.headers);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(json(r).result.tools).toHaveLength(5);
  });

  it("refuses a body past 1 MiB with 413 in the envelope, and still answers the next request", async () => {
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { pad: "x".repeat(1024 * 1024) } });
    const r = await call(server.url, "/mcp", { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" }, body: big });
    expectError(r, 413, "payload_too_large");
    expectCors(r.headers);
    expect((await tool("get_episode", { ref: 1 })).isError ?? false).toBe(false);
  });
});
