// The episode page's transcript in parts (src/components/transcript.ts): one part per chapter when
// both turns and chapters are timed, each turn under the chapter whose time range holds its start.
import { describe, expect, it } from "vitest";
import { transcriptParts } from "../../src/components/transcript.ts";
import type { ScriptResource } from "../../src/shared/schema/api.ts";

const turn = (text: string, start?: number) => ({ speaker: "Ada", text, ...(start === undefined ? {} : { start, end: start + 1 }) });
const chapter = (title: string, start?: number) => ({ title, ...(start === undefined ? {} : { start }) });
const scriptOf = (chapters: ReturnType<typeof chapter>[], segments: ReturnType<typeof turn>[]) =>
  ({ id: "x", episodeNumber: 1, title: "t", hosts: { a: "Ada", b: "Bo" }, chapters, segments }) as unknown as ScriptResource;
const shape = (script: ScriptResource) => transcriptParts(script).map((p) => [p.chapter?.title ?? null, p.chapter?.number ?? null, p.turns.map((t) => t.text)]);

describe("transcriptParts", () => {
  it("puts each turn under the chapter whose range holds its start, turns before the first chapter first, and keeps a chapter without turns", () => {
    const script = scriptOf(
      [chapter("One", 5), chapter("Two", 20), chapter("Empty", 30), chapter("Last", 31)],
      [turn("intro", 0), turn("a", 5), turn("b", 19.999), turn("c", 20), turn("d", 31), turn("e", 40)],
    );
    expect(shape(script)).toEqual([
      [null, null, ["intro"]],
      ["One", 1, ["a", "b"]],
      ["Two", 2, ["c"]],
      ["Empty", 3, []],
      ["Last", 4, ["d", "e"]],
    ]);
  });

  it("has no part without a heading when the first chapter starts with the first turn", () => {
    expect(shape(scriptOf([chapter("One", 0)], [turn("a", 0), turn("b", 2)]))).toEqual([["One", 1, ["a", "b"]]]);
  });

  it("is one part without a heading when the turns or the chapters are not timed", () => {
    expect(shape(scriptOf([chapter("One")], [turn("a", 0), turn("b", 2)]))).toEqual([[null, null, ["a", "b"]]]);
    expect(shape(scriptOf([chapter("One", 0)], [turn("a"), turn("b")]))).toEqual([[null, null, ["a", "b"]]]);
    expect(shape(scriptOf([], [turn("a", 0)]))).toEqual([[null, null, ["a"]]]);
  });
});
