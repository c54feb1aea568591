// Property tests of the `limit` parameter and the one-value rule of the list query
// (docs/api.md#get-v1episodes; src/shared/parameters.ts, functions/routes/list-query.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseListQuery } from "../../functions/routes/list-query.ts";
import { encodeCursor } from "../../src/shared/cursor.ts";
import { PARAMETERS } from "../../src/shared/parameters.ts";
import { binaryString } from "../support/any-text.ts";

const digitString = (max: number) => fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 1, maxLength: max });
/** Exactly the accepted texts: 1 to 50, written with 1 to 3 digits ("7", "07", "007"). */
const accepted = (s: string) => /^[0-9]{1,3}$/.test(s) && Number(s) >= 1 && Number(s) <= 50;

describe("property: limit", () => {
  it("every decimal 1..50 written with up to 3 digits (leading zeros allowed) is accepted as its value", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 0, max: 2 }), (n, zeros) => {
        const text = "0".repeat(zeros) + String(n);
        fc.pre(text.length <= 3);
        const r = PARAMETERS.limit.schema.safeParse(text);
        expect(r.success && r.data).toBe(n);
      }),
    );
  });

  it("the schema accepts exactly the decimal strings 1..50 of up to 3 digits, and nothing else", () => {
    const texts = fc.oneof(
      digitString(12),
      fc.string({ unit: fc.constantFrom(..."0123456789+-. eEx_"), maxLength: 6 }),
      binaryString({ maxLength: 8 }),
      fc.integer({ min: -100, max: 1000 }).map(String),
      fc.double().map(String),
    );
    fc.assert(
      fc.property(texts, (s) => {
        const r = PARAMETERS.limit.schema.safeParse(s);
        expect(r.success).toBe(accepted(s));
        if (r.success) expect(r.data).toBe(Number(s));
      }),
      { numRuns: 1500 },
    );
  });

  it("parseListQuery gives the accepted limit, or 400 invalid_limit naming limit", () => {
    fc.assert(
      fc.property(fc.oneof(digitString(4), binaryString({ maxLength: 5 })), (s) => {
        const r = parseListQuery(new URLSearchParams([["limit", s]]));
        if (accepted(s)) expect(r).toEqual({ ok: true, query: { limit: Number(s), domain: null, since: null, after: null } });
        else expect(r).toEqual({ ok: false, code: "invalid_limit", parameter: "limit" });
      }),
      { numRuns: 3000 },
    );
  });

  it("a repeated parameter is refused with its own error, even when every value is valid and equal", () => {
    const cursor = encodeCursor({ after: { p: 1, n: 1, id: "8d9c1151-071d-428b-a81a-f51f72aedac7" }, domain: null, since: null });
    const good = { limit: "10", domain: "general", since: "2026-01-01", cursor };
    const codes = { limit: "invalid_limit", domain: "invalid_domain", since: "invalid_since", cursor: "invalid_cursor" } as const;
    const names = ["limit", "domain", "since", "cursor"] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...names),
        fc.integer({ min: 2, max: 5 }),
        fc.boolean(),
        fc.array(fc.string({ maxLength: 8 }), { maxLength: 5 }),
        (name, times, sameValue, others) => {
          const params = new URLSearchParams();
          // The parameters checked before this one are given once and valid, so this one is the first at fault.
          for (const n of names.slice(0, names.indexOf(name))) if (n !== "cursor") params.append(n, good[n]);
          for (let i = 0; i < times; i++) params.append(name, sameValue ? good[name] : (others[i] ?? good[name]));
          expect(parseListQuery(params)).toEqual({ ok: false, code: codes[name], parameter: name });
        },
      ),
      { numRuns: 2000 },
    );
  });
});
