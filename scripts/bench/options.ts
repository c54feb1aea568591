// The bench's options: one table (scripts/cli.ts), read before any phase module is loaded, so that
// `--help` and usage errors answer at once.
import { argPath, command } from "../cli.ts";

/** A synthetic script of ~20 KB, the size the targets of docs/performance.md are for. */
export const SEGMENTS_DEFAULT = 66;

export const BENCH = command({
  name: "bench",
  usage: ["npm run bench -- [options]", "node scripts/bench.ts [options]"],
  about: `Build and serve figures of synthetic shows, each beside its target and an anchor measured in the
same run (docs/performance.md); the results go to bench/.out/. Every step reports what it could and
the exit code is 0. Takes tens of minutes at the default sizes.`,
  options: {
    sizes: { type: "integers", value: "N,N", min: 1, default: [1000, 10_000], help: "show sizes to build and measure (100, the anchor, is always built)" },
    huge: { type: "boolean", help: "also 100,000 episodes" },
    segments: { type: "integer", min: 3, default: SEGMENTS_DEFAULT, help: "spoken segments per synthetic script" },
    duration: { type: "integer", value: "S", min: 1, default: 10, help: "seconds of each wrk run" },
    connections: { type: "integer", min: 1, default: 32, help: "wrk's connections" },
    threads: { type: "integer", min: 1, default: 1, help: "wrk's threads (one: the server has the other core)" },
    "serve-size": { type: "integer", min: 1, help: "measure throughput at this size only (default: the sizes of 1,000 to 10,000)" },
    rounds: { type: "integer", min: 1, default: 1, help: "wrk rounds of every target, alternating (each target's median is reported)" },
    baseline: { type: "string", value: "DIR", help: "another checkout whose server is measured in the same rounds" },
    tree: { type: "string", value: "DIR", help: "build and publish with that tree's code (a snapshot, still while others edit)" },
    "no-build": { type: "boolean", help: "measure the builds already in bench/.out/" },
    "no-http": { type: "boolean", help: "no HTTP figures" },
    "no-incremental": { type: "boolean", help: "no incremental build or publish" },
    "no-search": { type: "boolean", help: "no search bench" },
    "no-edge": { type: "boolean", help: "no edge target (workerd)" },
  },
  examples: ["npm run bench -- --sizes 1000 --no-search", "npm run bench -- --no-build --serve-size 10000 --rounds 5"],
});

export type Options = ReturnType<typeof optionsOf>;

export function optionsOf(v: ReturnType<typeof BENCH.parse>["values"]) {
  const sizes = [...new Set([...v.sizes, ...(v.huge ? [100_000] : [])])].sort((x, y) => x - y);
  return {
    sizes,
    segments: v.segments,
    duration: v.duration,
    connections: v.connections,
    threads: v.threads,
    serveSize: v["serve-size"] ?? null,
    build: !v["no-build"],
    http: !v["no-http"],
    incremental: !v["no-incremental"],
    search: !v["no-search"],
    rounds: v.rounds,
    /** Another checkout whose shim (what its `npm run serve` runs) is measured beside this one. */
    baseline: v.baseline === undefined ? null : argPath(v.baseline, ""),
    /** Also serve the build through the Workers entry on workerd (off with --no-edge). */
    edge: !v["no-edge"],
    /** Build (and publish) with this tree's code instead of this checkout's. */
    tree: v.tree === undefined ? null : argPath(v.tree, ""),
  };
}
