// The timed forms' renderer (src/shared/timed.ts) and the rules of a timed script
// (src/generate/timings.ts, through scriptResourceOf): exact bytes of each form, and each rule with
// the field it names. What real readers make of the forms: tests/http/timed.test.ts (Chromium's
// WebVTT parser, ffmpeg's SubRip demuxer).
import { describe, expect, it } from "vitest";
import { scriptResourceOf } from "../../src/generate/script.ts";
import { timingWarnings } from "../../src/generate/timings.ts";
import type { ScriptResource } from "../../src/shared/schema/api.ts";
import { jsonChapters, jsonTranscript } from "../../src/shared/schema/api.ts";
import type { ScriptFile } from "../../src/shared/schema/content.ts";
import { scriptFileSchema } from "../../src/shared/schema/content.ts";
import { formsOf, isTimed, renderTimed } from "../../src/shared/timed.ts";
import { encodeTimedEtags, NOT_TIMED, TimedEtagTable } from "../../src/shared/timed-etags.ts";

const EP = { id: "8d9c1151-071d-428b-a81a-f51f72aedac7", episodeNumber: 7, title: "Seven", hosts: { a: "Maya Chen", b: "Theo Park" } };

function script(segments: ScriptResource["segments"], chapters: ScriptResource["chapters"] = []): ScriptResource {
  return { ...EP, chapters, segments };
}

const TIMED = script(
  [
    { speaker: "Maya Chen", text: "Hello & <welcome> --> friends.", start: 0, end: 2.5 },
    { speaker: "Guest <&> Voice", text: "Hi.", start: 2.5, end: 3661.007 },
  ],
  [
    { title: "Opening", start: 0 },
    { title: "Close", summary: "Bye", start: 60.25 },
  ],
);

describe("WebVTT", () => {
  it("is WEBVTT, then one cue per turn with hh:mm:ss.mmm times and the text in a voice span, & < > as references", () => {
    expect(renderTimed("vtt", TIMED, null)).toBe(
      "WEBVTT\n\n" +
        "00:00:00.000 --> 00:00:02.500\n<v Maya Chen>Hello &amp; &lt;welcome&gt; --&gt; friends.\n\n" +
        "00:00:02.500 --> 01:01:01.007\n<v Guest &lt;&amp;&gt; Voice>Hi.\n",
    );
  });

  it("counts hours past 99 and rounds to the millisecond", () => {
    const long = script([{ speaker: "Maya Chen", text: "Late.", start: 360_000.0004, end: 360_001.9996 }]);
    expect(renderTimed("vtt", long, null)).toContain("100:00:00.000 --> 100:00:02.000\n");
  });

  it("keeps a speaker's name on one line, and drops the voice span of a name that is only white space", () => {
    const odd = script([
      { speaker: "Two\nLines", text: "A.", start: 0, end: 1 },
      { speaker: " \t", text: "B.", start: 1, end: 2 },
    ]);
    expect(renderTimed("vtt", odd, null)).toBe("WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n<v Two Lines>A.\n\n00:00:01.000 --> 00:00:02.000\nB.\n");
  });
});

describe("SubRip", () => {
  it("numbers its cues from 1, hh:mm:ss,mmm times, `Speaker Name: text` as spoken (SubRip has no escapes)", () => {
    expect(renderTimed("srt", TIMED, null)).toBe(
      "1\n00:00:00,000 --> 00:00:02,500\nMaya Chen: Hello & <welcome> --> friends.\n\n2\n00:00:02,500 --> 01:01:01,007\nGuest <&> Voice: Hi.\n",
    );
  });
});

describe("Podcasting 2.0 JSON", () => {
  it("the transcript: version 1.0.0, one segment per turn with speaker, startTime, endTime and body", () => {
    const doc = JSON.parse(renderTimed("json", TIMED, null)!);
    expect(jsonTranscript.parse(doc)).toEqual(doc);
    expect(doc).toEqual({
      version: "1.0.0",
      segments: [
        { speaker: "Maya Chen", startTime: 0, endTime: 2.5, body: "Hello & <welcome> --> friends." },
        { speaker: "Guest <&> Voice", startTime: 2.5, endTime: 3661.007, body: "Hi." },
      ],
    });
  });

  it("the chapters: version 1.2.0, each ending at the next one's start and the last at the audio's duration", () => {
    const doc = JSON.parse(renderTimed("chapters", TIMED, 95)!);
    expect(jsonChapters.parse(doc)).toEqual(doc);
    expect(doc).toEqual({
      version: "1.2.0",
      chapters: [
        { startTime: 0, title: "Opening", endTime: 60.25 },
        { startTime: 60.25, title: "Close", endTime: 95 },
      ],
    });
  });

  it("the last chapter has no endTime when the duration is not known", () => {
    expect(JSON.parse(renderTimed("chapters", TIMED, null)!).chapters[1]).toEqual({ startTime: 60.25, title: "Close" });
  });
});

