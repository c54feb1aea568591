// Exact per-client rate limits at the edge (docs/api.md#rate-limits): one Durable Object per bucket and
// client address (idFromName), holding that key's fixed window. A Durable Object runs one call at a
// time on its state, and `hit` does no I/O between reading and writing it, so counts are exact
// under concurrency, whichever location the requests come from.
import { DurableObject } from "cloudflare:workers";
import type { RateLimitHit, RateLimitStore } from "../ports.ts";
import type { DurableObjectNamespace, RateLimitCounterStub } from "./bindings.ts";

const WINDOW_KEY = "window";

export class RateLimitCounter extends DurableObject implements RateLimitCounterStub {
  private window: RateLimitHit | null = null;
  /** The latest `now` a caller passed: the clock the windows are measured on. */
  private lastNow = 0;

  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env);
    // Survive eviction: reload the window before the first call is let in.
    void ctx.blockConcurrencyWhile(async () => {
      this.window = (await ctx.storage.get<RateLimitHit>(WINDOW_KEY)) ?? null;
    });
  }

  async hit(windowMs: number, now: number): Promise<RateLimitHit> {
    this.lastNow = Math.max(this.lastNow, now);
    if (this.window === null || this.window.resetAt <= now) {
      this.window = { count: 0, resetAt: now + windowMs };
      // Forget the key once its window is over (no storage left behind per address).
      void this.ctx.storage.setAlarm(this.window.resetAt + 1000);
    }
    this.window.count++;
    // Not awaited: the output gate holds the answer until the write is durable.
    void this.ctx.storage.put(WINDOW_KEY, this.window);
    return { count: this.window.count, resetAt: this.window.resetAt };
  }

  override async alarm(): Promise<void> {
    // Still live on the callers' clock: look again a window later.
    if (this.window !== null && this.window.resetAt > this.lastNow) {
      await this.ctx.storage.setAlarm(Date.now() + (this.window.resetAt - this.lastNow) + 1000);
      return;
    }
    this.window = null;
    await this.ctx.storage.deleteAll();
  }
}

/** The shim's RateLimitStore over the Durable Object namespace. */
export class DurableRateLimitStore implements RateLimitStore {
  private readonly ns: DurableObjectNamespace<RateLimitCounterStub>;

  constructor(ns: DurableObjectNamespace<RateLimitCounterStub>) {
    this.ns = ns;
  }

  hit(key: string, windowMs: number, now: number): Promise<RateLimitHit> {
    return this.ns.get(this.ns.idFromName(key)).hit(windowMs, now);
  }
}
