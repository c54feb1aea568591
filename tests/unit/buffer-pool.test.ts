// functions/data/buffer-pool.ts: buffers taken and given back, each at most once.
import { describe, expect, it } from "vitest";
import { BufferPool } from "../../functions/data/buffer-pool.ts";

describe("BufferPool", () => {
  it("gives the bytes asked for, and the same buffer again once it is given back", () => {
    const pool = new BufferPool(1024, 2);
    const a = pool.take(100)!;
    expect(a.bytes.byteLength).toBe(100);
    const b = pool.take(1024)!;
    expect(b.bytes.buffer).not.toBe(a.bytes.buffer);
    a.release();
    const c = pool.take(10)!;
    expect(c.bytes.buffer).toBe(a.bytes.buffer);
    expect(c.bytes.byteLength).toBe(10);
  });

  it("takes a buffer back once, however often it is given", () => {
    const pool = new BufferPool(64, 4);
    const a = pool.take(8)!;
    a.release();
    a.release();
    const [x, y] = [pool.take(8)!, pool.take(8)!];
    // Given back twice, it would be handed to both.
    expect(x.bytes.buffer).not.toBe(y.bytes.buffer);
  });

  it("keeps at most `keep` buffers waiting, and none larger than its capacity", () => {
    const pool = new BufferPool(64, 1);
    expect(pool.take(65)).toBeNull();
    const [a, b] = [pool.take(1)!, pool.take(1)!];
    a.release();
    b.release();
    const [c, d] = [pool.take(1)!, pool.take(1)!];
    expect(c.bytes.buffer).toBe(a.bytes.buffer);
    expect(d.bytes.buffer).not.toBe(b.bytes.buffer);
  });
});
