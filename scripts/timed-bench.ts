// What the timed forms cost, in CPU (docs/architecture.md#timed-forms): for a synthetic timed script of a
// given length, the build's work per episode (render the four forms and hash them for their ETags,
// src/generate/site.ts), the shim's work on a miss of its cache (parse the script body, render one
// form, functions/timed-routes.ts), and the Node server's memory for the table of tags at a given
// number of episodes, read as functions/handler.ts reads it. Beside them, the anchor measured in
// the same run: JSON.parse of the same script body, which every script request's first read costs.
//
//   node --expose-gc scripts/timed-bench.ts [--turns 150] [--episodes 100000] [--rounds 5]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { command } from "./cli.ts";
import { FileAssetStore } from "../functions/node/file-assets.ts";
import { nodeEtag } from "../src/shared/node-etag.ts";
import type { ScriptResource } from "../src/shared/schema/api.ts";
import { formsOf, renderTimed } from "../src/shared/timed.ts";
import { encodeTimedEtags, TimedEtagTable, type TimedEtags } from "../src/shared/timed-etags.ts";

const TIMED_BENCH = command({
  name: "timed-bench",
  usage: ["node --expose-gc scripts/timed-bench.ts [options]"],
  about: `Prints what the timed forms cost per episode (the build's rendering and hashing, the shim's
render on a cache miss, beside JSON.parse of the same script) and the tag table's memory.`,
  options: {
    turns: { type: "integer", min: 1, default: 150, help: "spoken turns of the synthetic script (150: about 20 minutes)" },
    episodes: { type: "integer", min: 1, default: 100000, help: "episodes in the tag table whose memory is measured" },
    rounds: { type: "integer", min: 1, default: 5, help: "rounds of each measurement" },
  },
  examples: ["node --expose-gc scripts/timed-bench.ts --turns 300 --episodes 10000"],
});

const { turns, episodes, rounds } = TIMED_BENCH.parse().values;
const gc = (globalThis as { gc?: () => void }).gc ?? TIMED_BENCH.fail("run it with node --expose-gc: it measures memory after a full collection");
const WORDS = "the signing key leaked and the rotation took a week because nobody owned it so who owns the key now".split(" ");
const script: ScriptResource = {
  id: "00000000-0000-4000-8000-000000000000",
  episodeNumber: 1,
  title: "Synthetic",
  hosts: { a: "Maya Chen", b: "Theo Park" },
  chapters: Array.from({ length: 6 }, (_, i) => ({ title: `Chapter ${i + 1}`, start: i * turns * 1.3 })),
  segments: Array.from({ length: turns }, (_, i) => ({
    speaker: i % 2 ? "Theo Park" : "Maya Chen",
    text: `${Array.from({ length: 20 }, (_, k) => WORDS[(i * 7 + k) % WORDS.length]).join(" ")} & <more>.`,
    start: i * 8,
    end: i * 8 + 7.9,
  })),
};
const body = JSON.stringify(script);
const duration = turns * 8;

/**
 * Median microseconds of CPU (user + system) of `fn` over `rounds` rounds of `n` calls: CPU, not
 * wall time, since the machines this runs on are shared.
 */
function micros(n: number, fn: () => void): number {
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t = process.cpuUsage();
    for (let i = 0; i < n; i++) fn();
    const used = process.cpuUsage(t);
    times.push((used.user + used.system) / n);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

const calls = Math.max(20, Math.round(300_000 / turns));
const anchor = micros(calls, () => JSON.parse(body));
const build = micros(calls, () => {
  const tags = formsOf("segments").map((f) => nodeEtag(renderTimed(f, script, duration)!));
  nodeEtag(tags.join(""));
  nodeEtag(renderTimed("chapters", script, duration)!);
});
const shimVtt = micros(calls, () => renderTimed("vtt", JSON.parse(body) as ScriptResource, duration));
const sizes = (["vtt", "srt", "json", "chapters"] as const).map((f) => `${f} ${renderTimed(f, script, duration)!.length} B`).join(", ");

// The table, as the Node server holds it: read through the asset store, kept for the process's life.
const dir = mkdtempSync(path.join(tmpdir(), "timed-bench-"));
const tag = nodeEtag("x");
const file = "timed-etags.bin";
writeFileSync(path.join(dir, file), encodeTimedEtags(Array.from({ length: episodes }, (): TimedEtags => ({ segments: tag, chapters: tag }))));
gc();
gc();
const before = process.memoryUsage().rss;
const asset = await new FileAssetStore(dir, { [file]: tag }).get(file, { keep: false });
const table = new TimedEtagTable(asset!.body, episodes);
gc();
gc();
const after = process.memoryUsage().rss;
const lookup = micros(200_000, () => table.tag(12345 % episodes, "segments"));
rmSync(dir, { recursive: true, force: true });

console.log(`script: ${turns} turns, ${body.length} B of script JSON; forms: ${sizes}`);
console.log(`anchor, JSON.parse of the script body: ${anchor.toFixed(0)} µs`);
console.log(`build, the four forms rendered and hashed for their ETags: ${build.toFixed(0)} µs an episode (x${(build / anchor).toFixed(1)} the anchor)`);
console.log(`shim, a miss of the rendered forms' cache (parse the body, render the WebVTT): ${shimVtt.toFixed(0)} µs (x${(shimVtt / anchor).toFixed(1)})`);
console.log(`table of tags, ${episodes} episodes: +${((after - before) / 1e6).toFixed(2)} MB resident, ${((after - before) / episodes).toFixed(1)} B an episode; a tag looked up in ${lookup.toFixed(2)} µs`);
