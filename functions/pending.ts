// Answers that ports, routes and the handler give at once when they hold them in memory, or as a
// promise when they must wait (docs/architecture.md#what-a-request-costs: an await, even of a
// value, costs a microtask). A pending answer is told by its `then`, not by `instanceof Promise`:
// a Durable Object stub's RPC answer (functions/workers/rate-limit-object.ts) is awaitable
// without being a Promise. Portable: no runtime imports.

/** True when `value` is still to come (a promise, or any thenable). */
export function isPending<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as PromiseLike<T> | null | undefined)?.then === "function";
}

/** `next` of `value`: at once when it is there, else a promise of it once it comes. */
export function thenOrNow<T, U>(value: T | PromiseLike<T>, next: (v: T) => U): U | Promise<Awaited<U>> {
  // then() flattens a promise that `next` answers; TypeScript's then() type does not say so.
  return isPending(value) ? (Promise.resolve(value).then(next) as Promise<Awaited<U>>) : next(value);
}
