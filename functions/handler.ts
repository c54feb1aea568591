// The shim: one fetch-style handler in front of the static build (ShimRequest → ShimResponse; a
// Fetch Request is a ShimRequest, and toResponse in ./http.ts makes a Fetch Response of the answer).
// It does only what cannot be precomputed: routing public URLs to build outputs, references and the
// publication clock, list pages and cursors, conditional requests, audio, CORS, methods and rate
// limits. Read top-down: `handle`, then one function per route of the route table
// (src/shared/routes.ts): the episode routes and the timed forms come from ./episode-routes.ts and
// ./timed-routes.ts, whose reads (./api-reads.ts) the MCP endpoint calls too. It imports nothing of
// Node or Workers; each runtime's entry passes in its ports (./ports.ts), and
// tests/unit/runtime-guard.test.ts keeps it so.
import { HEADER } from "../src/shared/headers.ts";
import type { ErrorCode } from "../src/shared/errors.ts";
import { etagOf } from "../src/shared/etag.ts";
import { API_PREFIX, BUILD_FILES } from "../src/shared/layout.ts";
import { METHODS, rateLimitsOf, type RouteId } from "../src/shared/routes.ts";
import type { IndexEntry } from "../src/shared/schema/build-index.ts";
import { TimedEtagTable, type TimedEtags } from "../src/shared/timed-etags.ts";
import type { TimedPart } from "../src/shared/timed.ts";
import { audioRedirect, audioResponse, type AudioTarget } from "./routes/audio.ts";
import type { ShimConfig } from "../src/shared/config.ts";
import { contentTypeOf } from "../src/shared/media-types.ts";
import type { EpisodeIndex } from "./data/episode-index.ts";
import { createEpisodeRoutes } from "./routes/episodes.ts";
import { contentDisposition } from "./http/filename.ts";
import { bodyResponse, CACHE, errorPage, errorResponse, licenseLink, preflightResponse, responseContext, type ResponseContext, type ShimRequest, type ShimResponse } from "./http/response.ts";
import { TYPES } from "../src/shared/media-types.ts";
import { Refusal, type ApiReads } from "./routes/api-reads.ts";
import { createMcpRoute } from "./routes/mcp.ts";
import type { BufferPool } from "./data/buffer-pool.ts";
import type { Asset, AssetStore, AudioStorage, Compress, EtagFunction, ListBodies, RateLimitStore } from "./ports.ts";
import { isPending, thenOrNow } from "./pending.ts";
import { composedAsset } from "./http/representations.ts";
import { RateLimiter, type RateDecision } from "./limits/rate-limit.ts";
import { PlainTarget, plainPath, plainTargetPath, Router, type RouteArgs, type RouteHandler } from "./router.ts";
import { createSiteRoutes } from "./routes/site.ts";
import { createSurfaceRoutes } from "./routes/surfaces.ts";
import { createTimedRoutes } from "./routes/timed.ts";

export interface ShimDeps {
  config: ShimConfig;
  index: EpisodeIndex;
  assets: AssetStore;
  storage: AudioStorage;
  rateLimitStore: RateLimitStore;
  /** The clock; tests and the publication schedule depend on it. */
  now?: () => number;
  /** ETags of bodies composed per request; defaults to etagOf (crypto.subtle). */
  etag?: EtagFunction;
  /** Compresses composed bodies once (Node: node:zlib); absent where the runtime encodes (docs/api.md#compression). */
  compress?: Compress;
  /** The runtime encodes a body sent with Content-Encoding (workerd): the shim sends plain bytes. */
  runtimeEncodes?: boolean;
  /** The list's bodies in one file (Node); without it, or where it cannot answer, a page reads its bodies one by one. */
  listBodies?: ListBodies;
  /**
   * Buffers for list pages composed and not kept, from a runtime that calls each response's
   * `release` once it is written (Node): without it such a page gets a buffer of its own.
   */
  pageBuffers?: BufferPool;
}

export interface RequestInfo {
  /** The client address rate limits count (already resolved through trusted proxies). */
  clientIp: string;
}

/** What a runtime entry drives: the handler, and the answer to requests it cannot hand over. */
export interface Shim {
  /** Answers one request: at once when it needs nothing it has not got in memory, else a promise. */
  handle(req: ShimRequest, info: RequestInfo): ShimResponse | Promise<ShimResponse>;
  /**
   * The answer to a request the runtime could not turn into a ShimRequest (a target that is not a
   * URL, headers past the budget): an error of the one error table, with the CORS headers of every
   * response and, on API paths, the license Link. `path` may be null when even it is unreadable.
   */
  refuse(code: ErrorCode, method: string, path: string | null): ShimResponse;
}
export type { ShimRequest, ShimResponse };

const ALLOWED = new Set<string>(METHODS);

