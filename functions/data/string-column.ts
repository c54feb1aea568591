// Many strings held as one: a column of 100,000 values is two heap objects (the joined text and
// the ends) instead of 100,000 strings, which cost ~40 bytes each and are traced by every major
// collection. Used by the episode index (./episode-index.ts) and the Node server's list file
// (./node/list-bodies.ts). Portable.

export class StringColumn {
  readonly #text: string;
  /** ends[i] = where value i ends in text (it starts where value i - 1 ends). */
  readonly #ends: Uint32Array;

  constructor(values: readonly string[]) {
    this.#text = values.join("");
    this.#ends = new Uint32Array(values.length);
    let end = 0;
    values.forEach((v, i) => (this.#ends[i] = end += v.length));
  }

  at(i: number): string {
    return this.#text.slice(i === 0 ? 0 : this.#ends[i - 1]!, this.#ends[i]!);
  }

  /** Whether value i is `value`, without making a string of it. */
  is(i: number, value: string): boolean {
    const start = i === 0 ? 0 : this.#ends[i - 1]!;
    return this.#ends[i]! - start === value.length && this.#text.startsWith(value, start);
  }
}
