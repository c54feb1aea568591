import { describe, expect, it } from "vitest";
import { parseRange } from "../../functions/http/range.ts";

const SIZE = 1000;
const ranges = (...pairs: [number, number][]) => ({ kind: "ranges", ranges: pairs.map(([start, end]) => ({ start, end })) });
const NONE = { kind: "none" };
const UNSATISFIABLE = { kind: "unsatisfiable" };

describe("Range requests (RFC 9110 §14)", () => {
  it("no Range header means the whole file", () => {
    expect(parseRange(null, SIZE)).toEqual(NONE);
  });

  it("a single closed range is served as asked (§14.1.2)", () => {
    expect(parseRange("bytes=0-99", SIZE)).toEqual(ranges([0, 99]));
    expect(parseRange("bytes=10-10", SIZE)).toEqual(ranges([10, 10]));
    expect(parseRange("bytes=999-999", SIZE)).toEqual(ranges([999, 999]));
  });

  it("an open range runs to the end of the file", () => {
    expect(parseRange("bytes=500-", SIZE)).toEqual(ranges([500, 999]));
    expect(parseRange("bytes=0-", SIZE)).toEqual(ranges([0, 999]));
  });

  it("an end past the file is clamped to the last byte", () => {
    expect(parseRange("bytes=900-5000", SIZE)).toEqual(ranges([900, 999]));
    expect(parseRange("bytes=0-99999999999999999999", SIZE)).toEqual(ranges([0, 999]));
  });

  it("a suffix range asks for the last N bytes, resolved to explicit positions", () => {
    expect(parseRange("bytes=-100", SIZE)).toEqual(ranges([900, 999]));
    expect(parseRange("bytes=-1", SIZE)).toEqual(ranges([999, 999]));
  });

  it("a suffix longer than the file is the whole file", () => {
    expect(parseRange("bytes=-5000", SIZE)).toEqual(ranges([0, 999]));
  });

  it("a first position at or past the end is unsatisfiable", () => {
    expect(parseRange(`bytes=${SIZE}-`, SIZE)).toEqual(UNSATISFIABLE);
    expect(parseRange("bytes=5000-6000", SIZE)).toEqual(UNSATISFIABLE);
  });

  it("bytes=-0 is unsatisfiable", () => {
    expect(parseRange("bytes=-0", SIZE)).toEqual(UNSATISFIABLE);
  });

  it("every range of an empty file is unsatisfiable", () => {
    expect(parseRange("bytes=0-", 0)).toEqual(UNSATISFIABLE);
    expect(parseRange("bytes=-10", 0)).toEqual(UNSATISFIABLE);
  });

  it("a set of ranges is satisfiable when any one of them is (§14.1.1)", () => {
    expect(parseRange("bytes=5000-6000, 0-9", SIZE)).toEqual(ranges([0, 9]));
    expect(parseRange("bytes=-0, 990-", SIZE)).toEqual(ranges([990, 999]));
  });

  it("the unit name is case-insensitive and white space around the parts is tolerated", () => {
    expect(parseRange("Bytes=0-9", SIZE)).toEqual(ranges([0, 9]));
    expect(parseRange("BYTES = 0-9 , 20-29", SIZE)).toEqual(ranges([0, 9], [20, 29]));
  });

  it.each([
    ["bytes="],
    ["bytes=-"],
    ["bytes=abc"],
    ["bytes=0-abc"],
    ["bytes=1-2-3"],
    ["bytes=0x10-0x20"],
    ["bytes=1.5-2"],
    ["bytes=+1-2"],
    ["bytes=-1-2"],
    ["bytes 0-99"],
    ["bytes:0-99"],
    ["0-99"],
    [""],
    ["bytes=100-50"], // last before first is invalid, not unsatisfiable (§14.1.1)
    ["bytes=0-9,x"], // one bad spec spoils the whole header
  ])("a syntactically invalid header %j is ignored (whole file)", (header) => {
    expect(parseRange(header, SIZE)).toEqual(NONE);
  });

  it.each([["items=0-9"], ["none"], ["pages=1-2"], ["bytesx=0-9"]])("another unit %j is ignored (whole file)", (header) => {
    expect(parseRange(header, SIZE)).toEqual(NONE);
  });

  it("several disjoint ranges are kept, in ascending order", () => {
    expect(parseRange("bytes=0-9,20-29,-10", SIZE)).toEqual(ranges([0, 9], [20, 29], [990, 999]));
    expect(parseRange("bytes=500-599,0-99", SIZE)).toEqual(ranges([0, 99], [500, 599]));
  });

  it("overlapping ranges are coalesced so no byte is sent twice", () => {
    expect(parseRange("bytes=0-99,50-149", SIZE)).toEqual(ranges([0, 149]));
    expect(parseRange("bytes=0-499,-600", SIZE)).toEqual(ranges([0, 999]));
    expect(parseRange("bytes=10-20,12-15", SIZE)).toEqual(ranges([10, 20]));
  });

  it("adjacent ranges are coalesced", () => {
    expect(parseRange("bytes=0-99,100-199", SIZE)).toEqual(ranges([0, 199]));
  });

  it("the same range repeated is sent once", () => {
    expect(parseRange("bytes=0-9,0-9,0-9", SIZE)).toEqual(ranges([0, 9]));
  });

  it("empty list elements are allowed (RFC 9110 §5.6.1)", () => {
    expect(parseRange("bytes=0-9,,20-29,", SIZE)).toEqual(ranges([0, 9], [20, 29]));
  });

  it("up to 16 ranges are honoured; more are ignored and the whole file is served", () => {
    const spec = (n: number) => Array.from({ length: n }, (_, i) => `${i * 10}-${i * 10 + 4}`).join(",");
    const sixteen = parseRange(`bytes=${spec(16)}`, SIZE);
    expect(sixteen.kind).toBe("ranges");
    expect(sixteen.kind === "ranges" && sixteen.ranges.length).toBe(16);
    expect(parseRange(`bytes=${spec(17)}`, SIZE)).toEqual(NONE);
  });
});
