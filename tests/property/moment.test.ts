// Property tests of moments (src/shared/moment.ts): every way of writing one time reads as the same
// seconds, the canonical form reads back as itself, and no input throws or gives a negative or
// infinite time.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { momentParam, parseMoment, parseTime } from "../../src/shared/moment.ts";
import { binaryString } from "../support/any-text.ts";

const pad = (n: number) => String(n).padStart(2, "0");

describe("property: moments", () => {
  it("seconds, m:ss, h:mm:ss, units and npt: all read as the same time", () => {
    fc.assert(
      fc.property(fc.nat({ max: 99 }), fc.nat({ max: 59 }), fc.nat({ max: 59 }), fc.nat({ max: 999 }), (h, m, s, ms) => {
        const total = h * 3600 + m * 60 + s;
        const frac = ms === 0 ? "" : `.${String(ms).padStart(3, "0")}`;
        const want = total + ms / 1000;
        const forms = [`${total}${frac}`, `${h}:${pad(m)}:${pad(s)}${frac}`, `${h * 60 + m}:${pad(s)}${frac}`, `${h}h${m}m${s}${frac}s`, `npt:${h}:${pad(m)}:${pad(s)}${frac}`];
        for (const f of forms) expect(parseMoment(f)?.start, f).toBeCloseTo(want, 9);
      }),
      { numRuns: 2000 },
    );
  });

  it("the canonical t of a moment reads back as the same moment, to the millisecond", () => {
    const time = fc.integer({ min: 0, max: 360_000_000 }).map((ms) => ms / 1000);
    fc.assert(
      fc.property(time, fc.option(time, { nil: null }), (start, maybeEnd) => {
        const end = maybeEnd === null || maybeEnd <= start ? null : maybeEnd;
        expect(parseMoment(momentParam({ start, end }))).toEqual({ start, end });
      }),
      { numRuns: 3000 },
    );
  });

  it("any string gives null or a finite time ≥ 0, with an end after the start", () => {
    const junk = fc.oneof(binaryString({ maxLength: 50 }), fc.stringMatching(/^(npt:)?[0-9:.,hms]{0,20}$/));
    fc.assert(
      fc.property(junk, (raw) => {
        const t = parseTime(raw);
        if (t !== null) expect(Number.isFinite(t) && t >= 0).toBe(true);
        const m = parseMoment(raw);
        if (m === null) return;
        expect(Number.isFinite(m.start) && m.start >= 0).toBe(true);
        if (m.end !== null) expect(m.end).toBeGreaterThan(m.start);
      }),
      { numRuns: 5000 },
    );
  });
});
