import { describe, expect, it } from "vitest";
import { scriptResourceOf, speakerName, stripStageDirections, transcriptOf } from "../../src/generate/script.ts";

const EP = { id: "8d9c1151-071d-428b-a81a-f51f72aedac7", episodeNumber: 7, title: "Seven", hosts: { a: "Maya Chen", b: "Theo Park" } };

describe("stage directions (docs/api.md#get-v1episodesrefscript)", () => {
  it("spans in square brackets are removed", () => {
    expect(stripStageDirections("Well [laughs] that is true.")).toBe("Well that is true.");
  });

  it("spans between asterisks are removed", () => {
    expect(stripStageDirections("*sighs* Fine, *pauses* let's go.")).toBe("Fine, let's go.");
  });

  it("white space is collapsed and trimmed, including newlines and tabs", () => {
    expect(stripStageDirections("  One\n\ttwo   three  ")).toBe("One two three");
  });

  it("a span with spaces inside is removed whole", () => {
    expect(stripStageDirections("Right. [long pause, papers rustle] Next.")).toBe("Right. Next.");
  });

  it("a line that is only stage directions becomes empty", () => {
    expect(stripStageDirections("[laughs] *sighs*")).toBe("");
  });

  it("text without directions is unchanged", () => {
    expect(stripStageDirections("Plain words, 3 × 4 = 12.")).toBe("Plain words, 3 × 4 = 12.");
  });

  it.each([
    [" Leading space.", "Leading space."],
    ["Trailing space. ", "Trailing space."],
    ["Two  spaces.", "Two spaces."],
    ["No-break\u00a0space and em\u2003space.", "No-break space and em space."],
    ["Line\nbreak.", "Line break."],
  ])("without directions, any other white space is still collapsed: %j", (text, spoken) => {
    expect(stripStageDirections(text)).toBe(spoken);
  });
});

describe("speakers", () => {
  it("a and b map to the hosts' display names; any other name is kept", () => {
    expect(speakerName("a", EP.hosts)).toBe("Maya Chen");
    expect(speakerName("b", EP.hosts)).toBe("Theo Park");
    expect(speakerName("Guest Star", EP.hosts)).toBe("Guest Star");
  });
});

describe("script resource", () => {
  const file = {
    chapters: [{ title: "One", summary: "S", takeaways: ["t1"] }, { title: "Two" }],
    segments: [
      { speaker: "a", text: "Hello [waves] there." },
      { speaker: "b", text: "[laughs]" },
      { speaker: "b", text: "   " },
      { speaker: "Theo Park", text: "*clears throat* Hi." },
    ],
  };
  const resource = scriptResourceOf(EP, file).resource;

  it("segments keep speaking order, with display names and directions removed", () => {
    expect(resource.segments).toEqual([
      { speaker: "Maya Chen", text: "Hello there." },
      { speaker: "Theo Park", text: "Hi." },
    ]);
  });

  it("a segment left empty by stripping is dropped", () => {
    expect(resource.segments).toHaveLength(2);
  });

  it("the resource carries the episode's id, number, title and hosts", () => {
    expect(resource).toMatchObject({ id: EP.id, episodeNumber: 7, title: "Seven", hosts: EP.hosts });
  });

  it("chapters keep only the members they have", () => {
    expect(resource.chapters).toEqual([{ title: "One", summary: "S", takeaways: ["t1"] }, { title: "Two" }]);
  });
});

describe("transcript (docs/api.md#get-v1episodesreftranscript)", () => {
  it("is one `Speaker Name: text` line per turn, ending with a newline", () => {
    const script = scriptResourceOf(EP, {
      chapters: [],
      segments: [
        { speaker: "a", text: "First [laughs] line." },
        { speaker: "b", text: "Second line." },
      ],
    }).resource;
    expect(transcriptOf(script)).toBe("Maya Chen: First line.\nTheo Park: Second line.\n");
  });

  it("is null when nothing is spoken", () => {
    expect(transcriptOf(scriptResourceOf(EP, { chapters: [{ title: "x" }], segments: [{ speaker: "a", text: "[silence]" }] }).resource)).toBeNull();
  });

  it("never splits a turn over lines, because whitespace was collapsed", () => {
    const script = scriptResourceOf(EP, { chapters: [], segments: [{ speaker: "a", text: "one\ntwo\r\nthree" }] }).resource;
    expect(transcriptOf(script)).toBe("Maya Chen: one two three\n");
  });
});
