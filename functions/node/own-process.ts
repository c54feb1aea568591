// For a process whose one job is to serve (scripts/serve.ts; the fuzz smoke's server process).
// Its imports run before ./main.ts loads, since startOwnServer imports it only when called: the
// young generation held at its size (./young-generation.ts) while the server's modules load, and
// a tick object held (./hold-tick-map.ts) across the collections the server forces after each
// load. A server sharing its process with other work, such as a test runner, is started with
// ./main.ts's startServer and leaves that process's V8 settings alone.
import "./young-generation.ts";
import "./hold-tick-map.ts";
import type { RunningServer, ServeOptions } from "./main.ts";

/** startServer for a process that exists to serve: with its V8 settings (`ownsProcess`). */
export async function startOwnServer(opts: Omit<ServeOptions, "ownsProcess">): Promise<RunningServer> {
  const { startServer } = await import("./main.ts");
  return startServer({ ...opts, ownsProcess: true });
}
