// The API's reads as typed functions (docs/architecture.md#one-request-top-to-bottom): what an
// episode route answers before HTTP makes a response of it, a body or a refusal of the error
// table. The HTTP routes (./episode-routes.ts, ./timed-routes.ts) and the MCP endpoint (./mcp.ts)
// call the same functions, so both give the same answers and errors under the same publication
// clock, and MCP never forges a request or builds a path. Portable: no runtime imports.
import { apiError, ERRORS, type ErrorCode } from "../src/shared/errors.ts";
import type { ErrorEnvelope } from "../src/shared/schema/api.ts";
import type { IndexEntry } from "../src/shared/schema/build-index.ts";
import type { TimedForm } from "../src/shared/timed.ts";
import { bodyResponse, errorResponse, type ResponseContext, type ShimRequest, type ShimResponse } from "./http.ts";
import type { QueryValues } from "./list-query.ts";
import { isPending } from "./pending.ts";
import type { Asset } from "./ports.ts";

/** An answer of the error table (docs/api.md#errors), naming the parameter at fault on a 400. */
export class Refusal {
  readonly code: ErrorCode;
  readonly parameter: string | undefined;

  constructor(code: ErrorCode, parameter?: string) {
    this.code = code;
    this.parameter = parameter;
  }
}

/** One refusal per code without a parameter: refusing allocates nothing on the request path. */
const PLAIN = Object.fromEntries((Object.keys(ERRORS) as ErrorCode[]).map((code) => [code, new Refusal(code)])) as Record<ErrorCode, Refusal>;
/** One per code and parameter too: callers name parameters of the route table (a bounded set), never request text. */
const NAMED = new Map<ErrorCode, Map<string, Refusal>>();

export function refusal(code: ErrorCode, parameter?: string): Refusal {
  if (parameter === undefined) return PLAIN[code];
  let byName = NAMED.get(code);
  if (byName === undefined) NAMED.set(code, (byName = new Map()));
  let made = byName.get(parameter);
  if (made === undefined) byName.set(parameter, (made = new Refusal(code, parameter)));
  return made;
}

/** The API's envelope, with members a surface may add (MCP's retryAfter). */
export type Envelope = { error: ErrorEnvelope["error"] & Record<string, unknown> };

/** A refusal as the API's envelope (src/shared/errors.ts apiError), with `more` members or another message. */
export function envelopeOf(r: Refusal, more: Record<string, unknown> = {}): Envelope {
  const { error } = apiError(r.code, r.parameter);
  return { error: { ...error, ...more } };
}

/** A read answered at once when its bytes are in memory, else a promise (./pending.ts). */
export type Read<T> = T | Refusal | Promise<T | Refusal>;

/** The built bodies of an episode (src/shared/layout.ts episodeFile): its JSON, its script, its plain transcript. */
export type EpisodePart = "json" | "script" | "transcript";

/** A page of the list, joined from the built bodies of its episodes (./episode-routes.ts). */
export interface ListPage {
  bytes: Uint8Array;
  /** The ETags of its bodies, in order, and its pagination member: what the page's ETag hashes. */
  etags: string[];
  pagination: string;
}

export interface ApiReads {
  /** The published episode behind a reference at `clock`: else 400 `invalid_episode_ref` (naming `ref`) or 404 `not_found`. */
  episode(refText: string, clock: number): IndexEntry | Refusal;
  /** The built body of an episode's part, with the script and transcript routes' 404 and 422. */
  body(refText: string, part: EpisodePart, clock: number): Read<Asset>;
  /** A page of the list for these query values (`limit`, `cursor`, `domain`, `since`), with the list route's 400s. */
  page(query: QueryValues, clock: number): Promise<ListPage | Refusal>;
  /** A timed form of an episode (src/shared/timed.ts), with `transcript_unavailable` / `chapters_unavailable` when its part is not timed. */
  timed(refText: string, form: TimedForm, clock: number): Read<Asset>;
}

/**
 * The HTTP answer of a read: the body (200, or 304 and HEAD as bodyResponse decides) or the error
 * envelope; at once when the read is, with no closure made then.
 */
export function answerOf(req: ShimRequest, ctx: ResponseContext, read: Read<Asset>, type: string, cache: string): ShimResponse | Promise<ShimResponse> {
  if (isPending(read)) return read.then((done) => answerOf(req, ctx, done, type, cache));
  return read instanceof Refusal ? errorResponse(ctx, read.code, read.parameter) : bodyResponse(req, ctx, read.body, read.etag, type, cache);
}
