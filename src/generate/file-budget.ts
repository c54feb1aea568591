// The per-deploy file budget (ASSET_FILE_LIMIT in README.md#configuration; docs/deploy.md): which
// files of dist/ a Cloudflare deploy uploads as static assets, and the one message when they are
// too many. Read by the build (the astro:build:done hook in src/generate/integration.ts fails the
// build) and by `npm run deploy` (scripts/deploy.ts refuses before wrangler runs), so both count
// the same files and say the same thing.
import { readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { BUILD_FILES, MEDIA_DIR } from "../shared/layout.ts";

/** The free plan's files per deploy (100,000 on paid plans). */
export const ASSET_FILE_LIMIT_DEFAULT = 20_000;

/**
 * What is not uploaded as assets (written to an .assetsignore in dist/ for wrangler during the deploy,
 * scripts/deploy.ts):
 * the audio, which the Worker serves from R2, and precompressed variants, which would triple the
 * count (the Worker lets the runtime compress instead), the incremental build's state, which
 * only the next build reads (src/generate/build-state.ts), and the list's bodies in one file, which
 * only the Node server reads (src/node/list-bodies.ts).
 */
const PRIVATE_FILES: readonly string[] = [BUILD_FILES.state, BUILD_FILES.listBodies];
export const ASSETS_IGNORE = [`/${MEDIA_DIR}/`, "*.br", "*.gz", ...PRIVATE_FILES.map((rel) => `/${rel}`)];

function ignored(rel: string): boolean {
  return rel === ".assetsignore" || PRIVATE_FILES.includes(rel) || rel.startsWith(`${MEDIA_DIR}/`) || rel.endsWith(".br") || rel.endsWith(".gz");
}

/** The files of dist/ wrangler will upload, dist-relative, sorted. */
export async function uploadFiles(distDir: string): Promise<string[]> {
  const entries = await readdir(distDir, { recursive: true, withFileTypes: true });
  return uploadedOf(entries.filter((e) => e.isFile()).map((e) => path.relative(distDir, path.join(e.parentPath, e.name)).split(path.sep).join("/")));
}

/** Of the files of a dist/ (dist-relative, with "/"), those wrangler uploads, sorted. */
export function uploadedOf(files: Iterable<string>): string[] {
  const uploaded: string[] = [];
  for (const rel of files) if (!ignored(rel)) uploaded.push(rel);
  return uploaded.sort();
}

/**
 * What `count` files to upload come to per episode of the build's index: what the deploy and the
 * bench print, since the per-deploy limit makes the files of one episode the site's size bound.
 */
export function filesPerEpisode(distDir: string, count: number): { episodes: number; perEpisode: number } {
  const index = JSON.parse(readFileSync(path.join(distDir, BUILD_FILES.index), "utf8")) as { episodes: unknown[] };
  const episodes = index.episodes.length;
  return { episodes, perEpisode: episodes === 0 ? 0 : Math.round((count / episodes) * 100) / 100 };
}

/** The refusal when `count` files exceed `limit`; null when they fit. */
export function fileBudgetProblem(count: number, limit: number): string | null {
  if (count <= limit) return null;
  return (
    `${count} files to upload exceed ASSET_FILE_LIMIT=${limit} (Cloudflare's files per deploy: 20,000 on the free plan, 100,000 on paid plans). ` +
    `Raise ASSET_FILE_LIMIT if your plan allows more, or publish fewer episodes per site.`
  );
}
