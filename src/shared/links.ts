// Absolute URLs: every route's (`urlOf`, from the route table) and an episode's links
// (docs/api.md#get-v1episodesref). One place builds them all.
import { canonicalRef } from "./refs.ts";
import { pathOf, ROUTES, type PathParams, type RouteId } from "./routes.ts";
import { TIMED_FORMS, type TimedForm } from "./timed.ts";

export interface Origins {
  /** {base_url}: the API host, no trailing slash. */
  baseUrl: string;
  /** {site_url}: the site host, no trailing slash. */
  siteUrl: string;
}

/** The absolute URL of a route: API routes under {base_url}, the site's under {site_url}. */
export function urlOf(o: Origins, route: RouteId, params?: PathParams): string {
  return `${ROUTES[route].api ? o.baseUrl : o.siteUrl}${pathOf(route, params)}`;
}

export function pageUrl(o: Origins, ref: string): string {
  return urlOf(o, "episodePage", { ref });
}

export function oembedUrl(o: Origins, page: string): string {
  return `${urlOf(o, "oembed")}?url=${encodeURIComponent(page)}&format=json`;
}

export function episodeLinks(o: Origins, ep: { id: string; episodeNumber: number | null }) {
  const ref = canonicalRef(ep);
  const page = pageUrl(o, ref);
  return {
    self: urlOf(o, "getEpisode", { ref }),
    audio: urlOf(o, "getEpisodeAudio", { ref }),
    script: urlOf(o, "getEpisodeScript", { ref }),
    transcript: urlOf(o, "getEpisodeTranscript", { ref }),
    page,
    embed: urlOf(o, "embed", { ref }),
    oembed: oembedUrl(o, page),
  };
}

/** The two feeds of the same items (docs/api.md#feed): RSS for podcast apps, JSON Feed 1.1 for the rest. */
export function feedUrls(siteUrl: string) {
  return { rss: `${siteUrl}${pathOf("feed")}`, json: `${siteUrl}${pathOf("jsonFeed")}` };
}

/** The URL of a timed form (src/shared/timed.ts) of the episode whose API URL (`links.self`) is `self`; `{ref}` in a template. */
export function timedFormUrl(self: string, form: TimedForm): string {
  return `${self}/${TIMED_FORMS[form].path}`;
}

export function termsUrl(o: Origins, configured: string | undefined): string {
  return configured ?? urlOf(o, "terms");
}
