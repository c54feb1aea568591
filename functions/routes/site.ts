// The site's routes in the shim: home, the archive, episode pages, the player, oEmbed and the usage terms.
// Everything here passes the publication clock: a scheduled episode's page, player and oEmbed
// answer 404 until its time, without a rebuild, and its prebuilt files are never served by path.
// The player's CSP (frame-ancestors *, scripts from this origin only) is set here, since a static
// build cannot carry headers. Portable: no Node or Workers imports.
import { HEADER } from "../../src/shared/headers.ts";
import { ACCENT_PATTERN, paletteOf } from "../../src/shared/accent.ts";
import { ARCHIVE_PAGE_SIZE, archivePageCount } from "../../src/shared/archive.ts";
import { ARCHIVE_HEAD_MARKER, ARCHIVE_MARKER, ARCHIVE_TITLE, archiveParts, HOME_LIMIT, HOME_MARKER, homeList } from "../../src/shared/home.ts";
import { escapeHtml } from "../../src/shared/html.ts";
import { episodeLinks, oembedUrl, urlOf } from "../../src/shared/links.ts";
import { momentOf, momentParam, urlAt } from "../../src/shared/moment.ts";
import { factsOf, oembedOf, pageMomentOf, pageRefOf, parseOembedQuery, type OembedBody } from "../../src/shared/oembed.ts";
import { parseRef } from "../../src/shared/refs.ts";
import type { EpisodeResource } from "../../src/shared/schema/api.ts";
import { episodeFile, SITE_FILES } from "../../src/shared/layout.ts";
import type { IndexEntry } from "../../src/shared/schema/build-index.ts";
import { contentTypeOf, MEDIA, TYPES } from "../../src/shared/media-types.ts";
import type { EpisodeIndex } from "../data/episode-index.ts";
import { baseHeaders, bodyResponse, CACHE, errorResponse, withHeaders, type ResponseContext, type ShimRequest, type ShimResponse } from "../http/response.ts";
import { ByteLru } from "../data/lru.ts";
import type { Asset, AssetStore, Compress, EtagFunction } from "../ports.ts";
import { perPublishedSet } from "../data/published-set.ts";
import { composedAsset, type ComposedAsset } from "../http/representations.ts";
import type { RouteArgs, RouteHandler } from "../router.ts";

/** Hashed file names under /_astro/ never change content: cache them for a year. */
const IMMUTABLE = "public, max-age=31536000, immutable";

export interface SiteRoutesDeps {
  index: EpisodeIndex;
  assets: AssetStore;
  now: () => number;
  etag: EtagFunction;
  /** Compresses composed pages once (Node); absent where the runtime encodes. */
  compress?: Compress | undefined;
  /** Further sources the player's audio may come from (redirect delivery: the storage's presigned URLs). */
  mediaSources?: string[];
}

type SiteRouteId = "home" | "archive" | "terms" | "oembed" | "buildAsset" | "embedLatest" | "embed" | "embedNotFound" | "episodePage" | "episodesNotFound";

export interface SiteRoutes {
  /** The handlers of the site's routes in the route table (src/shared/routes.ts). */
  routes: Record<SiteRouteId, RouteHandler>;
  /** The styled 404 page. */
  notFound(req: ShimRequest, ctx: ResponseContext): Promise<ShimResponse>;
}

function originOf(u: string): string | null {
  try {
    return new URL(u).origin;
  } catch {
    return null;
  }
}

/** The Content-Security-Policy values of the player and of the other pages. */
export function contentSecurityPolicies(siteUrl: string, baseUrl: string, mediaSources: string[] = []): { player: string; page: string } {
  const ownList = ["'self'", originOf(siteUrl), originOf(baseUrl)].filter((o): o is string => o !== null);
  const own = [...new Set(ownList)].join(" ");
  const media = [...new Set([...ownList, ...mediaSources])].join(" ");
  const common = `default-src 'none'; style-src 'self'; img-src 'self' data:; media-src ${media}; base-uri 'none'; form-action 'none'`;
  return {
    player: `${common}; script-src 'self'; frame-ancestors *`,
    page: `${common}; script-src 'self'; frame-src ${own}; frame-ancestors 'self'`,
  };
}

