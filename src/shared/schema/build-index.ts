// The compact index the build writes to dist/_api/index.json and the shim loads at start-up:
// everything the request path needs to resolve references, apply the publication clock, filter
// and page the list, without reading an episode body. Episodes come in list order.
import * as z from "zod";

export const scriptState = z.enum(["ok", "missing", "unparseable"]);

export const indexEntry = z.object({
  id: z.string(),
  n: z.int().nullable(),
  /** publishedAt, epoch ms. */
  p: z.number(),
  /** discoveredAt (or publishedAt), epoch ms: what `since` compares. */
  s: z.number(),
  /** Canonical reference: the number, or the UUID; names the episode's files. */
  ref: z.string(),
  title: z.string(),
  domains: z.array(z.string()),
  script: scriptState,
  transcript: z.boolean(),
  audio: z
    .object({
      /** Storage key (local: file name under dist/media, see src/shared/layout.ts; s3: object key). */
      key: z.string(),
      bytes: z.int().nullable(),
      /** Strong ETag of the audio bytes, computed by the build (src/generate/episode-writer.ts, audioEtag). */
      etag: z.string(),
    })
    .nullable(),
});
export type IndexEntry = z.infer<typeof indexEntry>;

export const buildIndex = z.object({
  version: z.literal(1),
  show: z.object({ slug: z.string(), title: z.string() }),
  termsUrl: z.string(),
  baseUrl: z.string(),
  siteUrl: z.string(),
  episodes: z.array(indexEntry),
});
export type BuildIndex = z.infer<typeof buildIndex>;

