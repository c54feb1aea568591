// The build's plan and the pages' view of it. `prepareSite` runs once per build, before Astro
// renders anything (src/generate/integration.ts): it reads content/, has the episodes that changed
// since the last build (all of them in a clean build) written straight to dist/
// (src/generate/episode-writer.ts), and tells the Astro pages which episodes to render again. Pages
// and the integration share the result through `loadSite` (docs/architecture.md#the-build).
import {
  checkBody,
  resetWriter,
  writeBytes,
  writeEpisode,
  writeOutput,
  type OutputSink,
  type WriteContext,
} from "./episode-writer.ts";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { clearSiteFiles, linkCopy, removeLater } from "./build-folder.ts";
import { buildConfig, type BuildConfig } from "./config.ts";
import {
  checkUnique,
  ContentError,
  type FolderListing,
  listEpisodeFolders,
  parseEpisode,
  readEpisodeInputs,
  readPodcast,
} from "./content.ts";
import { termsUrl } from "../shared/links.ts";
import { compareOrder, orderKeyOf } from "../shared/order.ts";
import { discoveryOf } from "./discovery.ts";
import type { Podcast } from "../shared/schema/content.ts";
import {
  discoveryDocument,
  type DiscoveryDocument,
  type EpisodeResource,
  type ScriptResource,
} from "../shared/schema/api.ts";
import { encodeTimedEtags } from "../shared/timed-etags.ts";
import type { BuildIndex, IndexEntry } from "../shared/schema/build-index.ts";
import {
  BUILD_FILES,
  episodeFile,
  paramsOf,
  PAGE_ROUTES,
  SITE_FILES,
  type EpisodePart,
} from "../shared/layout.ts";
import { buildKeyOf, readState, readStateHead, type BuildState, type EpisodeRecord } from "./build-state.ts";
import { endPhase, endPhaseOnce, Stopwatch } from "./build-timings.ts";
import { FingerprintCache } from "./fingerprint-cache.ts";
import { buildCodeHash } from "./stamp.ts";

/** An episode as its pages render it: read back from the API bodies the writer put in dist/. */
export interface BuiltEpisode {
  ref: string;
  resource: EpisodeResource;
  script: ScriptResource | null;
  transcript: string | null;
  entry: IndexEntry;
}

export interface Site {
  config: BuildConfig;
  podcast: Podcast;
  termsUrl: string;
  /** The folder this build writes (src/generate/build-folder.ts). */
  dist: string;
  /** A clean build (its folder emptied first), or an incremental one over the last build. */
  clean: boolean;
  /** Every episode folder's record (src/generate/build-state.ts), by its episode.json path. */
  records: Map<string, EpisodeRecord>;
  /** Folders unchanged since the build whose files the output folder holds: none of their outputs is written again. */
  kept: Set<string>;
  /** The state of the build whose files the output folder holds (incremental builds): what to delete of what it wrote. */
  previous: BuildState | null;
  /** Its manifest: the ETags of the files this build does not write again. */
  previousManifest: Record<string, string>;
  /** Publishable episodes new or changed since the last build. */
  changed: number;
  /** Episode folders not read: their files stat as when a build last read them (./fingerprint-cache.ts). */
  unread: number;
  /** Episode folders whose names were not listed: their own times are as when a build last listed them (./content.ts listEpisodeFolders). */
  unlisted: number;
  /** How the output folder came to hold an earlier build (incremental builds), for the log. */
  base: string | null;
  /** The key this build's state is valid for (build code, variables, podcast.json). */
  key: string;
  /** The build code's hash (./stamp.ts), part of the key and of the stamp. */
  codeHash: string;
  /** Every episode folder as listed for this build: its files, for the stamp (./stamp.ts). */
  listings: FolderListing[];
  /** Refs whose episode page and player Astro renders in this build. */
  render: Set<string>;
  /** Strong ETags of the files the writer wrote and the pages handed over (`takePage`) in this build: the manifest reads no file twice. */
  etags: Map<string, string>;
  /** Where the build's outputs go besides dist/: its compression (src/generate/precompress.ts). */
  outputs: OutputSink;
  /** The episode pages and players this build renders, dist-relative: the pages `takePage` takes. */
  pageFiles: Set<string>;
  index: BuildIndex;
  discovery: DiscoveryDocument;
  warnings: string[];
}