/** Bytes of composed archive pages kept (about 40 KB a page of 50). */
const ARCHIVE_CACHE_BYTES = 4 * 1024 * 1024;
/** An archive page number as its links write it: no sign, no leading zero, at most 9 digits. */
const PAGE_NUMBER = /^[1-9][0-9]{0,8}$/;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * `body` with the first occurrence of `from` (ASCII markup) replaced by `to`, without decoding the
 * rest: a page with a long transcript is hundreds of kilobytes, and the markup replaced sits in its
 * first few; decoding and encoding it all cost far more (docs/performance.md#a-page-at-a-moment-splice-the-bytes).
 */
function spliceFirst(body: Uint8Array, from: string, to: string): Uint8Array {
  const needle = encoder.encode(from);
  for (let i = body.indexOf(needle[0]!); i !== -1 && i + needle.length <= body.length; i = body.indexOf(needle[0]!, i + 1)) {
    let j = 1;
    while (j < needle.length && body[i + j] === needle[j]) j++;
    if (j < needle.length) continue;
    const replacement = encoder.encode(to);
    const out = new Uint8Array(body.length - needle.length + replacement.length);
    out.set(body.subarray(0, i));
    out.set(replacement, i);
    out.set(body.subarray(i + needle.length), i + replacement.length);
    return out;
  }
  return body;
}

export function createSiteRoutes(deps: SiteRoutesDeps): SiteRoutes {
  const { index, assets, now, etag } = deps;
  const { siteUrl, baseUrl } = index.data;
  const csp = contentSecurityPolicies(siteUrl, baseUrl, deps.mediaSources);
  const origins = { siteUrl, baseUrl };
  /**
   * Archive pages, keyed by page number and how many episodes are published: published episodes
   * are a suffix of the index's list order, so that count names the set a page is cut from.
   */
  const archiveCache = new ByteLru<ComposedAsset>(ARCHIVE_CACHE_BYTES, (p) => p.bytes);

  async function load(path: string): Promise<Asset> {
    const found = await assets.get(path);
    // The index promised this file; its absence means the deployment is incomplete.
    if (found === null) throw new Error("build output missing");
    return found;
  }

  async function html404(req: ShimRequest, base: ResponseContext, file: string, policy: string): Promise<ShimResponse> {
    const ctx = withHeaders(base, { [HEADER.contentSecurityPolicy]: policy });
    const found = await assets.get(file);
    if (found === null) return errorResponse(ctx, "not_found");
    const h = baseHeaders(ctx);
    h[HEADER.contentType] = TYPES.html;
    h[HEADER.contentLength] = String(found.body.byteLength);
    h[HEADER.cacheControl] = CACHE.error;
    return { status: 404, headers: h, body: ctx.method === "HEAD" ? null : found.body };
  }

  function notFound(req: ShimRequest, ctx: ResponseContext): Promise<ShimResponse> {
    return html404(req, ctx, SITE_FILES.notFound, csp.page);
  }

  function resolve(segment: string): IndexEntry | null {
    const ref = parseRef(segment);
    return ref === null ? null : index.resolve(ref, now());
  }

  async function page(req: ShimRequest, ctx: ResponseContext, file: string, cache: string): Promise<ShimResponse> {
    const found = await load(file);
    return bodyResponse(req, withHeaders(ctx, { [HEADER.contentSecurityPolicy]: csp.page }), found.body, found.etag, TYPES.html, cache);
  }

  /** The API bodies of the episodes a list shows, in its order. */
  async function resources(items: IndexEntry[]): Promise<EpisodeResource[]> {
    const bodies = await Promise.all(items.map((e) => load(episodeFile(e.ref, "json"))));
    return bodies.map((b) => JSON.parse(decoder.decode(b.body)) as EpisodeResource);
  }

  async function composed(file: string, fill: (template: string) => string): Promise<ComposedAsset> {
    const template = await load(file);
    // Hashed and compressed once, kept with the page (functions/http/representations.ts).
    return composedAsset(fill(decoder.decode(template.body)), etag, deps.compress);
  }

  /** The home page, composed once per set of published episodes (./published-set.ts). */
  const homePage = perPublishedSet(index, now, async (at) => {
    const episodes = await resources(index.page(at, null, null, null, HOME_LIMIT).items);
    return composed(SITE_FILES.home, (t) => t.replace(HOME_MARKER, homeList(episodes)));
  });

  async function home(req: ShimRequest, ctx: ResponseContext): Promise<ShimResponse> {
    const page = await homePage();
    return bodyResponse(req, withHeaders(ctx, { [HEADER.contentSecurityPolicy]: csp.page }), page.body, page.etag, TYPES.html, CACHE.list);
  }

  /** Archive page `?page=N` (1 when absent): the styled 404 past the last page or for anything but a plain positive number. */
  async function archive(req: ShimRequest, ctx: ResponseContext, at: RouteArgs): Promise<ShimResponse> {
    const raw = at.url.searchParams.get("page");
    const n = raw === null ? 1 : PAGE_NUMBER.test(raw) ? Number(raw) : 0;
    const time = now();
    const published = index.published(time, 0, 0).total;
    const pages = archivePageCount(published);
    if (n < 1 || n > pages) return notFound(req, ctx);
    const key = `${published}:${n}`;
    let cached = archiveCache.get(key);
    if (cached === undefined) {
      const { items } = index.published(time, (n - 1) * ARCHIVE_PAGE_SIZE, ARCHIVE_PAGE_SIZE);
      const parts = archiveParts(await resources(items), n, pages, siteUrl);
      cached = await composed(SITE_FILES.archive, (t) =>
        t
          .replace(`<title>${ARCHIVE_TITLE}`, `<title>${escapeHtml(parts.title)}`)
          .replace(ARCHIVE_HEAD_MARKER, parts.head)
          .replace(ARCHIVE_MARKER, parts.main),
      );
      archiveCache.set(key, cached);
    }
    return bodyResponse(req, withHeaders(ctx, { [HEADER.contentSecurityPolicy]: csp.page }), cached.body, cached.etag, TYPES.html, CACHE.list);
  }

  async function player(req: ShimRequest, base: ResponseContext, url: URL, entry: IndexEntry | null, cache: string): Promise<ShimResponse> {
    if (entry === null) return html404(req, base, SITE_FILES.embedNotFound, csp.player);
    const ctx = withHeaders(base, { [HEADER.contentSecurityPolicy]: csp.player });
    const found = await load(SITE_FILES.embed(entry.ref));
    // theme=dark (an exact match) and accent=RRGGBB are applied here, so the dark player needs no
    // script and never flashes light, and the script carries no contrast math: the accent's palette
    // (src/shared/accent.ts) goes in data attributes, which the script sets as custom properties.
    // Anything else is the prebuilt light player with the default accent.
    const theme = url.searchParams.get("theme") === "dark" ? "dark" : "light";
    const accent = url.searchParams.get("accent");
    const palette = accent !== null && ACCENT_PATTERN.test(accent) ? paletteOf(accent, theme) : null;
    if (theme === "light" && palette === null) return bodyResponse(req, ctx, found.body, found.etag, TYPES.html, cache);
    const attributes = `data-theme="${theme}"${palette === null ? "" : ` data-accent="${palette.accent}" data-on-accent="${palette.onAccent}"`}`;
    const body = encoder.encode(decoder.decode(found.body).replace('data-theme="light"', attributes));
    const variant = `${theme === "dark" ? "-dark" : ""}${palette === null ? "" : `-${accent!.toLowerCase()}`}`;
    return bodyResponse(req, ctx, body, `${found.etag.slice(0, -1)}${variant}"`, TYPES.html, cache);
  }

  async function oembed(req: ShimRequest, ctx: ResponseContext, url: URL): Promise<ShimResponse> {
    const query = parseOembedQuery(url.searchParams);
    if (!query.ok) return query.problem === "missing_url" ? errorResponse(ctx, "url_required", "url") : errorResponse(ctx, "format_not_implemented", "format");
    const segment = pageRefOf(query.url, siteUrl);
    const entry = segment === null ? null : resolve(segment);
    if (entry === null) return errorResponse(ctx, "not_found");
    const found = await load(SITE_FILES.oembed(entry.ref));
    const { maxwidth, maxheight } = query.size;
    // A page URL at a moment (?t= or #t=) embeds the player starting there.
    const moment = pageMomentOf(query.url);
    if (maxwidth === null && maxheight === null && moment === null) return bodyResponse(req, ctx, found.body, found.etag, TYPES.json, CACHE.resource);
    const base = JSON.parse(decoder.decode(found.body)) as OembedBody;
    const embed = urlAt(urlOf(origins, "embed", { ref: entry.ref }), moment);
    const body = encoder.encode(JSON.stringify(oembedOf(factsOf(base, embed), query.size)));
    return bodyResponse(req, ctx, body, await etag(body), TYPES.json, CACHE.resource);
  }

  async function buildAsset(req: ShimRequest, ctx: ResponseContext, at: RouteArgs): Promise<ShimResponse> {
    const path = at.url.pathname.slice(1);
    const found = await assets.get(path);
    return found === null ? notFound(req, ctx) : bodyResponse(req, ctx, found.body, found.etag, contentTypeOf(path), IMMUTABLE);
  }

  /**
   * An episode page; with a valid `?t=` (src/shared/moment.ts) its player starts at that moment and
   * its oEmbed discovery link names the page at that moment: a time link works without the page's
   * script, and an oEmbed consumer given such a URL embeds the player starting there.
   */
  async function episodePage(req: ShimRequest, ctx: ResponseContext, at: RouteArgs): Promise<ShimResponse> {
    const entry = resolve(at.params.ref!);
    if (entry === null) return notFound(req, ctx);
    const moment = momentOf(at.url);
    if (moment === null) return page(req, ctx, SITE_FILES.page(entry.ref), CACHE.resource);
    const found = await load(SITE_FILES.page(entry.ref));
    const links = episodeLinks(origins, { id: entry.id, episodeNumber: entry.n });
    const attribute = (name: string, url: string) => `${name}="${escapeHtml(url)}"`;
    let body = spliceFirst(found.body, attribute("<iframe src", links.embed), attribute("<iframe src", urlAt(links.embed, moment)));
    const discovery = `type="${MEDIA.oembed}" href`;
    body = spliceFirst(body, attribute(discovery, links.oembed), attribute(discovery, oembedUrl(origins, urlAt(links.page, moment))));
    const tag = `${found.etag.slice(0, -1)}-t${momentParam(moment)}"`;
    return bodyResponse(req, withHeaders(ctx, { [HEADER.contentSecurityPolicy]: csp.page }), body, tag, TYPES.html, CACHE.resource);
  }

  const routes: SiteRoutes["routes"] = {
    home: (req, ctx) => home(req, ctx),
    archive,
    terms: (req, ctx) => page(req, ctx, SITE_FILES.terms, CACHE.resource),
    oembed: (req, ctx, at) => oembed(req, ctx, at.url),
    buildAsset,
    embedLatest: (req, ctx, at) => player(req, ctx, at.url, index.latest(now()), CACHE.list),
    embed: (req, ctx, at) => player(req, ctx, at.url, resolve(at.params.ref!), CACHE.resource),
    embedNotFound: (req, ctx) => html404(req, ctx, SITE_FILES.embedNotFound, csp.player),
    episodePage,
    // Every other path under /episodes/ (files by raw name included) is not a page.
    episodesNotFound: (req, ctx) => notFound(req, ctx),
  };

  return { routes, notFound };
}
