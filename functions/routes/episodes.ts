// The episode routes of the API (docs/api.md#get-v1episodes, #get-v1episodesref, …/script,
// …/transcript): reference lookup under the publication clock, an episode's built bodies and the
// list's pages with their cursors, as typed reads (./api-reads.ts) that the MCP endpoint calls too,
// and the HTTP routes made of them. List pages are cached here, by query string and published set;
// a page not kept is composed into a pooled buffer when the runtime gives buffers back. Portable.
import { encodeCursor } from "../../src/shared/cursor.ts";
import { episodeFile } from "../../src/shared/layout.ts";
import { orderKeyOf } from "../../src/shared/order.ts";
import { PARAMETERS } from "../../src/shared/parameters.ts";
import { parseRef } from "../../src/shared/refs.ts";
import type { IndexEntry } from "../../src/shared/schema/build-index.ts";
import { answerOf, refusal, Refusal, type EpisodePart, type ListPage, type Read } from "./api-reads.ts";
import type { BufferPool, PooledBytes } from "../data/buffer-pool.ts";
import type { EpisodeIndex, Page } from "../data/episode-index.ts";
import { bodyResponse, CACHE, errorResponse, type ResponseContext, type ShimRequest, type ShimResponse } from "../http/response.ts";
import { TYPES } from "../../src/shared/media-types.ts";
import { parseListQuery, type QueryValues } from "./list-query.ts";
import { ByteLru } from "../data/lru.ts";
import { thenOrNow } from "../pending.ts";
import type { Asset, AssetStore, Compress, EtagFunction, ListBodies } from "../ports.ts";
import { composedAsset, type ComposedAsset } from "../http/representations.ts";
import { searchOf, type RouteArgs, type RouteHandler } from "../router.ts";

/**
 * Memory for composed list pages (a full page of 50 episodes is ~80 KB). 4 MiB: a crawler's walk
 * never asks a page twice, so a larger cache would only hold its pages in resident memory; the pages
 * asked again and again (the first ones) stay
 * (docs/performance.md#the-list-walk-a-page-composed-per-request).
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
const encoder = new TextEncoder();

export interface EpisodeRoutesDeps {
  index: EpisodeIndex;
  assets: AssetStore;
  now: () => number;
  etag: EtagFunction;
  compress?: Compress | undefined;
  /** The list's bodies in one file (Node); without it, or where it cannot answer, a page reads its bodies one by one. */
  listBodies?: ListBodies | undefined;
  /**
   * Buffers for list pages composed and not kept, from a runtime that calls each response's
   * `release` once it is written (Node): without it such a page gets a buffer of its own.
   */
  pageBuffers?: BufferPool | undefined;
}

type EpisodeRouteId = "listEpisodes" | "getEpisode" | "getEpisodeScript" | "getEpisodeTranscript";

/** A joined page and the pooled buffer it lives in, if any (given back once the answer is written). */
type JoinedPage = ListPage & { pooled: PooledBytes | null };

const UPSTREAM = refusal("upstream_unavailable");
/** The index promised this body: its absence means the deployment is incomplete. */
const builtOrRefused = (found: Asset | null): Asset | Refusal => found ?? UPSTREAM;

