// The comparisons of conditional requests (functions/http/conditional.ts): If-None-Match compares weakly,
// If-Range strongly (RFC 9110 §13.1).
import { describe, expect, it } from "vitest";
import { ifNoneMatchHits, ifRangeMatches } from "../../functions/http/conditional.ts";

const TAG = '"q1w2e3r4t5y6u7i8o9p0aa"';

describe("If-None-Match uses the weak comparison (RFC 9110 §13.1.2)", () => {
  it("the exact tag matches", () => {
    expect(ifNoneMatchHits(TAG, TAG)).toBe(true);
  });

  it("the weak form W/ of the tag matches", () => {
    expect(ifNoneMatchHits(`W/${TAG}`, TAG)).toBe(true);
  });

  it("a tag anywhere in a list matches, with or without spaces", () => {
    expect(ifNoneMatchHits(`"other", ${TAG}`, TAG)).toBe(true);
    expect(ifNoneMatchHits(`"other",W/${TAG},"third"`, TAG)).toBe(true);
    expect(ifNoneMatchHits(`  "a" ,  "b"  , ${TAG}  `, TAG)).toBe(true);
  });

  it("a tag containing a comma is compared whole, not split", () => {
    expect(ifNoneMatchHits('"a,b"', '"a,b"')).toBe(true);
    expect(ifNoneMatchHits('"a,b"', '"a"')).toBe(false);
  });

  it("* matches any current representation", () => {
    expect(ifNoneMatchHits("*", TAG)).toBe(true);
    expect(ifNoneMatchHits(" * ", TAG)).toBe(true);
  });

  it("no listed tag matching means no hit", () => {
    expect(ifNoneMatchHits('"other"', TAG)).toBe(false);
    expect(ifNoneMatchHits('"other", W/"another"', TAG)).toBe(false);
    expect(ifNoneMatchHits("", TAG)).toBe(false);
  });

  it("an unquoted value is not an entity tag and does not match", () => {
    expect(ifNoneMatchHits(TAG.slice(1, -1), TAG)).toBe(false);
  });

  it("tags are compared case-sensitively", () => {
    expect(ifNoneMatchHits(TAG.toUpperCase(), TAG)).toBe(false);
  });

  it("a prefix of the tag does not match", () => {
    expect(ifNoneMatchHits(`"${TAG.slice(1, -2)}"`, TAG)).toBe(false);
  });
});

describe("If-Range uses the strong comparison (RFC 9110 §13.1.5)", () => {
  it("the same strong tag matches", () => {
    expect(ifRangeMatches(TAG, TAG)).toBe(true);
    expect(ifRangeMatches(` ${TAG} `, TAG)).toBe(true);
  });

  it("a weak validator never matches, even with the same opaque tag", () => {
    expect(ifRangeMatches(`W/${TAG}`, TAG)).toBe(false);
    expect(ifRangeMatches(`W/${TAG}`, `W/${TAG}`)).toBe(false);
  });

  it("another tag does not match", () => {
    expect(ifRangeMatches('"stale"', TAG)).toBe(false);
  });

  it("a date or a list is not a matching entity tag", () => {
    expect(ifRangeMatches("Wed, 21 Oct 2026 07:28:00 GMT", TAG)).toBe(false);
    expect(ifRangeMatches(`${TAG}, "other"`, TAG)).toBe(false);
    expect(ifRangeMatches("*", TAG)).toBe(false);
  });
});
