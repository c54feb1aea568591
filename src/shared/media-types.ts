// Every media type the service sends or names, in one table: the Content-Type of each route and
// build file, the types the feeds and pages declare, and which of them are sent compressed
// (docs/api.md#compression). The shim, the build and publish all read them here.

/** Media types by what they are, without parameters (as feeds, links and OpenAPI name them). */
export const MEDIA = {
  json: "application/json",
  text: "text/plain",
  html: "text/html",
  mp3: "audio/mpeg",
  vtt: "text/vtt",
  srt: "application/x-subrip",
  rss: "application/rss+xml",
  jsonFeed: "application/feed+json",
  xml: "application/xml",
  /** Podcasting 2.0 JSON chapters, as podcast:chapters names them. */
  chapters: "application/json+chapters",
  oembed: "application/json+oembed",
  css: "text/css",
  js: "text/javascript",
  svg: "image/svg+xml",
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
  ico: "image/x-icon",
  webmanifest: "application/manifest+json",
  woff2: "font/woff2",
  bytes: "application/octet-stream",
  form: "application/x-www-form-urlencoded",
} as const;

const utf8 = <T extends string>(type: T) => `${type}; charset=utf-8` as const;

/** Content-Type values the shim sends: text types carry their charset. */
export const TYPES = {
  json: utf8(MEDIA.json),
  text: utf8(MEDIA.text),
  html: utf8(MEDIA.html),
  mp3: MEDIA.mp3,
  vtt: utf8(MEDIA.vtt),
  srt: utf8(MEDIA.srt),
  rss: utf8(MEDIA.rss),
  jsonFeed: utf8(MEDIA.jsonFeed),
  xml: utf8(MEDIA.xml),
} as const;

const BY_EXTENSION: Record<string, string> = {
  html: TYPES.html,
  json: TYPES.json,
  txt: TYPES.text,
  css: utf8(MEDIA.css),
  js: utf8(MEDIA.js),
  mjs: utf8(MEDIA.js),
  svg: MEDIA.svg,
  png: MEDIA.png,
  jpg: MEDIA.jpeg,
  jpeg: MEDIA.jpeg,
  webp: MEDIA.webp,
  ico: MEDIA.ico,
  xml: TYPES.xml,
  webmanifest: MEDIA.webmanifest,
  woff2: MEDIA.woff2,
  mp3: TYPES.mp3,
};

/** The Content-Type of a build output, by its extension. */
export function contentTypeOf(path: string): string {
  const dot = path.lastIndexOf(".");
  return (dot >= 0 && BY_EXTENSION[path.slice(dot + 1).toLowerCase()]) || MEDIA.bytes;
}

/** Media types sent compressed: text (SubRip's included), JSON, XML, JavaScript, SVG. Never audio. */
const COMPRESSIBLE = /^(?:text\/[a-z0-9.+-]+|application\/(?:[a-z0-9.-]+\+)?(?:json|xml)|application\/(?:x-)?javascript|application\/x-subrip|image\/svg\+xml)\s*(?:;|$)/i;

/** Answers by media type, remembered: routes pass a few constant types, and this runs per response. */
const compressibleTypes = new Map<string, boolean>();

export function compressible(type: string): boolean {
  let yes = compressibleTypes.get(type);
  if (yes === undefined) {
    yes = COMPRESSIBLE.test(type);
    if (compressibleTypes.size < 256) compressibleTypes.set(type, yes);
  }
  return yes;
}
