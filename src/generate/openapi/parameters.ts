// Request parameters of the API, stated with zod from the same constants the shim checks them by
// (functions/list-query.ts, src/lib/refs.ts, src/lib/since.ts).
import { z } from "zod";
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from "../../shared/limits.ts";
import { SLUG_PATTERN, UUID_PATTERN } from "../../shared/schema/content.ts";
import { jsonSchemaOf, type JsonSchema } from "./schemas.ts";

/** The longest cursor the shim decodes (src/lib/cursor.ts). */
const CURSOR_MAX_LENGTH = 512;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export const parameterSchemas = {
  limit: z.int().min(1).max(PAGE_LIMIT_MAX).default(PAGE_LIMIT_DEFAULT),
  cursor: z.string().min(1).max(CURSOR_MAX_LENGTH).regex(BASE64URL),
  domain: z.string().min(1).max(64).regex(SLUG_PATTERN),
  since: z.union([
    z.iso.date().describe("A date, YYYY-MM-DD: midnight UTC"),
    z.iso.datetime({ offset: true }).describe("An RFC 3339 date-time with an offset"),
  ]),
  ref: z.union([
    z.int().min(0).max(999_999_999).describe("An episode number (1 to 9 decimal digits)"),
    z.string().regex(UUID_PATTERN).meta({ format: "uuid" }).describe("An episode UUID, in any letter case"),
  ]),
  download: z.string(),
};

export interface ParameterObject {
  name: string;
  in: "query" | "path" | "header";
  required?: boolean;
  description: string;
  schema: JsonSchema;
  example?: unknown;
  examples?: Record<string, { summary: string; value: unknown }>;
}

export function componentParameters(exampleRefs: { number: string | null; uuid: string | null; domain: string | null }): Record<string, ParameterObject> {
  const refExamples: Record<string, { summary: string; value: unknown }> = {};
  if (exampleRefs.number !== null) refExamples.number = { summary: "By episode number", value: Number(exampleRefs.number) };
  if (exampleRefs.uuid !== null) refExamples.uuid = { summary: "By UUID", value: exampleRefs.uuid };
  return {
    limit: {
      name: "limit",
      in: "query",
      description: `Page size: a whole number from 1 to ${PAGE_LIMIT_MAX}, default ${PAGE_LIMIT_DEFAULT}. Anything else, or a repeated parameter, is refused with 400 \`invalid_limit\`. It may change from page to page.`,
      schema: jsonSchemaOf(parameterSchemas.limit),
      example: 10,
    },
    cursor: {
      name: "cursor",
      in: "query",
      description:
        "Opaque value of `pagination.nextCursor` from the previous page, passed back unchanged. It carries the `domain` and `since` filters of the first page: send it alone, or with the same filters. A malformed, altered or truncated cursor, or one sent with other filters, is refused with 400 `invalid_cursor`.",
      schema: jsonSchemaOf(parameterSchemas.cursor),
    },
    domain: {
      name: "domain",
      in: "query",
      description:
        "Only episodes carrying this domain facet slug (`topics.domains`). Must match `^[a-z0-9][a-z0-9-]{0,63}$`, else 400 `invalid_domain`; a well-formed slug no episode carries gives an empty page.",
      schema: jsonSchemaOf(parameterSchemas.domain),
      ...(exampleRefs.domain === null ? {} : { example: exampleRefs.domain }),
    },
    since: {
      name: "since",
      in: "query",
      description:
        "Only episodes discovered at or after this instant (their `discoveredAt`, or `publishedAt` when they have none): a date `YYYY-MM-DD` (midnight UTC) or an RFC 3339 date-time with an offset. Anything else, or an impossible date such as 2026-02-30, is refused with 400 `invalid_since`.",
      schema: jsonSchemaOf(parameterSchemas.since),
      example: "2026-01-01",
    },
    ref: {
      name: "ref",
      in: "path",
      required: true,
      description:
        "The episode: its number (1 to 9 decimal digits) or its UUID (any letter case). Anything else is refused with 400 `invalid_episode_ref`; a well-formed reference with no published episode behind it gives 404 `not_found`.",
      schema: jsonSchemaOf(parameterSchemas.ref),
      ...(Object.keys(refExamples).length > 0 ? { examples: refExamples } : {}),
    },
    download: {
      name: "download",
      in: "query",
      description:
        "`1` answers with `Content-Disposition: attachment` and a descriptive file name (`<show-slug>-<number>-<title-slug>.mp3`, with `filename*` for non-ASCII titles); any other value, or none, answers `inline`.",
      schema: jsonSchemaOf(parameterSchemas.download),
      example: "1",
    },
    ifNoneMatch: {
      name: "If-None-Match",
      in: "header",
      description:
        "Entity tags from earlier responses (a list, or `*`), compared weakly: when one matches the current ETag the answer is 304 Not Modified without a body.",
      schema: { type: "string" },
    },
    range: {
      name: "Range",
      in: "header",
      description:
        "Byte ranges of the MP3 (RFC 9110 §14.2): `bytes=0-1023`, open `bytes=1024-`, suffix `bytes=-1024`; several ranges get a `multipart/byteranges` answer. An unsatisfiable range gives 416; an invalid one, or another unit, is ignored (200, whole file). HEAD ignores Range.",
      schema: { type: "string" },
      example: "bytes=0-1023",
    },
    ifRange: {
      name: "If-Range",
      in: "header",
      description: "The ETag the client holds: Range applies only when it matches with the strong comparison; otherwise the whole file is sent.",
      schema: { type: "string" },
    },
  };
}
