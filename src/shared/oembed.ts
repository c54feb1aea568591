// oEmbed 1.0 (https://oembed.com) for episode pages (docs/api.md#get-oembed): the response
// body, the iframe markup WordPress keeps, the query rules and which URLs are episode pages.
// Pure: the build renders the default body of every episode, the shim derives the maxwidth,
// maxheight and start-time variants from it at request time.
import { escapeHtml } from "./html.ts";
import { momentOf, type Moment } from "./moment.ts";
import { pathOf } from "./routes.ts";

export const PLAYER_HEIGHT = 180;
export const PLAYER_MIN_WIDTH = 250;
/** Width of the iframe when the consumer states no maxwidth. */
export const OEMBED_DEFAULT_WIDTH = 600;
/** The player is fluid; past this width it only gains empty space. */
export const OEMBED_MAX_WIDTH = 1200;
/** Seconds a consumer may cache a response (content may be corrected, so not days). */
export const OEMBED_CACHE_AGE = 3600;
/**
 * Covers carry no dimensions in the content; podcast directories require square covers of at
 * least 1400 px, so that is the thumbnail size stated (the aspect ratio is what consumers use).
 */
export const COVER_SIZE = 1400;

/** Everything an oEmbed response says about one episode. */
export interface OembedFacts {
  title: string;
  embedUrl: string;
  providerName: string;
  providerUrl: string;
  authorName: string;
  authorUrl: string;
  coverUrl: string | null;
}

interface OembedCommon {
  version: "1.0";
  title: string;
  provider_name: string;
  provider_url: string;
  author_name: string;
  author_url: string;
  cache_age: number;
  thumbnail_url?: string;
  thumbnail_width?: number;
  thumbnail_height?: number;
}

export interface OembedRich extends OembedCommon {
  type: "rich";
  html: string;
  width: number;
  height: number;
}

export interface OembedLink extends OembedCommon {
  type: "link";
}

export type OembedBody = OembedRich | OembedLink;

export interface OembedSize {
  maxwidth: number | null;
  maxheight: number | null;
}

/** The iframe of the player with only the attributes WordPress keeps for unknown providers. */
export function playerIframe(embedUrl: string, title: string, width: number): string {
  return `<iframe src="${escapeHtml(embedUrl)}" width="${width}" height="${PLAYER_HEIGHT}" frameborder="0" title="${escapeHtml(`Audio player: ${title}`)}"></iframe>`;
}

/**
 * The response for a consumer's size limits: `rich` with the player when it fits (width honours
 * maxwidth down to the player's minimum), else `link`, which still credits and links the episode.
 */
export function oembedOf(f: OembedFacts, size: OembedSize = { maxwidth: null, maxheight: null }): OembedBody {
  const common: Omit<OembedCommon, "version"> = {
    title: f.title,
    provider_name: f.providerName,
    provider_url: f.providerUrl,
    author_name: f.authorName,
    author_url: f.authorUrl,
    cache_age: OEMBED_CACHE_AGE,
    ...(f.coverUrl === null ? {} : { thumbnail_url: f.coverUrl, thumbnail_width: COVER_SIZE, thumbnail_height: COVER_SIZE }),
  };
  const { maxwidth, maxheight } = size;
  if ((maxwidth !== null && maxwidth < PLAYER_MIN_WIDTH) || (maxheight !== null && maxheight < PLAYER_HEIGHT)) {
    return { version: "1.0", type: "link", ...common };
  }
  const width = maxwidth === null ? OEMBED_DEFAULT_WIDTH : Math.min(maxwidth, OEMBED_MAX_WIDTH);
  return { version: "1.0", type: "rich", ...common, html: playerIframe(f.embedUrl, f.title, width), width, height: PLAYER_HEIGHT };
}

/** Facts recovered from a default body the build rendered (the shim's starting point). */
export function factsOf(body: OembedBody, embedUrl: string): OembedFacts {
  return {
    title: body.title,
    embedUrl,
    providerName: body.provider_name,
    providerUrl: body.provider_url,
    authorName: body.author_name,
    authorUrl: body.author_url,
    coverUrl: body.thumbnail_url ?? null,
  };
}

export type OembedQuery =
  | { ok: true; url: string; size: OembedSize }
  | { ok: false; problem: "missing_url" | "unsupported_format" };

/** A positive whole number of pixels, else null (unreadable limits are ignored, as most providers do). */
function pixels(raw: string | null): number | null {
  if (raw === null || !/^[0-9]{1,6}$/.test(raw.trim())) return null;
  return Number(raw.trim());
}

/** `url` is required (400); `format`, when present, must be `json` (501); unknown parameters are ignored. */
export function parseOembedQuery(params: URLSearchParams): OembedQuery {
  const url = params.get("url");
  if (url === null || url.trim() === "") return { ok: false, problem: "missing_url" };
  const format = params.get("format");
  if (format !== null && format !== "json") return { ok: false, problem: "unsupported_format" };
  return { ok: true, url: url.trim(), size: { maxwidth: pixels(params.get("maxwidth")), maxheight: pixels(params.get("maxheight")) } };
}

/** An episode page's path up to its reference (`/episodes/`), from the route table. */
const PAGE_PREFIX = pathOf("episodePage").replace("{ref}", "");

/**
 * The episode reference in an episode page URL of this site (`{site_url}/episodes/<ref>`, a query
 * or fragment tolerated), or null when the URL is not such a page. The reference is not yet
 * validated or resolved.
 */
export function pageRefOf(pageUrl: string, siteUrl: string): string | null {
  let u: URL;
  let site: URL;
  try {
    u = new URL(pageUrl);
    site = new URL(siteUrl);
  } catch {
    return null;
  }
  if (u.origin !== site.origin || u.username !== "" || u.password !== "") return null;
  const prefix = `${site.pathname.replace(/\/+$/, "")}${PAGE_PREFIX}`;
  if (!u.pathname.startsWith(prefix)) return null;
  const ref = u.pathname.slice(prefix.length).replace(/\/$/, "");
  return ref === "" || ref.includes("/") ? null : ref;
}

/** The moment an episode page URL names, `?t=` or `#t=` (src/shared/moment.ts), or null: none, or not a valid one. */
export function pageMomentOf(pageUrl: string): Moment | null {
  return URL.canParse(pageUrl) ? momentOf(new URL(pageUrl)) : null;
}

