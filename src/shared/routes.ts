// The route table: every path the shim answers, with its rate-limit bucket, its parameters and,
// for API routes, its OpenAPI operation. The shim dispatches from it (functions/router.ts and a
// handler per route id in functions/handler.ts: the compiler refuses a route without one), the
// rate-limit buckets and the discovery document's route lists derive from it, and the OpenAPI
// document is generated from it (src/generate/openapi/document.ts). Behaviour: docs/api.md.
import type { ErrorCode } from "./errors.ts";
import { quotaOf, RATE_WINDOW_SECONDS, type Bucket, type RateLimits } from "./limits.ts";
import type { ParameterName } from "./parameters.ts";
import type { DiscoveryDocument } from "./schema/api.ts";
import { TIMED_FORMS, type TimedForm } from "./timed.ts";

/** The methods of every route (OPTIONS is the CORS preflight; anything else is 405). */
export const METHODS = ["GET", "HEAD"] as const;

/** What an operation's success body is, for the OpenAPI document. */
export type OperationBody =
  | { kind: "json"; schema: "Discovery" | "EpisodePage" | "Episode" | "Script" | "JsonTranscript" | "JsonChapters" }
  | { kind: "text"; media: "text/plain" | "text/vtt" | "application/x-subrip" }
  | { kind: "audio" }
  | { kind: "openapi" };

export interface Operation {
  tag: "Discovery" | "Episodes" | "Audio" | "Scripts";
  /** operationId of GET; HEAD's is derived (get/list → head). */
  operationId: string;
  summary: string;
  description: string;
  /** The API-key variant of the contract names this route (a key is accepted and ignored). */
  keyed: boolean;
  body: OperationBody;
  /** Error codes the route can answer, besides method_not_allowed (every path). */
  errors: ErrorCode[];
  /** Codes the contract lists for the route that this implementation never answers. */
  reserved?: ErrorCode[];
}

export interface Route {
  /**
   * Path templates, the first one canonical (documented): literal segments, `{name}` for one
   * segment, `{name+}` for the rest of the path. Literal paths win over templates; templates are
   * tried in table order.
   */
  paths: readonly string[];
  /** Rate-limit bucket, or null for unlimited surfaces. */
  bucket: Bucket | null;
  /** An API route: the license Link on every answer, errors in the JSON envelope. */
  api: boolean;
  parameters: readonly ParameterName[];
  /** The OpenAPI operation, for documented API routes. */
  operation: Operation | null;
}

const EPISODE_ERRORS: ErrorCode[] = ["invalid_episode_ref", "not_found", "rate_limited", "upstream_unavailable"];

const site = (paths: string[], parameters: ParameterName[] = []): Route => ({ paths, bucket: null, api: false, parameters, operation: null });

/** A timed form of an episode (src/shared/timed.ts), rendered from its timed script; the script route's 400 and 404 rules. */
function timedForm(form: TimedForm, operation: Pick<Operation, "operationId" | "summary" | "description" | "body">): Route {
  const unavailable: ErrorCode = TIMED_FORMS[form].part === "chapters" ? "chapters_unavailable" : "transcript_unavailable";
  return {
    paths: [`/v1/episodes/{ref}/${TIMED_FORMS[form].path}`],
    bucket: "metadata",
    api: true,
    parameters: ["ref", "ifNoneMatch"],
    operation: { tag: "Scripts", keyed: true, errors: [...EPISODE_ERRORS, unavailable], ...operation },
  };
}

const UNTIMED_TRANSCRIPT =
  "404 `transcript_unavailable` when the episode has no usable script or its segments are not timed (the plain-text transcript may still exist).";

