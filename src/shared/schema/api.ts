// API resource schemas: what the service sends (docs/api.md#api-routes). The build parses every rendered body
// with these, the OpenAPI document is generated from them and the tests validate responses by them.
import * as z from "zod";
import { SLUG_PATTERN } from "./content.ts";

// Every member the server always sends is required (null where the content has no value), so a
// response missing one fails validation; `audioUrl` is the one member left out when there is no
// audio. Objects are open in the published document: the contract is additive-only (docs/api.md#versioning).

const uri = z.url();
/** Lower-case UUID: responses always use the lower-case form (docs/api.md#get-v1episodesref). */
const uuid = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
  .meta({ format: "uuid" });
const dateTime = z.iso.datetime({ offset: true });
const episodeNumber = z.int().min(1).max(999_999_999).nullable().describe("Episode number; null for an episode without one");

export const hostsResource = z
  .object({
    a: z.string().describe("Display name of host a, the optimist product manager"),
    b: z.string().describe("Display name of host b, the skeptic engineer"),
  })
  .describe("Display names of the two AI hosts: a = optimist product manager, b = skeptic engineer");

export const episodeLinks = z
  .object({
    self: uri.describe("This episode: {base_url}/v1/episodes/<number, or the UUID when the episode has no number>"),
    audio: uri.describe("The MP3 through the API: Range requests and a descriptive download file name (preferred over audioUrl)"),
    script: uri.describe("The structured script"),
    transcript: uri.describe("The plain-text transcript"),
    page: uri.describe("The episode page on {site_url}"),
    embed: uri.describe("The embeddable player on {site_url}"),
    oembed: uri.describe("The oEmbed endpoint on {site_url}, with the percent-encoded episode page address in `url`"),
  })
  .describe("Absolute URLs of the episode's resources and surfaces");

export const episodeKind = z
  .object({
    type: z
      .string()
      .describe("Episode format. Current values: normal, announcement, overview, model-behavior. New values may be added: clients must accept any string")
      .meta({ examples: ["normal", "announcement", "overview", "model-behavior"] }),
    sourceForm: z.string().nullable().describe("Form of the source the episode discusses (values not fixed)"),
    eventType: z.string().nullable().describe("Kind of event the episode covers (values not fixed)"),
  })
  .describe("Episode format and source");

export const episodeTopics = z
  .object({
    domains: z.array(z.string().regex(SLUG_PATTERN)).describe("Domain facet slugs (the `domain` filter of the list)"),
    concepts: z.array(z.string()).describe("Concept slugs"),
    entities: z.array(z.string()).describe("Entity slugs"),
  })
  .describe("Topic facets");

export const episodeResource = z
  .object({
    id: uuid.describe("Episode UUID (lower case)"),
    episodeNumber,
    season: z.int().min(1).max(999_999_999).nullable().describe("Season number; null for an episode outside any season"),
    title: z.string(),
    shareTitle: z.string().describe("Title for sharing; the title when the episode has none of its own"),
    summary: z.string().nullable(),
    description: z.string().nullable(),
    publishedAt: dateTime.nullable().describe("Publication time (RFC 3339)"),
    durationSeconds: z.int().min(0).nullable().describe("Duration in seconds"),
    sourceUrl: uri.nullable().describe("The source the episode discusses"),
    audioUrl: uri
      .optional()
      .describe("Direct MP3 URL on storage; absent while the episode has no audio. links.audio is preferred: it supports Range and gives a descriptive download file name"),
    coverImageUrl: uri.nullable(),
    hosts: hostsResource,
    archetype: z.string().nullable().describe("Editorial archetype of the episode (values not fixed)"),
    kind: episodeKind,
    topics: episodeTopics,
    links: episodeLinks,
  })
  .describe("A published episode");
export type EpisodeResource = z.infer<typeof episodeResource>;

/** Seconds from the start of the audio, to the millisecond. */
const seconds = z.number().min(0);

export const scriptChapter = z
  .object({
    title: z.string(),
    summary: z.string().optional(),
    takeaways: z.array(z.string()).optional(),
    start: seconds
      .optional()
      .describe("Where the chapter starts in the audio, in seconds (to the millisecond). Present on every chapter when the chapters are timed, on none otherwise"),
  })
  .describe("An editorial chapter");

export const scriptSegment = z
  .object({
    speaker: z.string().describe("Display name of the host speaking"),
    text: z.string().describe("The spoken line, stage directions removed"),
    start: seconds
      .optional()
      .describe("When the turn starts in the audio, in seconds (to the millisecond). Present, with `end`, on every segment when the segments are timed, on none otherwise"),
    end: seconds.optional().describe("When the turn ends in the audio, in seconds (to the millisecond); after `start`"),
  })
  .describe("One spoken turn");

export const scriptResource = z
  .object({
    id: uuid.describe("Episode UUID (lower case)"),
    episodeNumber,
    title: z.string(),
    hosts: hostsResource,
    chapters: z.array(scriptChapter).describe("Editorial chapters"),
    segments: z.array(scriptSegment).describe("Spoken turns, in speaking order"),
  })
  .describe("The structured dialogue script of an episode");
export type ScriptResource = z.infer<typeof scriptResource>;

