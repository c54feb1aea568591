// The MCP endpoint (docs/api.md#mcp): Model Context Protocol over streamable HTTP at /mcp,
// stateless, JSON responses, on the official SDK's Web-standard transport (a Fetch Request in, a
// Fetch Response out), so it runs unchanged on Node and in workerd. Each POST gets its own server
// and transport: no session, nothing kept between requests.
//
// The tools and resources call the API's reads directly (./api-reads.ts: the functions the API's
// routes answer with), so they have the API's semantics, publication clock and errors by
// construction, with no request forged and no path built; a refusal becomes a tool error carrying
// the API's envelope (a JSON-RPC error for a resource: ./mcp-resources.ts). search_episodes asks
// the search index (./search.ts). Every tool call and resource read counts once in the client's
// metadata rate-limit bucket; the protocol's own messages (initialize, the lists) do not.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import * as z from "zod";
import type { Bucket } from "../../src/shared/limits.ts";
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from "../../src/shared/limits.ts";
import { episodePage, episodeResource, scriptResource, type JsonTranscript } from "../../src/shared/schema/api.ts";
import type { IndexEntry } from "../../src/shared/schema/build-index.ts";
import { searchResults, transcriptResult, type TimedTurn, type TranscriptResult } from "../../src/shared/schema/mcp.ts";
import { transcriptOf } from "../../src/shared/transcript.ts";
import { envelopeOf, refusal, Refusal, type ApiReads, type Envelope, type EpisodePart } from "./api-reads.ts";
import type { EpisodeIndex } from "../data/episode-index.ts";
import { baseHeaders, CACHE, errorResponse, preflightResponse, type ResponseContext, type ShimRequest, type ShimResponse } from "../http/response.ts";
import type { QueryValues } from "./list-query.ts";
import { registerResources } from "./mcp-resources.ts";
import type { AssetStore } from "../ports.ts";
import type { RateLimiter } from "../limits/rate-limit.ts";
import type { RouteArgs, RouteHandler } from "../router.ts";
import { EpisodeSearch } from "../data/search.ts";

/** A JSON-RPC message or batch past this is refused 413 before it is parsed. */
export const MCP_MAX_BODY_BYTES = 1024 * 1024;

/**
 * The SDK, loaded on the first POST /mcp: it is a large part of the resident memory of a Node
 * process that may never serve MCP (docs/performance.md). Bundlers inline the dynamic import (Workers).
 */
async function importSdk() {
  const [{ McpServer, ResourceTemplate }, { WebStandardStreamableHTTPServerTransport }] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/mcp.js"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
  ]);
  return { McpServer, ResourceTemplate, WebStandardStreamableHTTPServerTransport };
}
type Sdk = Awaited<ReturnType<typeof importSdk>>;
let sdkLoading: Promise<Sdk> | null = null;
const loadSdk = (): Promise<Sdk> => (sdkLoading ??= importSdk().catch((e: unknown) => ((sdkLoading = null), Promise.reject(e))));
export const SEARCH_LIMIT_DEFAULT = 10;
export const SEARCH_LIMIT_MAX = 50;
/** Where tool calls and resource reads count: the bucket of the API routes they read. */
const BUCKET: Bucket = "metadata";

/** The preflight: what browsers' MCP clients send (docs/api.md#mcp). */
const MCP_METHODS = "POST, OPTIONS";
const MCP_REQUEST_HEADERS = "Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID";
/** Request headers the SDK's transport reads; the rest are not copied into its Request. */
const FORWARDED = ["content-type", "accept", "mcp-session-id", "mcp-protocol-version", "last-event-id"];

/**
 * The SDK validates JSON Schemas only for elicitation, which this server never asks for; its
 * default validator (Ajv) would be built per request, and compiles code Workers forbid. Tool
 * results are checked against their output schemas with zod, which needs no validator.
 */
const NO_SCHEMA_VALIDATION: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: "JSON Schema validation is not available on this server" }),
};

// Argument types only: values are checked by the API's own parameters (src/shared/parameters.ts),
// so a bad value gets the API's error code, as it would over HTTP.
const ref = z.union([z.string(), z.int()]).describe("The episode's number (e.g. 42) or UUID");
const LIST_INPUT = {
  limit: z.int().optional().describe(`Page size, 1 to ${PAGE_LIMIT_MAX} (default ${PAGE_LIMIT_DEFAULT})`),
  cursor: z.string().optional().describe("pagination.nextCursor of the previous page; the first page's filters travel with it"),
  domain: z.string().optional().describe("Only episodes of this domain facet (a slug, ^[a-z0-9][a-z0-9-]{0,63}$)"),
  since: z.string().optional().describe("Only episodes discovered on or after this date (YYYY-MM-DD, midnight UTC) or RFC 3339 date-time"),
};
const SEARCH_INPUT = {
  query: z.string().min(1).max(1000).describe("Words to find in titles, topics, summaries, descriptions and transcripts; several words also match as a phrase"),
  limit: z.int().min(1).max(SEARCH_LIMIT_MAX).optional().describe(`Results, 1 to ${SEARCH_LIMIT_MAX} (default ${SEARCH_LIMIT_DEFAULT})`),
};
/** A window is checked here, not by the API: no route takes one. */
const TRANSCRIPT_INPUT = z
  .object({
    ref,
    start: z.number().min(0).optional().describe("Window start, seconds from the start of the audio: only the turns that end after it"),
    end: z.number().min(0).optional().describe("Window end, seconds: only the turns that start before it (with start = end, the turn spoken at that instant)"),
  })
  .refine((a) => a.start === undefined || a.end === undefined || a.start <= a.end, { path: ["end"], message: "end must not be before start" });

