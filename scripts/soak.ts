// npm run soak: N minutes of mixed traffic at full speed against a Node server of the demo build in a
// child process (tests/support/fuzz-server.ts), sampling the server's RSS, heap and open handles
// (process.getActiveResourcesInfo() over IPC) every 10 s, then a verdict: flat or growing. Not in CI.
//
// Traffic: list walks by cursor (with and without filters), episodes, scripts and transcripts,
// 304 revalidations with the ETag just received, audio ranges, audio streams aborted after the
// first chunk, pages and the player. After the traffic stops the server idles past its keep-alive
// timeout and is sampled once more: its handles must come back to where they started.
import path from "node:path";
import { argPath, command, ROOT } from "./cli.ts";
import type { Rng } from "../tests/support/fuzz-core.ts";
import type { ServerSample } from "../tests/support/fuzz-server.ts";

const SOAK = command({
  name: "soak",
  usage: ["npm run soak -- [options]", "node scripts/soak.ts [options]"],
  about: `Minutes of mixed traffic against a Node server of a build, sampling its RSS, heap and open
handles, then a verdict: FLAT (exit 0) or GROWING (exit 1). Build first (npm run build).`,
  options: {
    minutes: { type: "number", value: "M", min: 0.1, default: 5, help: "how long the traffic runs" },
    concurrency: { type: "integer", min: 1, default: 16, help: "clients at once" },
    dist: { type: "string", value: "DIR", help: "the build to serve (default dist/)" },
    interval: { type: "number", value: "S", min: 1, default: 10, help: "seconds between samples" },
    seed: { type: "integer", value: "S", default: 1, help: "the PRNG's seed" },
  },
  examples: ["npm run soak -- --minutes 1 --concurrency 8"],
});

const { minutes, concurrency, seed, ...values } = SOAK.parse().values;
const intervalMs = values.interval * 1000;
const distDir = argPath(values.dist, path.join(ROOT, "dist"));

const MiB = 1024 * 1024;
const counts: Record<string, number> = {};
const problems: Record<string, { count: number; example: string }> = {};
let requests = 0;

function problem(kind: string, example: string): void {
  const p = (problems[kind] ??= { count: 0, example });
  p.count++;
}

async function get(base: string, p: string, init: RequestInit = {}, expect: number[] = [200]): Promise<Response> {
  requests++;
  const res = await fetch(base + p, { redirect: "manual", ...init });
  counts[res.status] = (counts[res.status] ?? 0) + 1;
  if (!expect.includes(res.status)) problem(`unexpected ${res.status}`, `${p} → ${res.status}`);
  return res;
}

async function drain(res: Response): Promise<void> {
  await res.arrayBuffer();
}

