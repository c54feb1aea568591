// For a process whose one job is to serve (scripts/serve.ts; the fuzz smoke's server process),
// imported before ./main.ts and so before the server's modules load: the young generation held at
// its size (./young-generation.ts), and a tick object held (./hold-tick-map.ts) across the
// collections that startServer({ ownsProcess: true }) forces after each load. A server sharing its
// process with other work, such as a test runner, leaves that process's V8 settings alone.
import "./young-generation.ts";
import "./hold-tick-map.ts";
