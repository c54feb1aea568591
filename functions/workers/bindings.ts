// The bindings the Workers entry reads (wrangler.jsonc declares them), typed structurally: only the
// members the shim uses, so no @cloudflare/workers-types dependency is needed.

/** A service binding such as ASSETS: a fetch into another Worker. */
export interface Fetcher {
  fetch(input: Request | string, init?: RequestInit): Promise<Response>;
}

export interface R2Object {
  size: number;
  httpEtag: string;
}
export interface R2ObjectBody extends R2Object {
  body: ReadableStream<Uint8Array>;
}
export interface R2Bucket {
  head(key: string): Promise<R2Object | null>;
  get(key: string, options: { range: { offset: number; length: number } }): Promise<R2ObjectBody | null>;
}

export interface DurableObjectId {}
export interface DurableObjectNamespace<T> {
  idFromName(name: string): DurableObjectId;
  get(id: DurableObjectId): T;
}

/** The Durable Object's RPC surface (./rate-limit-object.ts). */
export interface RateLimitCounterStub {
  hit(windowMs: number, now: number): Promise<{ count: number; resetAt: number }>;
}

/** The announced-set Durable Object's RPC surface (./announced-set-object.ts). */
export interface AnnouncedSetStub {
  swap(name: string): Promise<string | null>;
}

export interface WorkerEnv {
  /** The static assets of dist/ (assets.binding in wrangler.jsonc). */
  ASSETS: Fetcher;
  /** The audio objects, keyed by the index's audio key. */
  AUDIO: R2Bucket;
  /** One rate-limit window counter per bucket and client address. */
  RATE_LIMITER: DurableObjectNamespace<RateLimitCounterStub>;
  /** The last announced published set, one object per feed URL. */
  ANNOUNCED_SET: DurableObjectNamespace<AnnouncedSetStub>;
  /**
   * TEST ONLY, never declared in wrangler.jsonc: a clock the test suite controls (tests/support/edge.ts
   * binds it in Miniflare). Present, it answers the epoch ms the publication clock reads.
   */
  TEST_CLOCK?: Fetcher;
  /** Plain-text variables (vars in wrangler.jsonc): RATE_LIMIT_METADATA_PER_MIN and the rest. */
  [name: string]: unknown;
}
