// The shim: one fetch-style handler in front of the static build (ShimRequest → ShimResponse: a Fetch
// Request is a ShimRequest, and fetchHandler makes a Fetch Response of the answer). It does only
// what cannot be precomputed: routing public URLs to build outputs, references and the publication
// clock, list pages and cursors, conditional requests, audio, CORS, methods and rate limits.
// It imports nothing of Node or Workers; each runtime's entry passes in its ports.
import { encodeCursor } from "../src/shared/cursor.ts";
import type { ErrorCode } from "../src/shared/errors.ts";
import { etagOf } from "../src/shared/etag.ts";
import { rateLimitsOf } from "../src/generate/discovery.ts";
import { contentDisposition } from "./filename.ts";
import { orderKeyOf } from "../src/shared/order.ts";
import { parseRef } from "../src/shared/refs.ts";
import { BUILD_FILES, episodeFile, type IndexEntry } from "../src/shared/schema/build-index.ts";
import { audioResponse } from "./audio.ts";
import type { ShimConfig } from "./config.ts";
import { contentTypeOf } from "./content-type.ts";
import type { EpisodeIndex } from "./episode-index.ts";
import {
  baseHeaders,
  bodyResponse,
  CACHE,
  errorResponse,
  licenseLink,
  preflightResponse,
  TYPES,
  type ResponseContext,
  type ShimRequest,
  type ShimResponse,
} from "./http.ts";
import { parseListQuery } from "./list-query.ts";
import { ByteLru } from "./lru.ts";
import type { Asset, AssetStore, AudioStorage, EtagFunction, RateLimitStore } from "./ports.ts";
import { RateLimiter, type Bucket } from "./rate-limit.ts";
import { createSiteRoutes } from "./site-routes.ts";

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
}

export interface RequestInfo {
  /** The client address rate limits count (already resolved through trusted proxies). */
  clientIp: string;
}

/** What a runtime entry drives: the handler, and the answer to requests it cannot hand over. */
export interface Shim {
  /** Answers one request. */
  handle(req: ShimRequest, info: RequestInfo): Promise<ShimResponse>;
  /**
   * The answer to a request the runtime could not turn into a ShimRequest (a target that is not a
   * URL, headers past the budget): an error of the one error table, with the CORS headers of every
   * response and, on API paths, the license Link. `path` may be null when even it is unreadable.
   */
  refuse(code: ErrorCode, method: string, path: string | null): ShimResponse;
}
export type { ShimRequest, ShimResponse };

const EPISODE_ROUTE = /^\/v1\/episodes\/([^/]+)(?:\/([^/]+))?$/;
const encoder = new TextEncoder();

/** Memory for composed list pages (a full page of 50 episodes is ~80 KB). */
const LIST_CACHE_BYTES = 8 * 1024 * 1024;
const LIST_HEAD = encoder.encode(`{"episodes":[`);
const COMMA = 0x2c;

/** A list page's bytes: the episodes' built JSON bodies joined as they are, then the pagination. */
function listBody(episodes: Asset[], pagination: string): Uint8Array {
  const tail = encoder.encode(`],"pagination":${pagination}}`);
  let length = LIST_HEAD.byteLength + Math.max(0, episodes.length - 1) + tail.byteLength;
  for (const e of episodes) length += e.body.byteLength;
  const out = new Uint8Array(length);
  out.set(LIST_HEAD);
  let at = LIST_HEAD.byteLength;
  episodes.forEach((e, i) => {
    if (i > 0) out[at++] = COMMA;
    out.set(e.body, at);
    at += e.body.byteLength;
  });
  out.set(tail, at);
  return out;
}

/** Which rate-limit bucket a path counts against, or null for unlimited surfaces. */
function bucketOf(path: string): Bucket | null {
  if (path === "/v1/openapi.json") return null;
  if (/^\/v1\/episodes\/[^/]+\/audio$/.test(path)) return "audio";
  return "metadata";
}

