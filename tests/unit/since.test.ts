import { describe, expect, it } from "vitest";
import { parseSince } from "../../src/shared/since.ts";

describe("the since filter (docs/api.md#get-v1episodes)", () => {
  it("a date YYYY-MM-DD means midnight UTC of that day", () => {
    expect(parseSince("2026-10-01")).toBe(Date.UTC(2026, 9, 1));
    expect(parseSince("2024-02-29")).toBe(Date.UTC(2024, 1, 29));
  });

  it("a date-time with Z is read as UTC", () => {
    expect(parseSince("2026-10-01T06:30:15Z")).toBe(Date.UTC(2026, 9, 1, 6, 30, 15));
  });

  it("lower-case t and z are accepted (RFC 3339 §5.6 note)", () => {
    expect(parseSince("2026-10-01t06:30:15z")).toBe(Date.UTC(2026, 9, 1, 6, 30, 15));
  });

  it("a positive offset is subtracted to reach UTC", () => {
    expect(parseSince("2026-10-01T08:30:00+02:00")).toBe(Date.UTC(2026, 9, 1, 6, 30));
    expect(parseSince("2026-10-01T06:00:00+05:45")).toBe(Date.UTC(2026, 9, 1, 0, 15));
  });

  it("a negative offset is added to reach UTC, across midnight", () => {
    expect(parseSince("2026-09-30T23:00:00-07:00")).toBe(Date.UTC(2026, 9, 1, 6));
  });

  it("+00:00 and -00:00 mean UTC", () => {
    expect(parseSince("2026-10-01T06:00:00+00:00")).toBe(Date.UTC(2026, 9, 1, 6));
    expect(parseSince("2026-10-01T06:00:00-00:00")).toBe(Date.UTC(2026, 9, 1, 6));
  });

  it("fractional seconds are kept to the millisecond", () => {
    expect(parseSince("2026-10-01T06:00:00.5Z")).toBe(Date.UTC(2026, 9, 1, 6, 0, 0, 500));
    expect(parseSince("2026-10-01T06:00:00.123Z")).toBe(Date.UTC(2026, 9, 1, 6, 0, 0, 123));
    expect(parseSince("2026-10-01T06:00:00.123456789+01:00")).toBe(Date.UTC(2026, 9, 1, 5, 0, 0, 123));
  });

  it("every three-digit fraction maps to exactly that many milliseconds", () => {
    const base = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 1000; i++) {
      expect(parseSince(`2026-01-01T00:00:00.${String(i).padStart(3, "0")}Z`)! - base).toBe(i);
    }
  });

  it("a leap second (:60) counts as the next second", () => {
    expect(parseSince("2016-12-31T23:59:60Z")).toBe(Date.UTC(2017, 0, 1));
  });

  it("years before 100 are not shifted into the 1900s", () => {
    // Date.parse reads four-digit ISO years literally; Date.UTC maps 0–99 to 1900–1999.
    expect(parseSince("0050-01-01")).toBe(Date.parse("0050-01-01T00:00:00Z"));
    expect(new Date(parseSince("0099-06-01T12:00:00Z")!).toISOString()).toBe("0099-06-01T12:00:00.000Z");
  });

  it("February 29 exists in leap years only, by the Gregorian rules", () => {
    expect(parseSince("2024-02-29")).not.toBeNull();
    expect(parseSince("2000-02-29")).not.toBeNull();
    expect(parseSince("0000-02-29")).not.toBeNull(); // year 0 is divisible by 400
    expect(parseSince("2026-02-29")).toBeNull();
    expect(parseSince("1900-02-29")).toBeNull();
    expect(parseSince("2100-02-29")).toBeNull();
  });

  it.each([
    ["2026-02-30"],
    ["2026-04-31"],
    ["2026-13-01"],
    ["2026-00-10"],
    ["2026-01-00"],
    ["2026-01-32"],
    ["2026-02-30T00:00:00Z"],
    ["2026-10-01T25:00:00Z"],
    ["2026-10-01T24:00:00Z"],
    ["2026-10-01T06:60:00Z"],
    ["2026-10-01T06:00:61Z"],
    ["2026-10-01T06:00:00+24:00"],
    ["2026-10-01T06:00:00+01:60"],
  ])("the impossible date or time %s is refused", (text) => {
    expect(parseSince(text)).toBeNull();
  });

  it.each([
    [""],
    ["2026-10-01T06:00:00"], // a bare date-time has no offset
    ["2026-10-01T06:00:00.5"],
    ["2026-10-01T06:00Z"], // seconds are required
    ["2026-10-01T06:00:00+0200"], // offset without colon
    ["2026-10-01T06:00:00+02"],
    ["2026-10-01T06:00:00.Z"],
    ["2026-10-01T06:00:00.1234567890Z"],
    ["2026-1-01"],
    ["26-10-01"],
    ["20261001"],
    ["2026/10/01"],
    ["2026-10-01 "],
    [" 2026-10-01"],
    ["2026-10"],
    ["2026"],
    ["1759298400000"],
    ["yesterday"],
    ["+02026-10-01"],
    ["２０２６-10-01"],
  ])("%j is not an accepted form", (text) => {
    expect(parseSince(text)).toBeNull();
  });
});
