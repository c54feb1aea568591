// The site's lists of episodes: the home page's newest and the archive's pages. The pages around
// them are built by Astro (src/pages/index.astro with HOME_MARKER, src/pages/[api]/archive.astro
// with the ARCHIVE markers); the lists are filled in at request time from the published episodes'
// bodies (functions/routes/site.ts), so a scheduled episode appears at its time without a rebuild
// and never before. One way to render an episode in a list: `episodeItem`.
import type { EpisodeResource } from "./schema/api.ts";
import { archivePath } from "./archive.ts";
import { escapeHtml } from "./html.ts";
import { isoDate, longDate, shortDuration } from "./duration.ts";

export const HOME_MARKER = "<!--episodes-->";
/** How many of the newest episodes the home page lists. */
export const HOME_LIMIT = 30;

/** Where the archive page's list and pager go, and its canonical and prev/next links in the head. */
export const ARCHIVE_MARKER = "<!--archive-->";
export const ARCHIVE_HEAD_MARKER = "<!--archive-head-->";
export const ARCHIVE_TITLE = "All episodes";

type ListedEpisode = Pick<EpisodeResource, "title" | "episodeNumber" | "publishedAt" | "durationSeconds" | "summary" | "links">;

/** One episode in a list; `level` keeps the page's heading order (h3 under the home's h2, h2 in the archive). */
export function episodeItem(ep: ListedEpisode, level: 2 | 3 = 3): string {
  const meta: string[] = [];
  if (ep.episodeNumber !== null) meta.push(`<span class="ep-n">Episode ${ep.episodeNumber}</span>`);
  if (ep.publishedAt) meta.push(`<time datetime="${isoDate(ep.publishedAt)}">${longDate(ep.publishedAt)}</time>`);
  if (typeof ep.durationSeconds === "number") meta.push(shortDuration(ep.durationSeconds));
  const summary = ep.summary ? `<p class="sum">${escapeHtml(ep.summary)}</p>` : "";
  const heading = `<h${level}><a href="${escapeHtml(ep.links.page)}" dir="auto">${escapeHtml(ep.title)}</a></h${level}>`;
  return `<li><p class="meta">${meta.join(" · ")}</p>${heading}${summary}</li>`;
}

export function homeList(episodes: ListedEpisode[], level: 2 | 3 = 3): string {
  if (episodes.length === 0) return `<p class="empty">No episodes yet. Come back soon.</p>`;
  return `<ul class="episodes">${episodes.map((e) => episodeItem(e, level)).join("")}</ul>`;
}

/** The filled-in parts of archive page `page` of `pages` (1-based), for the site at `siteUrl`. */
export function archiveParts(episodes: ListedEpisode[], page: number, pages: number, siteUrl: string): { head: string; main: string; title: string } {
  const url = (n: number) => escapeHtml(`${siteUrl}${archivePath(n)}`);
  const prev = page > 1 ? url(page - 1) : null;
  const next = page < pages ? url(page + 1) : null;
  const head = [`<link rel="canonical" href="${url(page)}">`, prev && `<link rel="prev" href="${prev}">`, next && `<link rel="next" href="${next}">`].filter(Boolean).join("");
  const pager =
    `<nav class="pager" aria-label="Archive pages">` +
    (prev ? `<a rel="prev" href="${prev}">← Newer episodes</a>` : "") +
    `<span class="page-of" aria-current="page">Page ${page} of ${pages}</span>` +
    (next ? `<a rel="next" href="${next}">Older episodes →</a>` : "") +
    `</nav>`;
  const top = `<p class="meta">Page ${page} of ${pages}</p>`;
  return { head, main: top + homeList(episodes, 2) + pager, title: pages > 1 ? `${ARCHIVE_TITLE}, page ${page} of ${pages}` : ARCHIVE_TITLE };
}