/**
 * Empties the output folder of a clean build (Astro is told not to: astro.config.mjs): renamed
 * aside and deleted once this build process exits (./build-folder.ts `removeLater`).
 */
function emptyDist(dist: string): void {
  if (existsSync(dist)) removeLater(dist);
  mkdirSync(dist, { recursive: true });
}

/**
 * The published records (those with an index entry) in the index's order, from records in the
 * order of their folders (listEpisodeFolders; a build state's, which writeState sorts the same way).
 */
export function inIndexOrder(records: Iterable<EpisodeRecord>): (EpisodeRecord & { entry: IndexEntry })[] {
  const built = [...records].filter((r): r is EpisodeRecord & { entry: IndexEntry } => r.entry !== null);
  return built.sort((a, b) => compareOrder(orderKeyOf(a.entry), orderKeyOf(b.entry)));
}

/** The manifest of the build in `dist`, or nothing when it has none. */
function readManifest(dist: string): Record<string, string> {
  try {
    return JSON.parse(readFileSync(path.join(dist, BUILD_FILES.manifest), "utf8")) as Record<string, string>;
  } catch {
    return {};
  }
}

async function prepare(config: BuildConfig, dist: string, forceClean: boolean, outputs: OutputSink, live: string | null, fingerprintFile: string | null): Promise<Site> {
  const problems: string[] = [];
  const warnings: string[] = [];
  const show = readPodcast(config.contentDir, problems);
  if (show === null) throw new ContentError(problems);
  const podcast = show.podcast;
  const codeHash = buildCodeHash();
  const key = buildKeyOf(config, show.bytes, codeHash);
  // The last build decides, as its state says: incremental when it was made with this build's key.
  // Its folder is live and never written; this build's folder is brought up to it from the state of
  // the build it holds (the one before the last), or made a linked copy of it (src/generate/build-folder.ts).
  // Of the live build's state, its head is enough: the key, and the fingerprints that say what changed since.
  let previous: BuildState | null = null;
  let lastFp: ((source: string) => string | undefined) | null = null;
  if (!forceClean && live === null) {
    const state = readState(dist);
    if (state !== null && state.key === key) {
      previous = state;
      lastFp = (source) => state.episodes[source]?.fp;
    }
  } else if (!forceClean && live !== null) {
    const head = readStateHead(live);
    if (head !== null && head.key === key) lastFp = (source) => head.fps[source];
  }
  let base: string | null = null;
  endPhase("key and last state read");
  if (lastFp !== null && live !== null) {
    const own = readState(dist);
    if (own !== null && own.key === key) {
      previous = own;
      base = "the folder of the build before it";
    } else {
      const started = performance.now();
      linkCopy(live, dist);
      previous = readState(dist);
      base = `a copy of it made of links (${Math.round(performance.now() - started)} ms)`;
    }
  }
  endPhase("folder's own state read, or link copy");
  // From here on the folder is being rewritten: without a state, a failed build is followed by a clean one.
  rmSync(path.join(dist, BUILD_FILES.state), { force: true });
  rmSync(path.join(dist, BUILD_FILES.stamp), { force: true });
  if (previous === null) emptyDist(dist);
  const previousManifest = previous === null ? {} : readManifest(dist);
  // Astro writes its files over what is there: none of them may be a link to a file of the live build.
  // The last list file stays: the new one takes its unchanged bodies (./list-bodies.ts).
  if (previous !== null) clearSiteFiles(dist, new Set([BUILD_FILES.listBodies]));
  endPhase("previous manifest read, site files cleared");

  resetWriter();
  const ctx: WriteContext = { config, podcast, dist, warnings, etags: new Map(), outputs };
  const records = new Map<string, EpisodeRecord>();
  const kept = new Set<string>();
  const render = new Set<string>();
  const listings: FolderListing[] = [];
  const fingerprints = FingerprintCache.read(fingerprintFile ?? "", config.contentDir, forceClean || fingerprintFile === null);
  const listing = new Stopwatch();
  const reading = new Stopwatch();
  const writing = new Stopwatch();
  listings.push(...listing.time(() => listEpisodeFolders(config.contentDir, (source) => fingerprints.known(source))));
  for (const files of listings) {
    const source = files.source;
    // A folder whose files stat as they did when last read keeps its fingerprint unread (./fingerprint-cache.ts).
    const known = fingerprints.get(files);
    let inputs = known === null ? reading.time(() => readEpisodeInputs(config.contentDir, files)) : null;
    const fingerprint = known ?? inputs!.fingerprint;
    fingerprints.keep(files, fingerprint);
    const before = previous?.episodes[source];
    if (before !== undefined && before.fp === fingerprint) {
      records.set(source, before);
      kept.add(source);
      continue;
    }
    inputs ??= reading.time(() => readEpisodeInputs(config.contentDir, files));
    const loaded = await parseEpisode(config.contentDir, inputs, config.audioBackend, problems, warnings);
    if (loaded === null) continue;
    const record = writing.time(() => writeEpisode(ctx, loaded, inputs.fingerprint));
    records.set(source, record);
    if (record.entry !== null) render.add(record.entry.ref);
  }
  if (fingerprintFile !== null) fingerprints.save(fingerprintFile);
  endPhase("content", { "folders listed": listing, "folders read": reading, "changed episodes written": writing });
  checkUnique([...records].map(([source, r]) => ({ source, id: r.id, n: r.n })), problems);
  if (problems.length > 0) throw new ContentError(problems);

  const built = inIndexOrder(records.values());
  const entries = built.map((r) => r.entry);
  const origins = { baseUrl: config.baseUrl, siteUrl: config.siteUrl };
  const terms = termsUrl(origins, podcast.termsUrl);
  const index: BuildIndex = {
    version: 1,
    show: { slug: podcast.slug, title: podcast.title },
    termsUrl: terms,
    baseUrl: config.baseUrl,
    siteUrl: config.siteUrl,
    episodes: entries,
  };
  const discovery = checkBody(discoveryDocument, discoveryOf(podcast, origins, terms), "the discovery document");
  writeOutput(ctx, BUILD_FILES.index, JSON.stringify(index));
  // Written with the index, whose positions it follows: the two are always of one build.
  writeBytes(ctx, BUILD_FILES.timedEtags, encodeTimedEtags(built.map((r) => r.timed)));
  writeOutput(ctx, BUILD_FILES.discovery, JSON.stringify(discovery));
  const pageFiles = new Set([...render].flatMap((ref) => [SITE_FILES.page(ref), SITE_FILES.embed(ref)]));
  const changed = [...records].filter(([source, r]) => r.entry !== null && lastFp?.(source) !== r.fp).length;
  endPhase("index and discovery written");
  return {
    config,
    podcast,
    termsUrl: terms,
    dist,
    clean: previous === null,
    records,
    kept,
    previous,
    previousManifest,
    changed,
    unread: fingerprints.reused,
    unlisted: listings.filter((l) => !l.listed).length,
    base,
    key,
    codeHash,
    listings,
    render,
    index,
    discovery,
    etags: ctx.etags,
    outputs,
    pageFiles,
    warnings,
  };
}

