// Astro integration that finishes a build: copies local audio to dist/media (local mode), writes the
// manifest of strong ETags for every file and the stamp `npm start` compares to decide whether to
// rebuild, then counts the files a deploy uploads and fails the build past ASSET_FILE_LIMIT.
import { readFileSync } from "node:fs";
import { copyFile, mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fg from "fast-glob";
import type { AstroIntegration } from "astro";
import { BUILD_FILES, MEDIA_DIR, mediaFile } from "../shared/layout.ts";
import { nodeEtag } from "../shared/node-etag.ts";
import { fileBudgetProblem, uploadFiles } from "./file-budget.ts";
import { loadSite } from "./site.ts";
import { stampOf } from "./stamp.ts";

export function finishBuild(): AstroIntegration {
  return {
    name: "episode-service:finish-build",
    hooks: {
      "astro:build:done": async ({ dir, logger }) => {
        const dist = fileURLToPath(dir);
        const site = await loadSite();
        for (const w of site.warnings) logger.warn(w);

        await mkdir(path.join(dist, MEDIA_DIR), { recursive: true });
        for (const e of site.episodes) {
          if (e.mediaSource !== null && e.entry.audio !== null) await copyFile(e.mediaSource, path.join(dist, mediaFile(e.entry.audio.key)));
        }

        const files = await fg("**/*", { cwd: dist, onlyFiles: true, ignore: [`${MEDIA_DIR}/**`, BUILD_FILES.manifest, BUILD_FILES.stamp] });
        const manifest: Record<string, string> = {};
        // Synchronous reads: one awaited readFile per small file costs ~10x more (7–10 s against
        // 0.9 s for the 59,000 files of a 10,000-episode build; see docs/performance.md).
        for (const rel of files.sort()) manifest[rel] = nodeEtag(readFileSync(path.join(dist, rel)));
        await writeFile(path.join(dist, BUILD_FILES.manifest), JSON.stringify(manifest));
        const stamp = path.join(dist, BUILD_FILES.stamp);
        await writeFile(stamp, JSON.stringify({ stamp: await stampOf(site.config), builtAt: new Date().toISOString() }));
        logger.info(`${site.episodes.length} episodes, ${files.length} files with ETags`);

        // Counted like `npm run deploy` counts (file-budget.ts), with the manifest and the stamp.
        const limit = site.config.assetFileLimit;
        const upload = (await uploadFiles(dist)).length;
        logger.info(`${upload} files to upload (limit ${limit})`);
        const problem = fileBudgetProblem(upload, limit);
        if (problem !== null) {
          await rm(stamp, { force: true }); // a failed build is no build: `npm start` must not skip the next one
          throw new Error(problem);
        }
      },
    },
  };
}
