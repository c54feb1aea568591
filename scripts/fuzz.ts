// npm run fuzz: seeded hostile traffic over raw sockets against a server of the demo build (dist/),
// checking the invariants of tests/support/fuzz-core.ts on every answer. Not a test: a command that
// prints what it found and exits non-zero on any violation.
//
//   npm run fuzz -- [--requests N] [--seed S] [--concurrency C] [--target node|edge] [--dist DIR] [--rss-growth-mb M]
//
// Node: the server runs in a child process (tests/support/fuzz-server.ts) and reports its own RSS
// over IPC, so the figure is the server's and not the generator's. Edge: workerd runs as a child of
// Miniflare; its RSS is read from /proc.
import path from "node:path";
import { parseArgs } from "node:util";
import { descendantsRss, formatReport, runFuzz, siteFacts, violationCount } from "../tests/support/fuzz-core.ts";
import { startFuzzServer } from "../tests/support/fuzz-server.ts";

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "100000" },
    seed: { type: "string" },
    concurrency: { type: "string", default: "16" },
    target: { type: "string", default: "node" },
    dist: { type: "string", default: "dist" },
    "rss-growth-mb": { type: "string", default: "64" },
  },
});

const requests = Number(values.requests);
const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
const concurrency = Number(values.concurrency);
const target = values.target;
const distDir = path.resolve(values.dist!);
if (!Number.isInteger(requests) || requests < 1) throw new Error("--requests must be a positive integer");
if (!Number.isInteger(seed)) throw new Error("--seed must be an integer");
if (target !== "node" && target !== "edge") throw new Error("--target must be node or edge");

async function main(): Promise<number> {
  const site = siteFacts(distDir);
  let url: string;
  let sampleRss: () => Promise<number>;
  let close: () => Promise<void>;
  if (target === "node") {
    const server = await startFuzzServer(distDir);
    url = server.url;
    sampleRss = async () => (await server.sample()).rss;
    close = server.close;
  } else {
    process.env.WRANGLER_SEND_METRICS ??= "false";
    process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
    const { startEdgeServer } = await import("./serve-edge.ts");
    const server = await startEdgeServer({ distDir, env: { RATE_LIMIT_METADATA_PER_MIN: "100000000", RATE_LIMIT_AUDIO_PER_MIN: "100000000" } });
    url = server.url;
    sampleRss = async () => descendantsRss(process.pid, /workerd/);
    close = server.close;
  }
  console.log(`fuzz: ${requests} requests, seed ${seed}, concurrency ${concurrency}, target ${target} at ${url} (${path.relative(process.cwd(), distDir) || "."})`);
  try {
    const report = await runFuzz({
      url,
      site,
      requests,
      seed,
      concurrency,
      sampleRss,
      rssGrowthBytes: Number(values["rss-growth-mb"]) * 1024 * 1024,
      progress: (n) => {
        if (n % 10_000 === 0) console.log(`  … ${n}`);
      },
    });
    console.log(formatReport(report, target));
    return violationCount(report) === 0 ? 0 : 1;
  } finally {
    await close();
  }
}

main().then(
  (code) => process.exit(code),
  (e: Error) => {
    console.error(`fuzz: ${e.stack ?? e.message}`);
    process.exit(2);
  },
);
