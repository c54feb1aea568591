// The MCP endpoint (docs/api.md#mcp): Model Context Protocol over streamable HTTP at /mcp,
// stateless, JSON responses, on the official SDK's Web-standard transport (a Fetch Request in, a
// Fetch Response out), so it runs unchanged on Node and in workerd. Each POST gets its own server
// and transport: no session, nothing kept between requests.
//
// The tools answer through the API's own route handlers (a GET of the API path, built here), so
// list_episodes, get_episode, get_script and get_transcript have the API's semantics, publication
// clock and errors by construction; an API error becomes a tool error carrying the envelope.
// search_episodes asks the search index (./search.ts). Every tool call counts in the client's
// metadata rate-limit bucket; the protocol's own messages (initialize, tools/list) do not.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { z } from "zod";
import { apiError, type ErrorCode } from "../src/shared/errors.ts";
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from "../src/shared/limits.ts";
import type { RouteId } from "../src/shared/routes.ts";
import type { EpisodeIndex } from "./episode-index.ts";
import { baseHeaders, CACHE, errorResponse, preflightResponse, responseContext, type ResponseContext, type ShimRequest, type ShimResponse } from "./http.ts";
import type { AssetStore } from "./ports.ts";
import type { RateLimiter } from "./rate-limit.ts";
import type { RouteArgs, RouteHandler, Router } from "./router.ts";
import { EpisodeSearch, SearchUnavailable } from "./search.ts";

/** A JSON-RPC message or batch past this is refused 413 before it is parsed. */
export const MCP_MAX_BODY_BYTES = 1024 * 1024;

/**
 * The SDK, loaded on the first POST /mcp: ~17 MB resident in a Node process that may never serve
 * MCP (docs/performance.md#request-path-at-scale). Bundlers inline the dynamic import (Workers).
 */
async function importSdk() {
  const [{ McpServer }, { WebStandardStreamableHTTPServerTransport }] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/mcp.js"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
  ]);
  return { McpServer, WebStandardStreamableHTTPServerTransport };
}
type Sdk = Awaited<ReturnType<typeof importSdk>>;
let sdkLoading: Promise<Sdk> | null = null;
const loadSdk = (): Promise<Sdk> => (sdkLoading ??= importSdk().catch((e: unknown) => ((sdkLoading = null), Promise.reject(e))));
export const SEARCH_LIMIT_DEFAULT = 10;
export const SEARCH_LIMIT_MAX = 50;

/** The preflight: what browsers' MCP clients send (docs/api.md#mcp). */
const MCP_METHODS = "POST, OPTIONS";
const MCP_REQUEST_HEADERS = "Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID";
/** Request headers the SDK's transport reads; the rest are not copied into its Request. */
const FORWARDED = ["content-type", "accept", "mcp-session-id", "mcp-protocol-version", "last-event-id"];

/**
 * The SDK validates JSON Schemas only for elicitation, which this server never asks for; its
 * default validator (Ajv) would be built per request, and compiles code Workers forbid.
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

export interface McpDeps {
  router: Router;
  /** The shim's route handlers (read at call time: the record is built after this endpoint). */
  routes: () => Record<RouteId, RouteHandler>;
  /** The license Link of API answers. */
  link: string;
  limiter: RateLimiter;
  now: () => number;
  assets: AssetStore;
  index: EpisodeIndex;
  name: string;
}

const decoder = new TextDecoder();