export const ROUTES = {
  discovery: {
    paths: ["/v1", "/v1/"],
    bucket: "metadata",
    api: true,
    parameters: ["ifNoneMatch"],
    operation: {
      tag: "Discovery",
      operationId: "getDiscovery",
      summary: "Discovery document",
      description: "Endpoint URLs and URI templates of every surface, the rate limits in force and the page sizes of the list.",
      keyed: false,
      body: { kind: "json", schema: "Discovery" },
      errors: ["rate_limited", "upstream_unavailable"],
    },
  },
  listEpisodes: {
    paths: ["/v1/episodes", "/v1/episodes/"],
    bucket: "metadata",
    api: true,
    parameters: ["limit", "cursor", "domain", "since", "ifNoneMatch"],
    operation: {
      tag: "Episodes",
      operationId: "listEpisodes",
      summary: "List published episodes",
      description:
        "Published episodes, newest first (`publishedAt` descending, then `episodeNumber`, then `id`), in pages. Request with `limit`, read `pagination.nextCursor`, request again with `cursor` set to it; repeat until `nextCursor` is null. Keyset cursors: pages never repeat or skip an episode while new ones publish. Unknown query parameters are ignored.",
      keyed: true,
      body: { kind: "json", schema: "EpisodePage" },
      errors: ["invalid_limit", "invalid_cursor", "invalid_domain", "invalid_since", "rate_limited", "upstream_unavailable"],
      reserved: ["not_found"],
    },
  },
  getEpisode: {
    paths: ["/v1/episodes/{ref}"],
    bucket: "metadata",
    api: true,
    parameters: ["ref", "ifNoneMatch"],
    operation: {
      tag: "Episodes",
      operationId: "getEpisode",
      summary: "Get an episode",
      description: "One published episode, by number or UUID.",
      keyed: true,
      body: { kind: "json", schema: "Episode" },
      errors: EPISODE_ERRORS,
    },
  },
  getEpisodeAudio: {
    paths: ["/v1/episodes/{ref}/audio"],
    bucket: "audio",
    api: true,
    parameters: ["ref", "download", "range", "ifRange", "ifNoneMatch"],
    operation: {
      tag: "Audio",
      operationId: "getEpisodeAudio",
      summary: "Get an episode's audio",
      description:
        "The MP3, streamed: 200 for the whole file, 206 for a satisfiable Range (one range, or several as `multipart/byteranges`), 416 for an unsatisfiable one. `If-Range` is honoured with the strong comparison. An episode published before its audio answers 404 until the audio exists. In the opt-in redirect mode the route answers 302 to a short-lived presigned storage URL instead.",
      keyed: false,
      body: { kind: "audio" },
      errors: ["invalid_episode_ref", "not_found", "range_not_satisfiable", "rate_limited", "upstream_unavailable"],
    },
  },
  getEpisodeScript: {
    paths: ["/v1/episodes/{ref}/script"],
    bucket: "metadata",
    api: true,
    parameters: ["ref", "ifNoneMatch"],
    operation: {
      tag: "Scripts",
      operationId: "getEpisodeScript",
      summary: "Get an episode's script",
      description:
        "The structured dialogue script: speaker-labelled segments in speaking order (stage directions removed) and editorial chapters. 404 `script_unavailable` when the episode has no script, 422 `script_unparseable` when its script exists but could not be parsed.",
      keyed: true,
      body: { kind: "json", schema: "Script" },
      errors: [...EPISODE_ERRORS, "script_unavailable", "script_unparseable"],
    },
  },
  getEpisodeTranscript: {
    paths: ["/v1/episodes/{ref}/transcript"],
    bucket: "metadata",
    api: true,
    parameters: ["ref", "ifNoneMatch"],
    operation: {
      tag: "Scripts",
      operationId: "getEpisodeTranscript",
      summary: "Get an episode's transcript",
      description:
        "Plain text, one line per spoken turn (`Speaker Name: text`), in speaking order, ending with a newline. 404 `transcript_unavailable` when there is no usable script to derive it from.",
      keyed: true,
      body: { kind: "text", media: "text/plain" },
      errors: [...EPISODE_ERRORS, "transcript_unavailable"],
    },
  },
  getEpisodeTranscriptVtt: timedForm("vtt", {
    operationId: "getEpisodeTranscriptVtt",
    summary: "Get an episode's timed transcript as WebVTT",
    description: `WebVTT (what Apple Podcasts reads): \`WEBVTT\`, then one cue per spoken turn, \`hh:mm:ss.mmm --> hh:mm:ss.mmm\`, its text in a voice span \`<v Speaker Name>\` (\`&\`, \`<\` and \`>\` as character references). ${UNTIMED_TRANSCRIPT}`,
    body: { kind: "text", media: "text/vtt" },
  }),
  getEpisodeTranscriptSrt: timedForm("srt", {
    operationId: "getEpisodeTranscriptSrt",
    summary: "Get an episode's timed transcript as SubRip",
    description: `SubRip: cues numbered from 1, \`hh:mm:ss,mmm --> hh:mm:ss,mmm\`, text \`Speaker Name: text\`. ${UNTIMED_TRANSCRIPT}`,
    body: { kind: "text", media: "application/x-subrip" },
  }),
  getEpisodeTranscriptJson: timedForm("json", {
    operationId: "getEpisodeTranscriptJson",
    summary: "Get an episode's timed transcript as Podcasting 2.0 JSON",
    description: `The Podcasting 2.0 JSON transcript (version 1.0.0): one segment per spoken turn, in order, with \`speaker\`, \`startTime\`, \`endTime\` (seconds) and \`body\`. ${UNTIMED_TRANSCRIPT}`,
    body: { kind: "json", schema: "JsonTranscript" },
  }),
  getEpisodeChapters: timedForm("chapters", {
    operationId: "getEpisodeChapters",
    summary: "Get an episode's chapters as Podcasting 2.0 JSON chapters",
    description:
      "Podcasting 2.0 JSON chapters (version 1.2.0): each chapter's `startTime`, `title` and `endTime` (the next chapter's start; for the last, the audio's duration when it is known), in seconds. 404 `chapters_unavailable` when the episode has no script, an invalid one, or chapters that are not timed.",
    body: { kind: "json", schema: "JsonChapters" },
  }),
  openapi: {
    paths: ["/v1/openapi.json"],
    bucket: null,
    api: true,
    parameters: ["ifNoneMatch"],
    operation: {
      tag: "Discovery",
      operationId: "getOpenApiDocument",
      summary: "OpenAPI description",
      description: "This document: the OpenAPI 3.1 description of the API, generated from the schemas the build validates every response with. Not rate limited.",
      keyed: false,
      body: { kind: "openapi" },
      errors: ["upstream_unavailable"],
    },
  },
  /** Any other path under /v1: 404 in the envelope, counted like metadata so probing is limited too. */
  apiNotFound: { paths: ["/v1/{rest+}"], bucket: "metadata", api: true, parameters: [], operation: null },

  home: site(["/", "/index", "/index.html"]),
  terms: site(["/terms"]),
  oembed: site(["/oembed"]),
  /** Hashed build assets (CSS, the player's script). */
  buildAsset: site(["/_astro/{file+}"]),
  embedLatest: site(["/embed/latest"]),
  embed: site(["/embed/{ref}"], ["ref"]),
  embedNotFound: site(["/embed", "/embed/{rest+}"]),
  /** The archive of every published episode, 50 a page: `/episodes`, `/episodes?page=2`, … (src/shared/archive.ts). */
  archive: site(["/episodes", "/episodes/"]),
  episodePage: site(["/episodes/{ref}"], ["ref"]),
  episodesNotFound: site(["/episodes/{rest+}"]),
  /** The direct audioUrl of local storage; counted in the audio bucket like the audio route. */
  media: { paths: ["/media/{file+}"], bucket: "audio", api: false, parameters: [], operation: null },
  /** The feed and the crawler surfaces (functions/routes/surfaces.ts): unlimited, like the site. */
  feed: site(["/feed.xml"]),
  jsonFeed: site(["/feed.json"]),
  sitemap: site(["/sitemap.xml"]),
  robots: site(["/robots.txt"]),
  llms: site(["/llms.txt"]),
  /**
   * The MCP endpoint (functions/routes/mcp.ts): POST only; not limited per request, each tool call counts
   * in the metadata bucket instead. An API surface: the license Link, errors in the envelope.
   */
  mcp: { paths: ["/mcp"], bucket: null, api: true, parameters: [], operation: null },
} satisfies Record<string, Route>;