async function main(): Promise<number> {
  const { Rng, siteFacts } = await import("../tests/support/fuzz-core.ts");
  const { startFuzzServer } = await import("../tests/support/fuzz-server.ts");
  const site = siteFacts(distDir);
  const server = await startFuzzServer(distDir);
  const base = server.url;
  const refs = [...site.numbers, ...site.uuids];
  const withAudio = site.media;
  const audioRefs = refs.filter(() => true);
  console.log(`soak: ${minutes} min, concurrency ${concurrency}, against ${base} (${path.relative(process.cwd(), distDir) || "."}), sampling every ${intervalMs / 1000} s`);

  const actions: [number, (r: Rng) => Promise<void>][] = [
    // A list walk by cursor, to the end.
    [
      3,
      async (r) => {
        const filter = r.chance(0.3) && site.domains.length ? `&domain=${r.pick(site.domains)}` : "";
        let next: string | null = `/v1/episodes?limit=${r.int(1, 5)}${filter}`;
        for (let pages = 0; next !== null && pages < 50; pages++) {
          const res = await get(base, next);
          const body = (await res.json()) as { pagination: { nextCursor: string | null } };
          next = body.pagination.nextCursor === null ? null : `/v1/episodes?cursor=${encodeURIComponent(body.pagination.nextCursor)}`;
        }
      },
    ],
    [3, async (r) => drain(await get(base, `/v1/episodes/${r.pick(refs)}${r.pick(["", "", "/script", "/transcript"])}`, {}, [200, 404, 422]))],
    // A 304 revalidation with the ETag just received.
    [
      3,
      async (r) => {
        const p = r.pick(["/v1", "/v1/episodes", `/v1/episodes/${r.pick(refs)}`, `/episodes/${r.pick(refs)}`, "/embed/latest"]);
        const res = await get(base, p, {}, [200, 404]);
        await drain(res);
        const etag = res.headers.get("etag");
        if (etag) await drain(await get(base, p, { headers: { "If-None-Match": etag } }, [304]));
      },
    ],
    // Audio ranges.
    [
      3,
      async (r) => {
        const range = r.pick(["bytes=0-99", "bytes=1000-", "bytes=-500", "bytes=0-9,100-199", "bytes=0-65535"]);
        const p = r.chance(0.5) && withAudio.length ? `/media/${r.pick(withAudio)}` : `/v1/episodes/${r.pick(audioRefs)}/audio`;
        await drain(await get(base, p, { headers: { Range: range } }, [206, 404, 416]));
      },
    ],
    // An audio stream aborted after its first chunk.
    [
      2,
      async (r) => {
        const abort = new AbortController();
        const p = r.chance(0.5) && withAudio.length ? `/media/${r.pick(withAudio)}` : `/v1/episodes/${r.pick(audioRefs)}/audio`;
        const res = await get(base, p, { signal: abort.signal }, [200, 404]);
        if (res.status !== 200 || !res.body) return drain(res);
        const reader = res.body.getReader();
        await reader.read();
        abort.abort();
        await reader.cancel().catch(() => {});
      },
    ],
    [1, async (r) => drain(await get(base, r.pick(["/", "/terms", `/embed/${r.pick(refs)}`, `/oembed?url=${encodeURIComponent(`${site.siteUrl}/episodes/${r.pick(refs)}`)}`, "/v1/openapi.json"]), {}, [200, 404]))],
  ];
  const total = actions.reduce((n, [w]) => n + w, 0);
  const pick = (r: Rng) => {
    let x = r.next() * total;
    for (const [w, f] of actions) if ((x -= w) < 0) return f;
    return actions[0]![1];
  };

  const started = Date.now();
  const endAt = started + minutes * 60_000;
  const samples: { t: number; requests: number; s: ServerSample }[] = [];
  const first = await server.sample();
  samples.push({ t: 0, requests: 0, s: first });
  const line = (t: number, n: number, s: ServerSample, rate: string) =>
    console.log(
      `  ${String(Math.round(t / 1000)).padStart(5)} s  ${String(n).padStart(9)} req  ${rate.padStart(7)}/s  RSS ${(s.rss / MiB).toFixed(1).padStart(6)} MiB  heap ${(s.heapUsed / MiB).toFixed(1).padStart(6)} MiB  handles ${String(s.handles).padStart(4)}  ${Object.entries(s.resources)
        .map(([k, v]) => `${k}:${v}`)
        .join(" ")}`,
    );
  console.log("  time         requests     rate  server");
  line(0, 0, first, "-");
  const sampler = setInterval(() => {
    void server.sample().then((s) => {
      const t = Date.now() - started;
      const prev = samples[samples.length - 1]!;
      samples.push({ t, requests, s });
      line(t, requests, s, String(Math.round((requests - prev.requests) / ((t - prev.t) / 1000))));
    });
  }, intervalMs);

  let failures = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, i) => {
      const r = new Rng(seed * 1000 + i);
      while (Date.now() < endAt) {
        try {
          await pick(r)(r);
        } catch (e) {
          failures++;
          problem("request failed", (e as Error).message);
        }
      }
    }),
  );
  clearInterval(sampler);
  const trafficEnd = await server.sample();
  // Idle past the server's keep-alive timeout (5 s): connections close, handles must come back.
  await new Promise((r) => setTimeout(r, 7000));
  const idle = await server.sample();
  await server.close();

  const elapsed = (Date.now() - started) / 1000;
  const mid = samples.filter((x) => x.t >= (minutes * 60_000) / 2)[0] ?? samples[Math.floor(samples.length / 2)]!;
  const last = samples[samples.length - 1]!;
  const growth = (last.s.rss - mid.s.rss) / MiB;
  const minutesSpan = (last.t - mid.t) / 60_000;
  const perMinute = minutesSpan > 0 ? growth / minutesSpan : 0;
  console.log(`\n  requests ${requests} in ${elapsed.toFixed(0)} s (${Math.round(requests / (minutes * 60))}/s), client failures ${failures}`);
  console.log(`  statuses: ${Object.entries(counts).map(([s, n]) => `${s}×${n}`).join(" ")}`);
  for (const [k, p] of Object.entries(problems)) console.log(`  ${k}: ${p.count} (e.g. ${p.example})`);
  console.log(`  RSS: start ${(first.rss / MiB).toFixed(1)} MiB, half-way ${(mid.s.rss / MiB).toFixed(1)} MiB, end of traffic ${(trafficEnd.rss / MiB).toFixed(1)} MiB, idle ${(idle.rss / MiB).toFixed(1)} MiB`);
  console.log(`  heap: start ${(first.heapUsed / MiB).toFixed(1)} MiB, half-way ${(mid.s.heapUsed / MiB).toFixed(1)} MiB, end ${(trafficEnd.heapUsed / MiB).toFixed(1)} MiB`);
  console.log(`  handles: start ${first.handles}, end of traffic ${trafficEnd.handles}, after 7 s idle ${idle.handles} (${Object.entries(idle.resources).map(([k, v]) => `${k}:${v}`).join(" ")})`);
  const rssFlat = growth <= Math.max(16, (mid.s.rss / MiB) * 0.1);
  const handlesFlat = idle.handles <= first.handles + 2;
  const verdict = rssFlat && handlesFlat ? "FLAT" : "GROWING";
  console.log(
    `  verdict: ${verdict} — RSS ${growth >= 0 ? "+" : ""}${growth.toFixed(1)} MiB over the second half (${perMinute.toFixed(1)} MiB/min; flat means ≤ max(16 MiB, 10%)), handles ${handlesFlat ? "back to" : "above"} their start after idling`,
  );
  const unexpected = Object.keys(problems).length > 0;
  return verdict === "FLAT" && !unexpected ? 0 : 1;
}

void SOAK.run(main);
