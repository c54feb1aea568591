// Property tests of list cursors (docs/api.md#get-v1episodes; src/shared/cursor.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CURSOR_MAX_LENGTH, decodeCursor, encodeCursor, type Cursor } from "../../src/shared/cursor.ts";
import { binaryString } from "../support/any-text.ts";

/** A finite number that is not -0 (JSON writes -0 as 0; no order key or instant is ever -0). */
const finite = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Object.is(x, -0));
const epochMs = fc.integer({ min: -8.64e15, max: 8.64e15 });
const slug = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,63}$/);

/** Keys as the index makes them: publishedAt in ms, the number or -1, a UUID; the first page's filters. */
const realistic: fc.Arbitrary<Cursor> = fc.record({
  after: fc.record({ p: epochMs, n: fc.oneof(fc.constant(-1), fc.integer({ min: 0, max: 999_999_999 })), id: fc.uuid() }),
  domain: fc.option(slug, { nil: null }),
  since: fc.option(epochMs, { nil: null }),
});

/** Any key the format can carry: any finite p, any integer n, any text id and domain. */
const general: fc.Arbitrary<Cursor> = fc.record({
  after: fc.record({ p: fc.oneof(finite, epochMs), n: fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.maxSafeNat().map((x) => -x).filter((x) => x !== 0)), id: binaryString({ maxLength: 60 }) }),
  domain: fc.option(binaryString({ maxLength: 64 }), { nil: null }),
  since: fc.option(fc.oneof(finite, epochMs), { nil: null }),
});

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const oneChar = fc.oneof(fc.constantFrom(...ALPHABET, "=", "+", "/", ".", " ", "%", "\0", "é"), binaryString({ minLength: 1, maxLength: 1 }));

/** The cursor of a decode, compared so that a different cursor can never pass for the original. */
function sameOrNull(decoded: Cursor | null, original: Cursor): void {
  if (decoded !== null) expect(decoded).toEqual(original);
}

describe("property: cursors", () => {
  it("encode then decode gives back any realistic order key and filters", () => {
    fc.assert(
      fc.property(realistic, (c) => {
        const text = encodeCursor(c);
        expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(text.length).toBeLessThanOrEqual(CURSOR_MAX_LENGTH);
        expect(decodeCursor(text)).toEqual(c);
      }),
      { numRuns: 2000 },
    );
  });

  it("encode then decode gives back any order key and filters whose cursor fits in 512 characters; longer ones are refused", () => {
    fc.assert(
      fc.property(general, (c) => {
        const text = encodeCursor(c);
        if (text.length <= CURSOR_MAX_LENGTH) expect(decodeCursor(text)).toEqual(c);
        else expect(decodeCursor(text)).toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it("any single-character substitution decodes to null or to the very same cursor, never to another", () => {
    fc.assert(
      fc.property(realistic, fc.nat(), oneChar, (c, at, ch) => {
        const text = encodeCursor(c);
        const i = at % text.length;
        fc.pre(text[i] !== ch);
        sameOrNull(decodeCursor(text.slice(0, i) + ch + text.slice(i + 1)), c);
      }),
      { numRuns: 5000 },
    );
  });

  it("any single-character deletion or insertion decodes to null or to the very same cursor", () => {
    fc.assert(
      fc.property(realistic, fc.nat(), oneChar, fc.boolean(), (c, at, ch, insert) => {
        const text = encodeCursor(c);
        const i = at % (text.length + (insert ? 1 : 0));
        const altered = insert ? text.slice(0, i) + ch + text.slice(i) : text.slice(0, i) + text.slice(i + 1);
        sameOrNull(decodeCursor(altered), c);
      }),
      { numRuns: 5000 },
    );
  });

  it("any truncation decodes to null or to the very same cursor", () => {
    fc.assert(
      fc.property(realistic, fc.nat(), (c, at) => {
        const text = encodeCursor(c);
        sameOrNull(decodeCursor(text.slice(0, at % text.length)), c);
      }),
      { numRuns: 3000 },
    );
  });

  it("arbitrary strings never throw: they decode to null or to a well-typed cursor", () => {
    const b64 = fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 600 });
    fc.assert(
      fc.property(fc.oneof(binaryString({ maxLength: 600 }), b64), (s) => {
        const r = decodeCursor(s);
        if (r !== null) {
          expect(Number.isFinite(r.after.p)).toBe(true);
          expect(Number.isInteger(r.after.n)).toBe(true);
          expect(typeof r.after.id).toBe("string");
          expect(r.domain === null || typeof r.domain === "string").toBe(true);
          expect(r.since === null || Number.isFinite(r.since)).toBe(true);
        }
      }),
      { numRuns: 5000 },
    );
  });
});
