// Query parameters of GET /v1/episodes (PRODUCT.md §3.3). Each rule refuses with the code of the
// parameter at fault; unknown parameters are ignored.
import { decodeCursor, type Cursor } from "../src/shared/cursor.ts";
import type { ErrorCode } from "../src/shared/errors.ts";
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from "../src/shared/limits.ts";
import { parseSince } from "../src/shared/since.ts";
import { SLUG_PATTERN } from "../src/shared/schema/content.ts";

export interface ListQuery {
  limit: number;
  domain: string | null;
  since: number | null;
  after: Cursor["after"] | null;
}

export type ListQueryResult = { ok: true; query: ListQuery } | { ok: false; code: ErrorCode; parameter: string };

/** The single value of a parameter; undefined when absent, null when repeated. */
function single(params: URLSearchParams, name: string): string | undefined | null {
  const all = params.getAll(name);
  if (all.length === 0) return undefined;
  return all.length === 1 ? all[0]! : null;
}

export function parseListQuery(params: URLSearchParams): ListQueryResult {
  const fail = (code: ErrorCode, parameter: string): ListQueryResult => ({ ok: false, code, parameter });

  const limitText = single(params, "limit");
  let limit = PAGE_LIMIT_DEFAULT;
  if (limitText !== undefined) {
    if (limitText === null || !/^[0-9]{1,3}$/.test(limitText)) return fail("invalid_limit", "limit");
    limit = Number(limitText);
    if (limit < 1 || limit > PAGE_LIMIT_MAX) return fail("invalid_limit", "limit");
  }

  const domainText = single(params, "domain");
  if (domainText === null || (domainText !== undefined && !SLUG_PATTERN.test(domainText))) return fail("invalid_domain", "domain");
  const sinceText = single(params, "since");
  let since: number | null = null;
  if (sinceText !== undefined) {
    since = sinceText === null ? null : parseSince(sinceText);
    if (since === null) return fail("invalid_since", "since");
  }

  const cursorText = single(params, "cursor");
  if (cursorText === undefined) return { ok: true, query: { limit, domain: domainText ?? null, since, after: null } };
  const cursor = cursorText === null ? null : decodeCursor(cursorText);
  if (cursor === null) return fail("invalid_cursor", "cursor");
  // A cursor carries the filters of its first page; repeating them is allowed, changing them is not.
  if (domainText !== undefined && domainText !== cursor.domain) return fail("invalid_cursor", "cursor");
  if (sinceText !== undefined && since !== cursor.since) return fail("invalid_cursor", "cursor");
  return { ok: true, query: { limit, domain: cursor.domain, since: cursor.since, after: cursor.after } };
}
