// Build side of the OpenAPI document: checks every body the build rendered against the zod schemas
// the document is generated from (so the document cannot describe something the build does not
// send), then takes the document's examples from those very bodies.
import type { z } from "zod";
import type { BuiltEpisode, Site } from "../site.ts";
import { encodeCursor } from "../../shared/cursor.ts";
import { orderKeyOf } from "../../shared/order.ts";
import { discoveryDocument, episodePage, episodeResource, scriptResource, type EpisodePage } from "../../shared/schema/api.ts";
import { buildOpenApiDocument, type ApiExamples, type Example } from "./document.ts";

function check<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new Error(`${what} does not match its API schema: ${issues}`);
  }
  return result.data;
}

/** Every built body against its schema: the build fails rather than serve what the document denies. */
export function checkBuiltBodies(site: Site): void {
  check(discoveryDocument, site.discovery, "the discovery document");
  for (const e of site.episodes) {
    check(episodeResource, e.resource, `episode ${e.ref} (${e.source.source})`);
    if (e.script !== null) check(scriptResource, e.script, `the script of episode ${e.ref}`);
  }
}

const label = (e: BuiltEpisode) => `Episode ${e.ref}: ${e.resource.title}`;

/** The pages GET /v1/episodes?limit=2 would answer, for the episodes published when the build ran. */
function pagesOf(published: BuiltEpisode[], limit: number, count: number): Example<EpisodePage>[] {
  const pages: Example<EpisodePage>[] = [];
  for (let i = 0; i < count && i * limit < published.length; i++) {
    const items = published.slice(i * limit, (i + 1) * limit);
    const more = published.length > (i + 1) * limit;
    const last = items[items.length - 1]!;
    const page = check(
      episodePage,
      {
        episodes: items.map((e) => e.resource),
        pagination: { nextCursor: more ? encodeCursor({ after: orderKeyOf(last.entry), domain: null, since: null }) : null, limit },
      },
      "an example page",
    );
    pages.push({ summary: i === 0 ? `First page with limit=${limit}` : `Page ${i + 1}: the cursor of page ${i} with limit=${limit}`, value: page });
  }
  return pages;
}

export function examplesOf(site: Site, now: number): ApiExamples {
  const published = site.episodes.filter((e) => e.entry.p <= now);
  const withAudio = published.find((e) => e.resource.audioUrl !== undefined);
  const withoutNumber = published.find((e) => e.resource.episodeNumber === null);
  const episodes = [withAudio ?? published[0], withoutNumber].filter((e): e is BuiltEpisode => e !== undefined);
  const scripted = published.find((e) => e.script !== null && e.transcript !== null);
  const numbered = published.find((e) => e.resource.episodeNumber !== null);
  return {
    discovery: site.discovery,
    pages: pagesOf(published, 2, 2),
    episodes: [...new Set(episodes)].map((e) => ({ summary: label(e), value: e.resource })),
    script: scripted ? { summary: label(scripted), value: scripted.script! } : null,
    transcript: scripted ? { summary: label(scripted), value: scripted.transcript! } : null,
    refs: {
      number: numbered ? String(numbered.resource.episodeNumber) : null,
      uuid: published[0]?.resource.id ?? null,
      domain: published.flatMap((e) => e.resource.topics.domains)[0] ?? null,
    },
  };
}

/** The document of this build, as the bytes of its build output (BUILD_FILES.openapi, src/shared/layout.ts) hold. */
export function openApiDocumentOf(site: Site, now = Date.now()): Record<string, unknown> {
  checkBuiltBodies(site);
  return buildOpenApiDocument({
    showTitle: site.podcast.title,
    baseUrl: site.config.baseUrl,
    siteUrl: site.config.siteUrl,
    termsUrl: site.termsUrl,
    examples: examplesOf(site, now),
  });
}
