// npm run soak:rebuilds: a Node server (in a child process of its own: tests/support/fuzz-server.ts)
// taking up build after build while clients keep asking, sampled after each swap: resident memory,
// heap, active handles and open file descriptors (all of them, and those under the builds'
// folder). A server that leaks per swap grows with the count; a flat one does not. Not in CI.
//
// Each rebuild edits one episode's title and script and runs the real build (`astro build --outDir
// <dir>/dist`, as `npm run build`), which switches `dist` and waits for the server to take it up
// (docs/architecture.md#the-build). --flip switches `dist` between two builds instead: the
// server's side alone, in seconds.
import { readdirSync, readlinkSync, realpathSync } from "node:fs";
import { cp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { buildsFolderOf, liveFolderOf, pointTo, serverRecords } from "../src/shared/node-builds.ts";
import type { EpisodeSpec } from "../tests/support/fixture.ts";
import type { ServerSample } from "../tests/support/fuzz-server.ts";
import { command, type Values } from "./cli.ts";

const SOAK_REBUILDS = command({
  name: "soak:rebuilds",
  usage: ["npm run soak:rebuilds -- [options]", "node scripts/soak-rebuilds.ts [options]"],
  about: `A Node server taking up build after build while clients keep asking, sampled after each swap
(RSS, heap, handles, open files), then a verdict: FLAT (exit 0) or GROWING (exit 1).`,
  options: {
    rebuilds: { type: "integer", min: 1, default: 100, help: "swaps to sample" },
    episodes: { type: "integer", min: 1, default: 20, help: "episodes of the site" },
    concurrency: { type: "integer", min: 0, default: 4, help: "clients asking without pause meanwhile" },
    flip: { type: "boolean", help: "switch dist between two builds instead of building again each time" },
    keep: { type: "boolean", help: "keep the site's folder (tests/.tmp/soak-rebuilds-*) at the end" },
  },
  examples: ["npm run soak:rebuilds -- --rebuilds 10", "npm run soak:rebuilds -- --flip --rebuilds 500"],
});

type Options = Values<typeof SOAK_REBUILDS.spec.options>;

const MiB = 1024 * 1024;

/** The server's open descriptors: all, and those under `folder`. */
function descriptors(pid: number, folder: string): { all: number; builds: number } {
  const fds = readdirSync(`/proc/${pid}/fd`);
  let builds = 0;
  for (const fd of fds) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith(folder)) builds++;
    } catch {
      // closed meanwhile
    }
  }
  return { all: fds.length, builds };
}

