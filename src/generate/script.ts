// Script and transcript resources (docs/api.md#get-v1episodesrefscript, docs/api.md#get-v1episodesreftranscript): speakers mapped to the hosts' display names,
// stage directions removed, empty segments dropped, times kept where a part is timed; the
// transcript is one line per spoken turn.
import type { ScriptFile } from "../shared/schema/content.ts";
import type { ScriptResource } from "../shared/schema/api.ts";
import { toMilliseconds } from "../shared/duration.ts";
import { judgeTimings, type KeptSegment, type TimingProblem } from "./timings.ts";

type Hosts = { a: string; b: string };

/** White space that collapsing would change: any but a single space between words. */
const LOOSE_SPACE = /[^\S ]| {2}|^ | $/;

/** Removes `[laughs]` and `*sighs*` spans and collapses white space. */
export function stripStageDirections(text: string): string {
  // Most segments have no direction and tidy spacing: they are returned as they are, without the
  // three passes that copy the string (half of a 10,000-episode build's script work).
  if (text.includes("[") || text.includes("*")) text = text.replace(/\[[^\]]*\]/g, " ").replace(/\*[^*]*\*/g, " ");
  else if (!LOOSE_SPACE.test(text)) return text;
  return text.replace(/\s+/g, " ").trim();
}

export function speakerName(speaker: string, hosts: Hosts): string {
  if (speaker === "a") return hosts.a;
  if (speaker === "b") return hosts.b;
  return speaker;
}

/** A script resource and the timing problems that left a part of it untimed. */
export interface DerivedScript {
  resource: ScriptResource;
  problems: TimingProblem[];
}

/**
 * The script resource of an episode: segments with their speakers' display names and stage
 * directions removed (a segment left empty is dropped, its times with it), chapters as authored.
 * Times (to the millisecond) are kept on a part only when it is timed (src/generate/timings.ts):
 * on every segment or none, on every chapter or none.
 */
export function scriptResourceOf(
  ep: { id: string; episodeNumber: number | null; title: string; hosts: Hosts; durationSeconds?: number | null },
  script: ScriptFile,
): DerivedScript {
  const kept: (KeptSegment & { speaker: string; text: string })[] = [];
  script.segments.forEach((s, at) => {
    const text = stripStageDirections(s.text);
    if (text.length > 0) kept.push({ at, speaker: speakerName(s.speaker, ep.hosts), text, start: s.start, end: s.end });
  });
  const timings = judgeTimings(kept, script.chapters.map((c) => c.start), ep.durationSeconds ?? null);
  const resource: ScriptResource = {
    id: ep.id,
    episodeNumber: ep.episodeNumber,
    title: ep.title,
    hosts: { a: ep.hosts.a, b: ep.hosts.b },
    chapters: script.chapters.map((c) => ({
      title: c.title,
      ...(c.summary === undefined ? {} : { summary: c.summary }),
      ...(c.takeaways === undefined ? {} : { takeaways: c.takeaways }),
      ...(timings.chapters ? { start: toMilliseconds(c.start!) } : {}),
    })),
    segments: kept.map((s) =>
      timings.segments ? { speaker: s.speaker, text: s.text, start: toMilliseconds(s.start!), end: toMilliseconds(s.end!) } : { speaker: s.speaker, text: s.text },
    ),
  };
  return { resource, problems: timings.problems };
}

/** The plain transcript's one home is shared with request time (MCP's time windows). */
export { transcriptOf } from "../shared/transcript.ts";
