// Absolute URLs of an episode (docs/api.md#get-v1episodesref). One place builds them all.
import { canonicalRef } from "./refs.ts";
import { TIMED_FORMS, type TimedForm } from "./timed.ts";

export interface Origins {
  /** {base_url}: the API host, no trailing slash. */
  baseUrl: string;
  /** {site_url}: the site host, no trailing slash. */
  siteUrl: string;
}

export function pageUrl(o: Origins, ref: string): string {
  return `${o.siteUrl}/episodes/${ref}`;
}

/** An episode page (`links.page`) at a moment: `?t=<seconds>`, where its player starts (docs/api.md#mcp). */
export function momentUrl(page: string, seconds: number): string {
  const url = new URL(page);
  url.searchParams.set("t", String(seconds));
  return url.href;
}

export function oembedUrl(o: Origins, page: string): string {
  return `${o.siteUrl}/oembed?url=${encodeURIComponent(page)}&format=json`;
}

export function episodeLinks(o: Origins, ep: { id: string; episodeNumber: number | null }) {
  const ref = canonicalRef(ep);
  const self = `${o.baseUrl}/v1/episodes/${ref}`;
  const page = pageUrl(o, ref);
  return {
    self,
    audio: `${self}/audio`,
    script: `${self}/script`,
    transcript: `${self}/transcript`,
    page,
    embed: `${o.siteUrl}/embed/${ref}`,
    oembed: oembedUrl(o, page),
  };
}

/** The two feeds of the same items (docs/api.md#feed): RSS for podcast apps, JSON Feed 1.1 for the rest. */
export function feedUrls(siteUrl: string) {
  return { rss: `${siteUrl}/feed.xml`, json: `${siteUrl}/feed.json` };
}

/** The URL of a timed form (src/shared/timed.ts) of the episode whose API URL (`links.self`) is `self`; `{ref}` in a template. */
export function timedFormUrl(self: string, form: TimedForm): string {
  return `${self}/${TIMED_FORMS[form].path}`;
}

export function termsUrl(o: Origins, configured: string | undefined): string {
  return configured ?? `${o.siteUrl}/terms`;
}
