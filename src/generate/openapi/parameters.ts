// The request parameters as OpenAPI parameter components: name, place and schema from the zod
// schemas the shim parses them with (src/shared/parameters.ts); descriptions and examples here.
import * as z from "zod";
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from "../../shared/limits.ts";
import { PARAMETERS, type ParameterName } from "../../shared/parameters.ts";
import type { JsonSchema } from "./schemas.ts";

/** A parameter's schema as documented: what its zod schema gives the shim (io "output"). */
function documented(name: ParameterName): JsonSchema {
  const out = z.toJSONSchema(PARAMETERS[name].schema, { target: "draft-2020-12", io: "output", unrepresentable: "any" }) as JsonSchema;
  delete out.$schema;
  return out;
}

export interface ParameterObject {
  name: string;
  in: "query" | "path" | "header";
  required?: boolean;
  description: string;
  schema: JsonSchema;
  example?: unknown;
  examples?: Record<string, { summary: string; value: unknown }>;
}

/** What the document says of each parameter besides its name, place and schema. */
type ParameterDoc = Pick<ParameterObject, "description" | "example" | "examples">;

export function componentParameters(exampleRefs: { number: string | null; uuid: string | null; domain: string | null }): Record<ParameterName, ParameterObject> {
  const refExamples: Record<string, { summary: string; value: unknown }> = {};
  if (exampleRefs.number !== null) refExamples.number = { summary: "By episode number", value: Number(exampleRefs.number) };
  if (exampleRefs.uuid !== null) refExamples.uuid = { summary: "By UUID", value: exampleRefs.uuid };
  const docs: Record<ParameterName, ParameterDoc> = {
    limit: {
      description: `Page size: a whole number from 1 to ${PAGE_LIMIT_MAX}, default ${PAGE_LIMIT_DEFAULT}. Anything else, or a repeated parameter, is refused with 400 \`invalid_limit\`. It may change from page to page.`,
      example: 10,
    },
    cursor: {
      description:
        "Opaque value of `pagination.nextCursor` from the previous page, passed back unchanged. It carries the `domain` and `since` filters of the first page: send it alone, or with the same filters. A malformed, altered or truncated cursor, or one sent with other filters, is refused with 400 `invalid_cursor`.",
    },
    domain: {
      description:
        "Only episodes carrying this domain facet slug (`topics.domains`). Must match `^[a-z0-9][a-z0-9-]{0,63}$`, else 400 `invalid_domain`; a well-formed slug no episode carries gives an empty page.",
      ...(exampleRefs.domain === null ? {} : { example: exampleRefs.domain }),
    },
    since: {
      description:
        "Only episodes discovered at or after this instant (their `discoveredAt`, or `publishedAt` when they have none): a date `YYYY-MM-DD` (midnight UTC) or an RFC 3339 date-time with an offset. Anything else, or an impossible date such as 2026-02-30, is refused with 400 `invalid_since`.",
      example: "2026-01-01",
    },
    ref: {
      description:
        "The episode: its number (1 to 9 decimal digits) or its UUID (any letter case). Anything else is refused with 400 `invalid_episode_ref`; a well-formed reference with no published episode behind it gives 404 `not_found`.",
      ...(Object.keys(refExamples).length > 0 ? { examples: refExamples } : {}),
    },
    download: {
      description:
        "`1` answers with `Content-Disposition: attachment` and a descriptive file name (`<show-slug>-<number>-<title-slug>.mp3`, with `filename*` for non-ASCII titles); any other value, or none, answers `inline`.",
      example: "1",
    },
    ifNoneMatch: {
      description:
        "Entity tags from earlier responses (a list, or `*`), compared weakly: when one matches the current ETag the answer is 304 Not Modified without a body.",
    },
    range: {
      description:
        "Byte ranges of the MP3 (RFC 9110 §14.2): `bytes=0-1023`, open `bytes=1024-`, suffix `bytes=-1024`; several ranges get a `multipart/byteranges` answer. An unsatisfiable range gives 416; an invalid one, or another unit, is ignored (200, whole file). HEAD ignores Range.",
      example: "bytes=0-1023",
    },
    ifRange: {
      description: "The ETag the client holds: Range applies only when it matches with the strong comparison; otherwise the whole file is sent.",
    },
  };
  const out = {} as Record<ParameterName, ParameterObject>;
  for (const name of Object.keys(PARAMETERS) as ParameterName[]) {
    const p = PARAMETERS[name];
    out[name] = { name: p.name, in: p.in, ...(p.in === "path" ? { required: true } : {}), ...docs[name], schema: documented(name) };
  }
  return out;
}
