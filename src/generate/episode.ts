// Episode file → API resource (docs/api.md#get-v1episodesref). Absent optional members become null so clients see
// one shape; shareTitle falls back to the title.
import type { EpisodeFile } from "../shared/schema/content.ts";
import type { EpisodeResource } from "../shared/schema/api.ts";
import { episodeLinks, type Origins } from "../shared/links.ts";

export function episodeResourceOf(ep: EpisodeFile, o: Origins, audioUrl: string | null): EpisodeResource {
  return {
    id: ep.id.toLowerCase(),
    episodeNumber: ep.episodeNumber,
    season: ep.season ?? null,
    title: ep.title,
    shareTitle: ep.shareTitle ?? ep.title,
    summary: ep.summary ?? null,
    description: ep.description ?? null,
    publishedAt: ep.publishedAt,
    durationSeconds: ep.durationSeconds ?? null,
    sourceUrl: ep.sourceUrl ?? null,
    ...(audioUrl === null ? {} : { audioUrl }),
    coverImageUrl: ep.coverImageUrl ?? null,
    hosts: { a: ep.hosts.a, b: ep.hosts.b },
    archetype: ep.archetype ?? null,
    kind: { type: ep.kind.type, sourceForm: ep.kind.sourceForm ?? null, eventType: ep.kind.eventType ?? null },
    topics: { domains: ep.topics.domains, concepts: ep.topics.concepts, entities: ep.topics.entities },
    links: episodeLinks(o, { id: ep.id.toLowerCase(), episodeNumber: ep.episodeNumber }),
  };
}