export async function createHandler(deps: ShimDeps): Promise<Shim> {
  const { index, assets, storage, config } = deps;
  if (config.audioDelivery === "redirect" && storage.presign === undefined) {
    throw new Error("AUDIO_DELIVERY=redirect needs a storage that presigns URLs: set AUDIO_BACKEND=s3 (the local backend cannot), or AUDIO_DELIVERY=stream");
  }
  const now = deps.now ?? Date.now;
  const etag = deps.etag ?? etagOf;
  const router = new Router();
  const limiter = new RateLimiter(deps.rateLimitStore, config.rateLimits);
  const link = licenseLink(index.data.termsUrl);
  const showSlug = index.data.show.slug;
  // In redirect delivery the player's audio comes from the storage's presigned URLs.
  const site = createSiteRoutes({ index, assets, now, etag, compress: deps.compress, mediaSources: config.audioDelivery === "redirect" ? ["https:"] : [] });
  const discovery = await discoveryAsset();
  const timedEtags = await timedEtagTable();
  /** The build's tag of a part's timed forms (null: not timed), by the episode's position in the index. */
  const tagOf = (entry: IndexEntry, part: TimedPart): string | null => timedEtags.tag(index.positionOf(entry.id), part);
  const tagsOf = (entry: IndexEntry): TimedEtags => ({ segments: tagOf(entry, "segments"), chapters: tagOf(entry, "chapters") });
  const episodes = createEpisodeRoutes({ index, assets, now, etag, compress: deps.compress, listBodies: deps.listBodies, pageBuffers: deps.pageBuffers });
  const timed = createTimedRoutes({ assets, now, episode: episodes.episode, tagOf, compress: deps.compress });
  /** The API's reads, for MCP: the functions the routes above answer with. */
  const reads: ApiReads = { episode: episodes.episode, body: episodes.body, page: episodes.page, timed: timed.form };

  function handle(req: ShimRequest, info: RequestInfo): ShimResponse | Promise<ShimResponse> {
    // Most targets are plain paths, read without the URL parser (./router.ts).
    const plain = req.target === undefined ? plainPath(req.url) : plainTargetPath(req.target);
    const url = plain === null ? new URL(req.url) : null;
    const pathname = plain ?? url!.pathname;
    const match = router.match(pathname);
    const apiLink = match?.route.api ? link : null;
    const ctx = responseContext(req.method, apiLink, deps.runtimeEncodes);
    // MCP answers its own methods (POST; its preflight) and counts each tool call, not each request.
    if (match?.id === "mcp") return Promise.resolve(routes.mcp(req, ctx, { url: url ?? new URL(req.url), params: match.params, clientIp: info.clientIp })).catch(() => errorResponse(ctx, "upstream_unavailable"));
    if (req.method === "OPTIONS") return preflightResponse(ctx);
    if (!ALLOWED.has(req.method)) return errorResponse(ctx, "method_not_allowed");
    if (match === null) return answered(ctx, () => staticFile(req, ctx, pathname));
    const { id, route } = match;
    const at: RouteArgs = url === null ? new PlainTarget(req.url, match.params) : { url, params: match.params };
    if (route.bucket === null) return routeAnswer(req, ctx, id, at);
    // The in-memory store decides at once: then no promise and no closure.
    let checked: RateDecision | PromiseLike<RateDecision>;
    try {
      checked = limiter.check(route.bucket, info.clientIp, now());
    } catch {
      return errorResponse(ctx, "upstream_unavailable");
    }
    if (isPending(checked)) return answered(ctx, () => thenOrNow(checked, (decision) => counted(req, apiLink, id, at, decision)));
    return counted(req, apiLink, id, at, checked);
  }

  /** The route's answer with the rate limit's headers, or 429 past the limit. */
  function counted(req: ShimRequest, apiLink: string | null, id: RouteId, at: RouteArgs, decision: RateDecision): ShimResponse | Promise<ShimResponse> {
    const limited = responseContext(req.method, apiLink, deps.runtimeEncodes, decision.headers);
    if (!decision.allowed) return errorResponse(limited, "rate_limited", undefined, { [HEADER.retryAfter]: String(decision.retryAfter) });
    return routeAnswer(req, limited, id, at);
  }

  /** `answered` for a route of the table, without a closure per request. */
  function routeAnswer(req: ShimRequest, ctx: ResponseContext, id: RouteId, at: RouteArgs): ShimResponse | Promise<ShimResponse> {
    try {
      return settled(ctx, routes[id](req, ctx, at));
    } catch {
      return errorResponse(ctx, "upstream_unavailable");
    }
  }

  /** API paths, and paths that cannot be read, get the envelope; site paths a small page. */
  function refuse(code: ErrorCode, method: string, path: string | null): ShimResponse {
    if (path === null) return errorResponse(responseContext(method, null), code);
    if (router.match(path)?.route.api === true) return errorResponse(responseContext(method, link), code);
    return errorPage(responseContext(method, null), code);
  }

  /** One handler per route id: the compiler refuses a route of the table without one. */
  const routes: Record<RouteId, RouteHandler> = {
    discovery: (req, ctx) => bodyResponse(req, ctx, discovery.body, discovery.etag, TYPES.json, CACHE.resource),
    ...episodes.routes,
    getEpisodeAudio: audio,
    ...timed.routes,
    openapi: (req, ctx) => buildFile(req, ctx, BUILD_FILES.openapi, TYPES.json, CACHE.resource),
    apiNotFound: (_req, ctx) => errorResponse(ctx, "not_found"),
    media,
    mcp: createMcpRoute({ reads, limiter, now, assets, index, isTimed: (entry) => tagOf(entry, "segments") !== null }),
    ...site.routes,
    ...createSurfaceRoutes({ index, assets, now, etag, feedLimit: config.feedLimit, announce: config.announce, compress: deps.compress, tagsOf }).routes,
  };

  async function audio(req: ShimRequest, ctx: ResponseContext, at: RouteArgs): Promise<ShimResponse> {
    const entry = episodes.episode(at.params.ref!, now());
    if (entry instanceof Refusal) return errorResponse(ctx, entry.code, entry.parameter);
    if (entry.audio === null) return errorResponse(ctx, "not_found");
    const disposition = at.url.searchParams.get("download") === "1" ? "attachment" : "inline";
    const target: AudioTarget = {
      key: entry.audio.key,
      etag: entry.audio.etag,
      disposition: contentDisposition(disposition, showSlug, { id: entry.id, episodeNumber: entry.n, title: entry.title }),
    };
    return config.audioDelivery === "redirect" ? audioRedirect(ctx, storage, target) : audioResponse(req, ctx, storage, target);
  }

  /** The direct audioUrl of local storage: Range-capable, gated by the publication clock too. */
  async function media(req: ShimRequest, ctx: ResponseContext, at: { params: Record<string, string> }): Promise<ShimResponse> {
    const entry = index.byMediaKey(at.params.file!, now());
    if (entry === null || entry.audio === null) return errorResponse(ctx, "not_found");
    return audioResponse(req, ctx, storage, { key: entry.audio.key, etag: entry.audio.etag, disposition: null });
  }

  /** A build output the index promised: its absence means the deployment is incomplete. At once when the store holds it. */
  function buildFile(req: ShimRequest, ctx: ResponseContext, path: string, type: string, cache: string): ShimResponse | Promise<ShimResponse> {
    const found = assets.get(path);
    return isPending(found) ? Promise.resolve(found).then((f) => builtFileResponse(req, ctx, f, type, cache)) : builtFileResponse(req, ctx, found, type, cache);
  }

  function builtFileResponse(req: ShimRequest, ctx: ResponseContext, found: Asset | null, type: string, cache: string): ShimResponse | Promise<ShimResponse> {
    if (found === null) return errorResponse(ctx, "upstream_unavailable");
    return bodyResponse(req, ctx, found.body, found.etag, type, cache);
  }

  /** Any path no route names: a static output of the build, never under the private prefix. */
  async function staticFile(req: ShimRequest, ctx: ResponseContext, path: string): Promise<ShimResponse> {
    const rel = path.replace(/^\/+/, "");
    if (rel.startsWith(`${API_PREFIX}/`) || rel.split("/").some((s) => s === ".." || s === ".")) return errorResponse(ctx, "not_found");
    const candidates = rel === "" ? ["index.html"] : rel.endsWith("/") ? [`${rel}index.html`] : [rel, `${rel}.html`, `${rel}/index.html`];
    for (const c of candidates) {
      const found = await assets.get(c);
      if (found) return bodyResponse(req, ctx, found.body, found.etag, contentTypeOf(c), CACHE.resource);
    }
    return site.notFound(req, ctx);
  }

  /** The build's table of the timed forms' tags, held for the process's life (a few bytes an episode). */
  async function timedEtagTable(): Promise<TimedEtagTable> {
    const built = await assets.get(BUILD_FILES.timedEtags, { keep: false });
    if (built === null) throw new Error(`build output missing: ${BUILD_FILES.timedEtags}`);
    return new TimedEtagTable(built.body, index.size);
  }

  /** The discovery document, restating the limits in force (run-time configuration). */
  async function discoveryAsset(): Promise<Asset> {
    const built = await assets.get(BUILD_FILES.discovery);
    if (built === null) throw new Error(`build output missing: ${BUILD_FILES.discovery}`);
    const doc = JSON.parse(new TextDecoder().decode(built.body)) as Record<string, unknown>;
    doc.rateLimits = rateLimitsOf(config.rateLimits);
    return composedAsset(JSON.stringify(doc), etag, deps.compress);
  }

  return { handle, refuse };
}

/**
 * What `answer` answers, at once or as a promise, or 502 when it throws or its promise rejects:
 * never a stack trace or a server path in a response.
 */
function answered(ctx: ResponseContext, answer: () => ShimResponse | Promise<ShimResponse>): ShimResponse | Promise<ShimResponse> {
  try {
    return settled(ctx, answer());
  } catch {
    return errorResponse(ctx, "upstream_unavailable");
  }
}

/** An answer as it is, or its promise with a rejection answered 502. */
function settled(ctx: ResponseContext, answer: ShimResponse | Promise<ShimResponse>): ShimResponse | Promise<ShimResponse> {
  return isPending(answer) ? Promise.resolve(answer).catch(() => errorResponse(ctx, "upstream_unavailable")) : answer;
}