describe("untimed parts render nothing", () => {
  it("segments without times have no transcript form; chapters without starts no chapters", () => {
    const bare = script([{ speaker: "Maya Chen", text: "Hi." }], [{ title: "One" }]);
    for (const form of ["vtt", "srt", "json", "chapters"] as const) expect(renderTimed(form, bare, 10)).toBeNull();
    expect(isTimed(bare, "segments")).toBe(false);
    expect(isTimed(TIMED, "chapters")).toBe(true);
  });

  it("nothing spoken, or no chapter, is untimed", () => {
    expect(renderTimed("vtt", script([], [{ title: "x", start: 0 }]), null)).toBeNull();
    expect(renderTimed("chapters", script([{ speaker: "a", text: "b", start: 0, end: 1 }], []), null)).toBeNull();
  });

  it("the segments' part has three forms and the chapters' one", () => {
    expect(formsOf("segments")).toEqual(["vtt", "srt", "json"]);
    expect(formsOf("chapters")).toEqual(["chapters"]);
  });
});

/** scriptResourceOf of a script.json, validated by the content schema first. */
function derive(file: unknown, durationSeconds: number | null = null) {
  return scriptResourceOf({ ...EP, durationSeconds }, scriptFileSchema.parse(file) as ScriptFile);
}

const seg = (text: string, start?: number, end?: number) => ({ speaker: "a", text, ...(start === undefined ? {} : { start }), ...(end === undefined ? {} : { end }) });

describe("the rules of timed segments (src/generate/timings.ts)", () => {
  it("every kept segment with start < end, starts never going back: timed, times to the millisecond", () => {
    const { resource, problems } = derive({ chapters: [], segments: [seg("One.", 0, 1.23456), seg("Two.", 1, 2), seg("Three.", 1, 3)] });
    expect(problems).toEqual([]);
    expect(resource.segments.map((s) => [s.start, s.end])).toEqual([[0, 1.235], [1, 2], [1, 3]]);
  });

  it("no time on any segment: untimed, and no problem", () => {
    const { resource, problems } = derive({ chapters: [], segments: [seg("One."), seg("Two.")] });
    expect(problems).toEqual([]);
    expect(resource.segments).toEqual([{ speaker: "Maya Chen", text: "One." }, { speaker: "Maya Chen", text: "Two." }]);
  });

  it("a segment dropped as empty drops its times: they are neither kept nor judged", () => {
    const { resource, problems } = derive({ chapters: [], segments: [seg("One.", 0, 1), seg("[laughs] *sighs*", 50, 2), seg("[music]"), seg("Two.", 1, 2)] });
    expect(problems).toEqual([]);
    expect(resource.segments).toEqual([
      { speaker: "Maya Chen", text: "One.", start: 0, end: 1 },
      { speaker: "Maya Chen", text: "Two.", start: 1, end: 2 },
    ]);
  });

  it.each([
    ["partly timed: a kept segment without end", [seg("One.", 0, 1), seg("Two.", 1)], null, "segments.1.end", "missing"],
    ["partly timed: a kept segment without start", [seg("One."), seg("Two.", 1, 2)], null, "segments.0.start", "missing"],
    ["an end not after its start", [seg("One.", 2, 2)], null, "segments.0.end", "2 is not after its start 2"],
    ["a start before the previous segment's", [seg("One.", 5, 6), seg("Two.", 4, 7)], null, "segments.1.start", "4 is before the start of the segment spoken before it (5)"],
    ["an end more than 1 s past durationSeconds", [seg("One.", 0, 11.001)], 10, "segments.0.end", "11.001 is more than 1 s past the audio's end (durationSeconds 10)"],
  ])("%s: untimed, the field named", (_, segments, duration, field, message) => {
    const { resource, problems } = derive({ chapters: [], segments }, duration);
    expect(problems).toContainEqual({ field, message: expect.stringContaining(message) });
    for (const s of resource.segments) expect(Object.keys(s).sort()).toEqual(["speaker", "text"]);
  });

  it("an end up to 1 s past durationSeconds is timed; an unknown duration bounds nothing", () => {
    expect(derive({ chapters: [], segments: [seg("One.", 0, 11)] }, 10).problems).toEqual([]);
    expect(derive({ chapters: [], segments: [seg("One.", 0, 5000)] }, null).problems).toEqual([]);
  });

  it("times that are not numbers >= 0 are not of the content format (the script is invalid, 422)", () => {
    expect(scriptFileSchema.safeParse({ chapters: [], segments: [seg("One.", -1, 2)] }).success).toBe(false);
    expect(scriptFileSchema.safeParse({ chapters: [{ title: "x", start: "0:00" }], segments: [] }).success).toBe(false);
  });
});