// Kept on globalThis: Astro evaluates this module twice in one build process (bundled into the
// pages, and through astro.config.mjs for the integration), and each copy must see the one site
// the integration prepared: reading the content twice costs time and memory in proportion to the
// show (docs/performance.md).
const SITE_KEY = Symbol.for("episode-service.site");
const shared = globalThis as { [SITE_KEY]?: Promise<Site> };

/**
 * Prepares this build process's site: reads content/, writes the changed episodes' bodies to
 * `dist`, decides what Astro renders. `clean` forces a clean build (`npm run build -- --clean`);
 * `outputs` is given each file the writer wrote, as soon as it is on disk, and each page `takePage`
 * takes; `live` is the live build's folder, which this build never writes (null: `dist` holds the last build);
 * `fingerprintFile` keeps the folders' fingerprints between builds (./fingerprint-cache.ts; null: none).
 */
export function prepareSite(dist: string, clean: boolean, outputs: OutputSink, live: string | null = null, fingerprintFile: string | null = null): Promise<Site> {
  const site = prepare(buildConfig(), dist, clean, outputs, live, fingerprintFile);
  shared[SITE_KEY] = site;
  return site;
}

/** The site this build process prepared (src/generate/integration.ts prepares it before any page renders). */
export function loadSite(): Promise<Site> {
  const site = shared[SITE_KEY];
  if (site === undefined) throw new Error("the build was not prepared: run it through `npm run build` (astro.config.mjs installs the integration)");
  return site;
}

