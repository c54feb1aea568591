// The shim: one fetch-style handler in front of the static build (ShimRequest → ShimResponse; a
// Fetch Request is a ShimRequest, and toResponse in ./http.ts makes a Fetch Response of the answer).
// It does only what cannot be precomputed: routing public URLs to build outputs, references and the
// publication clock, list pages and cursors, conditional requests, audio, CORS, methods and rate
// limits. Read top-down: `handle`, then one function per route of the route table
// (src/shared/routes.ts). It imports nothing of Node or Workers; each runtime's entry passes in its
// ports (./ports.ts), and tests/unit/runtime-guard.test.ts keeps it so.
import { encodeCursor } from "../src/shared/cursor.ts";
import type { ErrorCode } from "../src/shared/errors.ts";
import { etagOf } from "../src/shared/etag.ts";
import { API_PREFIX, BUILD_FILES, episodeFile } from "../src/shared/layout.ts";
import { orderKeyOf } from "../src/shared/order.ts";
import { PARAMETERS } from "../src/shared/parameters.ts";
import { parseRef } from "../src/shared/refs.ts";
import { METHODS, rateLimitsOf, type RouteId } from "../src/shared/routes.ts";
import type { IndexEntry } from "../src/shared/schema/build-index.ts";
import { TimedEtagTable, type TimedEtags } from "../src/shared/timed-etags.ts";
import type { TimedPart } from "../src/shared/timed.ts";
import { audioRedirect, audioResponse, type AudioTarget } from "./audio.ts";
import type { ShimConfig } from "./config.ts";
import { contentTypeOf } from "./content-type.ts";
import type { EpisodeIndex, Page } from "./episode-index.ts";
import { contentDisposition } from "./filename.ts";
import {
  bodyResponse,
  CACHE,
  errorPage,
  errorResponse,
  licenseLink,
  preflightResponse,
  responseContext,
  TYPES,
  type ResponseContext,
  type ShimRequest,
  type ShimResponse,
} from "./http.ts";
import { parseListQuery } from "./list-query.ts";
import { createMcpRoute } from "./mcp.ts";
import type { BufferPool, PooledBytes } from "./buffer-pool.ts";
import { ByteLru } from "./lru.ts";
import type { Asset, AssetStore, AudioStorage, Compress, EtagFunction, ListBodies, RateLimitStore } from "./ports.ts";
import { isPending, thenOrNow } from "./pending.ts";
import { composedAsset, type ComposedAsset } from "./representations.ts";
import { RateLimiter, type RateDecision } from "./rate-limit.ts";
import { PlainTarget, plainPath, Router, searchOf, type RouteArgs, type RouteHandler } from "./router.ts";
import { createSiteRoutes } from "./site-routes.ts";
import { createSurfaceRoutes } from "./surface-routes.ts";
import { createTimedRoutes } from "./timed-routes.ts";

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

/**
 * Memory for composed list pages (a full page of 50 episodes is ~80 KB). 4 MiB: a crawler's walk
 * never asks a page twice, and 8 MiB of its pages cost the Node process ~5 MB more resident at
 * 100,000 episodes; the pages asked again and again (the first ones) stay.
 */
const LIST_CACHE_BYTES = 4 * 1024 * 1024;
/**
 * Memory for the query strings of the list pages last composed and not kept: a page is kept when
 * it is asked again while its key is still here (~200 keys, about as many pages as the cache
 * holds). A crawler's walk, one pass or a loop over more pages than the cache holds, asks no page
 * twice within that, so its pages no longer push the pages asked again and again out of the cache
 * (where they would be dropped before their next turn anyway), and are composed into reused buffers.
 */
