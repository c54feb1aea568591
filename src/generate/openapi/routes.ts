// The routes of the API (spec §4) and what each can answer: the table the OpenAPI document is
// generated from. Error codes come from the one error table (src/lib/errors.ts); statuses follow.
import type { ErrorCode } from "../../shared/errors.ts";
import { AUDIO_ROUTES, METADATA_ROUTES } from "../../shared/limits.ts";
import type { Bucket } from "./headers.ts";
import type { ComponentName } from "./schemas.ts";

export type Body =
  | { kind: "json"; schema: ComponentName }
  | { kind: "text" }
  | { kind: "audio" }
  | { kind: "openapi" };

export interface Route {
  path: string;
  tag: "Discovery" | "Episodes" | "Audio" | "Scripts";
  /** operationId of GET; HEAD's is derived (get → head). */
  operationId: string;
  summary: string;
  description: string;
  /** Rate-limit bucket, or null for unlimited routes (PRODUCT.md §3.7). */
  bucket: Bucket | null;
  /** Spec §5 variant: routes that would take an API key (always optional here). */
  keyed: boolean;
  parameters: string[];
  body: Body;
  /** Error codes this route can answer, besides method_not_allowed (every path). */
  errors: ErrorCode[];
  /** Codes the specification lists for the route that this implementation never answers. */
  reserved?: ErrorCode[];
}

const EPISODE_ERRORS: ErrorCode[] = ["invalid_episode_ref", "not_found", "rate_limited", "upstream_unavailable"];

export const ROUTES: Route[] = [
  {
    path: "/v1",
    tag: "Discovery",
    operationId: "getDiscovery",
    summary: "Discovery document",
    description: "Endpoint URLs and URI templates of every surface, the rate limits in force and the page sizes of the list.",
    bucket: "metadata",
    keyed: false,
    parameters: ["ifNoneMatch"],
    body: { kind: "json", schema: "Discovery" },
    errors: ["rate_limited", "upstream_unavailable"],
  },
  {
    path: "/v1/episodes",
    tag: "Episodes",
    operationId: "listEpisodes",
    summary: "List published episodes",
    description:
      "Published episodes, newest first (`publishedAt` descending, then `episodeNumber`, then `id`), in pages. Request with `limit`, read `pagination.nextCursor`, request again with `cursor` set to it; repeat until `nextCursor` is null. Keyset cursors: pages never repeat or skip an episode while new ones publish. Unknown query parameters are ignored.",
    bucket: "metadata",
    keyed: true,
    parameters: ["limit", "cursor", "domain", "since", "ifNoneMatch"],
    body: { kind: "json", schema: "EpisodePage" },
    errors: ["invalid_limit", "invalid_cursor", "invalid_domain", "invalid_since", "rate_limited", "upstream_unavailable"],
    reserved: ["not_found"],
  },
  {
    path: "/v1/episodes/{ref}",
    tag: "Episodes",
    operationId: "getEpisode",
    summary: "Get an episode",
    description: "One published episode, by number or UUID.",
    bucket: "metadata",
    keyed: true,
    parameters: ["ref", "ifNoneMatch"],
    body: { kind: "json", schema: "Episode" },
    errors: EPISODE_ERRORS,
  },
  {
    path: "/v1/episodes/{ref}/audio",
    tag: "Audio",
    operationId: "getEpisodeAudio",
    summary: "Get an episode's audio",
    description:
      "The MP3, streamed: 200 for the whole file, 206 for a satisfiable Range (one range, or several as `multipart/byteranges`), 416 for an unsatisfiable one. `If-Range` is honoured with the strong comparison. An episode published before its audio answers 404 until the audio exists. In the opt-in redirect mode the route answers 302 to a short-lived presigned storage URL instead.",
    bucket: "audio",
    keyed: false,
    parameters: ["ref", "download", "range", "ifRange", "ifNoneMatch"],
    body: { kind: "audio" },
    errors: ["invalid_episode_ref", "not_found", "range_not_satisfiable", "rate_limited", "upstream_unavailable"],
  },
  {
    path: "/v1/episodes/{ref}/script",
    tag: "Scripts",
    operationId: "getEpisodeScript",
    summary: "Get an episode's script",
    description:
      "The structured dialogue script: speaker-labelled segments in speaking order (stage directions removed) and editorial chapters. 404 `script_unavailable` when the episode has no script, 422 `script_unparseable` when its script exists but could not be parsed.",
    bucket: "metadata",
    keyed: true,
    parameters: ["ref", "ifNoneMatch"],
    body: { kind: "json", schema: "Script" },
    errors: [...EPISODE_ERRORS, "script_unavailable", "script_unparseable"],
  },
  {
    path: "/v1/episodes/{ref}/transcript",
    tag: "Scripts",
    operationId: "getEpisodeTranscript",
    summary: "Get an episode's transcript",
    description:
      "Plain text, one line per spoken turn (`Speaker Name: text`), in speaking order, ending with a newline. 404 `transcript_unavailable` when there is no usable script to derive it from.",
    bucket: "metadata",
    keyed: true,
    parameters: ["ref", "ifNoneMatch"],
    body: { kind: "text" },
    errors: [...EPISODE_ERRORS, "transcript_unavailable"],
  },
  {
    path: "/v1/openapi.json",
    tag: "Discovery",
    operationId: "getOpenApiDocument",
    summary: "OpenAPI description",
    description: "This document: the OpenAPI 3.1 description of the API, generated from the schemas the build validates every response with. Not rate limited.",
    bucket: null,
    keyed: false,
    parameters: ["ifNoneMatch"],
    body: { kind: "openapi" },
    errors: ["upstream_unavailable"],
  },
];

/** Guards the table against the limits module: every limited route is in the bucket it names. */
export function checkRouteBuckets(): void {
  for (const r of ROUTES) {
    const listed = r.bucket === "metadata" ? METADATA_ROUTES : r.bucket === "audio" ? AUDIO_ROUTES : [];
    if (r.bucket !== null && !listed.includes(r.path)) throw new Error(`route ${r.path} is not in the ${r.bucket} bucket of src/lib/limits.ts`);
  }
}
