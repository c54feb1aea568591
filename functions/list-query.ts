// Query parameters of GET /v1/episodes (docs/api.md#get-v1episodes), parsed by the zod schemas of
// src/shared/parameters.ts. Two rules a schema of one value cannot state stay here, named: a
// parameter given twice is refused, and a cursor carries the filters of its first page.
import type { Cursor } from "../src/shared/cursor.ts";
import type { ErrorCode } from "../src/shared/errors.ts";
import { PAGE_LIMIT_DEFAULT } from "../src/shared/limits.ts";
import { PARAMETERS } from "../src/shared/parameters.ts";

export interface ListQuery {
  limit: number;
  domain: string | null;
  since: number | null;
  after: Cursor["after"] | null;
}

export type ListQueryResult = { ok: true; query: ListQuery } | { ok: false; code: ErrorCode; parameter: string };

type QueryName = "limit" | "cursor" | "domain" | "since";

/** Query values by name, each as sent: URLSearchParams is one, and so are the MCP tool's arguments (functions/mcp.ts). */
export interface QueryValues {
  getAll(name: string): string[];
}

/** A parameter refused: invalid, or given more than once. */
class Refused {
  readonly name: QueryName;

  constructor(name: QueryName) {
    this.name = name;
  }
}

/** The parsed value of a query parameter, undefined when absent; Refused when invalid or repeated. */
function value<K extends QueryName>(params: QueryValues, name: K): ReturnType<(typeof PARAMETERS)[K]["schema"]["parse"]> | undefined | Refused {
  const all = params.getAll(name);
  if (all.length === 0) return undefined;
  if (all.length > 1) return new Refused(name); // a repeated parameter has no single meaning
  const parsed = PARAMETERS[name].schema.safeParse(all[0]);
  return parsed.success ? (parsed.data as ReturnType<(typeof PARAMETERS)[K]["schema"]["parse"]>) : new Refused(name);
}

function refuse(name: QueryName): ListQueryResult {
  return { ok: false, code: PARAMETERS[name].error, parameter: name };
}

export function parseListQuery(params: QueryValues): ListQueryResult {
  const limit = value(params, "limit");
  if (limit instanceof Refused) return refuse("limit");
  const domain = value(params, "domain");
  if (domain instanceof Refused) return refuse("domain");
  const since = value(params, "since");
  if (since instanceof Refused) return refuse("since");
  const cursor = value(params, "cursor");
  if (cursor instanceof Refused) return refuse("cursor");
  const query = { limit: limit ?? PAGE_LIMIT_DEFAULT, domain: domain ?? null, since: since ?? null, after: null };
  if (cursor === undefined) return { ok: true, query };
  // A cursor carries the filters of its first page; repeating them is allowed, changing them is not.
  if (domain !== undefined && domain !== cursor.domain) return refuse("cursor");
  if (since !== undefined && since !== cursor.since) return refuse("cursor");
  return { ok: true, query: { limit: query.limit, domain: cursor.domain, since: cursor.since, after: cursor.after } };
}
