// A least-recently-used map bounded by the bytes of its values (Map order is the recency order).
// A value larger than a quarter of the bound is not kept: one big file must not flush the rest.
// Portable: the Node asset store and the handler's list pages both use it.

export class ByteLru<V> {
  readonly #map = new Map<string, V>();
  readonly #maxBytes: number;
  readonly #sizeOf: (value: V) => number;
  #bytes = 0;

  constructor(maxBytes: number, sizeOf: (value: V) => number) {
    this.#maxBytes = maxBytes;
    this.#sizeOf = sizeOf;
  }

  get(key: string): V | undefined {
    const value = this.#map.get(key);
    if (value !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    const size = this.#sizeOf(value);
    if (size > this.#maxBytes / 4) return;
    const old = this.#map.get(key);
    if (old !== undefined) {
      this.#map.delete(key);
      this.#bytes -= this.#sizeOf(old);
    }
    this.#map.set(key, value);
    this.#bytes += size;
    for (const [k, v] of this.#map) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#map.delete(k);
      this.#bytes -= this.#sizeOf(v);
    }
  }
}