const LIST_SEEN_BYTES = 16 * 1024;
const ALLOWED = new Set<string>(METHODS);
const encoder = new TextEncoder();

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
  /**
   * Composed list pages (bytes and ETag), by query string and published set. The key is counted:
   * a query can be as long as the header budget, and ignored parameters make any number of them.
   */
  const pages = new ByteLru<ComposedAsset>(LIST_CACHE_BYTES, (a, key) => a.bytes + key.length);
  /** Keys of pages composed once and not kept (LIST_SEEN_BYTES). */
  const seen = new ByteLru<true>(LIST_SEEN_BYTES, (_, key) => key.length + 16);

  function handle(req: ShimRequest, info: RequestInfo): ShimResponse | Promise<ShimResponse> {
    // Most targets are plain paths, read without the URL parser (./router.ts).
    const plain = plainPath(req.url);
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
    if (!decision.allowed) return errorResponse(limited, "rate_limited", undefined, { "Retry-After": String(decision.retryAfter) });
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
    listEpisodes: list,
    getEpisode: (req, ctx, at) => episodeBody(req, ctx, at.params.ref!, "json"),
    getEpisodeScript: (req, ctx, at) => episodeBody(req, ctx, at.params.ref!, "script"),
    getEpisodeTranscript: (req, ctx, at) => episodeBody(req, ctx, at.params.ref!, "transcript"),
    getEpisodeAudio: audio,
    ...createTimedRoutes({ assets, episodeAt, tagOf, compress: deps.compress }),
    openapi: (req, ctx) => buildFile(req, ctx, BUILD_FILES.openapi, TYPES.json, CACHE.resource),
    apiNotFound: (_req, ctx) => errorResponse(ctx, "not_found"),
    media,
    mcp: createMcpRoute({ router, routes: () => routes, link, limiter, now, assets, index, name: index.data.show.title }),
    ...site.routes,
    ...createSurfaceRoutes({ index, assets, now, etag, feedLimit: config.feedLimit, announce: config.announce, compress: deps.compress, tagsOf }).routes,
  };

  /** The default page's key for the last published count: the same string, not a new one per request. */
  let defaultKey = { count: -1, key: "" };
  function defaultPageKey(count: number): string {
    if (defaultKey.count !== count) defaultKey = { count, key: String(count) };
    return defaultKey.key;
  }

  function list(req: ShimRequest, ctx: ResponseContext, at: RouteArgs): ShimResponse | Promise<ShimResponse> {
    const clock = now();
    // A page is fixed by its query and the set of published episodes: the same query string
    // against the same set is answered from the cache without parsing it again or finding the
    // page in the index (a crawler's repeated first page).
    const search = searchOf(at);
    const count = index.publishedCount(clock);
    const key = search === "" ? defaultPageKey(count) : `${count}${search}`;
    const composed = pages.get(key);
    if (composed === undefined) return composePage(req, ctx, at, clock, key);
    return bodyResponse(req, ctx, composed.body, composed.etag, TYPES.json, CACHE.list);
  }

  /**
   * A list page not in the cache: parsed, found in the index, joined, and kept under `key` when it
   * was asked before (LIST_SEEN_BYTES); a page not kept goes into a pooled buffer when the runtime
   * gives them back (`deps.pageBuffers`).
   */
  async function composePage(req: ShimRequest, ctx: ResponseContext, at: RouteArgs, clock: number, key: string): Promise<ShimResponse> {
    const parsed = parseListQuery(at.url.searchParams);
    if (!parsed.ok) return errorResponse(ctx, parsed.code, parsed.parameter);
    const { limit, domain, since, after } = parsed.query;
    const page = index.page(clock, domain, after, since, limit);
    const last = page.items[page.items.length - 1];
    const nextCursor = page.more && last ? encodeCursor({ after: orderKeyOf(last), domain, since }) : null;
    const pagination = JSON.stringify({ nextCursor, limit });
    const keep = seen.get(key) !== undefined;
    if (!keep) seen.set(key, true);
    const lease: { pooled: PooledBytes | null } = { pooled: null };
    const alloc: Alloc = (size) => {
      // A second allocation follows a read from the list file that failed: its buffer is free again.
      lease.pooled?.release();
      if (!keep) lease.pooled = deps.pageBuffers?.take(size) ?? null;
      return lease.pooled?.bytes ?? new Uint8Array(size);
    };
    const joined = fromListFile(page, pagination, alloc) ?? (await bodyByBody(page.items, pagination, alloc));
    // The index promised these files; an absent one means the deployment is incomplete.
    if (joined === null) {
      lease.pooled?.release();
      return errorResponse(ctx, "upstream_unavailable");
    }
    const { bytes, etags } = joined;
    // Its strong tag hashes what fixes its bytes, the pagination and each body's own strong tag,
    // rather than the bytes (~32 KB at limit=20): ~1 µs instead of ~20 µs of SHA-256 at each
    // composition, which a crawler's walk pays on every page.
    const tagOfPage: EtagFunction = () => etag(encoder.encode(`${pagination}\n${etags.join("\n")}`));
    // Its compressed variants are made once, when a request first negotiates each coding
    // (docs/api.md#compression); the cache then counts them (set again with the new size).
    const made: ComposedAsset = await composedAsset(bytes, tagOfPage, deps.compress, () => keep && pages.set(key, made));
    if (keep) pages.set(key, made);
    const answer = await bodyResponse(req, ctx, made.body, made.etag, TYPES.json, CACHE.list);
    // Its buffer is taken back once the answer is written, whether it carries the page, a
    // compressed variant of it (made before this point) or nothing (304, HEAD).
    if (lease.pooled !== null) answer.release = lease.pooled.release;
    return answer;
  }

  /**
   * A page whose entries are consecutive in the index, with one read of the list's bodies in one
   * file (Node); null for other pages (a domain, `since`), or when the file cannot answer: the
   * bodies are then read one by one, and the bytes and ETags are the same.
   */
  function fromListFile(page: Page, pagination: string, alloc: Alloc): JoinedBodies | null {
    const span = page.from === null ? null : (deps.listBodies?.span(page.from, page.items.length) ?? null);
    const bytes = span === null ? null : listBody(span.length, pagination, span.read, alloc);
    return bytes === null ? null : { bytes, etags: span!.etags };
  }

  /** A page's bodies read one by one through the asset store; null when one is absent. */
  async function bodyByBody(items: IndexEntry[], pagination: string, alloc: Alloc): Promise<JoinedBodies | null> {
    const bodies = await Promise.all(items.map((e) => assets.get(episodeFile(e.ref, "json"))));
    if (bodies.some((b) => b === null)) return null;
    return { bytes: joinedBody(bodies as Asset[], pagination, alloc), etags: (bodies as Asset[]).map((b) => b.etag) };
  }

  /** The published episode behind a reference, or the error answer (400 naming the parameter, 404). */
  function episodeAt(ctx: ResponseContext, refText: string): IndexEntry | ShimResponse {
    const ref = parseRef(refText);
    if (ref === null) return errorResponse(ctx, PARAMETERS.ref.error, PARAMETERS.ref.name);
    return index.resolve(ref, now()) ?? errorResponse(ctx, "not_found");
  }

  function episodeBody(req: ShimRequest, ctx: ResponseContext, refText: string, part: "json" | "script" | "transcript"): ShimResponse | Promise<ShimResponse> {
    const entry = episodeAt(ctx, refText);
    if ("status" in entry) return entry;
    if (part === "script" && entry.script !== "ok") return errorResponse(ctx, entry.script === "missing" ? "script_unavailable" : "script_unparseable");
    if (part === "transcript" && !entry.transcript) return errorResponse(ctx, "transcript_unavailable");
    return buildFile(req, ctx, episodeFile(entry.ref, part), part === "transcript" ? TYPES.text : TYPES.json, CACHE.resource);
  }

  async function audio(req: ShimRequest, ctx: ResponseContext, at: RouteArgs): Promise<ShimResponse> {
    const entry = episodeAt(ctx, at.params.ref!);
    if ("status" in entry) return entry;
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

/** A list page's bytes and the ETags of its bodies, in order (what its ETag hashes). */
interface JoinedBodies {
  bytes: Uint8Array;
  etags: string[];
}

const LIST_HEAD = encoder.encode(`{"episodes":[`);
const COMMA = 0x2c;

/** Where a composed page's bytes go: `size` bytes, every one of which the caller writes. */
type Alloc = (size: number) => Uint8Array;

/**
 * A list page's bytes: the episodes' built JSON bodies joined by commas (`length` bytes, which
 * `fill` writes at `at`), then the pagination. Null when `fill` could not.
 */
function listBody(length: number, pagination: string, fill: (out: Uint8Array, at: number) => boolean, alloc: Alloc): Uint8Array | null {
  const tail = encoder.encode(`],"pagination":${pagination}}`);
  const out = alloc(LIST_HEAD.byteLength + length + tail.byteLength);
  out.set(LIST_HEAD);
  if (!fill(out, LIST_HEAD.byteLength)) return null;
  out.set(tail, LIST_HEAD.byteLength + length);
  return out;
}

/** A list page of bodies read one by one. */
function joinedBody(episodes: Asset[], pagination: string, alloc: Alloc): Uint8Array {
  let length = Math.max(0, episodes.length - 1);
  for (const e of episodes) length += e.body.byteLength;
  return listBody(length, pagination, (out, start) => {
    let at = start;
    episodes.forEach((e, i) => {
      if (i > 0) out[at++] = COMMA;
      out.set(e.body, at);
      at += e.body.byteLength;
    });
    return true;
  }, alloc)!;
}
