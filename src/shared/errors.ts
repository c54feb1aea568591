// The error table (docs/api.md#errors): every error the service can answer, code → status → message.
// Every error path goes through apiError(); nothing else builds an envelope.
import type { ErrorEnvelope } from "./schema/api.ts";

export const ERRORS = {
  not_found: { status: 404, message: "No published episode or resource at this address." },
  invalid_episode_ref: { status: 400, message: "The episode reference must be a UUID or an episode number." },
  invalid_cursor: { status: 400, message: "The cursor is malformed, altered, or was issued for other filters." },
  invalid_limit: { status: 400, message: "The limit must be a whole number from 1 to 50." },
  invalid_domain: { status: 400, message: "The domain must match ^[a-z0-9][a-z0-9-]{0,63}$." },
  invalid_since: { status: 400, message: "The since value must be a date (YYYY-MM-DD) or an RFC 3339 date-time with offset." },
  bad_request: { status: 400, message: "The request could not be read." },
  method_not_allowed: { status: 405, message: "This method is not allowed here: the Allow header lists the ones that are (GET and HEAD everywhere but /mcp, which takes POST)." },
  script_unavailable: { status: 404, message: "This episode has no script." },
  script_unparseable: { status: 422, message: "This episode's script exists but could not be parsed." },
  transcript_unavailable: { status: 404, message: "This episode has no usable script to derive this transcript from (the timed forms need timed segments)." },
  chapters_unavailable: { status: 404, message: "This episode has no timed chapters." },
  range_not_satisfiable: { status: 416, message: "The requested range is not satisfiable." },
  url_required: { status: 400, message: "The url parameter is required: the address of an episode page of this site." },
  format_not_implemented: { status: 501, message: "Only format=json is available." },
  rate_limited: { status: 429, message: "Too many requests; retry after the number of seconds in Retry-After." },
  upstream_unavailable: { status: 502, message: "Storage or the episode store is temporarily unavailable." },
  payload_too_large: { status: 413, message: "The request body is too large." },
  request_header_fields_too_large: { status: 431, message: "The request's header fields are too large." },
  internal_error: { status: 500, message: "The server failed to answer this request." },
} as const;

export type ErrorCode = keyof typeof ERRORS;

/** Builds the envelope (its schema: errorEnvelope). A 400 names the parameter at fault in the message and in `parameter`. */
export function apiError(code: ErrorCode, parameter?: string): ErrorEnvelope {
  const { status, message } = ERRORS[code];
  const text = parameter === undefined ? message : `Invalid parameter '${parameter}': ${message}`;
  return { error: parameter === undefined ? { code, message: text, status } : { code, message: text, status, parameter } };
}
