// Buffers for composed bodies that are sent once and not kept: the pages of a crawler's walk of the
// list. Each such page needs a buffer outside V8's heap, and allocating a fresh one each time made
// V8 collect the whole heap (the index and the manifest included) several times a second during a
// walk; a buffer given back once its response is written and taken again by the next page avoids
// nearly all of them (docs/performance.md). A buffer is given back only by a runtime that knows when the
// bytes are written (functions/node/server.ts calls the response's `release`); one never given back
// is left to the garbage collector. Portable: no runtime imports.

/** Bytes taken from the pool, and how to give them back (at most once; later calls do nothing). */
export interface PooledBytes {
  bytes: Uint8Array;
  release(): void;
}

export class BufferPool {
  readonly #free: ArrayBuffer[] = [];
  readonly #capacity: number;
  readonly #keep: number;

  /** Buffers of `capacity` bytes each; at most `keep` of them wait for reuse (the rest are dropped). */
  constructor(capacity: number, keep: number) {
    this.#capacity = capacity;
    this.#keep = keep;
  }

  /** `size` bytes (not zeroed: the caller writes all of them); null when larger than a buffer of the pool. */
  take(size: number): PooledBytes | null {
    if (size > this.#capacity) return null;
    const buffer = this.#free.pop() ?? new ArrayBuffer(this.#capacity);
    let given = false;
    return {
      bytes: new Uint8Array(buffer, 0, size),
      release: () => {
        if (given) return;
        given = true;
        if (this.#free.length < this.#keep) this.#free.push(buffer);
      },
    };
  }
}
