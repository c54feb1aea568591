// Property tests of episode references (docs/api.md#get-v1episodesref; src/shared/refs.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PARAMETERS } from "../../src/shared/parameters.ts";
import { parseRef } from "../../src/shared/refs.ts";
import { binaryString } from "../support/any-text.ts";

const digits = fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 1, maxLength: 9 });
const hex = (n: number) => fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF"), minLength: n, maxLength: n });
/** Any 8-4-4-4-12 hexadecimal UUID, any version, any mix of letter cases. */
const anyCaseUuid = fc.tuple(hex(8), hex(4), hex(4), hex(4), hex(12)).map((p) => p.join("-"));
const isNumberRef = (s: string) => /^[0-9]{1,9}$/.test(s);
const isUuidRef = (s: string) => /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(s);

/** Strings close to references: mutated digits and UUIDs, plus arbitrary text. */
const nearRefs = fc.oneof(
  binaryString(),
  fc.string({ unit: fc.constantFrom(..."0123456789-+.eE xX{}abcdefABCDEF\n\t%"), maxLength: 40 }),
  fc.tuple(digits, fc.constantFrom("", " ", "\n", ".0", "0", "-", "+", "e1")).map(([d, s]) => d + s),
  fc.tuple(fc.constantFrom("", " ", "+", "-", "{", "0"), anyCaseUuid, fc.constantFrom("", " ", "}", "0", "\n")).map(([a, u, b]) => a + u + b),
  anyCaseUuid.map((u) => u.replace(/-/g, "")),
);

describe("property: episode references", () => {
  it("any string of 1 to 9 decimal digits is the episode number it spells", () => {
    fc.assert(
      fc.property(digits, (s) => {
        expect(parseRef(s)).toEqual({ kind: "number", number: Number(s) });
      }),
      { numRuns: 2000 },
    );
  });

  it("any UUID in any letter case is its lower-case id", () => {
    fc.assert(
      fc.property(fc.oneof(anyCaseUuid, fc.uuid()), (s) => {
        expect(parseRef(s)).toEqual({ kind: "uuid", id: s.toLowerCase() });
      }),
      { numRuns: 2000 },
    );
  });

  it("the same UUID in two letter cases gives the same reference", () => {
    fc.assert(
      fc.property(fc.uuid(), (u) => {
        expect(parseRef(u.toUpperCase())).toEqual(parseRef(u));
      }),
    );
  });

  it("anything else (ten digits, signs, spaces, braces, UUIDs without hyphens, any text) is null", () => {
    fc.assert(
      fc.property(fc.oneof(nearRefs, fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 10, maxLength: 30 })), (s) => {
        fc.pre(!isNumberRef(s) && !isUuidRef(s));
        expect(parseRef(s)).toBeNull();
      }),
      { numRuns: 3000 },
    );
  });

  it("never throws, and answers exactly one of number, uuid or null as the grammar says", () => {
    fc.assert(
      fc.property(nearRefs, (s) => {
        const r = parseRef(s);
        if (isNumberRef(s)) expect(r).toEqual({ kind: "number", number: Number(s) });
        else if (isUuidRef(s)) expect(r).toEqual({ kind: "uuid", id: s.toLowerCase() });
        else expect(r).toBeNull();
      }),
      { numRuns: 3000 },
    );
  });

  it("accepts what the `ref` parameter's schema accepts, with its value (the schema the OpenAPI document states)", () => {
    fc.assert(
      fc.property(fc.oneof(nearRefs, digits, anyCaseUuid, fc.uuid()), (s) => {
        const parsed = PARAMETERS.ref.schema.safeParse(s);
        const r = parseRef(s);
        if (!parsed.success) expect(r).toBeNull();
        else expect(r).toEqual(typeof parsed.data === "number" ? { kind: "number", number: parsed.data } : { kind: "uuid", id: parsed.data });
      }),
      { numRuns: 5000 },
    );
  });
});
