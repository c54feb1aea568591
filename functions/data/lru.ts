// A map bounded by the bytes of its values that keeps the recently used ones: the CLOCK
// approximation of LRU. A hit only marks its entry; when the bound is passed, entries are visited
// oldest first, and a marked one is unmarked and moved to the back (a second chance) instead of
// being dropped. Hits never reorder the Map: a delete and a re-insert per hit makes V8 rehash a
// large map over and over, a real share of a warm request's CPU.
// A value larger than a quarter of the bound is not kept: one big file must not flush the rest.
// Portable: the Node asset store and the handler's list pages both use it.

interface Slot<V> {
  value: V;
  size: number;
  used: boolean;
}

export class ByteLru<V> {
  readonly #map = new Map<string, Slot<V>>();
  readonly #maxBytes: number;
  readonly #sizeOf: (value: V, key: string) => number;
  #bytes = 0;

  /** `sizeOf`: the bytes an entry holds; the key is passed for a cache whose keys can be long. */
  constructor(maxBytes: number, sizeOf: (value: V, key: string) => number) {
    this.#maxBytes = maxBytes;
    this.#sizeOf = sizeOf;
  }

  get(key: string): V | undefined {
    const slot = this.#map.get(key);
    if (slot === undefined) return undefined;
    slot.used = true;
    return slot.value;
  }

  set(key: string, value: V): void {
    const size = this.#sizeOf(value, key);
    if (size > this.#maxBytes / 4) return;
    const old = this.#map.get(key);
    if (old !== undefined) {
      this.#map.delete(key);
      this.#bytes -= old.size;
    }
    this.#map.set(key, { value, size, used: false });
    this.#bytes += size;
    // Each marked entry is moved back once and unmarked, so this ends within two passes.
    for (const [k, slot] of this.#map) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#map.delete(k);
      if (slot.used) {
        slot.used = false;
        this.#map.set(k, slot);
      } else this.#bytes -= slot.size;
    }
  }
}
