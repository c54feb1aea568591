// Path → route, compiled once from the route table (src/shared/routes.ts). Literal paths are one
// map lookup; templates are tried in table order. Only the path is matched: the API and the site
// may be two hosts in front of one deployment.
import { ROUTES, type Route, type RouteId } from "../src/shared/routes.ts";
import type { ResponseContext, ShimRequest, ShimResponse } from "./http/response.ts";

/** What a route's handler is given besides the request: the parsed URL and the path's parameters. */
export interface RouteArgs {
  url: URL;
  params: Record<string, string>;
  /** The client address rate limits count; given to the route that counts inside (functions/routes/mcp.ts). */
  clientIp?: string;
}

/**
 * Answers the requests of one route, after methods and rate limits were checked (functions/handler.ts):
 * at once when it needs nothing it has not got in memory (no promise then), else a promise.
 */
export type RouteHandler = (req: ShimRequest, ctx: ResponseContext, at: RouteArgs) => ShimResponse | Promise<ShimResponse>;

/**
 * RouteArgs of a target whose path was read without the URL parser (plainPath): the URL is parsed
 * only when a route asks for it, and its query is known to be empty.
 */
export class PlainTarget implements RouteArgs {
  readonly params: Record<string, string>;
  readonly #href: string;
  #url: URL | null = null;

  constructor(href: string, params: Record<string, string>) {
    this.#href = href;
    this.params = params;
  }

  get url(): URL {
    return (this.#url ??= new URL(this.#href));
  }
}

/** A target's query (`?…`, or "" for none), parsing nothing when the target is a plain path. */
export function searchOf(at: RouteArgs): string {
  return at instanceof PlainTarget ? "" : at.url.search;
}

/** Characters the URL parser leaves as they are in a path: unreserved ones and the slash. */
const PLAIN = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/") PLAIN[c.charCodeAt(0)] = 1;
const SLASH = 0x2f;
const DOT = 0x2e;

/**
 * The path of an absolute URL when the URL parser would give it back as it is (no query, fragment,
 * percent-escape, backslash or dot segment; only characters it never encodes), else null. Most
 * requests name such a path, and reading it here skips the parser and the object it makes per
 * request; tests/unit/router.test.ts holds it to the parser's pathname.
 */
export function plainPath(href: string): string | null {
  const start = href.indexOf("/", href.indexOf("//") + 2);
  return start < 0 ? null : plainFrom(href, start);
}

/** plainPath of a request target in origin form (a path, maybe a query), as a server received it. */
export function plainTargetPath(target: string): string | null {
  return target.charCodeAt(0) === SLASH ? plainFrom(target, 0) : null;
}

/** The path from `start` (its first slash) to the end of `href` when it is plain, else null. */
function plainFrom(href: string, start: number): string | null {
  const end = href.length;
  for (let i = start; i < end; i++) {
    const c = href.charCodeAt(i);
    if (c >= 128 || PLAIN[c] === 0) return null;
    // A "." or ".." segment: "/." or "/.." followed by "/" or the end.
    if (c === SLASH && href.charCodeAt(i + 1) === DOT) {
      const after = href.charCodeAt(i + 2) === DOT ? i + 3 : i + 2;
      if (after === end || href.charCodeAt(after) === SLASH) return null;
    }
  }
  return start === 0 ? href : href.slice(start);
}

export interface RouteMatch {
  id: RouteId;
  route: Route;
  /** Template parameters by name, as they appear in the path (not decoded). */
  params: Record<string, string>;
}

interface Template {
  id: RouteId;
  /** The path's parameters, or null when it does not match. */
  match: (path: string) => Record<string, string> | null;
}

const PARAMETER = /^\{([a-z]+)(\+?)\}$/i;
/** What a `{name+}` parameter (the rest of the path, any characters but line breaks) cannot hold. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * The parameters object of each name the route table uses, each made by a literal of its own: a
 * shape V8 makes in one step. One shared `params[name] = value` met every name and went through
 * V8's generic keyed store on every request. A name not here still works, the generic way.
 */
const PARAMS: Record<string, (value: string) => Record<string, string>> = {
  ref: (value) => ({ ref: value }),
  file: (value) => ({ file: value }),
  rest: (value) => ({ rest: value }),
};

/**
 * A template is one parameter segment between a literal prefix and suffix (`{name}`: one segment;
 * `{name+}`: the rest of the path), matched by comparing them: no regular expression, no match
 * array per request.
 */
function compile(id: RouteId, path: string): Template {
  const segments = path.split("/");
  const at = segments.findIndex((segment) => PARAMETER.test(segment));
  if (segments.filter((segment) => PARAMETER.test(segment)).length !== 1) throw new Error(`route table: ${path} must hold exactly one parameter segment`);
  const [, name, plus] = PARAMETER.exec(segments[at]!)!;
  const prefix = `${segments.slice(0, at).join("/")}/`;
  const suffix = at === segments.length - 1 ? "" : `/${segments.slice(at + 1).join("/")}`;
  const rest = plus === "+";
  const paramsOf = PARAMS[name!] ?? ((value: string) => ({ [name!]: value }));
  const match = (p: string): Record<string, string> | null => {
    if (p.length <= prefix.length + suffix.length || !p.startsWith(prefix) || !p.endsWith(suffix)) return null;
    const value = p.slice(prefix.length, p.length - suffix.length);
    if (rest ? LINE_BREAK.test(value) : value.includes("/")) return null;
    return paramsOf(value);
  };
  return { id, match };
}

export class Router {
  /** A literal path's match, made once: it has no parameters, and callers only read it. */
  readonly #literal = new Map<string, RouteMatch>();
  readonly #templates: Template[] = [];

  constructor() {
    for (const id of Object.keys(ROUTES) as RouteId[]) {
      for (const path of (ROUTES[id] as Route).paths) {
        if (path.includes("{")) this.#templates.push(compile(id, path));
        else if (this.#literal.has(path)) throw new Error(`route table: ${path} is listed twice`);
        else this.#literal.set(path, Object.freeze({ id, route: ROUTES[id] as Route, params: Object.freeze({}) }));
      }
    }
  }

  /** The route of a path, or null (static files of the build, or the 404 page). */
  match(path: string): RouteMatch | null {
    const literal = this.#literal.get(path);
    if (literal !== undefined) return literal;
    for (const t of this.#templates) {
      const params = t.match(path);
      if (params !== null) return { id: t.id, route: ROUTES[t.id], params };
    }
    return null;
  }
}
