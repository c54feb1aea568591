// The Astro integration that drives the build (docs/architecture.md#the-build):
// - before Astro renders anything (astro:build:start), `prepareSite` reads content/ and writes the
//   per-episode API bodies itself, clean or over the last build (src/generate/prepare-build.ts);
// - Astro then renders the site-wide pages and the pages of the episodes that changed;
// - when it is done (astro:build:done): the files of removed episodes go, the manifest of strong
//   ETags is completed (reused for unchanged files), the list's bodies are put in one file for the
//   Node server, the state the next build reuses and the stamp
//   `npm start` compares are written, and the files a deploy uploads are counted against
//   ASSET_FILE_LIMIT; then `--outDir` (dist) is switched to name this build, and the build waits
//   for the servers running from it to take it up.
// Astro writes into a folder of the build's own (astro:config:setup), never the live build's
// (src/generate/build-folder.ts).
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import type { AstroIntegration } from "astro";
import { BUILD_FILES } from "../shared/layout.ts";
import { nodeEtag } from "../node/etag.ts";
import { awaitServers, openBuildFolder, siteFiles, switchPointer, type BuildFolder } from "./build-folder.ts";
import { writeState } from "./build-state.ts";
import { fileBudgetProblem, uploadedOf } from "./file-budget.ts";
import { writeListBodies } from "./list-bodies.ts";
import { writeNewFile } from "./new-file.ts";
import { Precompressor } from "./precompress.ts";
import { writeSearchIndex } from "./search-index.ts";
import { inIndexOrder, loadSite, prepareSite, type Site } from "./prepare-build.ts";
import { stampOf } from "./stamp.ts";
import { endPhase, phaseLines, startPhases } from "./build-timings.ts";

/** `npm run build -- --clean` (Astro ignores flags it does not know), or BUILD_CLEAN=1. */
function cleanRequested(): boolean {
  return process.argv.includes("--clean") || process.env.BUILD_CLEAN === "1";
}

/**
 * How far V8 lets the old generation grow between major collections while Astro renders the pages
 * (set once the content is prepared). Left to V8, it grows far past what it holds live once the
 * pages are written without an awaited write between them (src/generate/prepare-build.ts `takePage`),
 * taking a 10,000-episode build past its 1 GB budget; 25% keeps it well within for no measurable CPU
 * (docs/performance.md#the-builds-page-writes).
 */
const BUILD_HEAP_GROWING_PERCENT = 25;
/** Episodes to render from which the heap is held so: an incremental build's few pages leave V8 its own growth, and fewer collections. */
const MANY_PAGES = 1000;

/** Compressed variants of a file (src/generate/precompress.ts) sit beside it. */
const VARIANTS = [".br", ".gz"];

/**
 * The previous build's files that no episode owns any more: deleted with their variants. Only a
 * changed or removed folder's files can be: an unchanged folder owns what it owned, and no two
 * folders of one build own the same file.
 */
function removeStale(site: Site): string[] {
  if (site.previous === null) return [];
  const owned = new Set<string>();
  for (const [source, r] of site.records) if (!site.kept.has(source)) for (const f of r.files) owned.add(f);
  const stale: string[] = [];
  for (const [source, r] of Object.entries(site.previous.episodes)) if (!site.kept.has(source)) for (const f of r.files) if (!owned.has(f)) stale.push(f);
  for (const rel of stale) for (const suffix of ["", ...VARIANTS]) rmSync(path.join(site.dist, rel + suffix), { force: true });
  return stale;
}

/**
 * The build's files, as a walk of dist/ finds them (tests/build/build-incremental.test.ts holds it),
 * without walking the episodes' folders: their files are the records' (src/generate/build-state.ts).
 * `written`: those this build wrote, all but the unchanged episodes'.
 */
function builtFiles(site: Site): { files: string[]; written: string[] } {
  const shared = siteFiles(site.dist);
  const episodes: string[] = [];
  const written: string[] = [...shared];
  for (const [source, r] of site.records) {
    for (const f of r.files) episodes.push(f);
    if (!site.kept.has(source)) for (const f of r.files) written.push(f);
  }
  const own = new Set<string>([BUILD_FILES.manifest, BUILD_FILES.stamp]);
  const notOwn = (rel: string) => !own.has(rel);
  return { files: uploadedOf([...shared, ...episodes]).filter(notOwn), written: uploadedOf(written).filter(notOwn) };
}

// Kept on globalThis, as the site is (./site.ts): one folder per build process, however often Astro loads the config.
const FOLDER_KEY = Symbol.for("episode-service.build-folder");
const folders = globalThis as { [FOLDER_KEY]?: Promise<BuildFolder> };