export interface McpDeps {
  /** The API's reads (./api-reads.ts), under the same publication clock as its routes. */
  reads: ApiReads;
  limiter: RateLimiter;
  now: () => number;
  assets: AssetStore;
  index: EpisodeIndex;
  /** Whether an episode's segments are timed: search results from its transcript then carry the moment. */
  isTimed: (entry: IndexEntry) => boolean;
}

const decoder = new TextDecoder();

const toolError = (envelope: Envelope): CallToolResult => ({ isError: true, content: [{ type: "text", text: JSON.stringify(envelope) }] });
/** A result as structured content, with its JSON as text for clients that read only text. */
const dataResult = (data: Record<string, unknown>, text = JSON.stringify(data)): CallToolResult => ({ content: [{ type: "text", text }], structuredContent: data });
/** An API body (JSON): its bytes as the text, byte for byte the API's, and parsed as structured content. */
const bodyResult = (bytes: Uint8Array): CallToolResult => {
  const text = decoder.decode(bytes);
  return dataResult(JSON.parse(text) as Record<string, unknown>, text);
};

/** The tool's arguments as the list's query values: each value as the API would read it from a query string. */
function queryOf(args: Record<string, unknown>): QueryValues {
  return { getAll: (name) => (args[name] === undefined ? [] : [String(args[name])]) };
}

/** A turn overlaps [start, end] when it starts before the end and ends after the start; a window of one instant holds the turn spoken then. */
function overlaps(turn: TimedTurn, start: number, end: number): boolean {
  return turn.end > start && (turn.start < end || (start === end && turn.start === start));
}

