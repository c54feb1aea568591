// API resource schemas: what the service sends (spec §2). The build parses every rendered body
// with these, the OpenAPI document is generated from them and the tests validate responses by them.
import { z } from "zod";
import { SLUG_PATTERN } from "./content.ts";

const uri = z.url();
const nullableString = z.string().nullable();

export const hostsResource = z
  .object({ a: z.string(), b: z.string() })
  .describe("Display names of the two AI hosts: a = optimist product manager, b = skeptic engineer");

export const episodeLinks = z.object({
  self: uri,
  audio: uri,
  script: uri,
  transcript: uri,
  page: uri,
  embed: uri,
  oembed: uri,
});

export const episodeResource = z.object({
  id: z.string().describe("Episode UUID (lower case)"),
  episodeNumber: z.int().nullable(),
  title: z.string(),
  shareTitle: z.string().optional(),
  summary: nullableString.optional(),
  description: nullableString.optional(),
  publishedAt: z.string().nullable().optional(),
  durationSeconds: z.int().nullable().optional(),
  sourceUrl: uri.nullable().optional(),
  audioUrl: uri.optional(),
  coverImageUrl: uri.nullable().optional(),
  hosts: hostsResource,
  archetype: nullableString.optional(),
  kind: z.object({
    type: z.string().describe("Episode format; current values normal, announcement, overview, model-behavior; new values may be added"),
    sourceForm: nullableString.optional(),
    eventType: nullableString.optional(),
  }),
  topics: z.object({
    domains: z.array(z.string().regex(SLUG_PATTERN)),
    concepts: z.array(z.string()),
    entities: z.array(z.string()),
  }),
  links: episodeLinks,
});
export type EpisodeResource = z.infer<typeof episodeResource>;

export const scriptResource = z.object({
  id: z.string(),
  episodeNumber: z.int().nullable().optional(),
  title: z.string(),
  hosts: hostsResource,
  chapters: z
    .array(z.object({ title: z.string(), summary: z.string().optional(), takeaways: z.array(z.string()).optional() }))
    .optional(),
  segments: z.array(z.object({ speaker: z.string(), text: z.string() })),
});
export type ScriptResource = z.infer<typeof scriptResource>;

export const episodePage = z.object({
  episodes: z.array(episodeResource),
  pagination: z.object({ nextCursor: z.string().nullable(), limit: z.int().min(1).max(50) }),
});
export type EpisodePage = z.infer<typeof episodePage>;

export const errorEnvelope = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    status: z.int(),
    parameter: z.string().optional().describe("The query parameter or path segment at fault, on 400 responses"),
  }),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

const bucket = z.object({
  limit: z.int(),
  windowSeconds: z.int(),
  scope: z.literal("ip"),
  routes: z.array(z.string()),
});

export const discoveryDocument = z.object({
  name: z.string(),
  version: z.string(),
  description: z.string(),
  links: z.object({
    self: uri,
    episodes: uri,
    episode: z.string().describe("URI template: {base_url}/v1/episodes/{ref}"),
    openapi: uri,
    license: uri,
    site: uri,
    oembed: uri,
    embed: z.string(),
  }).catchall(z.string()),
  rateLimits: z.object({ metadata: bucket, audio: bucket }),
  pagination: z.object({ defaultLimit: z.int(), maxLimit: z.int() }),
});
export type DiscoveryDocument = z.infer<typeof discoveryDocument>;