export function finishBuild(): AstroIntegration {
  let dist = "";
  /** The folder this build writes and the pointer it switches (`astro build` only). */
  let folder: BuildFolder | null = null;
  /** The compressing threads (src/generate/precompress.ts), fed from the first file written to the last. */
  let compression: Precompressor | null = null;
  /** The search index's term vectors between builds (src/generate/search-cache.ts), in Astro's cache folder. */
  let searchCache = "";
  /** The episode folders' fingerprints between builds (src/generate/fingerprint-cache.ts), beside it. */
  let fingerprintCache = "";
  return {
    name: "episode-service:build",
    hooks: {
      "astro:config:setup": async ({ config, command, updateConfig, logger }) => {
        if (command !== "build") return;
        startPhases("Node and Astro start");
        // --outDir (dist) is the pointer; Astro and the build write into the build's own folder.
        const pointer = path.resolve(fileURLToPath(config.outDir));
        folder = await (folders[FOLDER_KEY] ??= openBuildFolder(pointer, (line) => logger.info(line)));
        updateConfig({ outDir: pathToFileURL(`${folder.folder}/`) });
        endPhase("build folder taken");
      },
      "astro:config:done": ({ config }) => {
        dist = path.resolve(fileURLToPath(config.outDir));
        searchCache = path.join(fileURLToPath(config.cacheDir), "search-vectors.bin");
        fingerprintCache = path.join(fileURLToPath(config.cacheDir), "content-fingerprints.json");
      },
      "astro:build:start": async ({ logger }) => {
        endPhase("Astro set up (Vite, sync)");
        // The writer's files are compressed as they are written, while the content is read and
        // Astro renders: the other cores' work, off the main thread's critical path.
        const pool = (compression = new Precompressor(dist));
        const site = await prepareSite(dist, cleanRequested(), pool, folder?.live ?? null, fingerprintCache);
        if (site.render.size >= MANY_PAGES) setFlagsFromString(`--heap-growing-percent=${BUILD_HEAP_GROWING_PERCENT}`);
        for (const w of site.warnings) logger.warn(w);
        logger.info(
          site.clean
            ? `clean build: ${site.index.episodes.length} episodes`
            : `incremental build: ${site.changed} of ${site.index.episodes.length} episodes changed since the last build; ${site.render.size} written into ${site.base ?? "its folder"}, ${site.kept.size} folders unchanged there; ${site.unread} folders not read (their files stat as when last read), ${site.unlisted} not listed (their own times as when last listed)`,
        );
      },
      "astro:build:generated": () => endPhase("pages rendered"),
      "astro:build:done": async ({ logger }) => {
        endPhase("Astro after the pages");
        const site = await loadSite();
        const stale = removeStale(site);
        endPhase("removed episodes' files deleted");

        // Search index (src/generate/search-index.ts, docs/architecture.md#search): every episode in
        // index order, from the term vectors of the last build for unchanged folders
        // (src/generate/search-cache.ts) and from the written bodies for the others; written before
        // the manifest lists files.
        const fingerprints = new Map([...site.records.values()].map((r) => [r.id, r.fp]));
        const searchFiles = writeSearchIndex(dist, site.index.episodes, { file: searchCache, key: site.key, fingerprintOf: (id) => fingerprints.get(id)! });
        logger.info(`search index: ${searchFiles.length} files`);
        endPhase("search index");

        // The files the manifest names are the files a deploy uploads (src/generate/file-budget.ts),
        // but for the manifest itself and the stamp, written below.
        const { files, written } = builtFiles(site);
        endPhase("files listed");

        // Compressed variants (src/generate/precompress.ts): <file>.br and <file>.gz beside each
        // compressible file this build wrote (an unchanged episode's variants are still valid).
        // They are not files of the manifest: their ETags derive from the plain file's.
        const started = performance.now();
        const rest = written.filter((rel) => !compression!.has(rel));
        compression!.add(rest);
        const made = await compression!.done();
        endPhase("compression finished");
        logger.info(`compressed ${made.files} files into ${made.variants} variants ${made.threads === 0 ? "on the main thread" : `on ${made.threads} threads`} (${rest.length} read back after the pages; ${Math.round(performance.now() - started)} ms after the pages)`);

        const previous = site.previousManifest;
        const fresh = new Set(written);
        const manifest: Record<string, string> = {};
        // Synchronous reads: an awaited readFile per small file costs far more over thousands of files
        // (docs/performance.md#the-content-read-once-synchronously).
        for (const rel of files) manifest[rel] = (fresh.has(rel) ? site.etags.get(rel) : previous[rel]) ?? nodeEtag(readFileSync(path.join(dist, rel)));
        endPhase("manifest's ETags");
        // The list's bodies in one file for the Node server (./list-bodies.ts), with the manifest's
        // ETags; not uploaded (./file-budget.ts), so the manifest does not name it.
        const listStarted = performance.now();
        const last = site.previous === null ? undefined : { refs: inIndexOrder(Object.values(site.previous.episodes)).map((r) => r.entry.ref), etagOf: (rel: string) => previous[rel], unchanged: (rel: string) => !fresh.has(rel) };
        const read = writeListBodies(dist, site.index.episodes.map((e) => e.ref), (rel) => manifest[rel]!, last);
        logger.info(`list bodies: ${site.index.episodes.length} in one file, ${read} read from their files (${Math.round(performance.now() - listStarted)} ms)`);
        endPhase("list bodies");
        writeNewFile(path.join(dist, BUILD_FILES.manifest), JSON.stringify(manifest));
        writeState(dist, site.key, site.records);
        endPhase("manifest and state written");
        const stamp = path.join(dist, BUILD_FILES.stamp);
        writeNewFile(stamp, JSON.stringify({ stamp: await stampOf(site.config, site.codeHash, site.listings) }));
        endPhase("stamp");
        logger.info(`${site.index.episodes.length} episodes, ${files.length} files with ETags (${written.length} written, ${stale.length} removed)`);

        // Counted like `npm run deploy` counts (file-budget.ts): the manifest's files, the manifest and the stamp.
        const limit = site.config.assetFileLimit;
        const upload = files.length + 2;
        logger.info(`${upload} files to upload (limit ${limit})`);
        const problem = fileBudgetProblem(upload, limit);
        if (problem !== null) {
          // A failed build is no build: `npm start` must not skip the next one, nor the next build reuse it.
          rmSync(stamp, { force: true });
          rmSync(path.join(dist, BUILD_FILES.state), { force: true });
          throw new Error(problem);
        }

        // Done: dist names this build from now on, and the servers running from it take it up.
        if (folder !== null) {
          const say = (line: string) => logger.info(line);
          await switchPointer(folder, say);
          endPhase("switched");
          await awaitServers(folder, say);
          endPhase("servers awaited");
        }
        for (const line of phaseLines()) logger.info(line);
      },
    },
  };
}
