// npm run bench: build and serve figures, each printed beside its target (the budgets and the
// request-path floor of docs/performance.md) and an anchor measured in the same run. It never
// fails a build: every step reports what it could and the exit code is 0 (2 for a usage error).
// Options: scripts/bench/options.ts.
//
// Build (scripts/bench/build.ts): for each size, and always 100 episodes (the anchor of the
// size-dependent figures), synthetic content and a clean build of it, timed with its phases, beside
// `cp -r` of the same dist/. Incremental (scripts/bench/incremental.ts): one episode added and
// built, the one-episode publish, the added folders removed and built once more. HTTP
// (scripts/bench/http.ts), for every size built: the shim, nginx and a bare node:http server
// replaying the shim's bytes, with memory, list latency, bytes on the wire and search over
// POST /mcp; at 1,000–10,000 (or --serve-size) wrk throughput with each server's CPU per request,
// --rounds times alternating (scripts/bench/throughput.ts), --baseline's shim in the same rounds,
// and the edge target at the largest such size. Search: scripts/search-bench.ts at 10,000 or more,
// in its own process. --tree <dir> builds and publishes with another tree's code.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { BENCH, optionsOf, type Options } from "./bench/options.ts";
import type { SearchBenchFigures } from "./search-bench.ts";

// The phases are loaded after the options are read: --help and usage errors answer at once.
const o = optionsOf(BENCH.parse().values);
const { ANCHOR_SIZE, EPISODE_FILE, loadAverage, NODE, OUT, ROOT, round, timed, useTree, WRK_SIZES } = await import("./bench/common.ts");
const { buildClean, builtSizes, diskCheck } = await import("./bench/build.ts");
const { incremental } = await import("./bench/incremental.ts");
const { sizeFigures } = await import("./bench/http.ts");
const { report } = await import("./bench/report.ts");
type BuildFigures = import("./bench/build.ts").BuildFigures;
type IncrementalFigures = import("./bench/incremental.ts").IncrementalFigures;
type SizeFigures = import("./bench/http.ts").SizeFigures;

/** scripts/search-bench.ts, each size in its own process (its RSS is the index's, not this bench's). */
async function searchBenchFigures(size: number, notes: string[]): Promise<SearchBenchFigures | null> {
  const script = path.join(ROOT, "scripts/search-bench.ts");
  if (!existsSync(script)) {
    // HOOK: scripts/search-bench.ts (searchBench) is not in this tree yet.
    notes.push("scripts/search-bench.ts is missing: no search figures");
    return null;
  }
  console.log(`  node --expose-gc scripts/search-bench.ts --sizes ${size}`);
  const t = await timed([NODE, "--expose-gc", script, "--sizes", String(size)], process.env, path.join(OUT, `search-bench-${size}.log`));
  const line = t.output.split("\n").find((l) => /\{"episodes":/.test(l));
  if (!t.ok || line === undefined) {
    notes.push(`search bench of ${size} failed: see bench/.out/search-bench-${size}.log`);
    return null;
  }
  return JSON.parse(line.slice(line.indexOf("{"))) as SearchBenchFigures;
}

async function main(o: Options): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  if (o.tree !== null) useTree(o.tree);
  const cpu = os.cpus();
  const machine = `${cpu.length} × ${cpu[0]?.model ?? "cpu"}, ${round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
  const startedAt = new Date().toISOString();
  const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).stdout.trim() || "unknown";
  const dirty = spawnSync("git", ["status", "--porcelain", "--", "src", "functions", "astro.config.mjs"], { cwd: ROOT, encoding: "utf8" }).stdout.trim() !== "";
  const loadAtStart = loadAverage();
  console.log(`bench ${startedAt} at ${commit}${dirty ? " (+ uncommitted changes in src/functions)" : ""}${o.tree ? `; builds with the code of ${o.tree}` : ""}\nmachine: ${machine}\nload average at start: ${loadAtStart}\n`);

  const builds: BuildFigures[] = [];
  const incrementals: IncrementalFigures[] = [];
  const notes: string[] = [];
  if (o.build) {
    console.log(`Build (~${o.segments} segments per script)`);
    for (const size of [...new Set([ANCHOR_SIZE, ...o.sizes])].sort((a, b) => a - b)) {
      if (size >= 50_000) {
        const disk = diskCheck(size);
        console.log(`  ${size} episodes: free disk under bench/.out ${disk.freeGb} GB, this size needs ~${disk.needGb} GB (content, dist/, its copy)`);
        if (!disk.ok) {
          console.log(`  skipped: not enough free disk for ${size}`);
          notes.push(`build of ${size} skipped: ${disk.freeGb} GB free, ~${disk.needGb} GB needed`);
          continue;
        }
      }
      try {
        const b = await buildClean(size, o.segments, commit);
        builds.push(b);
        console.log(`  → ${b.ok ? "ok" : "FAILED"} in ${b.wallSeconds} s, peak RSS ${b.peakRssMb ?? "?"} MB (log: ${b.log})`);
        if (b.ok && o.incremental && size !== ANCHOR_SIZE) {
          const inc = await incremental(size, o.segments);
          incrementals.push(inc);
          console.log(`  → +1 episode: ${inc.addOne?.wallSeconds ?? "–"} s; publish --dry-run ${inc.publishDryRun?.wallSeconds ?? "–"} s; publish ${inc.publish?.wallSeconds ?? "–"} s`);
        }
      } catch (e) {
        console.log(`  build of ${size} could not run: ${(e as Error).message}`);
      }
    }
  }

  const sizes: SizeFigures[] = [];
  if (o.http) {
    const present = builtSizes(o.segments);
    const wrkSizes = o.serveSize !== null ? [o.serveSize] : o.sizes.filter((n) => n >= WRK_SIZES.min && n <= WRK_SIZES.max && present.includes(n));
    const edgeSize = o.edge ? (wrkSizes.at(-1) ?? null) : null;
    for (const size of [...new Set([...present, ...(o.serveSize !== null ? [o.serveSize] : [])])].sort((a, b) => a - b)) {
      console.log(`\nHTTP (the ${size}-episode build${wrkSizes.includes(size) ? ", with throughput" : ""})`);
      try {
        sizes.push(await sizeFigures(o, size, wrkSizes.includes(size), size === edgeSize));
      } catch (e) {
        console.log(`  HTTP figures of ${size} could not be taken: ${(e as Error).message}`);
      }
    }
  }

  const searches: SearchBenchFigures[] = [];
  if (o.search) {
    const searchSizes = o.sizes.filter((n) => n >= 10_000);
    if (searchSizes.length > 0) console.log("\nSearch bench");
    for (const size of searchSizes) {
      const s = await searchBenchFigures(size, notes);
      if (s) searches.push(s);
    }
  }

  console.log(`\n=== Results (${commit}${dirty ? "+dirty" : ""}, ${machine}; load average ${loadAtStart} at the start, ${loadAverage()} at the end)`);
  for (const n of notes) console.log(`  ${n}`);
  const targets = report(o, builds, incrementals, sizes, searches);
  const file = path.join(OUT, `results-${startedAt.replace(/[:.]/g, "-")}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        startedAt,
        commit,
        dirty,
        machine,
        loadAverage: { start: loadAtStart, end: loadAverage() },
        options: o,
        notes,
        builds,
        incremental: incrementals,
        http: sizes.map((s) => ({ ...s, wrk: s.wrk.map(({ raw: _raw, ...r }) => r) })),
        search: searches,
        targets,
      },
      null,
      2,
    ),
  );
  console.log(`\n(saved to ${path.relative(ROOT, file)})`);
}

await main(o);
