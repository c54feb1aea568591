// Times and moments as links write them (src/shared/moment.ts, docs/player.md#start-at-a-moment):
// every form the player, the episode page and oEmbed accept, and what they ignore.
import { describe, expect, it } from "vitest";
import { momentOf, momentParam, parseMoment, parseTime } from "../../src/shared/moment.ts";

describe("parseTime", () => {
  it("reads seconds, clocks and units, each with its fraction of a second", () => {
    const cases: [string, number][] = [
      ["93", 93],
      ["93.5", 93.5],
      ["93.", 93],
      ["0", 0],
      ["1:33", 93],
      ["01:33", 93],
      ["75:00", 4500],
      ["1:33.25", 93.25],
      ["1:02:03", 3723],
      ["0:00:07.5", 7.5],
      ["12:00:00", 43200],
      ["1m33s", 93],
      ["1h2m3s", 3723],
      ["90s", 90],
      ["2m", 120],
      ["1h", 3600],
      ["1h5s", 3605],
      ["3.5s", 3.5],
    ];
    for (const [raw, seconds] of cases) expect(parseTime(raw), raw).toBe(seconds);
  });

  it("refuses anything else", () => {
    for (const raw of ["", " 93", "93 ", "-5", "+5", "1e3", "0x10", ".5", "1:3", "1:60", "1:1:05", "1:60:00", "1:2:3:4", "1m60", "1.5m", "s", "h", "m33", "1s2m", "1h2m3", "Infinity", "NaN", "93a", "1:33 ", "٣"]) {
      expect(parseTime(raw), JSON.stringify(raw)).toBeNull();
    }
  });

  it("refuses digits past what a number holds", () => {
    expect(parseTime("9".repeat(400))).toBeNull();
  });
});

describe("parseMoment", () => {
  it("takes a start, a start and an end, or an end from 0, with or without npt:", () => {
    expect(parseMoment("93")).toEqual({ start: 93, end: null });
    expect(parseMoment("npt:1:33")).toEqual({ start: 93, end: null });
    expect(parseMoment("1m33s,2m")).toEqual({ start: 93, end: 120 });
    expect(parseMoment("npt:10,20.5")).toEqual({ start: 10, end: 20.5 });
    expect(parseMoment(",20")).toEqual({ start: 0, end: 20 });
  });

  it("ignores a moment with a part that is not a time, an end not after its start, or more than two parts", () => {
    for (const raw of [null, "", ",", "10,", "20,10", "10,10", "1,2,3", "npt:", "npt:npt:5", "NPT:5", "smpte:00:01:00:00", "x,10", "5".repeat(41)]) {
      expect(parseMoment(raw), String(raw)).toBeNull();
    }
  });
});

describe("momentOf", () => {
  it("reads t from the fragment first, then from the query", () => {
    expect(momentOf(new URL("https://s.example/embed/3?t=93"))).toEqual({ start: 93, end: null });
    expect(momentOf(new URL("https://s.example/embed/3#t=1:00,1:30"))).toEqual({ start: 60, end: 90 });
    expect(momentOf(new URL("https://s.example/embed/3?t=5#t=6"))).toEqual({ start: 6, end: null });
    expect(momentOf(new URL("https://s.example/embed/3?t=5#chapters"))).toEqual({ start: 5, end: null });
    expect(momentOf(new URL("https://s.example/embed/3?theme=dark&t=npt%3A1%3A02%3A03#?secret=abc"))).toEqual({ start: 3723, end: null });
    expect(momentOf(new URL("https://s.example/embed/3?x=1#?secret=abc"))).toBeNull();
    expect(momentOf(new URL("https://s.example/embed/3?t=later"))).toBeNull();
  });
});

describe("momentParam", () => {
  it("writes seconds to the millisecond", () => {
    expect(momentParam({ start: 93, end: null })).toBe("93");
    expect(momentParam({ start: 93.5, end: 120 })).toBe("93.5,120");
    expect(momentParam({ start: 1 / 3, end: null })).toBe("0.333");
  });
});
