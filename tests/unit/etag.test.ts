import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { etagOf, ifNoneMatchHits, ifRangeMatches } from "../../src/shared/etag.ts";

const TAG = '"q1w2e3r4t5y6u7i8o9p0aa"';

describe("entity tags (RFC 9110 §8.8.3)", () => {
  it("an ETag is strong and quoted: the first 16 bytes of SHA-256 in base64url", async () => {
    const expected = createHash("sha256").update("hello").digest().subarray(0, 16).toString("base64url");
    expect(await etagOf("hello")).toBe(`"${expected}"`);
    expect(await etagOf("hello")).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
  });

  it("the same bytes as a string or as bytes give the same ETag", async () => {
    expect(await etagOf("héllo")).toBe(await etagOf(new TextEncoder().encode("héllo")));
  });

  it("different bodies give different ETags", async () => {
    expect(await etagOf('{"a":1}')).not.toBe(await etagOf('{"a":2}'));
  });
});

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
