// The episode page's transcript in parts (src/pages/episodes/[ref].astro): when both the turns and
// the chapters are timed, one part per chapter, headed by its title and holding the turns that start
// within its time range (turns before the first chapter come first, without a heading); otherwise
// one part, every turn in order, without a heading.
import type { ScriptResource } from "../shared/schema/api.ts";
import { isTimed } from "../shared/timed.ts";

export type Turn = ScriptResource["segments"][number];

export interface TranscriptPart {
  /** The chapter heading this part: its title and its 1-based number. */
  chapter: { title: string; number: number } | null;
  turns: Turn[];
}

export function transcriptParts(script: ScriptResource): TranscriptPart[] {
  const { chapters, segments } = script;
  if (!isTimed(script, "chapters") || !isTimed(script, "segments")) return [{ chapter: null, turns: segments }];
  const parts: TranscriptPart[] = [{ chapter: null, turns: [] }, ...chapters.map((c, i) => ({ chapter: { title: c.title, number: i + 1 }, turns: [] }))];
  // Starts never go back (src/generate/timings.ts), so one pass finds each turn's chapter.
  let k = 0;
  for (const turn of segments) {
    while (k < chapters.length && chapters[k]!.start! <= turn.start!) k++;
    parts[k]!.turns.push(turn);
  }
  return parts[0]!.turns.length === 0 ? parts.slice(1) : parts;
}