/** The MCP endpoint as a route: POST is the protocol, OPTIONS its preflight, anything else 405. */
export function createMcpRoute(deps: McpDeps): RouteHandler {
  const { reads } = deps;
  const search = new EpisodeSearch(deps.assets, deps.index, deps.isTimed);
  const origins = { baseUrl: deps.index.data.baseUrl, siteUrl: deps.index.data.siteUrl };

  function server(sdk: Sdk, clientIp: string): McpServer {
    const mcp = new sdk.McpServer({ name: deps.index.data.show.title, version: "1.0.0" }, { capabilities: { tools: {}, resources: {} }, jsonSchemaValidator: NO_SCHEMA_VALIDATION });

    /** Counts one call in the bucket; past the limit, the envelope saying when to retry. */
    async function admit(): Promise<Envelope | null> {
      const decision = await deps.limiter.check(BUCKET, clientIp, deps.now());
      if (decision.allowed) return null;
      return envelopeOf(refusal("rate_limited"), { message: `Too many requests; retry after ${decision.retryAfter} seconds.`, retryAfter: decision.retryAfter });
    }

    /** Counts the call, then runs it at the clock's time; a refusal or a failure (502, never its message) is a tool error. */
    async function counted(run: (clock: number) => Promise<CallToolResult | Refusal>): Promise<CallToolResult> {
      const limited = await admit();
      if (limited !== null) return toolError(limited);
      try {
        const result = await run(deps.now());
        return result instanceof Refusal ? toolError(envelopeOf(result)) : result;
      } catch {
        return toolError(envelopeOf(refusal("upstream_unavailable")));
      }
    }

    const body = (r: string | number, part: EpisodePart) => counted(async (clock) => {
      const read = await reads.body(String(r), part, clock);
      return read instanceof Refusal ? read : bodyResult(read.body);
    });

    /** The plain transcript, or the turns of a window from the timed JSON transcript (transcript_unavailable when untimed). */
    async function transcript(r: string, start: number | undefined, end: number | undefined, clock: number): Promise<TranscriptResult | Refusal> {
      if (start === undefined && end === undefined) {
        const read = await reads.body(r, "transcript", clock);
        return read instanceof Refusal ? read : { transcript: decoder.decode(read.body) };
      }
      const read = await reads.timed(r, "json", clock);
      if (read instanceof Refusal) return read;
      const timed = JSON.parse(decoder.decode(read.body)) as JsonTranscript;
      const turns = timed.segments
        .map((s): TimedTurn => ({ speaker: s.speaker, text: s.body, start: s.startTime, end: s.endTime }))
        .filter((t) => overlaps(t, start ?? 0, end ?? Infinity));
      return { transcript: transcriptOf({ segments: turns }) ?? "", turns };
    }

    const readOnly = { readOnlyHint: true, openWorldHint: false };

    mcp.registerTool(
      "list_episodes",
      {
        description:
          "Published episodes, newest first, a page at a time: the API's GET /v1/episodes. Call again with cursor = pagination.nextCursor until it is null.",
        inputSchema: LIST_INPUT,
        outputSchema: episodePage,
        annotations: readOnly,
      },
      (args) =>
        counted(async (clock) => {
          const page = await reads.page(queryOf(args), clock);
          return page instanceof Refusal ? page : bodyResult(page.bytes);
        }),
    );
    mcp.registerTool(
      "search_episodes",
      {
        description:
          "Published episodes matching a query, best first, each with its ref, id, title, publishedAt, a snippet and its links; a result found in a timed transcript also has the moment: start (seconds), speaker, text and url (the episode page at that moment).",
        inputSchema: SEARCH_INPUT,
        outputSchema: searchResults,
        annotations: readOnly,
      },
      ({ query, limit }) => counted(async (clock) => dataResult({ results: await search.search(query, limit ?? SEARCH_LIMIT_DEFAULT, clock) })),
    );
    mcp.registerTool(
      "get_episode",
      { description: "One published episode by number or UUID: the API's GET /v1/episodes/{ref}.", inputSchema: { ref }, outputSchema: episodeResource, annotations: readOnly },
      (args) => body(args.ref, "json"),
    );
    mcp.registerTool(
      "get_script",
      {
        description: "An episode's structured script (speaker turns with their times when timed, chapters): GET /v1/episodes/{ref}/script.",
        inputSchema: { ref },
        outputSchema: scriptResource,
        annotations: readOnly,
      },
      (args) => body(args.ref, "script"),
    );
    mcp.registerTool(
      "get_transcript",
      {
        description:
          "An episode's transcript, one `Speaker: text` line per turn (GET /v1/episodes/{ref}/transcript). With start and/or end (seconds), only the turns that overlap that window, with their times; a window needs a timed transcript (else transcript_unavailable).",
        inputSchema: TRANSCRIPT_INPUT,
        outputSchema: transcriptResult,
        annotations: readOnly,
      },
      ({ ref: r, start, end }) =>
        counted(async (clock) => {
          const result = await transcript(String(r), start, end, clock);
          return result instanceof Refusal ? result : dataResult(result);
        }),
    );
    registerResources(mcp, { ResourceTemplate: sdk.ResourceTemplate, reads, origins, admit, now: deps.now });
    return mcp;
  }

  return async (req, ctx, at: RouteArgs) => {
    if (req.method === "OPTIONS") return preflightResponse(ctx, MCP_METHODS, MCP_REQUEST_HEADERS);
    // Stateless: no SSE stream to GET and no session to DELETE.
    if (req.method !== "POST") return errorResponse(ctx, "method_not_allowed", undefined, { Allow: "POST" });
    const body = await readBody(req, MCP_MAX_BODY_BYTES);
    if (body === null) return errorResponse(ctx, "payload_too_large");
    const headers = new Headers();
    for (const name of FORWARDED) {
      const value = req.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    const sdk = await loadSdk();
    const transport = new sdk.WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const mcp = server(sdk, at.clientIp ?? "unknown");
    try {
      await mcp.connect(transport);
      const answer = await transport.handleRequest(new Request(at.url.href, { method: "POST", headers, body }));
      return await shimResponse(ctx, answer);
    } finally {
      await mcp.close();
    }
  };
}

/** The SDK's Fetch Response with the headers of every answer of the shim (CORS, Link), never cached. */
async function shimResponse(ctx: ResponseContext, answer: Response): Promise<ShimResponse> {
  const h = baseHeaders(ctx);
  answer.headers.forEach((value, name) => (h[name] = value));
  h["cache-control"] = CACHE.noStore;
  const bytes = new Uint8Array(await answer.arrayBuffer());
  if (bytes.byteLength > 0 || answer.status === 200) h["content-length"] = String(bytes.byteLength);
  return { status: answer.status, headers: h, body: bytes.byteLength > 0 ? bytes : null };
}

/** The request body, or null past `max` bytes (by Content-Length, or as it arrives). */
async function readBody(req: ShimRequest, max: number): Promise<Uint8Array<ArrayBuffer> | null> {
  if (Number(req.headers.get("content-length")) > max) return null;
  const stream = req.body;
  if (stream === undefined || stream === null) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > max) {
        await reader.cancel();
        return null;
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) (out.set(c, at), (at += c.byteLength));
  return out;
}
