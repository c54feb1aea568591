// The rules of a timed script (README.md#content-format): when a script's segments and chapters
// are timed, and, when their times break a rule, which field breaks which. The build serves a part
// whose times break a rule untimed and warns (src/generate/episode-writer.ts); `npm run publish` refuses the
// folder (src/publish/validate.ts). Both name the field the same way.
import { toMilliseconds } from "../shared/duration.ts";

/** A spoken segment kept after its stage directions were removed, with its place in script.json. */
export interface KeptSegment {
  /** Its index in script.json's `segments`: what a problem names. */
  at: number;
  start?: number | undefined;
  end?: number | undefined;
}

export interface TimingProblem {
  /** The field at fault, as `segments.3.end` or `chapters.0.start`. */
  field: string;
  message: string;
}

export interface Timings {
  segments: boolean;
  chapters: boolean;
  problems: TimingProblem[];
}

/** How far past the audio's known duration a segment may end: synthesis and encoders pad the end. */
export const END_TOLERANCE_SECONDS = 1;

const has = (t: number | undefined): t is number => t !== undefined;

/**
 * Segments are timed when every kept one has both times, start < end, starts never go back, and
 * none ends more than END_TOLERANCE_SECONDS past the duration. None with a time: untimed, no problem.
 */
function segmentProblems(kept: readonly KeptSegment[], duration: number | null): TimingProblem[] | null {
  if (!kept.some((s) => has(s.start) || has(s.end))) return null;
  const problems: TimingProblem[] = [];
  let previous: number | null = null;
  for (const s of kept) {
    const field = (name: string) => `segments.${s.at}.${name}`;
    if (!has(s.start)) problems.push({ field: field("start"), message: "missing: every spoken segment needs start and end once one has a time" });
    if (!has(s.end)) problems.push({ field: field("end"), message: "missing: every spoken segment needs start and end once one has a time" });
    const start = has(s.start) ? toMilliseconds(s.start) : null;
    const end = has(s.end) ? toMilliseconds(s.end) : null;
    if (start !== null && end !== null && end <= start) problems.push({ field: field("end"), message: `${end} is not after its start ${start}` });
    if (start !== null && previous !== null && start < previous) problems.push({ field: field("start"), message: `${start} is before the start of the segment spoken before it (${previous})` });
    if (end !== null && duration !== null && end > duration + END_TOLERANCE_SECONDS) {
      problems.push({ field: field("end"), message: `${end} is more than ${END_TOLERANCE_SECONDS} s past the audio's end (durationSeconds ${duration})` });
    }
    if (start !== null) previous = start;
  }
  return problems;
}

/** Chapters are timed when every one has a start, starts strictly increase, and each is before the audio's end. */
function chapterProblems(starts: readonly (number | undefined)[], duration: number | null): TimingProblem[] | null {
  if (!starts.some(has)) return null;
  const problems: TimingProblem[] = [];
  let previous: number | null = null;
  starts.forEach((raw, i) => {
    const field = `chapters.${i}.start`;
    if (!has(raw)) return void problems.push({ field, message: "missing: every chapter needs a start once one has one" });
    const start = toMilliseconds(raw);
    if (previous !== null && start <= previous) problems.push({ field, message: `${start} is not after the previous chapter's start (${previous})` });
    if (duration !== null && start >= duration) problems.push({ field, message: `${start} is not before the audio's end (durationSeconds ${duration})` });
    previous = start;
  });
  return problems;
}

/**
 * Which parts of a script are timed, and why not when they carry times that break a rule. `kept`:
 * the segments left after stage directions are removed (a segment dropped as empty drops its
 * times: they are never judged); `chapterStarts`: each chapter's start; `duration`: the audio's
 * durationSeconds, null when not known (no bound then).
 */
export function judgeTimings(kept: readonly KeptSegment[], chapterStarts: readonly (number | undefined)[], duration: number | null): Timings {
  const segments = segmentProblems(kept, duration);
  const chapters = chapterProblems(chapterStarts, duration);
  return {
    segments: segments !== null && segments.length === 0,
    chapters: chapters !== null && chapters.length === 0,
    problems: [...(segments ?? []), ...(chapters ?? [])],
  };
}

/** At most this many problems are named per file: a script shifted as a whole would list every segment. */
const NAMED = 5;

/** The build's warnings for one script.json (`file`): each names the field; the rest are counted. */
export function timingWarnings(file: string, problems: readonly TimingProblem[]): string[] {
  const named = problems.slice(0, NAMED).map((p) => `${file}: field '${p.field}': ${p.message} (${p.field.startsWith("chapters") ? "its chapters" : "its segments"} are served untimed)`);
  if (problems.length > NAMED) named.push(`${file}: ${problems.length - NAMED} more timing problems`);
  return named;
}