export function createEpisodeRoutes(deps: EpisodeRoutesDeps) {
  const { index, assets, now } = deps;
  /**
   * Composed list pages (bytes and ETag), by query string and published set. The key is counted:
   * a query can be as long as the header budget, and ignored parameters make any number of them.
   */
  const pages = new ByteLru<ComposedAsset>(LIST_CACHE_BYTES, (a, key) => a.bytes + key.length);
  /** Keys of pages composed once and not kept (LIST_SEEN_BYTES). */
  const seen = new ByteLru<true>(LIST_SEEN_BYTES, (_, key) => key.length + 16);

  /** The index position of the published episode behind a reference, or the refusal. */
  function positionOf(refText: string, clock: number): number | Refusal {
    const ref = parseRef(refText);
    if (ref === null) return refusal(PARAMETERS.ref.error, PARAMETERS.ref.name);
    const at = index.resolvePosition(ref, clock);
    return at < 0 ? refusal("not_found") : at;
  }

  function episode(refText: string, clock: number): IndexEntry | Refusal {
    const at = positionOf(refText, clock);
    return at instanceof Refusal ? at : index.entryAt(at);
  }

  /** The episode's built body of `part`; the entry is read by position, never made whole (the route's hot path). */
  function body(refText: string, part: EpisodePart, clock: number): Read<Asset> {
    const at = positionOf(refText, clock);
    if (at instanceof Refusal) return at;
    const script = part === "script" ? index.scriptAt(at) : "ok";
    if (script !== "ok") return refusal(script === "missing" ? "script_unavailable" : "script_unparseable");
    if (part === "transcript" && !index.transcriptAt(at)) return refusal("transcript_unavailable");
    return thenOrNow(assets.get(episodeFile(index.refAt(at), part)), builtOrRefused);
  }

  /**
   * A page of the list: its query parsed (the list route's 400s), found in the index at `clock`
   * and joined from its episodes' built bodies. With `pooled`, into a buffer of the runtime's pool
   * when it has one (the caller gives it back); else into a buffer of its own.
   */
  async function joinPage(query: QueryValues, clock: number, pooled: boolean): Promise<JoinedPage | Refusal> {
    const parsed = parseListQuery(query);
    if (!parsed.ok) return refusal(parsed.code, parsed.parameter);
    const { limit, domain, since, after } = parsed.query;
    const page = index.page(clock, domain, after, since, limit);
    const last = page.items[page.items.length - 1];
    const nextCursor = page.more && last ? encodeCursor({ after: orderKeyOf(last), domain, since }) : null;
    const pagination = JSON.stringify({ nextCursor, limit });
    const lease: { pooled: PooledBytes | null } = { pooled: null };
    const alloc: Alloc = (size) => {
      // A second allocation follows a read from the list file that failed: its buffer is free again.
      lease.pooled?.release();
      if (pooled) lease.pooled = deps.pageBuffers?.take(size) ?? null;
      return lease.pooled?.bytes ?? new Uint8Array(size);
    };
    const joined = fromListFile(page, pagination, alloc) ?? (await bodyByBody(page.items, pagination, alloc));
    // The index promised these files; an absent one means the deployment is incomplete.
    if (joined === null) {
      lease.pooled?.release();
      return UPSTREAM;
    }
    return { bytes: joined.bytes, etags: joined.etags, pagination, pooled: lease.pooled };
  }

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
   * A list page not in the cache: joined, and kept under `key` when it was asked before
   * (LIST_SEEN_BYTES); a page not kept goes into a pooled buffer when the runtime gives them back.
   */
  async function composePage(req: ShimRequest, ctx: ResponseContext, at: RouteArgs, clock: number, key: string): Promise<ShimResponse> {
    const keep = seen.get(key) !== undefined;
    const joined = await joinPage(at.url.searchParams, clock, !keep);
    if (joined instanceof Refusal) return errorResponse(ctx, joined.code, joined.parameter);
    if (!keep) seen.set(key, true);
    const { bytes, etags, pagination, pooled } = joined;
    // Its strong tag hashes what fixes its bytes, the pagination and each body's own strong tag,
    // rather than the bytes: far less to hash at each composition, which a crawler's walk pays on
    // every page (docs/performance.md#caches-and-etags).
    const tagOfPage: EtagFunction = () => deps.etag(encoder.encode(`${pagination}\n${etags.join("\n")}`));
    // Its compressed variants are made once, when a request first negotiates each coding
    // (docs/api.md#compression); the cache then counts them (set again with the new size).
    const made: ComposedAsset = await composedAsset(bytes, tagOfPage, deps.compress, () => keep && pages.set(key, made));
    if (keep) pages.set(key, made);
    const answer = await bodyResponse(req, ctx, made.body, made.etag, TYPES.json, CACHE.list);
    // Its buffer is taken back once the answer is written, whether it carries the page, a
    // compressed variant of it (made before this point) or nothing (304, HEAD).
    if (pooled !== null) answer.release = pooled.release;
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

  /** The HTTP route of an episode's part: the read, answered with its body or its error. */
  const partRoute = (part: EpisodePart, type: string): RouteHandler => (req, ctx, at) => answerOf(req, ctx, body(at.params.ref!, part, now()), type, CACHE.resource);

  const routes: Record<EpisodeRouteId, RouteHandler> = {
    listEpisodes: list,
    getEpisode: partRoute("json", TYPES.json),
    getEpisodeScript: partRoute("script", TYPES.json),
    getEpisodeTranscript: partRoute("transcript", TYPES.text),
  };
  /** The list page for MCP: never cached (no query string names it) and in a buffer of its own. */
  const page = (query: QueryValues, clock: number): Promise<ListPage | Refusal> => joinPage(query, clock, false);
  return { routes, episode, body, page };
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
