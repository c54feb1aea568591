// The MCP endpoint (docs/api.md#mcp), driven by the official SDK's own client over streamable
// HTTP against the real server (Node, and workerd in the edge project): initialize, the five tools
// and their input schemas, the API's bodies and errors through the tools, search (ranking, phrase,
// folding, snippets), the publication clock, rate limits per tool call, and the HTTP around it
// (methods, preflight, CORS, body limit). Time moves through the injected clock, never by sleeping.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../functions/node/main.ts";
import { clock, episode, makeSite, PODCAST, removeSite, script, serveSite, type EpisodeSpec, type Site } from "../support/fixture.ts";
import { call, expectCors, expectError, json, NO_LIMITS } from "../support/http.ts";

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
const scheduled = episode({ episodeNumber: 8, title: "Zanzibar scheduled special", publishedAt: at(SCHEDULED_AT) });
const draft = episode({ episodeNumber: 9, status: "draft", title: "Zanzibar draft", publishedAt: at(NOW0 - DAY) });

const specs: EpisodeSpec[] = [
  { episode: phraseEp, script: script([["a", "Tonight the harbour is calm."], ["b", `They say the ${PHRASE} every night.`], ["a", "Sings what?"]]) },
  {
    episode: decoy,
    script: script([["a", "The keeper of the lighthouse paints it violet."], ["b", "And the lighthouse keeper? He sings. Violet keeper, violet lighthouse."]]),
  },
  { episode: folded, script: script([["a", "Un café crème, s'il vous plaît."], ["b", "Économie de marché."]]) },
  { episode: noScript },
  ...fillers.map((e) => ({ episode: e, script: script() })),
  { episode: scheduled, script: script([["a", "Zanzibar at last."], ["b", "Zanzibar indeed."]]) },
  { episode: draft, script: script([["a", "Zanzibar drafts."], ["b", "Never."]]) },
];

type Ep = Record<string, any>;
const ORDER = () => [...fillers].reverse().map((e) => e.id as string);

let site: Site;
let server: RunningServer;
let limited: RunningServer;
const c = clock(NOW0);
const limitedClock = clock(NOW0);
const clients: Client[] = [];

beforeAll(async () => {
  site = await makeSite("mcp", specs);
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
const mcp = async () => (shared ??= await connect(server.url));

async function tool(name: string, args: Record<string, unknown>, client?: Client): Promise<CallToolResult> {
  return (await (client ?? (await mcp())).callTool({ name, arguments: args })) as CallToolResult;
}

const textOf = (r: CallToolResult) => {
  const first = r.content[0];
  if (first?.type !== "text") throw new Error("expected text content");
  return first.text;
};

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

interface Hit {
  ref: string;
  id: string;
  title: string;
  publishedAt: string;
  snippet: string;
  links: Record<string, string>;
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

  it("lists the five tools with object input schemas naming their arguments", async () => {
    const { tools } = await (await mcp()).listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual(["get_episode", "get_script", "get_transcript", "list_episodes", "search_episodes"]);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe("object");
      expect(t.description?.length).toBeGreaterThan(10);
    }
    expect(Object.keys(byName.list_episodes!.inputSchema.properties ?? {}).sort()).toEqual(["cursor", "domain", "limit", "since"]);
    expect(byName.list_episodes!.inputSchema.required ?? []).toEqual([]);
    expect(byName.search_episodes!.inputSchema.required).toEqual(["query"]);
    expect((byName.search_episodes!.inputSchema.properties as Record<string, { maximum?: number }>).limit?.maximum).toBe(50);
    for (const name of ["get_episode", "get_script", "get_transcript"]) expect(byName[name]!.inputSchema.required).toEqual(["ref"]);
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
    expect(new Set(seen).size).toBe(7);
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

  it("gives the script and the transcript", async () => {
    await sameAsApi(await tool("get_script", { ref: 1 }), "/v1/episodes/1/script");
    const t = await tool("get_transcript", { ref: 1 });
    expect(await sameAsApi(t, "/v1/episodes/1/transcript")).toContain(PHRASE);
    expect(t.structuredContent).toBeUndefined();
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
      await sameAsApi(await tool("get_transcript", { ref: 8 }), "/v1/episodes/8/transcript");
      expect(JSON.parse(textOf(await tool("get_episode", { ref: 9 }))).error.code).toBe("not_found");
    } finally {
      c.set(NOW0);
    }
  });
});

describe("rate limits: each tool call counts in the metadata bucket", () => {
  it("does not count initialize or tools/list; the call past the limit is a tool error with the seconds to wait", async () => {
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
    // The same bucket as the HTTP API's metadata routes.
    expect((await call(limited.url, "/v1/episodes/1")).status).toBe(429);
    limitedClock.advance(error.retryAfter * 1000);
    const again = await tool("get_episode", { ref: 1 }, client);
    expect(again.isError ?? false, textOf(again)).toBe(false);
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
