// A small typed client of the episode API. Its types are generated from the OpenAPI document:
//
//   npx openapi-typescript http://localhost:4321/v1/openapi.json -o examples/typed-client/openapi.ts
//   node examples/typed-client/list-episodes.ts http://localhost:4321 10 [domain] [since]
//
// It pages through the list with cursors (request with a limit, pass pagination.nextCursor back
// as `cursor`, stop when it is null) and prints one line per episode: reference, date, title.
import type { components, paths } from "./openapi.ts";

export type Episode = components["schemas"]["Episode"];
export type ApiError = components["schemas"]["Error"];
type List = paths["/v1/episodes"]["get"];
export type ListQuery = NonNullable<List["parameters"]["query"]>;
type Page = List["responses"][200]["content"]["application/json"];

export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(body: ApiError) {
    super(`${body.error.status} ${body.error.code}: ${body.error.message}`);
    this.status = body.error.status;
    this.code = body.error.code;
  }
}

async function getPage(baseUrl: string, query: ListQuery): Promise<Page> {
  const url = new URL("/v1/episodes", baseUrl);
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  const res = await fetch(url, { headers: { Accept: "application/json" } });
  if (!res.ok) throw new ApiRequestError((await res.json()) as ApiError);
  return (await res.json()) as Page;
}

/** Every published episode matching the filters, newest first, one page request at a time. */
export async function* allEpisodes(baseUrl: string, query: Omit<ListQuery, "cursor"> = {}): AsyncGenerator<Episode> {
  let cursor: string | null = null;
  do {
    // The cursor carries the first page's filters; sending it alone is enough.
    const page: Page = await getPage(baseUrl, cursor === null ? query : { limit: query.limit, cursor });
    yield* page.episodes;
    cursor = page.pagination.nextCursor;
  } while (cursor !== null);
}

/** The reference the API uses in links: the number, or the UUID of an episode without one. */
export function refOf(episode: Episode): string {
  return episode.episodeNumber === null ? episode.id : String(episode.episodeNumber);
}

if (import.meta.main) {
  const [baseUrl = "http://localhost:4321", limit = "20", domain, since] = process.argv.slice(2);
  const query: Omit<ListQuery, "cursor"> = { limit: Number(limit), ...(domain ? { domain } : {}), ...(since ? { since } : {}) };
  try {
    for await (const episode of allEpisodes(baseUrl, query)) {
      console.log([refOf(episode), episode.publishedAt ?? "-", episode.title].join("\t"));
    }
  } catch (e) {
    console.error(e instanceof ApiRequestError ? `error ${e.code} (${e.status})` : e);
    process.exitCode = 1;
  }
}
