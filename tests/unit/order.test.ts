import { describe, expect, it } from "vitest";
import { compareOrder, orderKeyOf, type OrderKey } from "../../src/shared/order.ts";

const k = (p: number, n: number, id: string): OrderKey => ({ p, n, id });

describe("list order (docs/api.md#get-v1episodes)", () => {
  it("a later publishedAt comes first", () => {
    expect(compareOrder(k(2, 1, "a"), k(1, 9, "z"))).toBeLessThan(0);
    expect(compareOrder(k(1, 9, "z"), k(2, 1, "a"))).toBeGreaterThan(0);
  });

  it("with the same publishedAt, the higher episode number comes first", () => {
    expect(compareOrder(k(5, 10, "a"), k(5, 9, "z"))).toBeLessThan(0);
    expect(compareOrder(k(5, 9, "z"), k(5, 10, "a"))).toBeGreaterThan(0);
  });

  it("with the same publishedAt and number, the greater id comes first", () => {
    expect(compareOrder(k(5, 3, "b"), k(5, 3, "a"))).toBeLessThan(0);
    expect(compareOrder(k(5, 3, "a"), k(5, 3, "b"))).toBeGreaterThan(0);
  });

  it("the same key compares equal", () => {
    expect(compareOrder(k(5, 3, "a"), k(5, 3, "a"))).toBe(0);
  });

  it("an episode without a number sorts after numbered ones of the same time", () => {
    const numbered = orderKeyOf({ p: 5, n: 1, id: "a" });
    const unnumbered = orderKeyOf({ p: 5, n: null, id: "z" });
    expect(unnumbered.n).toBe(-1);
    expect(compareOrder(numbered, unnumbered)).toBeLessThan(0);
  });

  it("sorting with it gives a total order: newest, then number, then id, all descending", () => {
    const keys = [k(1, 1, "a"), k(2, -1, "c"), k(2, 3, "a"), k(2, 3, "b"), k(3, 1, "a"), k(2, -1, "d")];
    const sorted = [...keys].sort(compareOrder);
    expect(sorted).toEqual([k(3, 1, "a"), k(2, 3, "b"), k(2, 3, "a"), k(2, -1, "d"), k(2, -1, "c"), k(1, 1, "a")]);
    // antisymmetric on every pair
    for (const a of keys) for (const b of keys) expect(Math.sign(compareOrder(a, b)) + Math.sign(compareOrder(b, a))).toBe(0);
  });
});