/** The MCP endpoint as a route: POST is the protocol, OPTIONS its preflight, anything else 405. */
export function createMcpRoute(deps: McpDeps): RouteHandler {
  const search = new EpisodeSearch(deps.assets, deps.index);

  /** A GET of an API path through its route handler, as if it came over HTTP (without counting it). */
  async function apiGet(origin: string, path: string, signal: AbortSignal): Promise<ShimResponse> {
    const url = new URL(path, origin);
    const match = deps.router.match(url.pathname);
    const ctx = responseContext("GET", deps.link);
    if (match === null) return errorResponse(ctx, "not_found");
    const req: ShimRequest = { method: "GET", url: url.href, headers: { get: () => null }, signal };
    return deps.routes()[match.id](req, ctx, { url, params: match.params });
  }

  /** An API answer as a tool result: the body (JSON also as structured content), or a tool error with the envelope. */
  function toolResult(r: ShimResponse): CallToolResult {
    const text = r.body instanceof Uint8Array ? decoder.decode(r.body) : "";
    if (r.status >= 400) return { isError: true, content: [{ type: "text", text }] };
    const json = r.headers["content-type"]?.startsWith("application/json") ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    return { content: [{ type: "text", text }], ...(json === undefined ? {} : { structuredContent: json }) };
  }

  const toolError = (code: ErrorCode, more: Record<string, unknown> = {}): CallToolResult => {
    const envelope = apiError(code);
    return { isError: true, content: [{ type: "text", text: JSON.stringify({ error: { ...envelope.error, ...more } }) }] };
  };

  function server(sdk: Sdk, origin: string, clientIp: string, signal: AbortSignal): McpServer {
    const mcp = new sdk.McpServer({ name: deps.name, version: "1.0.0" }, { capabilities: { tools: {} }, jsonSchemaValidator: NO_SCHEMA_VALIDATION });

    /** Counts the call in the metadata bucket, then runs it; past the limit, a tool error saying when to retry. */
    async function counted(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
      const decision = await deps.limiter.check("metadata", clientIp, deps.now());
      if (!decision.allowed) {
        return toolError("rate_limited", { message: `Too many requests; retry after ${decision.retryAfter} seconds.`, retryAfter: decision.retryAfter });
      }
      try {
        return await run();
      } catch (e) {
        if (e instanceof SearchUnavailable) return toolError("upstream_unavailable");
        throw e;
      }
    }
    const get = (path: string) => counted(async () => toolResult(await apiGet(origin, path, signal)));
    const episodePath = (r: string | number, part = "") => `/v1/episodes/${encodeURIComponent(String(r))}${part}`;
    const readOnly = { readOnlyHint: true, openWorldHint: false };

    mcp.registerTool(
      "list_episodes",
      {
        description:
          "Published episodes, newest first, a page at a time: the API's GET /v1/episodes. Call again with cursor = pagination.nextCursor until it is null.",
        inputSchema: LIST_INPUT,
        annotations: readOnly,
      },
      (args) => {
        const q = new URLSearchParams();
        for (const [k, v] of Object.entries(args)) if (v !== undefined) q.set(k, String(v));
        return get(`/v1/episodes${q.size > 0 ? `?${q}` : ""}`);
      },
    );
    mcp.registerTool(
      "search_episodes",
      {
        description: "Published episodes matching a query, best first, each with its ref, id, title, publishedAt, a snippet and its links.",
        inputSchema: SEARCH_INPUT,
        annotations: readOnly,
      },
      ({ query, limit }) =>
        counted(async () => {
          const results = await search.search(query, limit ?? SEARCH_LIMIT_DEFAULT, deps.now());
          return { content: [{ type: "text", text: JSON.stringify({ results }) }], structuredContent: { results } };
        }),
    );
    mcp.registerTool(
      "get_episode",
      { description: "One published episode by number or UUID: the API's GET /v1/episodes/{ref}.", inputSchema: { ref }, annotations: readOnly },
      (args) => get(episodePath(args.ref)),
    );
    mcp.registerTool(
      "get_script",
      { description: "An episode's structured script (speaker turns, chapters): GET /v1/episodes/{ref}/script.", inputSchema: { ref }, annotations: readOnly },
      (args) => get(episodePath(args.ref, "/script")),
    );
    mcp.registerTool(
      "get_transcript",
      { description: "An episode's plain-text transcript, one line per spoken turn: GET /v1/episodes/{ref}/transcript.", inputSchema: { ref }, annotations: readOnly },
      (args) => get(episodePath(args.ref, "/transcript")),
    );
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
    const mcp = server(sdk, at.url.origin, at.clientIp ?? "unknown", req.signal);
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