describe("the rules of timed chapters", () => {
  const chapter = (title: string, start?: number) => ({ title, ...(start === undefined ? {} : { start }) });

  it("every chapter with a start, strictly increasing, each before the audio's end: timed", () => {
    const { resource, problems } = derive({ chapters: [chapter("A", 0), chapter("B", 9.9994)], segments: [] }, 10);
    expect(problems).toEqual([]);
    expect(resource.chapters).toEqual([{ title: "A", start: 0 }, { title: "B", start: 9.999 }]);
  });

  it.each([
    ["a chapter without start", [chapter("A", 0), chapter("B")], null, "chapters.1.start", "missing"],
    ["two chapters at one start", [chapter("A", 3), chapter("B", 3)], null, "chapters.1.start", "3 is not after the previous chapter's start (3)"],
    ["a start at the audio's end", [chapter("A", 0), chapter("B", 10)], 10, "chapters.1.start", "10 is not before the audio's end (durationSeconds 10)"],
  ])("%s: untimed, the field named, the segments unaffected", (_, chapters, duration, field, message) => {
    const { resource, problems } = derive({ chapters, segments: [seg("One.", 0, 1)] }, duration);
    expect(problems).toEqual([{ field, message: expect.stringContaining(message) }]);
    for (const c of resource.chapters) expect(c).not.toHaveProperty("start");
    expect(resource.segments[0]).toMatchObject({ start: 0, end: 1 });
  });
});

describe("the build's warnings", () => {
  it("name the file and the field and say which part is served untimed; past five, the rest are counted", () => {
    const problems = Array.from({ length: 7 }, (_, i) => ({ field: `segments.${i}.end`, message: "missing" }));
    const lines = timingWarnings("episodes/x/script.json", [{ field: "chapters.0.start", message: "missing" }, ...problems]);
    expect(lines[0]).toBe("episodes/x/script.json: field 'chapters.0.start': missing (its chapters are served untimed)");
    expect(lines[1]).toBe("episodes/x/script.json: field 'segments.0.end': missing (its segments are served untimed)");
    expect(lines).toHaveLength(6);
    expect(lines[5]).toBe("episodes/x/script.json: 3 more timing problems");
  });
});

describe("the table of the timed forms' tags (src/shared/timed-etags.ts)", () => {
  const tags = [
    { segments: '"AAECAwQFBgcICQoLDA0ODw"', chapters: null },
    NOT_TIMED,
    { segments: null, chapters: '"_____________________w"' },
  ];

  it("gives back each episode's tags by position, null where a part is not timed", () => {
    const table = new TimedEtagTable(encodeTimedEtags(tags), 3);
    expect([0, 1, 2].map((i) => ({ segments: table.tag(i, "segments"), chapters: table.tag(i, "chapters") }))).toEqual(tags);
  });

  it("refuses bytes not written for an index of that many episodes", () => {
    expect(() => new TimedEtagTable(encodeTimedEtags(tags), 4)).toThrow(/run 'npm run build'/);
  });

  it("refuses to encode a tag of another form", () => {
    expect(() => encodeTimedEtags([{ segments: '"short"', chapters: null }])).toThrow(/not a tag/);
  });
});
