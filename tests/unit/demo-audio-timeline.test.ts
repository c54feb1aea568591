// The demo audio's timeline (scripts/demo-audio/): each segment's synthesis trimmed to its speech
// and placed after a fixed pause, the MP3's delay read from a click, chapters moved with the
// segment they begin at, and the spoken segments chosen by the build's own stage-direction rule.
// tests/http/demo-timings.test.ts checks the result against the demo MP3s themselves.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { anchorChapters, join, probe, probeDelay, readWav, speechSpan, timesOf, wavBytes, type Pcm } from "../../scripts/demo-audio/timeline.ts";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const RATE = 22050;

/** `lead` silent samples, `speech` loud ones (a square wave), `trail` silent ones. */
function padded(lead: number, speech: number, trail: number): Pcm {
  const samples = new Int16Array(lead + speech + trail);
  for (let i = 0; i < speech; i++) samples[lead + i] = i % 2 === 0 ? 8000 : -8000;
  return { rate: RATE, samples };
}

describe("the demo audio's timeline", () => {
  it("reads back the WAV it writes", () => {
    const pcm = padded(3, 5, 2);
    expect(readWav(wavBytes(pcm))).toEqual(pcm);
  });

  it("counts as speech what is louder than -50 dBFS", () => {
    expect(speechSpan(Int16Array.from([0, 103, -103, 0]))).toBeNull();
    expect(speechSpan(Int16Array.from([0, 105, 0, -105, 0]))).toEqual({ start: 1, end: 4 });
  });

  it("trims each segment to its speech and places it a pause after the one before", () => {
    const pause = 0.5;
    const { pcm, placed } = join(
      [
        { at: 0, pcm: padded(265, 1000, 4000) },
        { at: 2, pcm: padded(300, 2000, 10) },
      ],
      pause,
    );
    const gap = pause * RATE;
    expect(placed).toEqual([
      { at: 0, start: 0, end: 1000 },
      { at: 2, start: 1000 + gap, end: 3000 + gap },
    ]);
    expect(pcm.samples.length).toBe(3000 + 2 * gap);
    expect(speechSpan(pcm.samples, 1000, 1000 + gap)).toBeNull();
    expect(timesOf(placed, 1105, RATE).get(2)).toEqual({ start: Math.round(((1000 + gap + 1105) / RATE) * 1000) / 1000, end: Math.round(((3000 + gap + 1105) / RATE) * 1000) / 1000 });
  });

  it("refuses a segment whose synthesis is silent: it could carry no time", () => {
    expect(() => join([{ at: 4, pcm: padded(100, 0, 100) }], 0.5)).toThrow("segment 4: its synthesis is silent");
  });

  it("reads the delay from where the probe's click comes out", () => {
    const sent = probe(RATE).samples;
    const click = sent.findIndex((s) => s !== 0);
    const decoded = new Int16Array(RATE + 2000);
    decoded.set([-300, 9000, -2000], click + 1104);
    expect(probeDelay(decoded, RATE)).toBe(1105);
  });

  it("moves a chapter with the segment it began at, keeps 0 and no start, and names a start that is no segment's", () => {
    const before = new Map([
      [0, 0.05],
      [1, 7.428],
      [3, 12.709],
    ]);
    const after = new Map([
      [0, 0.05],
      [1, 7.9],
      [3, 13.5],
    ]);
    expect(anchorChapters([0, 12.709, undefined], before, after)).toEqual({ starts: [0, 13.5, undefined], problems: [] });
    expect(anchorChapters([0, 12.7], before, after).problems).toEqual([
      "field 'chapters.1.start': 12.7 is not the start of a spoken segment; set it to 0 or to the start of the segment the chapter begins at",
    ]);
  });
});

describe("scripts/demo-audio/step.ts segments", () => {
  const step = path.join(ROOT, "scripts/demo-audio/step.ts");
  const withScript = async (script: unknown, check: (file: string) => Promise<void>) => {
    const dir = await mkdtemp(path.join(tmpdir(), "demo-audio-"));
    try {
      const file = path.join(dir, "script.json");
      await writeFile(file, JSON.stringify(script));
      await check(file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };

  it("speaks what the build keeps: stage directions removed, a segment left empty not spoken, indexes as in script.json", async () => {
    const script = {
      chapters: [{ title: "One", start: 0 }],
      segments: [
        { speaker: "a", text: "Hello [laughs] there." },
        { speaker: "b", text: "*sighs* [long pause]", start: 3, end: 4 },
        { speaker: "b", text: "  Fine,\tthanks. *coughs*" },
      ],
    };
    await withScript(script, async (file) => {
      const { stdout } = await run(process.execPath, [step, "segments", file]);
      expect(stdout).toBe("0\ta\tHello there.\n2\tb\tFine, thanks.\n");
    });
  });

  it("stops before synthesis when a chapter's start is no segment's, naming the field", async () => {
    const script = {
      chapters: [{ title: "One", start: 0 }, { title: "Two", start: 5 }],
      segments: [
        { speaker: "a", text: "Hello.", start: 0.05, end: 1 },
        { speaker: "b", text: "Hi.", start: 1.6, end: 2 },
      ],
    };
    await withScript(script, async (file) => {
      const failed = await run(process.execPath, [step, "segments", file]).then(
        () => null,
        (e: { code: number; stderr: string }) => e,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toContain("field 'chapters.1.start': 5 is not the start of a spoken segment");
    });
  });
});
