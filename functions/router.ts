// Path → route, compiled once from the route table (src/shared/routes.ts). Literal paths are one
// map lookup; templates are regular expressions tried in table order. Only the path is matched:
// the API and the site may be two hosts in front of one deployment.
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

export interface RouteMatch {
  id: RouteId;
  route: Route;
  /** Template parameters by name, as they appear in the path (not decoded). */
  params: Record<string, string>;
}

interface Template {
  id: RouteId;
  pattern: RegExp;
  names: string[];
}

function compile(id: RouteId, path: string): Template {
  const names: string[] = [];
  const source = path
    .split("/")
    .map((segment) => {
      const m = /^\{([a-z]+)(\+?)\}$/i.exec(segment);
      if (m === null) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(m[1]!);
      return m[2] === "+" ? "(.+)" : "([^/]+)";
    })
    .join("/");
  return { id, pattern: new RegExp(`^${source}$`), names };
}

export class Router {
  readonly #literal = new Map<string, RouteId>();
  readonly #templates: Template[] = [];

  constructor() {
    for (const id of Object.keys(ROUTES) as RouteId[]) {
      for (const path of (ROUTES[id] as Route).paths) {
        if (path.includes("{")) this.#templates.push(compile(id, path));
        else if (this.#literal.has(path)) throw new Error(`route table: ${path} is listed twice`);
        else this.#literal.set(path, id);
      }
    }
  }

  /** The route of a path, or null (static files of the build, or the 404 page). */
  match(path: string): RouteMatch | null {
    const literal = this.#literal.get(path);
    if (literal !== undefined) return { id: literal, route: ROUTES[literal], params: {} };
    for (const t of this.#templates) {
      const m = t.pattern.exec(path);
      if (m === null) continue;
      const params: Record<string, string> = {};
      t.names.forEach((name, i) => (params[name] = m[i + 1]!));
      return { id: t.id, route: ROUTES[t.id], params };
    }
    return null;
  }
}
