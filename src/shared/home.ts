// The home page's list of newest episodes. The page around it is built by Astro
// (src/pages/index.astro, with HOME_MARKER where the list goes); the list itself is filled in at
// request time from the published episodes' bodies, so a scheduled episode appears at its time
// without a rebuild and never before.
import type { EpisodeResource } from "./schema/api.ts";
import { escapeHtml } from "./html.ts";
import { isoDate, longDate, shortDuration } from "./duration.ts";

export const HOME_MARKER = "<!--episodes-->";
/** How many of the newest episodes the home page lists. */
export const HOME_LIMIT = 30;

type HomeEpisode = Pick<EpisodeResource, "title" | "episodeNumber" | "publishedAt" | "durationSeconds" | "summary" | "links">;

export function homeItem(ep: HomeEpisode): string {
  const label = ep.episodeNumber === null ? "" : `<span class="ep-n">Episode ${ep.episodeNumber}</span> `;
  const meta: string[] = [];
  if (ep.publishedAt) meta.push(`<time datetime="${isoDate(ep.publishedAt)}">${longDate(ep.publishedAt)}</time>`);
  if (typeof ep.durationSeconds === "number") meta.push(shortDuration(ep.durationSeconds));
  const summary = ep.summary ? `<p>${escapeHtml(ep.summary)}</p>` : "";
  return `<li>${label}<h3><a href="${escapeHtml(ep.links.page)}" dir="auto">${escapeHtml(ep.title)}</a></h3><p class="meta">${meta.join(" · ")}</p>${summary}</li>`;
}

export function homeList(episodes: HomeEpisode[]): string {
  if (episodes.length === 0) return `<p class="empty">No episodes yet. Come back soon.</p>`;
  return `<ul class="episodes">${episodes.map(homeItem).join("")}</ul>`;
}
