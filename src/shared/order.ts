// The list order (docs/api.md#get-v1episodes): publishedAt descending, then episodeNumber descending,
// then id descending. Keys are compact: p = publishedAt in ms, n = number (-1 for none), id.

export interface OrderKey {
  p: number;
  n: number;
  id: string;
}

/** Negative when a comes before b in the list (newer first). */
export function compareOrder(a: OrderKey, b: OrderKey): number {
  if (a.p !== b.p) return b.p - a.p;
  if (a.n !== b.n) return b.n - a.n;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** The order key of an index entry; episodes without a number sort after numbered ones. */
export function orderKeyOf(e: { p: number; n: number | null; id: string }): OrderKey {
  return { p: e.p, n: e.n ?? -1, id: e.id };
}
