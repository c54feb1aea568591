// The Cloudflare Workers entry (wrangler.jsonc `main`): the same shim as the Node entry, its ports
// made of bindings (./shim.ts). Static files not named in run_worker_first never reach it.
import { errorResponse, responseContext, toResponse } from "../http/response.ts";
import type { WorkerEnv } from "./bindings.ts";
import { drain, withLength } from "./body.ts";
import { syncTestClock } from "./clock.ts";
import { withClientEncoding } from "./client-encoding.ts";
import { clientIp } from "./conninfo.ts";
import { announceOnSchedule } from "./scheduled.ts";
import { shimFor } from "./shim.ts";

export { RateLimitCounter } from "./rate-limit-object.ts";
export { AnnouncedSet } from "./announced-set-object.ts";

export default {
  async fetch(req: Request, env: WorkerEnv): Promise<Response> {
    await syncTestClock(env.TEST_CLOCK);
    let shim;
    try {
      shim = await shimFor(env);
    } catch (e) {
      // An incomplete deployment (no index or manifest in the assets): say so in the log, answer 502.
      console.error(`episode shim cannot start: ${(e as Error).message}`);
      return toResponse(errorResponse(responseContext(req.method, null), "upstream_unavailable"));
    }
    const answer = await shim.handle(withClientEncoding(req), { clientIp: clientIp(req) });
    await drain(req);
    const res = toResponse(answer);
    return answer.body instanceof ReadableStream ? withLength(res) : res;
  },

  /** The Cron Trigger: announces a new published set (./scheduled.ts); awaited, so the run lasts as long as its announcement. */
  async scheduled(_controller: unknown, env: WorkerEnv): Promise<void> {
    await syncTestClock(env.TEST_CLOCK);
    await announceOnSchedule(env);
  },
};
