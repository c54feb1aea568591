// The last announced published set at the edge (docs/deploy.md#announcing-a-publication): one
// Durable Object per feed URL (idFromName), so however many isolates run the Cron Trigger, each
// new set is swapped in by exactly one of them, which announces it (functions/announce/watch.ts).
// A Durable Object runs one call at a time on its state and `swap` does no I/O between reading and
// writing it, so the swap is atomic; its storage outlives deploys.
import { DurableObject } from "cloudflare:workers";
import type { AnnouncedSetStore } from "../announce/watch.ts";
import type { AnnouncedSetStub, DurableObjectNamespace } from "./bindings.ts";

const NAME_KEY = "name";

export class AnnouncedSet extends DurableObject implements AnnouncedSetStub {
  private name: string | null = null;

  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => {
      this.name = (await ctx.storage.get<string>(NAME_KEY)) ?? null;
    });
  }

  async swap(name: string): Promise<string | null> {
    const previous = this.name;
    this.name = name;
    // Not awaited: the output gate holds the answer until the write is durable.
    void this.ctx.storage.put(NAME_KEY, name);
    return previous;
  }
}

/** The watch's store over the Durable Object namespace. */
export class DurableAnnouncedSets implements AnnouncedSetStore {
  private readonly ns: DurableObjectNamespace<AnnouncedSetStub>;

  constructor(ns: DurableObjectNamespace<AnnouncedSetStub>) {
    this.ns = ns;
  }

  swap(key: string, name: string): Promise<string | null> {
    return this.ns.get(this.ns.idFromName(key)).swap(name);
  }
}
