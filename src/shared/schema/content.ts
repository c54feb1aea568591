// Content schemas: what operators author under content/ (README.md#content-format).
// The build validates every file with these; nothing else defines the content's shape.
import * as z from "zod";
import { APPLE_CATEGORIES, subcategoriesOf } from "../apple-categories.ts";
import { UPDATE_FREQUENCY_NAMES } from "../update-frequency.ts";

/** Domain facet slug, the pattern of the list's domain filter (docs/api.md#get-v1episodes). Also used for concepts and entities. */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** Any-case UUID. zod 4's z.uuid() rejects some valid-looking ids, so a plain pattern it is. */
export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

const slug = z.string().regex(SLUG_PATTERN, "must be a slug matching ^[a-z0-9][a-z0-9-]{0,63}$");
const dateTime = z.iso.datetime({ offset: true });
const url = z.url({ protocol: /^https?$/ });

/** Apple Podcasts allows a show up to three categories (src/shared/apple-categories.ts). */
export const CATEGORIES_MAX = 3;

/** A category of Apple's list, with one of its subcategories or none; anything else names the member at fault. */
const appleCategory = z
  .strictObject({ category: z.string(), subcategory: z.string().optional() })
  .superRefine((c, ctx) => {
    const subcategories = subcategoriesOf(c.category);
    if (subcategories === undefined) {
      ctx.addIssue({ code: "custom", path: ["category"], message: `'${c.category}' is not an Apple Podcasts category (one of: ${Object.keys(APPLE_CATEGORIES).join(", ")})` });
    } else if (c.subcategory !== undefined && !subcategories.includes(c.subcategory)) {
      const allowed = subcategories.length === 0 ? `${c.category} has none` : `one of: ${subcategories.join(", ")}`;
      ctx.addIssue({ code: "custom", path: ["subcategory"], message: `'${c.subcategory}' is not an Apple Podcasts subcategory of ${c.category} (${allowed})` });
    }
  });

const categories = z
  .array(appleCategory)
  .min(1)
  .max(CATEGORIES_MAX)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((c, i) => {
      const key = `${c.category}\0${c.subcategory ?? ""}`;
      if (seen.has(key)) ctx.addIssue({ code: "custom", path: [i], message: "repeats an earlier category" });
      seen.add(key);
    });
  });

export const podcastSchema = z.strictObject({
  title: z.string().min(1),
  slug,
  description: z.string(),
  language: z.string().min(2),
  author: z.string().min(1),
  termsUrl: url.optional(),
  coverImageUrl: url.optional(),
  /** The feed's itunes:category, in order: Apple reads the first. */
  categories: categories.optional(),
  /** episodic: newest first; serial: in order, by episode number (the feed's itunes:type). */
  type: z.enum(["episodic", "serial"]).default("episodic"),
  explicit: z.boolean().default(false),
  updateFrequency: z.enum(UPDATE_FREQUENCY_NAMES).optional(),
  /** podcast:locked: true tells other hosting platforms not to import the feed. */
  locked: z.boolean().optional(),
  /** The owner's address: podcast:locked's owner and itunes:owner, where directories verify ownership. */
  ownerEmail: z.email().optional(),
});
export type Podcast = z.infer<typeof podcastSchema>;

export const hostsSchema = z.strictObject({ a: z.string().min(1), b: z.string().min(1) });

export const episodeFileSchema = z.strictObject({
  id: z.string().regex(UUID_PATTERN, "must be a UUID"),
  episodeNumber: z.int().min(1).max(999_999_999).nullable(),
  title: z.string().min(1),
  shareTitle: z.string().min(1).optional(),
  summary: z.string().optional(),
  description: z.string().optional(),
  status: z.enum(["published", "draft"]).default("published"),
  publishedAt: dateTime.nullable(),
  discoveredAt: dateTime.optional(),
  durationSeconds: z.int().min(0).optional(),
  season: z.int().min(1).max(999_999_999).optional(),
  sourceUrl: url.optional(),
  coverImageUrl: url.optional(),
  hosts: hostsSchema,
  archetype: z.string().min(1).optional(),
  kind: z.strictObject({
    type: z.string().min(1),
    sourceForm: z.string().min(1).optional(),
    eventType: z.string().min(1).optional(),
  }),
  topics: z.strictObject({
    domains: z.array(slug),
    concepts: z.array(slug),
    entities: z.array(slug),
  }),
  audio: z
    .strictObject({
      file: z.string().min(1).optional(),
      key: z.string().min(1).optional(),
      bytes: z.int().min(0).optional(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/, "must be 64 lower-case hex digits").optional(),
    })
    .optional(),
});
export type EpisodeFile = z.infer<typeof episodeFileSchema>;

/**
 * A time in the audio: seconds from its start, a number >= 0 (kept to the millisecond). Whether a
 * script's times hold together (every spoken segment timed, in order, within the audio) is not a
 * matter of shape: src/generate/timings.ts judges it, and a script that fails only warns.
 */
const seconds = z.number().min(0);

export const scriptFileSchema = z.strictObject({
  chapters: z.array(
    z.strictObject({
      title: z.string().min(1),
      summary: z.string().optional(),
      takeaways: z.array(z.string()).optional(),
      start: seconds.optional(),
    }),
  ),
  segments: z.array(z.strictObject({ speaker: z.string().min(1), text: z.string(), start: seconds.optional(), end: seconds.optional() })),
});
export type ScriptFile = z.infer<typeof scriptFileSchema>;
