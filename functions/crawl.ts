// The surfaces crawlers and language models read first (docs/api.md#crawlers): /robots.txt,
// /sitemap.xml and /llms.txt. The sitemap passes the publication clock (it is composed per set of
// published episodes); robots.txt and llms.txt depend only on the show and the origins. Portable.
import { archivePageCount, archivePath } from "../src/shared/archive.ts";
import { feedUrls, pageUrl, timedFormUrl, type Origins } from "../src/shared/links.ts";
import type { IndexEntry } from "../src/shared/schema/build-index.ts";
import type { Podcast } from "../src/shared/schema/content.ts";
import { element, textElement, xmlDocument } from "../src/shared/xml.ts";

/** The public URLs of the surfaces these files point to: one place, so they cannot disagree. */
export function surfaceUrls(o: Origins) {
  return {
    feed: feedUrls(o.siteUrl).rss,
    jsonFeed: feedUrls(o.siteUrl).json,
    sitemap: `${o.siteUrl}/sitemap.xml`,
    llms: `${o.siteUrl}/llms.txt`,
    mcp: `${o.baseUrl}/mcp`,
  };
}

/** Allow everything, and name the sitemap. */
export function robotsTxt(o: Origins): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${surfaceUrls(o).sitemap}\n`;
}

/** YYYY-MM-DD in UTC, the W3C date form sitemaps take. */
function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** sitemaps.org urlset: home, every archive page, every published episode page (`published` newest first). */
export function sitemapXml(o: Origins, published: readonly IndexEntry[]): string {
  const newest = published[0];
  const url = (loc: string, lastmod?: number) =>
    element("url", {}, [textElement("loc", loc), lastmod === undefined ? null : textElement("lastmod", day(lastmod))]);
  const pages = Array.from({ length: archivePageCount(published.length) }, (_, i) => url(`${o.siteUrl}${archivePath(i + 1)}`));
  return xmlDocument(
    element("urlset", { xmlns: "http://www.sitemaps.org/schemas/sitemap/0.9" }, [
      url(`${o.siteUrl}/`, newest?.p),
      ...pages,
      ...published.map((e) => url(pageUrl(o, e.ref), e.p)),
    ]),
  );
}

/** One line of prose: markdown headings and quotes end at a line break. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * llms.txt (llmstxt.org): the show's title and summary, then markdown link lists of every
 * machine-readable surface. `feedLimit` is stated, so a reader knows the feed is not the archive.
 */
export function llmsTxt(show: Podcast, o: Origins, terms: string, feedLimit: number): string {
  const u = surfaceUrls(o);
  const api = `${o.baseUrl}/v1`;
  return [
    `# ${oneLine(show.title)}`,
    "",
    `> ${oneLine(show.description)}`,
    "",
    `Everything below is public and read-only; the API is JSON over HTTP with CORS, and each published episode has metadata, MP3 audio, a structured script and a plain-text transcript.`,
    "",
    "## API",
    "",
    `- [Discovery document](${api}): the URL of every surface, the rate limits in force and the page sizes (JSON)`,
    `- [OpenAPI description](${api}/openapi.json): OpenAPI 3.1 of every route, its parameters, errors and response schemas`,
    `- [Episode list](${api}/episodes): published episodes, newest first, in pages (\`limit\`, \`cursor\`, \`domain\`, \`since\`)`,
    `- [Episode transcript](${api}/episodes/{ref}/transcript): plain text, one \`Speaker: text\` line per turn; \`{ref}\` is an episode number or UUID`,
    `- [Timed transcript, WebVTT](${timedFormUrl(`${api}/episodes/{ref}`, "vtt")}): one cue per turn with its start and end, the speaker in a voice span; also [SubRip](${timedFormUrl(`${api}/episodes/{ref}`, "srt")}) and [Podcasting 2.0 JSON](${timedFormUrl(`${api}/episodes/{ref}`, "json")}), for episodes whose script is timed`,
    `- [Chapters](${timedFormUrl(`${api}/episodes/{ref}`, "chapters")}): Podcasting 2.0 JSON chapters with their start and end times, for episodes whose chapters are timed`,
    "",
    "## MCP",
    "",
    `- [MCP endpoint](${u.mcp}): Model Context Protocol over streamable HTTP (stateless). Tools: list_episodes, search_episodes (a result found in a timed transcript gives the moment: start, speaker, text and the page URL at that second), get_episode, get_script, get_transcript (optionally a start/end window in seconds). Resource templates at the API URLs of each episode, its script, its transcripts (plain, WebVTT, SubRip, JSON) and its chapters`,
    "",
    "## Feeds and pages",
    "",
    `- [Podcast feed](${u.feed}): RSS 2.0 with iTunes and Podcasting 2.0 tags, the newest ${feedLimit} episodes with audio and transcript links`,
    `- [JSON Feed](${u.jsonFeed}): the same episodes as JSON Feed 1.1, each with its page, its description and its audio`,
    `- [Archive](${o.siteUrl}${archivePath(1)}): every published episode, newest first`,
    `- [Sitemap](${u.sitemap}): every page of the site`,
    "",
    "## Terms",
    "",
    `- [Usage terms](${terms}): what the content may be used for`,
    "",
  ].join("\n");
}
