// The archive of every published episode, {site_url}/episodes, 50 per page, newest first. Its page
// URLs are needed by the archive itself (previous/next links), the sitemap and llms.txt: one home.
import { pathOf } from "./routes.ts";

const ARCHIVE = pathOf("archive");

/** Episodes per archive page. */
export const ARCHIVE_PAGE_SIZE = 50;

/** Path of archive page `page` (1-based): the archive's path, then `?page=2`, … */
export function archivePath(page: number): string {
  return page <= 1 ? ARCHIVE : `${ARCHIVE}?page=${page}`;
}

/** How many archive pages `published` episodes fill (at least one, which may be empty). */
export function archivePageCount(published: number): number {
  return Math.max(1, Math.ceil(published / ARCHIVE_PAGE_SIZE));
}
