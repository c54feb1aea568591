// The Worker's Cron Trigger (wrangler.jsonc `triggers.crons`, every minute): the edge's look at the
// published set, as the Node server's timer (functions/node/announce-timer.ts), the last announced
// set kept in the Durable Object (./announced-set-object.ts) so that a set is announced once
// however many isolates run. What `npm run deploy` announced itself is left alone (DEPLOYED_SET).
import { announces } from "../announce/announce.ts";
import { PublishedSetWatch } from "../announce/watch.ts";
import { announceConfig } from "../../src/shared/config.ts";
import { DurableAnnouncedSets } from "./announced-set-object.ts";
import type { WorkerEnv } from "./bindings.ts";
import { now } from "./clock.ts";
import { indexFor, vars } from "./shim.ts";

let watch: PublishedSetWatch | null = null;

/** One look; never throws (a failure is one line of the Worker's log). */
export async function announceOnSchedule(env: WorkerEnv): Promise<void> {
  try {
    const config = announceConfig(vars(env));
    if (!announces(config)) return;
    watch ??= new PublishedSetWatch({ config, store: new DurableAnnouncedSets(env.ANNOUNCED_SET), log: (line) => console.log(line) });
    await watch.check(await indexFor(env), now());
  } catch (e) {
    console.error(`announce: ${(e as Error).message}`);
  }
}