/**
 * Build time, from src/middleware.ts: a page Astro rendered, before Astro writes it. An episode
 * page or player of this build is written here, from the bytes in hand: its ETag is taken and the
 * bytes are offered to the compression, so neither reads it back from dist/. What goes back to
 * Astro has no body, and Astro writes no file for a body-less page (astro/dist/core/build/generate.js
 * `renderPath`: "file not created, response body was empty"): its per-page `mkdir` and promise-based
 * `writeFile` cost the main thread several times what one synchronous write into a folder made
 * once costs (docs/performance.md). Other
 * pages (and everything outside a build) pass as they are, and Astro writes them.
 */
export async function takePage(pathname: string, response: Response): Promise<Response> {
  const prepared = shared[SITE_KEY];
  if (prepared === undefined || response.status !== 200) return response;
  const site = await prepared;
  // With build.format "file" (astro.config.mjs) Astro asks for a page by its file's path, /a/b.html;
  // a page asked for by any other path is not taken: Astro writes it and it is read back after the pages.
  const rel = pathname.slice(1);
  if (!site.pageFiles.has(rel)) return response;
  const bytes = new Uint8Array(await response.arrayBuffer());
  writeBytes(site, rel, bytes);
  if (!site.outputs.offer(rel, bytes)) site.outputs.add([rel]);
  return new Response(null, { status: 200 });
}

function readBody(dist: string, ref: string, part: EpisodePart): string {
  return readFileSync(path.join(dist, episodeFile(ref, part)), "utf8");
}

/**
 * An episode's bodies as the writer wrote them, read back for a page or an example. Each body is
 * read when first asked for: the player page never reads the script or the transcript.
 */
export function builtEpisode(site: Site, entry: IndexEntry): BuiltEpisode {
  const ref = entry.ref;
  const once = <T>(read: () => T) => {
    let value: { v: T } | undefined;
    return () => (value ??= { v: read() }).v;
  };
  const resource = once(() => JSON.parse(readBody(site.dist, ref, "json")) as EpisodeResource);
  const script = once(() => (entry.script === "ok" ? (JSON.parse(readBody(site.dist, ref, "script")) as ScriptResource) : null));
  const transcript = once(() => (entry.transcript ? readBody(site.dist, ref, "transcript") : null));
  return {
    ref,
    entry,
    get resource() {
      return resource();
    },
    get script() {
      return script();
    },
    get transcript() {
      return transcript();
    },
  };
}

/**
 * getStaticPaths of the per-episode pages (episode page, player): one route per episode to render
 * in this build. The episode is read from dist/ only when its page renders (a getter), so the
 * build never holds every script in memory.
 */
export async function episodeRoutes(page: "page" | "embed") {
  endPhaseOnce("Astro's server bundle (Vite)");
  const site = await loadSite();
  const route = PAGE_ROUTES[page];
  return site.index.episodes
    .filter((entry) => site.render.has(entry.ref))
    .map((entry) => ({
      params: paramsOf(route, SITE_FILES[page](entry.ref)),
      props: {
        get episode(): BuiltEpisode {
          return builtEpisode(site, entry);
        },
      },
    }));
}
