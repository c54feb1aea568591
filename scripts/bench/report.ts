// The bench's report: every table, then every figure beside its target and its anchor of the same run.
import type { SearchBenchFigures } from "../search-bench.ts";
import { readBuildRecord, type BuildFigures } from "./build.ts";
import { ANCHOR_SIZE, round, TARGET, WRK_SIZES, type TimedFigures } from "./common.ts";
import type { SizeFigures } from "./http.ts";
import type { IncrementalFigures } from "./incremental.ts";
import type { Options } from "./options.ts";
import { pad, printTable, ratio, verdict, type TargetRow } from "./table.ts";
import { reportRequestPath, targetName } from "./throughput.ts";

export function report(
  o: Options,
  builds: BuildFigures[],
  incrementals: IncrementalFigures[],
  sizes: SizeFigures[],
  searches: SearchBenchFigures[],
): TargetRow[] {
  const rows: TargetRow[] = [];
  const anchorBuild = builds.find((b) => b.episodes === ANCHOR_SIZE && b.ok) ?? readBuildRecord(ANCHOR_SIZE);
  const anchorText = anchorBuild ? `${ANCHOR_SIZE}-episode build ${anchorBuild.wallSeconds} s, ${anchorBuild.peakRssMb} MB` : `no ${ANCHOR_SIZE}-episode build`;

  if (builds.length > 0) {
    printTable(
      "Build (clean): synthetic content → astro build (wall clock; peak RSS of the largest process; `cp -r` of the same dist/ as the anchor)",
      ["episodes", "wall s", "s/1,000", "peak RSS MB", "user s", "sys s", "files", "dist MB", "content MB", "cp -r s", "load at start"],
      builds.map((b) => [
        b.episodes,
        b.ok ? b.wallSeconds : "FAILED",
        round((b.wallSeconds * 1000) / b.episodes, 2),
        b.peakRssMb,
        b.userSeconds,
        b.systemSeconds,
        b.files,
        b.distMb,
        b.contentMb,
        b.copySeconds,
        b.loadAverage.start,
      ]),
    );
    const phaseNames = Object.keys(builds[0]!.phases);
    printTable("Build phases (s, from the arrival of the build's log lines)", ["episodes", ...phaseNames], builds.map((b) => [b.episodes, ...phaseNames.map((p) => b.phases[p])]));
    for (const b of builds) {
      const perThousand = (b.wallSeconds * 1000) / b.episodes;
      const budget = b.episodes === TARGET.buildAt;
      rows.push({
        figure: `clean build, ${b.episodes.toLocaleString("en")} episodes`,
        measured: b.ok ? `${b.wallSeconds} s (${round(perThousand, 2)} s/1,000), ${b.peakRssMb} MB` : "FAILED",
        target:
          b.episodes === TARGET.buildAt
            ? `≤ ${(TARGET.buildSecondsPer1000 * TARGET.buildAt) / 1000} s, ≤ ${TARGET.buildRssMb} MB`
            : b.episodes >= 100_000
              ? "completes; time and memory recorded"
              : `(≤ ${TARGET.buildSecondsPer1000} s/1,000 at ${TARGET.buildAt.toLocaleString("en")})`,
        anchor: `cp -r of its dist/ ${b.copySeconds ?? "–"} s${b.episodes === ANCHOR_SIZE ? "" : `; ${anchorText}`}`,
        met: !b.ok ? false : budget ? perThousand <= TARGET.buildSecondsPer1000 && (b.peakRssMb ?? Infinity) <= TARGET.buildRssMb : b.episodes >= 100_000 ? true : null,
      });
    }
  }

  if (incrementals.length > 0) {
    const t = (x: TimedFigures | null) => (x === null ? "–" : x.ok ? `${x.wallSeconds} s, ${x.peakRssMb} MB` : "FAILED");
    printTable(
      "Incremental: one episode added and built; the one-episode publish; the added episodes removed and built (wall, peak RSS)",
      ["episodes", "+1 episode build", "what the build said", "publish --dry-run", "publish (local, builds)", "added ones removed, build"],
      incrementals.map((i) => [i.episodes, t(i.addOne), i.addOne?.changed ?? "–", t(i.publishDryRun), `${t(i.publish)}${i.publish?.cleanBuild ? " (a clean build)" : ""}`, t(i.removeTwo)]),
    );
    for (const i of incrementals) {
      for (const n of i.notes) console.log(`  ${i.episodes}: ${n}`);
      if (i.addOne?.phases) console.log(`  ${i.episodes}: phases of the +1 build (s): ${JSON.stringify(i.addOne.phases)}`);
      const reported = i.addOne?.reported ?? [];
      if (reported.length > 0) {
        const cpu = i.addOne!.userSeconds !== null && i.addOne!.systemSeconds !== null ? round(i.addOne!.userSeconds + i.addOne!.systemSeconds, 2) : "–";
        printTable(
          `Phases of the +1 build at ${i.episodes.toLocaleString("en")} as it reports them (BUILD_TIMINGS=1; the process's CPU; the whole command: ${i.addOne!.wallSeconds} s wall, ${cpu} s CPU, load ${i.addOne!.loadAverage.start} → ${i.addOne!.loadAverage.end})`,
          ["phase", "wall ms", "CPU ms"],
          reported.map((p) => [p.cpuMs === null ? `  of which ${p.name}` : p.name, p.wallMs, p.cpuMs ?? "–"]),
        );
      }
      const clean = builds.find((b) => b.episodes === i.episodes);
      const anchor = `clean build ${clean?.wallSeconds ?? "–"} s; ${anchorText}`;
      const target = i.episodes === TARGET.buildAt ? `≤ ${TARGET.incrementalSeconds} s` : `(≤ ${TARGET.incrementalSeconds} s at ${TARGET.buildAt.toLocaleString("en")})`;
      const within = (x: TimedFigures | null) => (x === null || !x.ok ? (x === null ? null : false) : i.episodes === TARGET.buildAt ? x.wallSeconds <= TARGET.incrementalSeconds : null);
      rows.push({ figure: `build after +1 episode, ${i.episodes.toLocaleString("en")}`, measured: t(i.addOne), target, anchor, met: within(i.addOne) });
      rows.push({ figure: `publish --dry-run, ${i.episodes.toLocaleString("en")}`, measured: t(i.publishDryRun), target: "–", anchor, met: null });
      rows.push({ figure: `publish (local, with its build), ${i.episodes.toLocaleString("en")}`, measured: t(i.publish), target: `(its build ≤ ${TARGET.incrementalSeconds} s)`, anchor, met: null });
    }
  }

  for (const s of sizes) {
    if (s.wrk.length === 0) continue;
    console.log(
      `\nHTTP: wrk -t${o.threads} -c${o.connections} -d${o.duration}s against the ${s.episodes}-episode build (wrk and servers share the machine's cores)` +
        (o.rounds > 1 ? `; ${o.rounds} rounds, each target's median round` : "") +
        (o.baseline ? `; baseline shim from ${o.baseline}` : ""),
    );
    for (const n of s.notes) console.log(`  ${n}`);
    console.log(`  the servers answered the same episode bytes: ${s.sameBody}`);
    const w = [44, 10, 11, 9, 9, 9, 9, 8];
    console.log(pad(["target", "req/s", "CPU µs/req", "avg ms", "p50 ms", "p99 ms", "max ms", "non-2xx"], w));
    for (const r of s.wrk) {
      console.log(pad([r.target, r.requestsPerSecond, r.cpuUsPerRequest, r.latencyAvgMs, r.latencyP50Ms, r.latencyP99Ms, r.latencyMaxMs, r.non2xx], w));
      if (r.socketErrors) console.log(`  ${r.target}: ${r.socketErrors}`);
      if (r.rounds) console.log(`    rounds: ${r.rounds.join(", ")} req/s`);
    }
    const how = `wrk -t${o.threads} -c${o.connections} -d${o.duration}s${o.rounds > 1 ? `, ${o.rounds} rounds alternating, medians` : ""}`;
    reportRequestPath(s.episodes, s.requestPath, how, rows);
    const by = (t: string) => s.wrk.find((r) => r.target === t)?.requestsPerSecond;
    const nginx = by(targetName("nginx", "episode JSON"));
    const nginxList = by(targetName("nginx", "default list page"));
    const ep = by(targetName("shim", "episode JSON"));
    const list = by(targetName("shim", "default list page"));
    if (s.wrk.some((r) => r.target.startsWith("edge, "))) {
      const edgeEp = by("edge, episode JSON");
      const edgeList = by("edge, default list page");
      console.log(
        `edge (workerd) ratios (req/s): edge episode / nginx = ${ratio(edgeEp, nginx, 3)}, edge list / nginx = ${ratio(edgeList, nginxList, 3)}, ` +
          `edge episode / Node shim episode = ${ratio(edgeEp, ep, 3)}, edge list / Node shim list = ${ratio(edgeList, list, 3)}, ` +
          `edge episode / edge asset layer alone = ${ratio(edgeEp, s.wrk.find((r) => r.target.startsWith("edge, asset layer"))?.requestsPerSecond)}`,
      );
    }
    if (o.baseline) console.log(`list walk against the baseline shim: ×${ratio(by("shim, list walk"), by("baseline shim, list walk"))}`);
    const n = s.episodes.toLocaleString("en");
    rows.push({ figure: `shim episode / nginx, ${n}`, measured: ratio(ep, nginx), target: `≥ ${TARGET.episodeVsNginx}`, anchor: `nginx ${nginx ?? "–"} req/s`, met: ep && nginx ? ep / nginx >= TARGET.episodeVsNginx : null });
    rows.push({ figure: `shim list page / nginx, ${n}`, measured: ratio(list, nginxList), target: `≥ ${TARGET.listVsNginx}`, anchor: `nginx ${nginxList ?? "–"} req/s (same bytes)`, met: list && nginxList ? list / nginxList >= TARGET.listVsNginx : null });
  }
  for (const s of sizes) {
    if (s.deploy) console.log(`deploy of the ${s.episodes}-episode build (src/generate/file-budget.ts): ${s.deploy.uploadFiles} files to upload for ${s.deploy.indexEpisodes} episodes in the index = ${s.deploy.filesPerEpisode} files per episode`);
  }

  if (sizes.length > 0) {
    const targets = ["nginx, static file", "shim, one episode", "shim, first list page", "shim, deep list page", "shim, list walk"];
    const base = sizes.find((s) => s.episodes === ANCHOR_SIZE);
    const p50 = (s: SizeFigures | undefined, t: string) => s?.latency.find((l) => l.target === t)?.p50Ms ?? null;
    printTable(
      `List latency on one connection (wrk -t1 -c1, p50 ms; ×: against the ${ANCHOR_SIZE}-episode build; target ≤ ${TARGET.listFlat}× up to 100,000)`,
      ["episodes", ...targets, "walk pages"],
      [...sizes.map((s) => [s.episodes, ...targets.map((t) => `${p50(s, t) ?? "–"} (×${ratio(p50(s, t), p50(base, t))})`), s.listWalk?.pages]), ...(sizes.some((s) => s.episodes === 100_000) ? [] : [[100_000, "not built"]])],
    );
    for (const s of sizes) {
      if (s.episodes === ANCHOR_SIZE) continue;
      // The sizes are measured one after the other, minutes apart, on a shared machine: the same
      // ratio taken against nginx's static file of each row shows how much of it is the load.
      const nginxHere = p50(s, "nginx, static file");
      const nginxBase = p50(base, "nginx, static file");
      for (const t of ["shim, first list page", "shim, deep list page", "shim, list walk"]) {
        const a = p50(s, t);
        const b = p50(base, t);
        const besideNginx = a && b && nginxHere && nginxBase ? ratio(a / nginxHere, b / nginxBase) : "–";
        rows.push({
          figure: `${t} p50, ${s.episodes.toLocaleString("en")}`,
          measured: `${a ?? "–"} ms (×${ratio(a, b)}; ×${besideNginx} of nginx's)`,
          target: `≤ ${TARGET.listFlat}× the ${ANCHOR_SIZE}-episode p50`,
          anchor: `${b ?? "–"} ms at ${ANCHOR_SIZE}; nginx static ${nginxHere ?? "–"} ms`,
          met: a !== null && b !== null ? a / b <= TARGET.listFlat : null,
        });
      }
    }
    const phases = ["afterStart", "afterWalk", "afterLatency", "afterSearch", "afterLoad"];
    const mem = (m: { rssMb: number; peakMb: number } | null | undefined) => (m ? `${m.rssMb} / ${m.peakMb}` : "–");
    printTable(
      `The shim's resident memory, VmRSS / VmHWM in MB (target ≤ ${TARGET.serverRssMb} MB with 100,000 episodes; anchor: the bare node:http server)`,
      ["episodes", ...phases.map((p) => p.replace("after", "after ").toLowerCase()), "node:http"],
      sizes.map((s) => [s.episodes, ...phases.map((p) => mem(s.shimMemory[p])), mem(s.rawMemory)]),
    );
    for (const s of sizes) {
      const peak = Math.max(...Object.values(s.shimMemory).map((m) => m?.peakMb ?? 0));
      rows.push({
        figure: `shim peak RSS, ${s.episodes.toLocaleString("en")}`,
        measured: peak > 0 ? `${peak} MB` : "–",
        target: s.episodes >= 100_000 ? `≤ ${TARGET.serverRssMb} MB` : `(≤ ${TARGET.serverRssMb} MB at 100,000)`,
        anchor: `node:http ${s.rawMemory?.rssMb ?? "–"} MB`,
        met: peak > 0 ? (s.episodes >= 100_000 ? peak <= TARGET.serverRssMb : peak <= TARGET.serverRssMb ? null : false) : null,
      });
    }
    const wireSize = [...sizes].reverse().find((s) => s.wire.length > 0 && s.episodes <= WRK_SIZES.max);
    if (wireSize) {
      const c = (x: { bytes: number; coding: string | null } | null, plain: number | null) => (x === null ? "–" : `${x.bytes} (${x.coding ?? "identity"}, ×${ratio(x.bytes, plain, 3)})`);
      printTable(
        `Bytes on the wire from the Node shim (${wireSize.episodes}-episode build) by Accept-Encoding; anchor: node:zlib's gzip (6) and brotli (11) of the same bytes`,
        ["body", "identity B", "gzip B", "br B", "zlib gzip B", "zlib br B"],
        wireSize.wire.map((w) => [`${w.what} ${w.path}`, w.identity, c(w.gzip, w.identity), c(w.br, w.identity), w.zlibGzip, w.zlibBr]),
      );
      for (const w of wireSize.wire) {
        rows.push({
          figure: `bytes: ${w.what}`,
          measured: `${w.identity ?? "–"} B; br ${w.br?.coding === "br" ? w.br.bytes : "–"}, gzip ${w.gzip?.coding === "gzip" ? w.gzip.bytes : "–"}`,
          target: "smaller with compression",
          anchor: `zlib br ${w.zlibBr ?? "–"}, gzip ${w.zlibGzip ?? "–"}`,
          met: w.identity === null ? null : w.br?.coding === "br" || w.gzip?.coding === "gzip",
        });
      }
    }
    for (const s of sizes) {
      if (s.deploy) rows.push({ figure: `deploy files per episode, ${s.episodes.toLocaleString("en")}`, measured: String(s.deploy.filesPerEpisode), target: "–", anchor: `${s.deploy.uploadFiles} files, ${s.deploy.indexEpisodes} episodes`, met: null });
    }
  }

  const mcp = sizes.filter((s) => s.search !== null);
  if (searches.length > 0 || mcp.length > 0) {
    printTable(
      "Search: scripts/search-bench.ts (synthetic ~20 KB transcripts, its own process) and search_episodes over the shim's POST /mcp (one request at a time)",
      ["episodes", "bench p50 ms", "bench p95 ms", "bench cpu p50 ms", "bench RSS MB", "index MB", "/mcp p50 ms", "/mcp p95 ms", "shim RSS after MB"],
      [...new Set([...searches.map((x) => x.episodes), ...mcp.map((s) => s.episodes)])]
        .sort((a, b) => a - b)
        .map((n) => {
          const b = searches.find((x) => x.episodes === n);
          const s = sizes.find((x) => x.episodes === n);
          return [n, b?.queryP50Ms, b?.queryP95Ms, b?.queryCpuP50Ms, b?.queryRssMb, b?.indexMb, s?.search?.p50Ms, s?.search?.p95Ms, s?.shimMemory.afterSearch?.rssMb];
        }),
    );
    for (const b of searches) {
      const s = sizes.find((x) => x.episodes === b.episodes);
      rows.push({
        figure: `search p50, ${b.episodes.toLocaleString("en")}`,
        measured: `${b.queryP50Ms} ms (bench), ${s?.search?.p50Ms ?? "–"} ms (/mcp); ${b.queryRssMb} MB`,
        target: "– (none)",
        anchor: `shim episode p50 ${s?.latency.find((l) => l.target === "shim, one episode")?.p50Ms ?? "–"} ms`,
        met: null,
      });
    }
  }

  if (rows.length > 0) {
    printTable("Every figure beside its target and anchor", ["figure", "measured", "target", "anchor", ""], rows.map((r) => [r.figure, r.measured, r.target, r.anchor, verdict(r.met)]));
  }
  return rows;
}
