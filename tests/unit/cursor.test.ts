import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, type Cursor } from "../../src/shared/cursor.ts";
import { fromBase64Url, toBase64Url } from "../../src/shared/base64url.ts";

const sample: Cursor = {
  after: { p: Date.UTC(2026, 9, 1, 6), n: 42, id: "8d9c1151-071d-428b-a81a-f51f72aedac7" },
  domain: "security",
  since: Date.UTC(2026, 0, 1),
};

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Re-encodes a raw payload with a valid FNV-1a checksum, to reach the checks after the checksum. */
function withChecksum(payloadText: string): string {
  const payload = new TextEncoder().encode(payloadText);
  let hash = 0x811c9dc5;
  for (const b of payload) hash = Math.imul(hash ^ b, 0x01000193) >>> 0;
  const bytes = new Uint8Array(payload.length + 4);
  bytes.set(payload);
  new DataView(bytes.buffer).setUint32(payload.length, hash);
  return toBase64Url(bytes);
}

describe("cursors (docs/api.md#get-v1episodes)", () => {
  it("a cursor round-trips its position and filters", () => {
    expect(decodeCursor(encodeCursor(sample))).toEqual(sample);
  });

  it("a cursor without filters and an episode without a number round-trips", () => {
    const c: Cursor = { after: { p: 0, n: -1, id: "00000000-0000-0000-0000-000000000000" }, domain: null, since: null };
    expect(decodeCursor(encodeCursor(c))).toEqual(c);
  });

  it("a cursor is URL-safe (base64url, no padding)", () => {
    expect(encodeCursor(sample)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it("the checksum I mirror here matches the encoder (so the crafted cursors below are valid up to the checksum)", () => {
    const payload = JSON.stringify([1, sample.after.p, sample.after.n, sample.after.id, sample.domain, sample.since]);
    expect(withChecksum(payload)).toBe(encodeCursor(sample));
  });

  it("any single altered character makes the cursor invalid", () => {
    const text = encodeCursor(sample);
    let tried = 0;
    for (let i = 0; i < text.length; i++) {
      for (const c of ALPHABET) {
        if (c === text[i]) continue;
        const altered = text.slice(0, i) + c + text.slice(i + 1);
        tried++;
        expect(decodeCursor(altered), `position ${i} → ${c}`).toBeNull();
      }
    }
    expect(tried).toBe(text.length * 63);
  });

  it("every truncation makes the cursor invalid", () => {
    const text = encodeCursor(sample);
    for (let len = 0; len < text.length; len++) expect(decodeCursor(text.slice(0, len)), `length ${len}`).toBeNull();
  });

  it("appended characters make the cursor invalid", () => {
    const text = encodeCursor(sample);
    for (const tail of ["A", "AA", "AAA", "AAAA", "x", "-", "_", "=", "==", "%3D", " ", "\n"]) {
      expect(decodeCursor(text + tail), `tail ${JSON.stringify(tail)}`).toBeNull();
    }
  });

  it("a wrong checksum makes the cursor invalid", () => {
    const bytes = fromBase64Url(encodeCursor(sample))!;
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0x01;
    expect(decodeCursor(toBase64Url(bytes))).toBeNull();
  });

  it("a cursor of another version is refused even with a valid checksum", () => {
    expect(decodeCursor(withChecksum(JSON.stringify([2, 1, 1, "x", null, null])))).toBeNull();
    expect(decodeCursor(withChecksum(JSON.stringify([0, 1, 1, "x", null, null])))).toBeNull();
    expect(decodeCursor(withChecksum(JSON.stringify(["1", 1, 1, "x", null, null])))).toBeNull();
    expect(decodeCursor(withChecksum(JSON.stringify([1, 1, 1, "x", null, null])))).not.toBeNull();
  });

  it("a checksummed payload of the wrong shape is refused", () => {
    for (const payload of [
      "not json",
      "{}",
      "[]",
      "[1,1,1,\"x\",null]",
      "[1,1,1,\"x\",null,null,null]",
      "[1,\"1\",1,\"x\",null,null]",
      "[1,1,1.5,\"x\",null,null]",
      "[1,1,1,7,null,null]",
      "[1,1,1,\"x\",7,null]",
      "[1,1,1,\"x\",null,\"2026\"]",
      "[1,null,1,\"x\",null,null]",
    ]) {
      expect(decodeCursor(withChecksum(payload)), payload).toBeNull();
    }
  });

  it("a payload that is not UTF-8 is refused", () => {
    const bytes = new Uint8Array([0x5b, 0xff, 0xfe, 0x5d]);
    let hash = 0x811c9dc5;
    for (const b of bytes) hash = Math.imul(hash ^ b, 0x01000193) >>> 0;
    const all = new Uint8Array(bytes.length + 4);
    all.set(bytes);
    new DataView(all.buffer).setUint32(bytes.length, hash);
    expect(decodeCursor(toBase64Url(all))).toBeNull();
  });

  it.each([
    [""],
    ["!!!!"],
    ["abc+def/"], // standard base64 alphabet, not base64url
    ["YWJj="], // padding
    ["a b c"],
    ["%41%41"],
    ["A"], // length ≡ 1 (mod 4) never decodes
    ["AAAA"], // too short to hold a checksum and a payload
  ])("non-base64url or too short text %j is refused", (text) => {
    expect(decodeCursor(text)).toBeNull();
  });

  it("an overlong cursor is refused", () => {
    expect(decodeCursor("A".repeat(600))).toBeNull();
  });

  it("base64url decoding refuses non-canonical trailing bits", () => {
    // "QQ" is the canonical encoding of "A"; "QR" decodes to the same byte with stray bits set.
    expect(fromBase64Url("QQ")).toEqual(new Uint8Array([0x41]));
    expect(fromBase64Url("QR")).toBeNull();
  });
});

describe("base64url by table", () => {
  it("encodes as Node's base64url does, and decodes it back", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const text = toBase64Url(bytes);
        expect(text).toBe(Buffer.from(bytes).toString("base64url"));
        expect(fromBase64Url(text)).toEqual(bytes);
      }),
    );
  });

  it("decodes exactly the canonical texts: what Node decodes and encodes back to the same text", () => {
    const char = fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=. ".split(""));
    fc.assert(
      fc.property(fc.array(char, { maxLength: 40 }).map((cs) => cs.join("")), (text) => {
        const canonical = /^[A-Za-z0-9_-]*$/.test(text) && text.length % 4 !== 1 && Buffer.from(text, "base64url").toString("base64url") === text;
        const decoded = fromBase64Url(text);
        expect(decoded !== null).toBe(canonical);
        if (decoded !== null) expect(Buffer.from(decoded)).toEqual(Buffer.from(text, "base64url"));
      }),
      { numRuns: 2000 },
    );
  });
});
