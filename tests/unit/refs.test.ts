import { describe, expect, it } from "vitest";
import { canonicalRef, parseRef } from "../../src/shared/refs.ts";

describe("episode references (docs/api.md#get-v1episodesref)", () => {
  it("a lower-case UUID is a uuid reference", () => {
    expect(parseRef("8d9c1151-071d-428b-a81a-f51f72aedac7")).toEqual({ kind: "uuid", id: "8d9c1151-071d-428b-a81a-f51f72aedac7" });
  });

  it("a UUID in upper or mixed case is accepted and lower-cased", () => {
    expect(parseRef("8D9C1151-071D-428B-A81A-F51F72AEDAC7")).toEqual({ kind: "uuid", id: "8d9c1151-071d-428b-a81a-f51f72aedac7" });
    expect(parseRef("8d9C1151-071d-428B-a81a-F51f72aedac7")).toEqual({ kind: "uuid", id: "8d9c1151-071d-428b-a81a-f51f72aedac7" });
  });

  it("a UUID of any version or variant is accepted (not only v4)", () => {
    expect(parseRef("00000000-0000-0000-0000-000000000000")).toEqual({ kind: "uuid", id: "00000000-0000-0000-0000-000000000000" });
    expect(parseRef("01890a5d-ac96-774b-bcce-b302099a8057")?.kind).toBe("uuid");
  });

  it.each([
    ["1", 1],
    ["42", 42],
    ["007", 7],
    ["123456789", 123456789],
  ])("the number %s of 1–9 digits is a number reference", (text, n) => {
    expect(parseRef(text)).toEqual({ kind: "number", number: n });
  });

  it.each([
    [""],
    ["0x1"],
    ["1.5"],
    ["1e3"],
    ["-1"],
    ["+1"],
    [" 1"],
    ["1 "],
    ["1234567890"],
    ["١٢"], // Arabic-Indic digits are not decimal digits here
    ["latest"],
    ["8d9c1151071d428ba81af51f72aedac7"], // UUID without dashes
    ["{8d9c1151-071d-428b-a81a-f51f72aedac7}"],
    ["8d9c1151-071d-428b-a81a-f51f72aedac"], // one digit short
    ["8d9c1151-071d-428b-a81a-f51f72aedac7a"], // one digit long
    ["8d9c1151-071d-428b-a81a-f51f72aedag7"], // not hex
    ["urn:uuid:8d9c1151-071d-428b-a81a-f51f72aedac7"],
    ["8d9c1151-071d-428b-a81a-f51f72aedac7\n"],
  ])("%j is malformed (null)", (text) => {
    expect(parseRef(text)).toBeNull();
  });

  it("the canonical reference is the number, or the UUID when the number is null", () => {
    expect(canonicalRef({ id: "8d9c1151-071d-428b-a81a-f51f72aedac7", episodeNumber: 42 })).toBe("42");
    expect(canonicalRef({ id: "8d9c1151-071d-428b-a81a-f51f72aedac7", episodeNumber: null })).toBe("8d9c1151-071d-428b-a81a-f51f72aedac7");
  });
});
