// The edge target of the HTTP suites (SHIM_TARGET=edge, the vitest "edge" project): a fixture site
// served through the Workers entry on a local workerd (scripts/serve-edge.ts), in place of the Node
// server. The suites' injected clock reaches the Worker through the test-only TEST_CLOCK binding;
// a custom audio storage cannot be passed into workerd (audio comes from the R2 binding).
import type { RunningServer, ServeOptions } from "../../functions/node/main.ts";
import { startEdgeServer } from "../../scripts/serve-edge.ts";
import { edgeFront } from "./edge-front.ts";

export const ON_EDGE = process.env.SHIM_TARGET === "edge";

export async function serveEdgeSite(distDir: string, opts: Omit<ServeOptions, "distDir">): Promise<RunningServer> {
  if (opts.storage) throw new Error("the edge target reads audio from its R2 binding: a custom storage cannot be passed into workerd");
  const hops = Number(opts.env?.TRUST_PROXY ?? 0);
  // The worker bundle is built once per run by tests/edge/global-setup.ts.
  const server = await startEdgeServer({
    distDir,
    env: opts.env ?? {},
    bundle: false,
    // Behind the emulated edge, the suite's port belongs to the front proxy.
    ...(opts.port !== undefined && hops === 0 ? { port: opts.port } : {}),
    ...(opts.host !== undefined ? { host: opts.host } : {}),
    ...(opts.now ? { now: opts.now } : {}),
  });
  if (hops === 0) return { url: server.url, close: server.close };
  const front = await edgeFront(server.url, hops, opts.port ?? 0, opts.host ?? "127.0.0.1");
  return {
    url: front.url,
    close: async () => {
      await front.close();
      await server.close();
    },
  };
}
