// Property tests of conditional requests (RFC 9110 §13.1; functions/http/conditional.ts): If-None-Match
// with the weak comparison, If-Range with the strong one.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ifNoneMatchHits, ifRangeMatches } from "../../functions/http/conditional.ts";
import { binaryString } from "../support/any-text.ts";

/** etagc (RFC 9110 §8.8.3): any visible character but the double quote, and obs-text. */
const etagc = fc.string({ unit: fc.constantFrom(..."!#$%&'()*+,-./0123456789:;<=>?@ABCDEFXYZ[\\]^_`abcdefxyz{|}~W"), maxLength: 24 });
const strong = etagc.map((o) => `"${o}"`);
const anyTag = fc.tuple(fc.boolean(), etagc).map(([weak, o]) => `${weak ? "W/" : ""}"${o}"`);
const sep = fc.constantFrom(",", ", ", " , ", ",\t", " ,  ");
const opaqueOf = (t: string) => (t.startsWith("W/") ? t.slice(2) : t);

describe("property: If-None-Match and If-Range", () => {
  it("If-None-Match: a list hits exactly when one of its tags equals the ETag under the weak comparison", () => {
    fc.assert(
      fc.property(anyTag, fc.array(anyTag, { minLength: 1, maxLength: 6 }), sep, fc.constantFrom("", " "), (etag, list, s, pad) => {
        const header = pad + list.join(s) + pad;
        expect(ifNoneMatchHits(header, etag)).toBe(list.some((t) => opaqueOf(t) === opaqueOf(etag)));
      }),
      { numRuns: 5000 },
    );
  });

  it("If-None-Match: the ETag itself, weak or strong, anywhere in a list, always hits", () => {
    fc.assert(
      fc.property(strong, fc.boolean(), fc.array(anyTag, { maxLength: 5 }), fc.nat(), sep, (etag, weak, others, at, s) => {
        const list = [...others];
        list.splice(at % (list.length + 1), 0, (weak ? "W/" : "") + etag);
        expect(ifNoneMatchHits(list.join(s), etag)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("If-None-Match: `*` alone (with any surrounding white space) always hits", () => {
    fc.assert(
      fc.property(anyTag, fc.constantFrom("", " ", "\t", "  "), fc.constantFrom("", " ", "\t"), (etag, a, b) => {
        expect(ifNoneMatchHits(`${a}*${b}`, etag)).toBe(true);
      }),
    );
  });

  it("If-Range: only the current strong ETag, exactly, honours the range (strong comparison)", () => {
    fc.assert(
      fc.property(strong, anyTag, fc.constantFrom("", " ", "\t"), (etag, other, pad) => {
        expect(ifRangeMatches(`${pad}${etag}${pad}`, etag)).toBe(true);
        expect(ifRangeMatches(`W/${etag}`, etag)).toBe(false);
        expect(ifRangeMatches(`W/${etag}`, `W/${etag}`)).toBe(false);
        expect(ifRangeMatches(other, etag)).toBe(other === etag);
      }),
      { numRuns: 3000 },
    );
  });

  it("If-Range: a date, an unquoted tag or a list never honours the range", () => {
    fc.assert(
      fc.property(strong, fc.date({ noInvalidDate: true }), anyTag, (etag, d, other) => {
        expect(ifRangeMatches(d.toUTCString(), etag)).toBe(false);
        expect(ifRangeMatches(etag.slice(1, -1), etag)).toBe(false);
        expect(ifRangeMatches(`${etag}, ${other}`, etag)).toBe(false);
        expect(ifRangeMatches(`${other}, ${etag}`, etag)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it("arbitrary header strings never throw", () => {
    fc.assert(
      fc.property(binaryString(), fc.oneof(anyTag, fc.string()), (h, etag) => {
        expect(typeof ifNoneMatchHits(h, etag)).toBe("boolean");
        expect(typeof ifRangeMatches(h, etag)).toBe("boolean");
      }),
      { numRuns: 5000 },
    );
  });
});
