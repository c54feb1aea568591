// The one open-addressing table of the request path: positions of entries by a key whose hash and
// equality the caller gives, for the episode index's ids and numbers (./episode-index.ts) and the
// manifest's paths (./manifest-table.ts). Portable: runs on both targets.
/**
 * Positions of entries by a key, in an open-addressing table of 4 bytes a slot (a power of two at
 * least 1.5 times the entries: short probe sequences) instead of a Map of 100,000 or 600,000 keys.
 * Equal keys keep the last position, as Map.set (and JSON.parse of a repeated key) would.
 */
export class PositionLookup {
  /** Position + 1 per slot, 0 for empty. */
  readonly #slots: Int32Array;

  constructor(size: number, positions: Iterable<number>, hashAt: (pos: number) => number, same: (a: number, b: number) => boolean) {
    let capacity = 16;
    while (capacity < size * 1.5) capacity *= 2;
    this.#slots = new Int32Array(capacity);
    const mask = capacity - 1;
    for (const pos of positions) {
      let at = hashAt(pos) & mask;
      while (this.#slots[at] !== 0 && !same(this.#slots[at]! - 1, pos)) at = (at + 1) & mask;
      this.#slots[at] = pos + 1;
    }
  }

  /**
   * The position whose key `matches` `key`, -1 for none. The key is passed through, so that a
   * caller's matcher is made once rather than a closure per lookup (the index's, per request).
   */
  find<K>(hash: number, key: K, matches: (pos: number, key: K) => boolean): number {
    const mask = this.#slots.length - 1;
    for (let at = hash & mask; this.#slots[at] !== 0; at = (at + 1) & mask) {
      if (matches(this.#slots[at]! - 1, key)) return this.#slots[at]! - 1;
    }
    return -1;
  }
}
