// npm run fuzz: seeded hostile traffic over raw sockets against a server of the demo build (dist/),
// checking the invariants of tests/support/fuzz-core.ts on every answer. Not a test: a command that
// prints what it found and exits 1 on any violation.
//
// Node: the server runs in a child process (tests/support/fuzz-server.ts) and reports its own RSS
// over IPC, so the figure is the server's and not the generator's. Edge: workerd runs as a child of
// Miniflare; its RSS is read from /proc.
import path from "node:path";
import { argPath, command, ROOT } from "./cli.ts";

const FUZZ = command({
  name: "fuzz",
  usage: ["npm run fuzz -- [options]", "node scripts/fuzz.ts [options]"],
  about: `Seeded hostile requests over raw sockets against a server of a build, checking every answer's
invariants (docs/reliability.md); exits 1 when any is broken. Build first (npm run build).`,
  options: {
    requests: { type: "integer", min: 1, default: 100_000, help: "requests to send" },
    seed: { type: "integer", value: "S", help: "the PRNG's seed (default: a random one, printed)" },
    concurrency: { type: "integer", min: 1, default: 16, help: "connections at once" },
    target: { type: "string", choices: ["node", "edge"], default: "node", help: "the Node server, or the Workers entry on workerd" },
    dist: { type: "string", value: "DIR", help: "the build to serve (default dist/)" },
    "rss-growth-mb": { type: "number", value: "MB", min: 0, default: 64, help: "the server's RSS growth that counts as a violation" },
  },
  examples: ["npm run fuzz -- --requests 10000 --seed 7 --target edge"],
});

const opts = FUZZ.parse().values;
const seed = opts.seed ?? Math.floor(Math.random() * 2 ** 31);
const distDir = argPath(opts.dist, path.join(ROOT, "dist"));

void FUZZ.run(async () => {
  const { descendantsRss, formatReport, runFuzz, siteFacts, violationCount } = await import("../tests/support/fuzz-core.ts");
  const { formatCount, progressBar } = await import("../src/publish/progress.ts");
  const site = siteFacts(distDir);
  let url: string;
  let sampleRss: () => Promise<number>;
  let close: () => Promise<void>;
  if (opts.target === "node") {
    const { startFuzzServer } = await import("../tests/support/fuzz-server.ts");
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
  console.log(`fuzz: ${opts.requests} requests, seed ${seed}, concurrency ${opts.concurrency}, target ${opts.target} at ${url} (${path.relative(process.cwd(), distDir) || "."})`);
  const bar = progressBar(process.stderr, "requests", opts.requests, formatCount);
  try {
    const report = await runFuzz({
      url,
      site,
      requests: opts.requests,
      seed,
      concurrency: opts.concurrency,
      sampleRss,
      rssGrowthBytes: opts["rss-growth-mb"] * 1024 * 1024,
      progress: (n) => bar.update(n),
    });
    bar.done();
    console.log(formatReport(report, opts.target));
    return violationCount(report) === 0 ? 0 : 1;
  } catch (e) {
    bar.abandon();
    throw e;
  } finally {
    await close();
  }
});
