// Coalesces seeks so that a held-down arrow key or a slider drag costs a few audio requests, not
// one per step: the audio route allows 30 requests per minute per IP, and every seek to a part of
// the file not yet buffered is a new Range request. A seek is applied once input pauses for
// `quietMs`, and at least every `maxWaitMs` while input goes on, so a 3-second hold costs at most
// two seeks. A slider drag only holds its target (hold) until the slider is released (flush): one
// seek per drag, however long.

export interface Clock {
  now(): number;
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realClock: Clock = {
  now: () => Date.now(),
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export const SEEK_QUIET_MS = 300;
export const SEEK_MAX_WAIT_MS = 2000;

export interface SeekCoalescer {
  /** Asks for a seek to `t`; the latest request wins. */
  request(t: number): void;
  /** Keeps `t` as the pending target without applying it until flush. */
  hold(t: number): void;
  /** Applies the pending seek now, if any. */
  flush(): void;
  /** The pending target, or null when nothing waits. */
  target(): number | null;
}

export function seekCoalescer(apply: (t: number) => void, clock: Clock = realClock, quietMs = SEEK_QUIET_MS, maxWaitMs = SEEK_MAX_WAIT_MS): SeekCoalescer {
  let pending: number | null = null;
  let since = 0;
  let timer: unknown = null;

  function flush(): void {
    if (timer !== null) clock.clear(timer);
    timer = null;
    if (pending === null) return;
    const t = pending;
    pending = null;
    apply(t);
  }

  return {
    request(t) {
      const now = clock.now();
      if (pending === null) since = now;
      pending = t;
      if (timer !== null) clock.clear(timer);
      timer = clock.set(flush, Math.max(0, Math.min(quietMs, since + maxWaitMs - now)));
    },
    hold(t) {
      if (timer !== null) clock.clear(timer);
      timer = null;
      pending = t;
    },
    flush,
    target: () => pending,
  };
}