export const jsonTranscriptSegment = z
  .object({
    speaker: z.string().describe("Display name of the host speaking"),
    startTime: seconds.describe("When the turn starts, in seconds"),
    endTime: seconds.describe("When the turn ends, in seconds"),
    body: z.string().describe("The spoken line, stage directions removed"),
  })
  .describe("One spoken turn of a JSON transcript");

export const jsonTranscript = z
  .object({
    version: z.literal("1.0.0").describe("Version of the Podcasting 2.0 JSON transcript format"),
    segments: z.array(jsonTranscriptSegment).describe("Spoken turns, in speaking order"),
  })
  .describe("A timed transcript in the Podcasting 2.0 JSON transcript format (podcast namespace, transcript.md)");
export type JsonTranscript = z.infer<typeof jsonTranscript>;

export const jsonChapter = z
  .object({
    startTime: seconds.describe("Where the chapter starts, in seconds"),
    title: z.string(),
    endTime: seconds
      .optional()
      .describe("Where the chapter ends, in seconds: the next chapter's start; for the last chapter the audio's duration, absent when it is not known"),
  })
  .describe("One chapter of a JSON chapters document");

export const jsonChapters = z
  .object({
    version: z.literal("1.2.0").describe("Version of the Podcasting 2.0 JSON chapters format"),
    chapters: z.array(jsonChapter).describe("Chapters, in order of their start"),
  })
  .describe("Timed chapters in the Podcasting 2.0 JSON chapters format (podcast namespace, jsonChapters.md)");
export type JsonChapters = z.infer<typeof jsonChapters>;

export const pagination = z
  .object({
    nextCursor: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/)
      .nullable()
      .describe("Opaque cursor of the next page, to pass back unchanged as `cursor`; null on the last page"),
    limit: z.int().min(1).max(50).describe("The page size applied"),
  })
  .describe("Where the next page starts");

export const episodePage = z
  .object({
    episodes: z.array(episodeResource).describe("Published episodes, newest first"),
    pagination,
  })
  .describe("A page of the episode list");
export type EpisodePage = z.infer<typeof episodePage>;

export const errorEnvelope = z
  .object({
    error: z
      .object({
        code: z.string().describe("Stable machine-readable code; clients match on it"),
        message: z.string().describe("Human-readable explanation; names the parameter at fault on 400"),
        status: z.int().min(400).max(599).describe("Equals the HTTP status"),
        parameter: z.string().optional().describe("The query parameter or path segment at fault, on 400 responses"),
      })
      .describe("What went wrong"),
  })
  .describe("The error envelope");
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

export const rateLimitBucket = z
  .object({
    limit: z.int().min(1).describe("Requests allowed per window"),
    windowSeconds: z.int().min(1).describe("Length of the window in seconds"),
    scope: z.literal("ip").describe("Requests are counted per client IP address"),
    routes: z.array(z.string()).describe("Route templates counted against this bucket"),
  })
  .describe("A rate-limit bucket");

export const discoveryDocument = z
  .object({
    name: z.string(),
    version: z.string().describe("Version of the API contract"),
    description: z.string(),
    links: z
      .object({
        self: uri.describe("This document"),
        episodes: uri.describe("The episode list"),
        episode: z.string().describe("URI template of one episode: {base_url}/v1/episodes/{ref}, ref a UUID or an episode number"),
        transcriptVtt: z.string().describe("URI template of an episode's timed transcript as WebVTT: {base_url}/v1/episodes/{ref}/transcript.vtt"),
        transcriptSrt: z.string().describe("URI template of an episode's timed transcript as SubRip: {base_url}/v1/episodes/{ref}/transcript.srt"),
        transcriptJson: z.string().describe("URI template of an episode's timed transcript as Podcasting 2.0 JSON: {base_url}/v1/episodes/{ref}/transcript.json"),
        chapters: z.string().describe("URI template of an episode's timed chapters as Podcasting 2.0 JSON chapters: {base_url}/v1/episodes/{ref}/chapters.json"),
        openapi: uri.describe("The OpenAPI 3.1 description"),
        license: uri.describe("The usage terms"),
        site: uri.describe("The public site"),
        oembed: uri.describe("The oEmbed endpoint"),
        embed: z.string().describe("URI template of the embeddable player: {site_url}/embed/{ref}"),
        embedLatest: uri.describe("The player of the most recent episode"),
        page: z.string().describe("URI template of an episode page: {site_url}/episodes/{ref}"),
        feed: uri.describe("The podcast feed: RSS 2.0 with the iTunes and Podcasting 2.0 namespaces"),
        jsonFeed: uri.describe("The same items as the podcast feed, as a JSON Feed 1.1"),
        mcp: uri.describe("The MCP endpoint (Model Context Protocol, streamable HTTP)"),
        llms: uri.describe("llms.txt: the plain-text index of the machine-readable surfaces"),
      })
      .catchall(z.string())
      .describe("Absolute URLs and URI templates of every surface; further surfaces may be added"),
    rateLimits: z.object({ metadata: rateLimitBucket, audio: rateLimitBucket }).describe("Rate limits in force, per bucket"),
    pagination: z
      .object({
        defaultLimit: z.int().min(1).describe("Page size when `limit` is absent"),
        maxLimit: z.int().min(1).describe("Largest accepted `limit`"),
      })
      .describe("Page sizes of the episode list"),
  })
  .describe("The discovery document: endpoint URLs, rate limits and page sizes");
export type DiscoveryDocument = z.infer<typeof discoveryDocument>;