export async function createHandler(deps: ShimDeps): Promise<Shim> {
  const { index, assets, storage, config } = deps;
  const now = deps.now ?? Date.now;
  const etag = deps.etag ?? etagOf;
  const limiter = new RateLimiter(deps.rateLimitStore, config.rateLimits);
  // In redirect delivery the player's audio comes from the storage's presigned URLs.
  const siteRoutes = createSiteRoutes({ index, assets, now, etag, mediaSources: config.audioDelivery === "redirect" ? ["https:"] : [] });
  const link = licenseLink(index.data.termsUrl);
  const showSlug = index.data.show.slug;

  // The discovery document states the limits in force, which are run-time configuration.
  const discoveryAsset = await assets.get(BUILD_FILES.discovery);
  if (discoveryAsset === null) throw new Error(`build output missing: ${BUILD_FILES.discovery}`);
  const discoveryDoc = JSON.parse(new TextDecoder().decode(discoveryAsset.body)) as Record<string, unknown>;
  discoveryDoc.rateLimits = rateLimitsOf(config.rateLimits);
  const discoveryBody = encoder.encode(JSON.stringify(discoveryDoc));
  const discovery: Asset = { body: discoveryBody, etag: await etag(discoveryBody) };
  /** Composed list pages (bytes and ETag), by what determines them. */
  const pages = new ByteLru<Asset>(LIST_CACHE_BYTES, (a) => a.body.byteLength);

  async function asset(ctx: ResponseContext, req: ShimRequest, path: string, type: string, cache: string): Promise<ShimResponse> {
    let found: Asset | null;
    try {
      found = await assets.get(path);
    } catch {
      return errorResponse(ctx, "upstream_unavailable");
    }
    // The index promised this file; its absence means the deployment is incomplete.
    if (found === null) return errorResponse(ctx, "upstream_unavailable");
    return bodyResponse(req, ctx, found.body, found.etag, type, cache);
  }

  async function list(req: ShimRequest, ctx: ResponseContext, url: URL): Promise<ShimResponse> {
    const parsed = parseListQuery(url.searchParams);
    if (!parsed.ok) return errorResponse(ctx, parsed.code, parsed.parameter);
    const { limit, domain, since, after } = parsed.query;
    const page = index.page(now(), domain, after, since, limit);
    const last = page.items[page.items.length - 1];
    const nextCursor = page.more && last ? encodeCursor({ after: orderKeyOf(last), domain, since }) : null;
    const pagination = JSON.stringify({ nextCursor, limit });
    // The page's bytes are fixed by its episodes and its pagination: compose and hash them once.
    const key = `${pagination}${page.items.map((e) => e.ref).join(",")}`;
    let composed = pages.get(key);
    if (composed === undefined) {
      let bodies: (Asset | null)[];
      try {
        bodies = await Promise.all(page.items.map((e) => assets.get(episodeFile(e.ref, "json"))));
      } catch {
        return errorResponse(ctx, "upstream_unavailable");
      }
      if (bodies.some((b) => b === null)) return errorResponse(ctx, "upstream_unavailable");
      const bytes = listBody(bodies as Asset[], pagination);
      composed = { body: bytes, etag: await etag(bytes) };
      pages.set(key, composed);
    }
    return bodyResponse(req, ctx, composed.body, composed.etag, TYPES.json, CACHE.list);
  }

  async function episodeRoute(req: ShimRequest, ctx: ResponseContext, url: URL, refText: string, part: string | undefined): Promise<ShimResponse> {
    if (part !== undefined && part !== "audio" && part !== "script" && part !== "transcript") return errorResponse(ctx, "not_found");
    const ref = parseRef(refText);
    if (ref === null) return errorResponse(ctx, "invalid_episode_ref", "ref");
    const entry = index.resolve(ref, now());
    if (entry === null) return errorResponse(ctx, "not_found");
    switch (part) {
      case undefined:
        return asset(ctx, req, episodeFile(entry.ref, "json"), TYPES.json, CACHE.resource);
      case "script":
        if (entry.script === "missing") return errorResponse(ctx, "script_unavailable");
        if (entry.script === "unparseable") return errorResponse(ctx, "script_unparseable");
        return asset(ctx, req, episodeFile(entry.ref, "script"), TYPES.json, CACHE.resource);
      case "transcript":
        if (!entry.transcript) return errorResponse(ctx, "transcript_unavailable");
        return asset(ctx, req, episodeFile(entry.ref, "transcript"), TYPES.text, CACHE.resource);
      case "audio":
        return audio(req, ctx, entry, url.searchParams.get("download") === "1" ? "attachment" : "inline");
    }
  }

  async function audio(req: ShimRequest, ctx: ResponseContext, entry: IndexEntry, disposition: "attachment" | "inline"): Promise<ShimResponse> {
    if (entry.audio === null) return errorResponse(ctx, "not_found");
    const ep = { id: entry.id, episodeNumber: entry.n, title: entry.title };
    if (config.audioDelivery === "redirect" && storage.presign) {
      try {
        if ((await storage.head(entry.audio.key)) === null) return errorResponse(ctx, "not_found");
        const h = baseHeaders(ctx);
        h.location = await storage.presign(entry.audio.key, contentDisposition(disposition, showSlug, ep));
        h["cache-control"] = CACHE.noStore;
        return { status: 302, headers: h, body: null };
      } catch {
        return errorResponse(ctx, "upstream_unavailable");
      }
    }
    return audioResponse(req, ctx, storage, {
      key: entry.audio.key,
      etag: entry.audio.etag,
      disposition: contentDisposition(disposition, showSlug, ep),
    });
  }

  async function api(req: ShimRequest, ctx: ResponseContext, url: URL, info: RequestInfo): Promise<ShimResponse> {
    const path = url.pathname;
    const bucket = bucketOf(path);
    if (bucket !== null) {
      const decision = await limiter.check(bucket, info.clientIp, now());
      ctx.extra = decision.headers;
      if (!decision.allowed) return errorResponse(ctx, "rate_limited", undefined, { "Retry-After": String(decision.retryAfter) });
    }
    if (path === "/v1" || path === "/v1/") return bodyResponse(req, ctx, discovery.body, discovery.etag, TYPES.json, CACHE.resource);
    if (path === "/v1/openapi.json") return asset(ctx, req, BUILD_FILES.openapi, TYPES.json, CACHE.resource);
    if (path === "/v1/episodes" || path === "/v1/episodes/") return list(req, ctx, url);
    const m = EPISODE_ROUTE.exec(path);
    if (m) return episodeRoute(req, ctx, url, m[1]!, m[2]);
    return errorResponse(ctx, "not_found");
  }

  /** The direct audioUrl of local storage: Range-capable, gated by the publication clock too. */
  async function media(req: ShimRequest, ctx: ResponseContext, key: string): Promise<ShimResponse> {
    const entry = index.byMediaKey(key, now());
    if (entry === null || entry.audio === null) return errorResponse(ctx, "not_found");
    return audioResponse(req, ctx, storage, { key: entry.audio.key, etag: entry.audio.etag, disposition: null });
  }

  /** Pages and other static outputs; the private prefixes never leave through here. */
  async function site(req: ShimRequest, ctx: ResponseContext, path: string): Promise<ShimResponse> {
    const rel = path.replace(/^\/+/, "");
    if (rel.startsWith("_api/") || rel.split("/").some((s) => s === ".." || s === ".")) return errorResponse(ctx, "not_found");
    const candidates = rel === "" ? ["index.html"] : rel.endsWith("/") ? [`${rel}index.html`] : [rel, `${rel}.html`, `${rel}/index.html`];
    for (const c of candidates) {
      const found = await assets.get(c);
      if (found) return bodyResponse(req, ctx, found.body, found.etag, contentTypeOf(c), CACHE.resource);
    }
    return siteRoutes.notFound(req, ctx);
  }

  function refuse(code: ErrorCode, method: string, path: string | null): ShimResponse {
    const isApi = path !== null && (path === "/v1" || path.startsWith("/v1/"));
    return errorResponse({ method, link: isApi ? link : null, extra: {} }, code);
  }

  async function handle(req: ShimRequest, info: RequestInfo): Promise<ShimResponse> {
    const url = new URL(req.url);
    const path = url.pathname;
    const isApi = path === "/v1" || path.startsWith("/v1/");
    const ctx: ResponseContext = { method: req.method, link: isApi ? link : null, extra: {} };
    if (req.method === "OPTIONS") return preflightResponse(ctx);
    if (req.method !== "GET" && req.method !== "HEAD") return errorResponse(ctx, "method_not_allowed");
    try {
      if (isApi) return await api(req, ctx, url, info);
      if (path.startsWith("/media/")) return await media(req, ctx, path.slice("/media/".length));
      // Pages, player and oEmbed first: they apply the publication clock before any static file.
      const routed = await siteRoutes.route(req, ctx, url);
      if (routed !== null) return routed;
      return await site(req, ctx, path);
    } catch {
      // Never a stack trace or a server path in a response.
      return errorResponse(ctx, "upstream_unavailable");
    }
  }

  return { handle, refuse };
}
