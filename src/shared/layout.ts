// The build's file layout: where every build output sits in dist/, relative to it. The one home of
// these paths: the build writes them (the Astro routes under src/pages/ through the params below,
// the astro:build:done integration), the shim and the Node entry read them. Portable: used at build
// and at request time, no Node or Astro imports.
//
// Astro decides where a route's output goes from the route's file name under src/pages/ and the
// params getStaticPaths returns (output "static", build.format "file"): each [name] segment becomes
// its param, an endpoint (.ts) keeps its name without .ts, a page (.astro) gets .html. So a page
// never spells a file name: it asks `paramsOf(PAGE_ROUTES.x, <the path below>)` for the params that
// make Astro write exactly that path, and tests/unit/layout.test.ts holds `outputPath` to every
// route file and kind of output.

/**
 * Private prefix of the API's build outputs: the shim serves them under public URLs, never by their
 * path. A dynamic [api] segment in src/pages/, since Astro ignores folders whose name starts with _.
 */
export const API_PREFIX = "_api";

/** Folder of local audio (copied there by the build): dist/media/<key>, served at /media/<key>. */
export const MEDIA_DIR = "media";

/** Build outputs of the API and of the build itself that the shim and `npm start` read. */
export const BUILD_FILES = {
  index: `${API_PREFIX}/index.json`,
  /** Written by the integration: every file's strong ETag. */
  manifest: `${API_PREFIX}/manifest.json`,
  discovery: `${API_PREFIX}/discovery.json`,
  openapi: `${API_PREFIX}/openapi.json`,
  /** The show's podcast.json as validated: what the feed and llms.txt say of the show (functions/surface-routes.ts). */
  show: `${API_PREFIX}/show.json`,
  /** Written by the integration: the stamp `npm start` compares. */
  stamp: `${API_PREFIX}/build.json`,
  /** Written by the integration: what the next build may reuse (src/generate/build-state.ts). */
  state: `${API_PREFIX}/build-state.json`,
  /**
   * Written by the integration for the Node server only (never uploaded): every episode's JSON body
   * in list order, so a page of the list is one read (src/shared/node-list-bodies.ts).
   */
  listBodies: `${API_PREFIX}/list-bodies.bin`,
  /**
   * Written by the writer: the strong ETags of every episode's timed forms, by index position
   * (src/shared/timed-etags.ts). The forms themselves are rendered by the shim from the script body.
   */
  timedEtags: `${API_PREFIX}/timed-etags.bin`,
} as const;

/** The search index: written by src/generate/search-index.ts, read by functions/search.ts, in the format of ./search-format.ts. */
export const SEARCH_FILES = {
  meta: `${API_PREFIX}/search/meta.json`,
  /** Each document's field-weighted length, uint32 little-endian, by docNo (its position in the index). */
  docs: `${API_PREFIX}/search/docs.bin`,
  shard: (n: number) => `${API_PREFIX}/search/shard-${n}.bin`,
} as const;

export type EpisodePart = "json" | "script" | "transcript";

const EPISODE_SUFFIX: Record<EpisodePart, string> = {
  json: ".json",
  script: ".script.json",
  transcript: ".transcript.txt",
};

/**
 * An episode's API bodies: `<ref>.json`, `<ref>.script.json`, `<ref>.transcript.txt`. They carry
 * extensions because Astro cannot emit both `42` and `42/`; the shim maps public URLs to them.
 */
export function episodeFile(ref: string, part: EpisodePart): string {
  return `${API_PREFIX}/episodes/${ref}${EPISODE_SUFFIX[part]}`;
}

/** Build outputs of the site: pages, the player, oEmbed bodies. */
export const SITE_FILES = {
  home: "index.html",
  terms: "terms.html",
  notFound: "404.html",
  /** The archive's page around its list, filled in by the shim (src/shared/home.ts). */
  archive: `${API_PREFIX}/archive.html`,
  /** The player's "episode not found" page. */
  embedNotFound: `${API_PREFIX}/embed-404.html`,
  page: (ref: string) => `episodes/${ref}.html`,
  embed: (ref: string) => `embed/${ref}.html`,
  /** The default oEmbed response of an episode. */
  oembed: (ref: string) => `${API_PREFIX}/oembed/${ref}.json`,
} as const;

/** A local audio file's storage key: `<id>.mp3`. */
export function mediaKey(id: string): string {
  return `${id}.mp3`;
}

/** Where the audio of storage key `key` sits in dist/ (and its path under the site's origin). */
export function mediaFile(key: string): string {
  return `${MEDIA_DIR}/${key}`;
}

/**
 * The Astro routes that write build outputs: their files under src/pages/. The per-episode API
 * bodies, oEmbed bodies, the index and the discovery document are written by the build's own
 * writer (src/generate/site.ts), not by Astro routes.
 */
export const PAGE_ROUTES = {
  /** BUILD_FILES.openapi */
  openapi: "[api]/openapi.json.ts",
  /** BUILD_FILES.show */
  show: "[api]/show.json.ts",
  /** SITE_FILES.embedNotFound */
  embedNotFound: "[api]/embed-404.astro",
  /** SITE_FILES.archive */
  archive: "[api]/archive.astro",
  /** SITE_FILES.home */
  home: "index.astro",
  /** SITE_FILES.terms */
  terms: "terms.astro",
  /** SITE_FILES.notFound */
  notFound: "404.astro",
  /** SITE_FILES.page(ref) */
  page: "episodes/[ref].astro",
  /** SITE_FILES.embed(ref) */
  embed: "embed/[ref].astro",
} as const;

export type RouteFile = (typeof PAGE_ROUTES)[keyof typeof PAGE_ROUTES];
export type RouteParams = Record<string, string>;

/** A route file's output pattern: its segments, without the .ts or with .html for .astro. */
function outputPattern(route: string): string[] {
  const m = /^(.*)\.(ts|astro)$/.exec(route);
  if (m === null) throw new Error(`not a route file: ${route}`);
  return `${m[1]}${m[2] === "astro" ? ".html" : ""}`.split("/");
}

const PARAM = /^\[([A-Za-z_][A-Za-z0-9_]*)\]$|^\[([A-Za-z_][A-Za-z0-9_]*)\]\.html$/;

/** Where Astro writes the output of `route` for `params`, relative to dist/. */
export function outputPath(route: string, params: RouteParams = {}): string {
  return outputPattern(route)
    .map((segment) => {
      const m = PARAM.exec(segment);
      if (m === null) return segment;
      const name = (m[1] ?? m[2])!;
      const value = params[name];
      if (value === undefined || value === "" || value.includes("/")) throw new Error(`route ${route}: param '${name}' must be one path segment`);
      return m[2] === undefined ? value : `${value}.html`;
    })
    .join("/");
}

/**
 * The getStaticPaths params that make Astro write `route`'s output to `path` (relative to dist/).
 * Throws when the route cannot write that path.
 */
export function paramsOf(route: string, path: string): RouteParams {
  const pattern = outputPattern(route);
  const segments = path.split("/");
  const fail = () => new Error(`route ${route} does not write ${path}`);
  if (segments.length !== pattern.length) throw fail();
  const params: RouteParams = {};
  pattern.forEach((p, i) => {
    const s = segments[i]!;
    const m = PARAM.exec(p);
    if (m === null) {
      if (s !== p) throw fail();
      return;
    }
    const value = m[2] === undefined ? s : s.endsWith(".html") ? s.slice(0, -".html".length) : null;
    if (value === null || value === "") throw fail();
    params[(m[1] ?? m[2])!] = value;
  });
  return params;
}
