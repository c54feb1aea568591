// The zod schemas of src/shared/schema/api.ts as OpenAPI 3.1 components (JSON Schema 2020-12), through
// zod 4's own z.toJSONSchema: the document cannot say anything the build and the shim do not.
import * as z from "zod";
import {
  discoveryDocument,
  episodeKind,
  episodeLinks,
  episodePage,
  episodeResource,
  episodeTopics,
  errorEnvelope,
  hostsResource,
  jsonChapter,
  jsonChapters,
  jsonTranscript,
  jsonTranscriptSegment,
  pagination,
  scriptChapter,
  scriptResource,
  scriptSegment,
} from "../../shared/schema/api.ts";

export type JsonSchema = Record<string, unknown>;

/** What GET /v1/openapi.json answers, in outline (the full rules are the OpenAPI 3.1 specification's). */
export const openApiOutline = z
  .looseObject({
    openapi: z.string().regex(/^3\.1\.[0-9]+$/),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.looseObject({})),
  })
  .describe("An OpenAPI 3.1 document");

/** Component name → schema. Any of these met inside another becomes a `$ref`. */
export const COMPONENTS = {
  Discovery: discoveryDocument,
  EpisodePage: episodePage,
  Pagination: pagination,
  Episode: episodeResource,
  EpisodeLinks: episodeLinks,
  EpisodeKind: episodeKind,
  EpisodeTopics: episodeTopics,
  Hosts: hostsResource,
  Script: scriptResource,
  ScriptChapter: scriptChapter,
  ScriptSegment: scriptSegment,
  JsonTranscript: jsonTranscript,
  JsonTranscriptSegment: jsonTranscriptSegment,
  JsonChapters: jsonChapters,
  JsonChapter: jsonChapter,
  Error: errorEnvelope,
  OpenApiDocument: openApiOutline,
} as const;

export type ComponentName = keyof typeof COMPONENTS;

export const ref = (name: ComponentName): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

const SAFE_INT = Number.MAX_SAFE_INTEGER;

/**
 * Rewrites zod's output into what an API description should say:
 * - objects stay open (no `additionalProperties: false`): the contract is additive-only and
 *   clients must tolerate new members (docs/api.md#versioning); the contract test closes them again;
 * - integer bounds zod adds for safe integers are noise, not contract;
 * - a date-time is stated by its format, not by zod's 300-character pattern.
 */
function tidy(schema: JsonSchema): void {
  if (schema.additionalProperties === false) delete schema.additionalProperties;
  if (schema.type === "integer") {
    if (schema.minimum === -SAFE_INT) delete schema.minimum;
    if (schema.maximum === SAFE_INT) delete schema.maximum;
  }
  if (schema.format === "date-time" || schema.format === "date") delete schema.pattern;
}

function walk(value: unknown, visit: (s: JsonSchema) => void): void {
  if (Array.isArray(value)) for (const v of value) walk(v, visit);
  else if (value !== null && typeof value === "object") {
    visit(value as JsonSchema);
    for (const v of Object.values(value)) walk(v, visit);
  }
}

/** Any zod schema (parameters, headers) as a plain JSON Schema, tidied the same way. */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const out = z.toJSONSchema(schema, { target: "draft-2020-12", io: "input" }) as JsonSchema;
  delete out.$schema;
  walk(out, tidy);
  return out;
}

/** Every component schema, cross-referenced by `#/components/schemas/<name>`. */
export function componentSchemas(): Record<ComponentName, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(COMPONENTS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  const out = {} as Record<ComponentName, JsonSchema>;
  for (const name of Object.keys(COMPONENTS) as ComponentName[]) {
    const s = schemas[name];
    if (s === undefined) throw new Error(`zod produced no schema for ${name}`);
    delete s.$schema;
    delete s.$id;
    walk(s, tidy);
    out[name] = s;
  }
  return out;
}
