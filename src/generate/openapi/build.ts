// Build side of the OpenAPI document: its examples are bodies the build wrote, each of which the
// writer checked against the zod schemas the document is generated from (checkBody in
// src/generate/prepare-build.ts), so the document cannot describe something the build does not send.
import { builtEpisode, type BuiltEpisode, type Site } from "../prepare-build.ts";
import { checkBody } from "../episode-writer.ts";
import { encodeCursor } from "../../shared/cursor.ts";
import { orderKeyOf } from "../../shared/order.ts";
import { episodePage, type EpisodePage } from "../../shared/schema/api.ts";
import type { IndexEntry } from "../../shared/schema/build-index.ts";
import { renderTimed, TIMED_FORM_NAMES, TIMED_FORMS, type TimedPart } from "../../shared/timed.ts";
import { buildOpenApiDocument, type ApiExamples, type Example } from "./document.ts";

const label = (e: BuiltEpisode) => `Episode ${e.ref}: ${e.resource.title}`;

/** The pages GET /v1/episodes?limit=2 would answer, for the episodes published when the build ran. */
function pagesOf(published: BuiltEpisode[], limit: number, count: number): Example<EpisodePage>[] {
  const pages: Example<EpisodePage>[] = [];
  for (let i = 0; i < count && i * limit < published.length; i++) {
    const items = published.slice(i * limit, (i + 1) * limit);
    const more = published.length > (i + 1) * limit;
    const last = items[items.length - 1]!;
    const page = checkBody(
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

/** The examples need the first few episodes of the list and one of each kind; read no more of them. */
const EXAMPLE_SCAN = 200;

export function examplesOf(site: Site, now: number): ApiExamples {
  const entries = site.index.episodes.filter((e) => e.p <= now);
  const wanted = new Set(entries.slice(0, EXAMPLE_SCAN));
  const timedParts = new Map([...site.records.values()].map((r) => [r.id, r.timed]));
  const timedIn = (part: TimedPart) => (e: IndexEntry) => timedParts.get(e.id)?.[part] != null;
  const kinds: ((e: IndexEntry) => boolean)[] = [(e) => e.audio !== null, (e) => e.n === null, (e) => e.transcript, timedIn("segments"), timedIn("chapters")];
  for (const pick of kinds) {
    const found = entries.find(pick);
    if (found !== undefined) wanted.add(found);
  }
  const published = entries.filter((e) => wanted.has(e)).map((e) => builtEpisode(site, e));
  const withAudio = published.find((e) => e.resource.audioUrl !== undefined);
  const withoutNumber = published.find((e) => e.resource.episodeNumber === null);
  const episodes = [withAudio ?? published[0], withoutNumber].filter((e): e is BuiltEpisode => e !== undefined);
  const scripted = published.find((e) => e.script !== null && e.transcript !== null);
  const numbered = published.find((e) => e.resource.episodeNumber !== null);
  const timed: ApiExamples["timed"] = {};
  for (const form of TIMED_FORM_NAMES) {
    const from = published.find((e) => timedIn(TIMED_FORMS[form].part)(e.entry));
    const body = from?.script ? renderTimed(form, from.script, from.resource.durationSeconds) : null;
    if (body !== null) timed[form] = { summary: label(from!), value: body };
  }
  return {
    discovery: site.discovery,
    pages: pagesOf(published, 2, 2),
    episodes: [...new Set(episodes)].map((e) => ({ summary: label(e), value: e.resource })),
    script: scripted ? { summary: label(scripted), value: scripted.script! } : null,
    transcript: scripted ? { summary: label(scripted), value: scripted.transcript! } : null,
    timed,
    refs: {
      number: numbered ? String(numbered.resource.episodeNumber) : null,
      uuid: published[0]?.resource.id ?? null,
      domain: published.flatMap((e) => e.resource.topics.domains)[0] ?? null,
    },
  };
}

/** The document of this build, as the bytes of its build output (BUILD_FILES.openapi, src/shared/layout.ts) hold. */
export function openApiDocumentOf(site: Site, now = Date.now()): Record<string, unknown> {
  return buildOpenApiDocument({
    showTitle: site.podcast.title,
    baseUrl: site.config.baseUrl,
    siteUrl: site.config.siteUrl,
    termsUrl: site.termsUrl,
    examples: examplesOf(site, now),
  });
}