function specs(n: number, edit: number): EpisodeSpec[] {
  return Array.from({ length: n }, (_, i) => ({
    folder: `ep-${i + 1}`,
    episode: episode({ id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, "0")}`, episodeNumber: i + 1, title: i === 0 ? `Edited ${edit}` : `Episode ${i + 1}`, publishedAt: "2026-01-01T00:00:00Z" }),
    script: script([["a", i === 0 ? `Edit ${edit}.` : "Hello."], ["b", "Hi."]]),
    ...(i < 3 ? { audio: TONE } : {}),
  }));
}

async function main(o: Options): Promise<number> {
  console.log(`soak:rebuilds: ${o.rebuilds} ${o.flip ? "switches between two builds" : "rebuilds"} of ${o.episodes} episodes, ${o.concurrency} clients`);
  const site = await makeSite("soak-rebuilds", specs(o.episodes, 0));
  const pointer = site.distDir;
  let flips: [string, string] | null = null;
  if (o.flip) {
    // Two builds to switch between, each copied out of the builds' folder.
    const a = path.join(site.dir, "build-a");
    const b = path.join(site.dir, "build-b");
    await cp(site.distDir, a, { recursive: true, dereference: true });
    await writeFile(path.join(site.contentDir, "episodes/ep-1/episode.json"), JSON.stringify(specs(o.episodes, 1)[0]!.episode));
    await build(site.contentDir, site.distDir);
    await cp(site.distDir, b, { recursive: true, dereference: true });
    flips = [a, b];
    pointTo(pointer, a);
  }
  const server = await startFuzzServer(pointer);
  const watched = realpathSync(o.flip ? site.dir : buildsFolderOf(pointer));
  const urls = ["/v1/episodes", "/v1/episodes?limit=3", "/v1/episodes/1", "/v1/episodes/1/script", "/v1/episodes/2/transcript", "/episodes/1", "/embed/1", "/feed.xml", "/", "/v1"];
  let stop = false;
  let requests = 0;
  let failures = 0;
  const clients = Array.from({ length: o.concurrency }, async (_, c) => {
    for (let k = c; !stop; k++) {
      try {
        const res = await fetch(`${server.url}${urls[k % urls.length]}`, k % 7 === 0 ? { headers: { Range: "bytes=0-99" } } : {});
        await res.arrayBuffer();
        requests++;
      } catch {
        failures++;
      }
    }
  });

  type Row = { n: number; seconds: number; s: ServerSample; fds: { all: number; builds: number } };
  const rows: Row[] = [];
  const line = (r: Row) =>
    `  ${String(r.n).padStart(4)}  ${r.seconds.toFixed(1).padStart(6)} s  RSS ${(r.s.rss / MiB).toFixed(1).padStart(6)} MiB  heap ${(r.s.heapUsed / MiB).toFixed(1).padStart(5)} MiB  handles ${String(r.s.handles).padStart(3)}  fds ${String(r.fds.all).padStart(3)} (${r.fds.builds} under the builds)`;
  const sample = async (n: number, seconds: number) => {
    const row = { n, seconds, s: await server.sample(), fds: descriptors(server.pid, watched) };
    rows.push(row);
    console.log(line(row));
  };
  console.log("  swap   took     server after the swap");
  await sample(0, 0);
  let failed = false;
  for (let n = 1; n <= o.rebuilds && !failed; n++) {
    const started = performance.now();
    if (flips !== null) {
      const before = liveFolderOf(pointer);
      pointTo(pointer, flips[n % 2]!);
      // The server's record says when it serves the new build (the build's own wait reads it too).
      while (serverRecords(pointer)[0]?.serving === before) await new Promise((r) => setTimeout(r, 10));
    } else {
      await writeFile(path.join(site.contentDir, "episodes/ep-1/episode.json"), JSON.stringify(specs(o.episodes, n)[0]!.episode));
      await writeFile(path.join(site.contentDir, "episodes/ep-1/script.json"), JSON.stringify(specs(o.episodes, n)[0]!.script));
      const out = await build(site.contentDir, site.distDir).catch((e: { stdout?: string; stderr?: string }) => ({ stdout: `${e.stdout}\n${e.stderr}` }));
      if (!/is live: 1 running server took it up/.test(out.stdout)) {
        console.error(`rebuild ${n}: the server did not take the build up:\n${out.stdout.slice(-2000)}`);
        failed = true;
      }
    }
    await sample(n, (performance.now() - started) / 1000);
  }
  stop = true;
  await Promise.all(clients);
  await server.close();
  if (!o.keep) await rm(site.dir, { recursive: true, force: true });

  const at = (n: number) => rows.find((r) => r.n === n) ?? rows.at(-1)!;
  const first = at(1);
  const mid = at(Math.max(1, Math.round(o.rebuilds / 2)));
  const last = rows.at(-1)!;
  console.log(`\n  requests ${requests} (failed ${failures}) during ${rows.length - 1} swaps`);
  for (const [name, r] of [["swap 1", first], [`swap ${mid.n}`, mid], [`swap ${last.n}`, last]] as const) console.log(`  ${name.padEnd(9)} ${line(r).trim()}`);
  const growth = (last.s.rss - mid.s.rss) / MiB;
  const rssFlat = growth <= Math.max(16, (mid.s.rss / MiB) * 0.1);
  const filesFlat = last.fds.builds <= first.fds.builds;
  const verdict = !failed && rssFlat && filesFlat ? "FLAT" : "GROWING";
  console.log(
    `  verdict: ${verdict} — RSS ${growth >= 0 ? "+" : ""}${growth.toFixed(1)} MiB over the second half (flat means ≤ max(16 MiB, 10%)), files under the builds ${first.fds.builds} → ${last.fds.builds}${failed ? "; a rebuild was not taken up" : ""}`,
  );
  return verdict === "FLAT" && failures === 0 ? 0 : 1;
}

const opts = SOAK_REBUILDS.parse().values;
// The fixtures and the server load after the options: --help answers at once.
const { build, episode, makeSite, script } = await import("../tests/support/fixture.ts");
const { startFuzzServer } = await import("../tests/support/fuzz-server.ts");
const { TONE } = await import("../tests/support/http.ts");
void SOAK_REBUILDS.run(() => main(opts));
