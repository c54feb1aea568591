// Property tests of the `since` filter (docs/api.md#get-v1episodes; src/shared/since.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSince } from "../../src/shared/since.ts";
import { binaryString } from "../support/any-text.ts";

const pad = (n: number, w = 2) => String(n).padStart(w, "0");
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
/** Days in a month, stated independently of Date. */
const daysIn = (y: number, m: number) => [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;

const year = fc.integer({ min: 0, max: 9999 });
const validDate = fc
  .tuple(year, fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }))
  .map(([y, m, d]) => ({ y, m, d: Math.min(d, daysIn(y, m)) }));
const dateText = ({ y, m, d }: { y: number; m: number; d: number }) => `${pad(y, 4)}-${pad(m)}-${pad(d)}`;

const offset = fc.oneof(
  fc.constant("Z"),
  fc.tuple(fc.constantFrom("+", "-"), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([s, h, m]) => `${s}${pad(h)}:${pad(m)}`),
);
const fraction = fc.option(fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 1, maxLength: 9 }), { nil: undefined });
const dateTime = fc
  .tuple(validDate, fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }), fraction, offset)
  .map(([date, h, mi, s, f, o]) => `${dateText(date)}T${pad(h)}:${pad(mi)}:${pad(s)}${f === undefined ? "" : `.${f}`}${o}`);

describe("property: since", () => {
  it("every valid calendar date YYYY-MM-DD (years 0000–9999) is midnight UTC of that day", () => {
    fc.assert(
      fc.property(validDate, (date) => {
        const text = dateText(date);
        const t = parseSince(text);
        expect(t).toBe(Date.parse(`${text}T00:00:00Z`));
        expect(((t! % 86_400_000) + 86_400_000) % 86_400_000).toBe(0);
      }),
      { numRuns: 3000 },
    );
  });

  it("impossible dates are null: day 31 of a 30-day month, Feb 29 of a non-leap year, Feb 30–31, month 00 or 13, day 00 or 32+", () => {
    const impossible = fc.oneof(
      fc.tuple(year, fc.constantFrom(4, 6, 9, 11)).map(([y, m]) => ({ y, m, d: 31 })),
      year.filter((y) => !isLeap(y)).map((y) => ({ y, m: 2, d: 29 })),
      fc.tuple(year, fc.constantFrom(30, 31)).map(([y, d]) => ({ y, m: 2, d })),
      fc.tuple(year, fc.constantFrom(0, 13, 99), fc.integer({ min: 1, max: 28 })).map(([y, m, d]) => ({ y, m, d })),
      fc.tuple(year, fc.integer({ min: 1, max: 12 }), fc.constantFrom(0, 32, 99)).map(([y, m, d]) => ({ y, m, d })),
    );
    fc.assert(
      fc.property(impossible, fc.boolean(), (date, withTime) => {
        expect(parseSince(dateText(date) + (withTime ? "T00:00:00Z" : ""))).toBeNull();
      }),
      { numRuns: 3000 },
    );
  });

  it("Feb 29 is a date exactly in leap years", () => {
    fc.assert(
      fc.property(year, (y) => {
        expect(parseSince(`${pad(y, 4)}-02-29`) !== null).toBe(isLeap(y));
      }),
      { numRuns: 2000 },
    );
  });

  it("an RFC 3339 date-time with seconds and an offset equals Date.parse of the same text", () => {
    fc.assert(
      fc.property(dateTime, (text) => {
        expect(parseSince(text)).toBe(Date.parse(text));
      }),
      { numRuns: 5000 },
    );
  });

  it("a lower-case t or z means the same instant as the upper-case one", () => {
    fc.assert(
      fc.property(dateTime, (text) => {
        expect(parseSince(text.replace("T", "t").replace("Z", "z"))).toBe(parseSince(text));
      }),
    );
  });

  it("a date-time without an offset, without seconds or with hour 24+, minute 60+ or offset hour 24+ is null", () => {
    const bad = dateTime.chain((t) =>
      fc.constantFrom(
        t.replace(/(Z|[+-]\d\d:\d\d)$/, ""),
        t.replace(/T(\d\d):(\d\d):(\d\d)(\.\d+)?/, "T$1:$2"),
        t.replace(/T\d\d/, "T24"),
        t.replace(/T(\d\d):\d\d/, "T$1:60"),
        t.replace(/(Z|[+-]\d\d:\d\d)$/, "+24:00"),
        t.replace(/(Z|[+-]\d\d:\d\d)$/, "+0100"),
        t.replace(/-/g, ""),
      ),
    );
    fc.assert(
      fc.property(bad, (text) => {
        expect(parseSince(text)).toBeNull();
      }),
      { numRuns: 3000 },
    );
  });

  it("arbitrary strings never throw: they give null or a finite instant", () => {
    const near = fc.string({ unit: fc.constantFrom(..."0123456789-:T+Zz. tW"), maxLength: 40 });
    fc.assert(
      fc.property(fc.oneof(binaryString(), near), (s) => {
        const r = parseSince(s);
        expect(r === null || Number.isFinite(r)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });
});
