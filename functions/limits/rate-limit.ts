// Per-IP fixed-window rate limits (docs/api.md#rate-limits) with the IETF RateLimit headers
// (draft-ietf-httpapi-ratelimit-headers: RateLimit-Policy and RateLimit as structured fields).
import { HEADER } from "../../src/shared/headers.ts";
import { quotaOf, RATE_WINDOW_SECONDS, type Bucket, type RateLimits } from "../../src/shared/limits.ts";
import type { HeaderRecord } from "../http/response.ts";
import { isPending } from "../pending.ts";
import type { RateLimitHit, RateLimitStore } from "../ports.ts";

export interface RateDecision {
  allowed: boolean;
  /** RateLimit-Policy and RateLimit, under lower-case names: a response context's headers as they are (functions/http/response.ts). */
  headers: HeaderRecord;
  /** Whole seconds until the window resets (≥ 1). */
  retryAfter: number;
}

const WINDOW_MS = RATE_WINDOW_SECONDS * 1000;

export class RateLimiter {
  private readonly store: RateLimitStore;
  private readonly limits: RateLimits;
  /** Each bucket's RateLimit-Policy value: fixed by the configuration. */
  private readonly policies: Record<Bucket, string>;

  constructor(store: RateLimitStore, limits: RateLimits) {
    this.store = store;
    this.limits = limits;
    const policy = (bucket: Bucket) => `"${bucket}";q=${quotaOf(limits, bucket)};w=${RATE_WINDOW_SECONDS}`;
    this.policies = { metadata: policy("metadata"), audio: policy("audio") };
  }

  /**
   * Each bucket's last client and its store key: requests mostly come in runs from one client (a
   * keep-alive connection), which then count under the same string, made and hashed once.
   */
  private readonly lastClient: Record<Bucket, { ip: string; key: string }> = { metadata: { ip: "", key: "metadata:" }, audio: { ip: "", key: "audio:" } };

  /** The decision, at once when the store answers at once (in memory): no promise per request then. */
  check(bucket: Bucket, ip: string, now: number): RateDecision | Promise<RateDecision> {
    let last = this.lastClient[bucket];
    if (last.ip !== ip) this.lastClient[bucket] = last = { ip, key: `${bucket}:${ip}` };
    const hit = this.store.hit(last.key, WINDOW_MS, now);
    return isPending(hit) ? Promise.resolve(hit).then((h) => this.decide(bucket, h, now)) : this.decide(bucket, hit, now);
  }

  private decide(bucket: Bucket, hit: RateLimitHit, now: number): RateDecision {
    const quota = quotaOf(this.limits, bucket);
    const reset = Math.max(1, Math.ceil((hit.resetAt - now) / 1000));
    // Names written out rather than computed (`[HEADER.rateLimit]`): a computed key sends every
    // request's literal through the runtime. `satisfies` holds them to src/shared/headers.ts.
    const headers = {
      "ratelimit-policy": this.policies[bucket],
      ratelimit: `"${bucket}";r=${Math.max(0, quota - hit.count)};t=${reset}`,
    } satisfies Record<typeof HEADER.rateLimitPolicy | typeof HEADER.rateLimit, string>;
    return { allowed: hit.count <= quota, retryAfter: reset, headers };
  }
}

/** One client's window, linked into the store's lists (see MemoryRateLimitStore). */
interface Window {
  key: string;
  count: number;
  resetAt: number;
  /** Neighbours in the list of every window, in order of window start. */
  prev: Window | null;
  next: Window | null;
  /** Neighbours in the list of windows with one hit, in order of window start. */
  prevSingle: Window | null;
  nextSingle: Window | null;
}

/** A doubly linked list over one pair of a Window's links: O(1) append, unlink and head. */
class WindowList {
  head: Window | null = null;
  private tail: Window | null = null;
  private readonly prev: "prev" | "prevSingle";
  private readonly next: "next" | "nextSingle";

  constructor(prev: "prev" | "prevSingle", next: "next" | "nextSingle") {
    this.prev = prev;
    this.next = next;
  }

  append(w: Window): void {
    w[this.prev] = this.tail;
    w[this.next] = null;
    if (this.tail === null) this.head = w;
    else this.tail[this.next] = w;
    this.tail = w;
  }

  unlink(w: Window): void {
    const before = w[this.prev];
    const after = w[this.next];
    if (before === null) this.head = after;
    else before[this.next] = after;
    if (after === null) this.tail = before;
    else after[this.prev] = before;
    w[this.prev] = null;
    w[this.next] = null;
  }
}

/**
 * In-memory store for one process: O(1) per hit, never more than `maxKeys` windows.
 *
 * Every window sits in a list in order of window start (which, with one window length, is the
 * order in which windows end); windows with a single hit also sit in a second list, in the same
 * order. When a new client comes and the map is full, one window goes, chosen in this order:
 *
 * 1. the oldest window if it has ended (it counts nothing any more);
 * 2. else the oldest window with a single hit;
 * 3. else (every window live with two hits or more) the oldest window: the one closest to its end.
 *
 * Why not the oldest, or the least recently used, window: a flood of fresh addresses (one hit each,
 * as a scanner or a botnet makes) would push out the windows of clients that are being limited, and
 * a client past its limit would start again from zero: the flood itself would lift the limit. A
 * client past its limit has made at least two requests (every quota is ≥ 1), so under rule 2 a
 * flood only ever displaces other single-hit windows, whose loss costs at most one request of
 * count each. A limited client is forgotten before its window ends only when `maxKeys` clients each
 * made two requests or more within one window, and then the one whose window ends soonest goes.
 * Both lists are linked through the windows themselves: Map has no O(1) "first key" once keys are
 * deleted from its front (V8 leaves holes that each new iteration walks over), which made the
 * former "drop the oldest" sweep quadratic under a flood.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, Window>();
  /** Every window, oldest start first. */
  private readonly all = new WindowList("prev", "next");
  /** Windows with one hit, oldest start first. */
  private readonly single = new WindowList("prevSingle", "nextSingle");
  private readonly maxKeys: number;

  constructor(maxKeys = 100_000) {
    this.maxKeys = Math.max(1, maxKeys);
  }

  hit(key: string, windowMs: number, now: number): RateLimitHit {
    let w = this.windows.get(key);
    if (w !== undefined && w.resetAt <= now) {
      this.remove(w);
      w = undefined;
    }
    if (w === undefined) {
      this.makeRoom(now);
      w = { key, count: 0, resetAt: now + windowMs, prev: null, next: null, prevSingle: null, nextSingle: null };
      this.windows.set(key, w);
      this.all.append(w);
      this.single.append(w);
    }
    w.count++;
    if (w.count === 2) this.single.unlink(w);
    // The window itself answers (it has both fields): no object per request. The caller reads it
    // at once (RateLimiter.decide), before the next hit changes it.
    return w;
  }

  /** Frees one place when the map is full, and drops up to two ended windows anyway (amortised cleanup). */
  private makeRoom(now: number): void {
    for (let i = 0; i < 2 && this.all.head !== null && this.all.head.resetAt <= now; i++) this.remove(this.all.head);
    if (this.windows.size < this.maxKeys) return;
    const victim = this.single.head ?? this.all.head;
    if (victim !== null) this.remove(victim);
  }

  private remove(w: Window): void {
    this.windows.delete(w.key);
    this.all.unlink(w);
    if (w.count <= 1) this.single.unlink(w);
  }
}
