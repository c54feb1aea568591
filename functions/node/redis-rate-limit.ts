// RATE_LIMIT_STORE=redis: the fixed windows of functions/limits/rate-limit.ts counted in one Redis, so
// several Node instances behind a load balancer enforce one limit per client IP between them.
//
// Redis is a dependency the service must outlive: when it is unreachable, slow or failing, each
// instance keeps enforcing the limits in its own memory (MemoryRateLimitStore), logs one line
// saying so, and goes back to Redis, logging one more line, once a reconnection succeeds.
import { Redis } from "ioredis";
import type { RateLimitHit, RateLimitStore } from "../ports.ts";
import { MemoryRateLimitStore } from "../limits/rate-limit.ts";

/**
 * One hit, atomically (one script, so two instances never interleave): count it, and start the
 * window on the key's first hit. Reading PTTL instead of PEXPIRE … NX keeps to commands every
 * Redis has (NX needs 7.0) and also repairs a key that lost its expiry instead of counting it
 * forever. Returns the count and the milliseconds left in the window.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  ttl = tonumber(ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ttl)
end
return {count, ttl}
`;

export interface RedisRateLimitOptions {
  /** redis:// or rediss:// URL (REDIS_URL). */
  url: string;
  /** Where the switches to memory and back are reported; console.warn by default. */
  log?: (line: string) => void;
  /** A hit that takes longer counts as Redis failing: the most a request waits on Redis, ms. */
  commandTimeoutMs?: number;
  /** Longest pause between reconnection attempts, ms. */
  maxReconnectDelayMs?: number;
  /** Prefix of the keys (`<prefix><bucket>:<ip>`), so the counters share a Redis with other data. */
  keyPrefix?: string;
}

type Mode = "connecting" | "redis" | "memory" | "closed";
type HitReply = [count: number, ttlMs: number];

export class RedisRateLimitStore implements RateLimitStore {
  private readonly client: Redis & { rateLimitHit(key: string, windowMs: number): Promise<HitReply> };
  private readonly memory = new MemoryRateLimitStore();
  private readonly log: (line: string) => void;
  /** The URL without credentials, for the log. */
  private readonly where: string;
  private mode: Mode = "connecting";

  constructor(opts: RedisRateLimitOptions) {
    this.log = opts.log ?? ((line) => console.warn(line));
    this.where = withoutCredentials(opts.url);
    const maxDelay = opts.maxReconnectDelayMs ?? 2000;
    const client = new Redis(opts.url, {
      commandTimeout: opts.commandTimeoutMs ?? 250,
      connectTimeout: 1000,
      // Fail a hit at once while disconnected (it is counted in memory) rather than queue it.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      // Reconnect in the background forever, backing off from 100 ms to maxDelay.
      retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times - 1, 10), maxDelay),
      keyPrefix: opts.keyPrefix ?? "ratelimit:",
    });
    client.defineCommand("rateLimitHit", { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.client = client as typeof this.client;
    // Listening to 'error' is also what keeps ioredis from reporting it as unhandled.
    client.on("error", (e: Error) => this.useMemory(e.message));
    client.on("close", () => this.useMemory("connection closed"));
    client.on("ready", () => this.useRedis());
  }

  /**
   * Resolves once the first connection has succeeded or failed, or after `timeoutMs` (then
   * counting in memory until Redis answers), so the first requests are already shared.
   */
  async started(timeoutMs = 1000): Promise<void> {
    if (this.mode !== "connecting") return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.client.off("ready", done).off("error", done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.client.on("ready", done).on("error", done);
    });
    if (this.mode === "connecting") this.useMemory(`no answer within ${timeoutMs} ms`);
  }

  async hit(key: string, windowMs: number, now: number): Promise<RateLimitHit> {
    if (this.mode !== "redis") return this.memory.hit(key, windowMs, now);
    try {
      const [count, ttl] = await this.client.rateLimitHit(key, windowMs);
      return { count, resetAt: now + ttl };
    } catch (e) {
      this.useMemory((e as Error).message);
      // A connection that stays open but does not answer in time is dropped: the 'ready' of the
      // reconnection (whose ready check waits for Redis to answer) is the one way back.
      if (this.client.status === "ready") this.client.disconnect(true);
      return this.memory.hit(key, windowMs, now);
    }
  }

  /** Disconnects for good (tests, shutdown); nothing more is logged. */
  async close(): Promise<void> {
    this.mode = "closed";
    // Between reconnection attempts there is no socket to close: no 'end' will come.
    if (!["connecting", "connect", "ready"].includes(this.client.status)) return void this.client.disconnect();
    const ended = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 1000);
      this.client.once("end", () => {
        clearTimeout(timer);
        resolve();
      });
    });
    this.client.disconnect();
    await ended;
  }

  private useMemory(reason: string): void {
    if (this.mode === "memory" || this.mode === "closed") return;
    this.mode = "memory";
    this.log(`rate limits: Redis at ${this.where} unavailable (${reason}); this instance counts in its own memory until Redis is back`);
  }

  private useRedis(): void {
    if (this.mode === "redis" || this.mode === "closed") return;
    const wasMemory = this.mode === "memory";
    this.mode = "redis";
    if (wasMemory) this.log(`rate limits: Redis at ${this.where} is back; counting shared in Redis again`);
  }
}

function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === "/" ? "" : u.pathname}`;
  } catch {
    return "REDIS_URL";
  }
}
