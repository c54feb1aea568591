// The timed forms of an episode (docs/api.md#timed-transcripts-and-chapters): its script's timed
// segments as WebVTT, SubRip and a Podcasting 2.0 JSON transcript, its timed chapters as
// Podcasting 2.0 JSON chapters. One pure renderer for both sides: the build renders every form to
// take its strong ETag from the bytes (src/generate/episode-writer.ts), the shim renders a form on demand
// from the episode's script body, which carries the times (functions/routes/timed.ts), so the
// bytes served are the bytes tagged. Portable: no Node or Workers imports.
import { MEDIA, TYPES } from "./media-types.ts";
import type { JsonChapters, JsonTranscript, ScriptResource } from "./schema/api.ts";

/** Which part of the script a form is rendered from: the segments, or the chapters. */
export type TimedPart = "segments" | "chapters";

/**
 * Each form: its path under an episode's API URL, its media type, the part it renders, and the
 * `type` of its feed tag (podcast:transcript, podcast:chapters: functions/routes/feed.ts).
 */
export const TIMED_FORMS = {
  vtt: { path: "transcript.vtt", type: TYPES.vtt, part: "segments", feedType: MEDIA.vtt },
  srt: { path: "transcript.srt", type: TYPES.srt, part: "segments", feedType: MEDIA.srt },
  json: { path: "transcript.json", type: TYPES.json, part: "segments", feedType: MEDIA.json },
  chapters: { path: "chapters.json", type: TYPES.json, part: "chapters", feedType: MEDIA.chapters },
} as const satisfies Record<string, { path: string; type: string; part: TimedPart; feedType: string }>;

export type TimedForm = keyof typeof TIMED_FORMS;
export const TIMED_FORM_NAMES = Object.keys(TIMED_FORMS) as TimedForm[];

/** The JSON transcript's and the JSON chapters' format versions (Podcasting 2.0). */
export const JSON_TRANSCRIPT_VERSION = "1.0.0";
export const JSON_CHAPTERS_VERSION = "1.2.0";

interface TimedSegment {
  speaker: string;
  text: string;
  start: number;
  end: number;
}

interface TimedChapter {
  title: string;
  start: number;
}

/** The script's segments when they are timed (every one has start and end), else null. */
function timedSegments(script: ScriptResource): TimedSegment[] | null {
  const segments = script.segments;
  if (segments.length === 0 || !segments.every((s) => s.start !== undefined && s.end !== undefined)) return null;
  return segments as TimedSegment[];
}

/** The script's chapters when they are timed (every one has start), else null. */
export function timedChapters(script: ScriptResource): TimedChapter[] | null {
  const chapters = script.chapters;
  if (chapters.length === 0 || !chapters.every((c) => c.start !== undefined)) return null;
  return chapters as TimedChapter[];
}

/** Whether a part of the script is timed: what decides if its forms exist. */
export function isTimed(script: ScriptResource, part: TimedPart): boolean {
  return (part === "segments" ? timedSegments(script) : timedChapters(script)) !== null;
}

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/** `hh:mm:ss.mmm` (WebVTT) or `hh:mm:ss,mmm` (SubRip); hours grow past two digits when they must. */
function timestamp(seconds: number, separator: "." | ","): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${two(h)}:${two(m)}:${two(s)}${separator}${three(ms % 1000)}`;
}

/** White space that collapsing would change: any but a single space between words. */
const LOOSE_SPACE = /[^\S ]| {2}|^ | $/;

/**
 * One line: a cue's text or a voice's name must not break a cue (a blank line ends it). The
 * script's texts are collapsed already (src/generate/script.ts): they pass without a copy.
 */
function oneLine(text: string): string {
  return LOOSE_SPACE.test(text) ? text.replace(/\s+/g, " ").trim() : text;
}

const VTT_SPECIAL = /[&<>]/;

/**
 * Text as WebVTT cue text: `&`, `<` and `>` as character references, so no span, timestamp tag or
 * `-->` (which would end the cue) can be read into it.
 */
function vttEscape(text: string): string {
  return VTT_SPECIAL.test(text) ? text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;") : text;
}

/** WebVTT: one cue per turn, its text in a voice span naming the speaker. */
function vttOf(segments: readonly TimedSegment[]): string {
  const cues = segments.map((s) => {
    const name = vttEscape(oneLine(s.speaker));
    const text = vttEscape(oneLine(s.text));
    return `${timestamp(s.start, ".")} --> ${timestamp(s.end, ".")}\n${name === "" ? text : `<v ${name}>${text}`}\n`;
  });
  return `WEBVTT\n\n${cues.join("\n")}`;
}

/** SubRip: cues numbered from 1, `Speaker Name: text`. */
function srtOf(segments: readonly TimedSegment[]): string {
  return segments
    .map((s, i) => `${i + 1}\n${timestamp(s.start, ",")} --> ${timestamp(s.end, ",")}\n${oneLine(s.speaker)}: ${oneLine(s.text)}\n`)
    .join("\n");
}

function jsonTranscriptOf(segments: readonly TimedSegment[]): string {
  const doc: JsonTranscript = {
    version: JSON_TRANSCRIPT_VERSION,
    segments: segments.map((s) => ({ speaker: s.speaker, startTime: s.start, endTime: s.end, body: s.text })),
  };
  return JSON.stringify(doc);
}

/** Each chapter ends where the next starts; the last at the end of the audio, when its duration is known. */
function jsonChaptersOf(chapters: readonly TimedChapter[], durationSeconds: number | null): string {
  const doc: JsonChapters = {
    version: JSON_CHAPTERS_VERSION,
    chapters: chapters.map((c, i) => {
      const endTime = chapters[i + 1]?.start ?? durationSeconds;
      return endTime === null ? { startTime: c.start, title: c.title } : { startTime: c.start, title: c.title, endTime };
    }),
  };
  return JSON.stringify(doc);
}

/**
 * A form of the episode whose script is `script` (its API body) and whose audio lasts
 * `durationSeconds` (null when not known); null when the part it renders is not timed.
 */
export function renderTimed(form: TimedForm, script: ScriptResource, durationSeconds: number | null): string | null {
  if (TIMED_FORMS[form].part === "chapters") {
    const chapters = timedChapters(script);
    return chapters === null ? null : jsonChaptersOf(chapters, durationSeconds);
  }
  const segments = timedSegments(script);
  if (segments === null) return null;
  return form === "vtt" ? vttOf(segments) : form === "srt" ? srtOf(segments) : jsonTranscriptOf(segments);
}

/** The forms rendered from a part, in the order the part's ETag hashes them (src/generate/episode-writer.ts). */
export function formsOf(part: TimedPart): TimedForm[] {
  return TIMED_FORM_NAMES.filter((f) => TIMED_FORMS[f].part === part);
}

/**
 * The strong ETag of one form, from the tag the build computed for its part: a part of several
 * forms (the segments: WebVTT, SubRip, JSON) has one tag hashing all of them, and each form adds
 * its name to it, so no two representations of the service ever share a tag.
 */
export function formEtag(partTag: string, form: TimedForm): string {
  return formsOf(TIMED_FORMS[form].part).length === 1 ? partTag : `${partTag.slice(0, -1)}.${form}"`;
}
