// Property tests of Range parsing (RFC 9110 §14; docs/api.md#get-v1episodesrefaudio; functions/http/range.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseRange, type RangeResult } from "../../functions/http/range.ts";
import { binaryString } from "../support/any-text.ts";

const size = fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 2 ** 40 }));
const pos = fc.oneof(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 2 ** 41 }));
const ws = fc.constantFrom("", " ", "  ", "\t");
const unit = fc.constantFrom("bytes", "BYTES", "Bytes");

type Spec = { kind: "int"; first: number; last: number } | { kind: "open"; first: number } | { kind: "suffix"; n: number };
/** A syntactically valid range-spec (RFC 9110 §14.1.1): first ≤ last for an int-range. */
const spec: fc.Arbitrary<Spec> = fc.oneof(
  fc.tuple(pos, pos).map(([a, b]) => ({ kind: "int" as const, first: Math.min(a, b), last: Math.max(a, b) })),
  pos.map((first) => ({ kind: "open" as const, first })),
  pos.map((n) => ({ kind: "suffix" as const, n })),
);
const specText = (s: Spec) => (s.kind === "int" ? `${s.first}-${s.last}` : s.kind === "open" ? `${s.first}-` : `-${s.n}`);

/** What the spec says one range selects of a file of `size` bytes, or null when unsatisfiable. */
function expected(s: Spec, size: number): { start: number; end: number } | null {
  if (s.kind === "suffix") return s.n === 0 || size === 0 ? null : { start: Math.max(0, size - s.n), end: size - 1 };
  if (s.first >= size) return null;
  return { start: s.first, end: s.kind === "open" ? size - 1 : Math.min(s.last, size - 1) };
}

function wellFormed(r: RangeResult, size: number): void {
  if (r.kind !== "ranges") return;
  expect(r.ranges.length).toBeGreaterThan(0);
  r.ranges.forEach((x, i) => {
    expect(x.start).toBeGreaterThanOrEqual(0);
    expect(x.end).toBeLessThanOrEqual(size - 1);
    expect(x.start).toBeLessThanOrEqual(x.end);
    // Sorted, neither overlapping nor adjacent.
    if (i > 0) expect(x.start).toBeGreaterThan(r.ranges[i - 1]!.end + 1);
  });
}

describe("property: Range", () => {
  it("one valid range is served within [0, size-1] (suffix, open and clamped), or is unsatisfiable exactly when the spec says", () => {
    fc.assert(
      fc.property(size, spec, unit, ws, ws, (n, s, u, a, b) => {
        const r = parseRange(`${a}${u}${a}=${b}${specText(s)}${b}`, n);
        const want = expected(s, n);
        if (want === null) expect(r).toEqual({ kind: "unsatisfiable" });
        else expect(r).toEqual({ kind: "ranges", ranges: [want] });
        wellFormed(r, n);
      }),
      { numRuns: 5000 },
    );
  });

  it("several valid ranges select exactly the union of what each selects (merged), or are unsatisfiable when none does", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200 }), fc.array(spec, { minLength: 1, maxLength: 16 }), (n, specs) => {
        const r = parseRange(`bytes=${specs.map(specText).join(", ")}`, n);
        const want = new Set<number>();
        for (const s of specs) {
          const e = expected(s, n);
          if (e) for (let i = e.start; i <= e.end; i++) want.add(i);
        }
        if (want.size === 0) return void expect(r).toEqual({ kind: "unsatisfiable" });
        expect(r.kind).toBe("ranges");
        wellFormed(r, n);
        const got = new Set<number>();
        if (r.kind === "ranges") for (const x of r.ranges) for (let i = x.start; i <= x.end; i++) got.add(i);
        expect([...got].sort((x, y) => x - y)).toEqual([...want].sort((x, y) => x - y));
      }),
      { numRuns: 2000 },
    );
  });

  it("a written last position before the first makes the header invalid: whole file", () => {
    fc.assert(
      fc.property(size, pos, pos, fc.array(spec, { maxLength: 3 }), (n, a, b, others) => {
        fc.pre(a !== b);
        const bad = `${Math.max(a, b)}-${Math.min(a, b)}`;
        expect(parseRange(`bytes=${[...others.map(specText), bad].join(",")}`, n)).toEqual({ kind: "none" });
      }),
      { numRuns: 2000 },
    );
  });

  it("more than 16 ranges, another unit, or garbage in a spec make the header invalid: whole file", () => {
    const garbage = fc.string({ unit: fc.constantFrom(..."abcxyz/.;=+*_!é"), minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(
        size,
        fc.array(spec, { minLength: 1, maxLength: 16 }),
        fc.oneof(
          fc.constant<"many">("many"),
          fc.constantFrom("items", "byte", "bits", "", "bytes bytes").map((u) => ({ unit: u })),
          fc.tuple(garbage, fc.nat()).map(([g, at]) => ({ g, at })),
        ),
        (n, specs, how) => {
          let header: string;
          if (how === "many") header = `bytes=${Array.from({ length: 17 }, (_, i) => specText(specs[i % specs.length]!)).join(",")}`;
          else if ("unit" in how) header = `${how.unit}=${specs.map(specText).join(",")}`;
          else {
            const texts = specs.map(specText);
            const i = how.at % texts.length;
            const t = texts[i]!;
            const cut = how.at % (t.length + 1);
            texts[i] = t.slice(0, cut) + how.g + t.slice(cut);
            header = `bytes=${texts.join(",")}`;
          }
          expect(parseRange(header, n)).toEqual({ kind: "none" });
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("arbitrary header strings never throw, and any ranges they give lie within the file", () => {
    const near = fc.string({ unit: fc.constantFrom(..."bytes=0123456789-, \t"), maxLength: 60 });
    fc.assert(
      fc.property(size, fc.oneof(binaryString(), near, near.map((s) => `bytes=${s}`)), (n, h) => {
        const r = parseRange(h, n);
        expect(["none", "unsatisfiable", "ranges"]).toContain(r.kind);
        wellFormed(r, n);
        if (!/^\s*bytes\s*=/i.test(h)) expect(r).toEqual({ kind: "none" });
      }),
      { numRuns: 5000 },
    );
  });
});
