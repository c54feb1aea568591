import { describe, expect, it } from "vitest";
import { ByteLru } from "../../functions/data/lru.ts";

const bytes = (n: number) => new Uint8Array(n);
const cache = (max: number) => new ByteLru<Uint8Array>(max, (v) => v.byteLength);

describe("ByteLru: a map bounded by the bytes of its values", () => {
  it("drops the least recently used values once the bound is passed", () => {
    const c = cache(100);
    c.set("a", bytes(25));
    c.set("b", bytes(25));
    c.set("c", bytes(25));
    c.get("a"); // a is now the most recent; b the least
    c.set("d", bytes(25));
    c.set("e", bytes(25));
    expect(["a", "b", "c", "d", "e"].map((k) => c.get(k) !== undefined)).toEqual([true, false, true, true, true]);
  });

  it("does not keep a value larger than a quarter of the bound", () => {
    const c = cache(100);
    c.set("small", bytes(25));
    c.set("big", bytes(26));
    expect(c.get("big")).toBeUndefined();
    expect(c.get("small")).toBeDefined();
  });

  it("counts a replaced value once", () => {
    const c = cache(100);
    for (let i = 0; i < 10; i++) c.set("same", bytes(25));
    c.set("x", bytes(25));
    c.set("y", bytes(25));
    c.set("z", bytes(25));
    expect(["same", "x", "y", "z"].every((k) => c.get(k) !== undefined)).toBe(true);
  });
});

describe("ByteLru: keys that count", () => {
  it("passes the key to sizeOf, so a cache whose keys can be long counts them against its bound", () => {
    const c = new ByteLru<Uint8Array>(100, (v, key) => v.byteLength + key.length);
    c.set("k".repeat(20), bytes(5)); // 25: kept
    c.set("q".repeat(21), bytes(5)); // 26: over a quarter of the bound, not kept
    expect(c.get("k".repeat(20))).toBeDefined();
    expect(c.get("q".repeat(21))).toBeUndefined();
  });
});
