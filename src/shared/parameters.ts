// Every request parameter of the API as a zod schema from the text on the wire to the value the
// shim uses. The shim parses with these schemas (functions/routes/list-query.ts, src/shared/refs.ts), and
// the OpenAPI generator documents them (src/generate/openapi/parameters.ts), so the two cannot
// disagree. Each parameter names the error code a bad value is refused with (docs/api.md#errors).
import * as z from "zod";
import { canonicalHeader, HEADER } from "./headers.ts";
import { CURSOR_MAX_LENGTH, decodeCursor } from "./cursor.ts";
import type { ErrorCode } from "./errors.ts";
import { PAGE_LIMIT_MAX } from "./limits.ts";
import { SLUG_PATTERN, UUID_PATTERN } from "./schema/content.ts";
import { parseSince } from "./since.ts";

/** A refusal inside a transform: the value is not of the documented form. */
function invalid(ctx: z.RefinementCtx, input: string, message: string): never {
  ctx.addIssue({ code: "custom", input, message });
  return z.NEVER;
}

/** An episode number as a path segment: 1 to 9 decimal digits (src/shared/refs.ts tests it directly). */
export const EPISODE_NUMBER_PATTERN = /^[0-9]{1,9}$/;

const episodeNumber = z
  .string()
  .regex(EPISODE_NUMBER_PATTERN)
  .transform(Number)
  .pipe(z.int().min(0).max(999_999_999).describe("An episode number (1 to 9 decimal digits)"));

const episodeUuid = z
  .string()
  .regex(UUID_PATTERN)
  .transform((s) => s.toLowerCase())
  .pipe(z.string().meta({ format: "uuid" }).describe("An episode UUID, in any letter case"));

export interface Parameter<T, E extends ErrorCode | null = ErrorCode | null> {
  in: "query" | "path" | "header";
  /** The name on the wire (a header's canonical spelling). */
  name: string;
  /** Text → value; documented by its output (z.toJSONSchema with io "output"). */
  schema: z.ZodType<T, string>;
  /** What a value the schema refuses is answered with; null when every value is accepted. */
  error: E;
}

const param = <T, E extends ErrorCode | null>(p: Parameter<T, E>): Parameter<T, E> => p;

export const PARAMETERS = {
  /** Page size; absent means PAGE_LIMIT_DEFAULT (functions/routes/list-query.ts). */
  limit: param({
    in: "query",
    name: "limit",
    schema: z.string().regex(/^[0-9]{1,3}$/).transform(Number).pipe(z.int().min(1).max(PAGE_LIMIT_MAX)),
    error: "invalid_limit",
  }),
  cursor: param({
    in: "query",
    name: "cursor",
    schema: z
      .string()
      .transform((s, ctx) => decodeCursor(s) ?? invalid(ctx, s, "not a cursor of this API"))
      .meta({ type: "string", minLength: 1, maxLength: CURSOR_MAX_LENGTH, pattern: "^[A-Za-z0-9_-]+$" }),
    error: "invalid_cursor",
  }),
  domain: param({ in: "query", name: "domain", schema: z.string().regex(SLUG_PATTERN).max(64), error: "invalid_domain" }),
  /** Epoch milliseconds of a date (midnight UTC) or an RFC 3339 date-time with an offset. */
  since: param({
    in: "query",
    name: "since",
    schema: z
      .string()
      .transform((s, ctx) => parseSince(s) ?? invalid(ctx, s, "not a date or date-time"))
      .meta({
        anyOf: [
          { type: "string", format: "date", description: "A date, YYYY-MM-DD: midnight UTC" },
          { type: "string", format: "date-time", description: "An RFC 3339 date-time with an offset" },
        ],
      }),
    error: "invalid_since",
  }),
  /** A number, or a lower-cased UUID. */
  ref: param({ in: "path", name: "ref", schema: z.union([episodeNumber, episodeUuid]), error: "invalid_episode_ref" }),
  /** `1` asks for an attachment; any other value is inline. */
  download: param({ in: "query", name: "download", schema: z.string(), error: null }),
  ifNoneMatch: param({ in: "header", name: canonicalHeader(HEADER.ifNoneMatch), schema: z.string(), error: null }),
  range: param({ in: "header", name: canonicalHeader(HEADER.range), schema: z.string(), error: null }),
  ifRange: param({ in: "header", name: canonicalHeader(HEADER.ifRange), schema: z.string(), error: null }),
};

export type ParameterName = keyof typeof PARAMETERS;