export type RouteId = keyof typeof ROUTES;

/** Values of a route's `{name}` segments; a name left out stays a URI-template variable (`{ref}`). */
export type PathParams = Readonly<Record<string, string | number>>;

/**
 * The reverse router: the canonical path of a route, its `{name}` segments filled from `params`
 * (percent-encoded). Every public path outside this table is made here (src/shared/links.ts
 * `urlOf` adds the origin); tests/unit/runtime-guard.test.ts refuses a path literal elsewhere.
 */
export function pathOf(route: RouteId, params: PathParams = {}): string {
  const template: string = ROUTES[route].paths[0]!;
  return template.replace(/\{(\w+)\+?\}/g, (_, name: string) => (name in params ? encodeURIComponent(String(params[name])) : `{${name}}`));
}

/** The documented API routes (the ones with an OpenAPI operation), in table order. */
export const DOCUMENTED: readonly (Route & { operation: Operation })[] = Object.values(ROUTES as Record<RouteId, Route>).filter(
  (r): r is Route & { operation: Operation } => r.operation !== null,
);

/** The canonical paths of the documented routes of a bucket. */
function documentedPathsOf(bucket: Bucket): string[] {
  return DOCUMENTED.filter((r) => r.bucket === bucket).map((r) => r.paths[0]!);
}

/** The discovery document's `rateLimits`: the limits in force and the routes each bucket covers. */
export function rateLimitsOf(limits: RateLimits): DiscoveryDocument["rateLimits"] {
  const bucket = (b: Bucket) => ({ limit: quotaOf(limits, b), windowSeconds: RATE_WINDOW_SECONDS, scope: "ip" as const, routes: documentedPathsOf(b) });
  return { metadata: bucket("metadata"), audio: bucket("audio") };
}
