// The search index's figures (docs/architecture.md#search): for N synthetic episodes of realistic
// text (a Zipf-distributed vocabulary of 60,000 words; ~20 KB of transcript each), the build time
// and memory of src/generate/search-index.ts, the index's files and bytes, then the query side as
// the shim runs it (functions/data/search.ts over the asset store of functions/data/manifest-assets.ts with
// the Node entry's cache size, in a process of its own): latency of 200 queries (words, and
// 4-word phrases taken from a random transcript: the first result must hold the phrase) and that
// process's memory after them. Episode bodies and transcripts are written to disk one at a time,
// as the build writes them, and the index is built from each in turn; none is held.
//
//   node --expose-gc scripts/search-bench.ts [--sizes 10000,100000] [--transcript-kb 20]
//
// `searchBench` is exported for scripts/bench.ts. SEARCH_BENCH_DEBUG=1 prints the phrase queries
// whose first result lacks the phrase (with the source episode's rank); SEARCH_BENCH_PROFILE=<dir>
// writes a CPU profile of the query phase there. The project's modules load after the options
// are read, so that --help answers at once.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { IndexEntry } from "../src/shared/schema/build-index.ts";
import { formatCount, progressBar } from "../src/publish/progress.ts";
import { command, isMain } from "./cli.ts";
import { prng } from "./synthetic-content.ts";

export const SEARCH_BENCH = command({
  name: "search-bench",
  usage: ["node --expose-gc scripts/search-bench.ts [options]"],
  about: `The search index's figures for N synthetic episodes (~20 KB of transcript each): build time and
memory, the index's files and bytes, and 200 queries as the shim runs them (latency, phrase hits,
memory) in a process of its own. One line of JSON per size on stdout; progress on stderr.`,
  options: {
    sizes: { type: "integers", value: "N,N", min: 1, default: [10_000], help: "episode counts to measure, smallest first" },
    "transcript-kb": { type: "integer", value: "KB", min: 1, default: 20, help: "transcript size per episode" },
    "query-phase": { type: "string", value: "DIR", help: "(internal) run the query phase alone over the index in DIR, for one size" },
  },
  examples: ["node --expose-gc scripts/search-bench.ts --sizes 10000,100000"],
});

export interface SearchBenchFigures {
  episodes: number;
  /** Wall time of indexing (add, one episode at a time) and encoding the files. */
  buildSeconds: number;
  /** CPU time of the same (generating the synthetic text excluded). */
  buildCpuSeconds: number;
  /** RSS right after the accumulator took every episode (before writing the files). */
  buildRssMb: number;
  files: number;
  indexMb: number;
  largestShardMb: number;
  queryP50Ms: number;
  queryP95Ms: number;
  /** CPU time of a query (user + system), less sensitive to a loaded machine than wall time. */
  queryCpuP50Ms: number;
  /** Phrase queries whose first result holds the phrase, of those asked. */
  phraseFirst: string;
  /** RSS after the 200 queries (index loaded, caches warm), right after a full GC: V8 keeps freed heap pages a while. */
  queryRssMb: number;
  /** What is alive then: V8 heap used plus external memory (the asset cache's bytes, shards). */
  queryLiveMb: number;
}

const VOCABULARY = 60_000;
const MANIFEST = "bench-manifest.json";
const QUERIES = 200;
const T0 = Date.UTC(2020, 0, 1);
const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;

/** Pseudo-words from syllables, some with diacritics; the same list for a given seed. */
function vocabulary(): string[] {
  const r = prng(7);
  const syllables = ["ka", "lo", "mi", "ne", "ru", "ta", "vé", "so", "ph", "qui", "ar", "en", "ol", "ün", "za", "ber", "cor", "dan", "fel", "gri"];
  const words = new Set<string>();
  while (words.size < VOCABULARY) {
    let w = "";
    for (let k = 1 + Math.floor(r() * 4); k > 0; k--) w += syllables[Math.floor(r() * syllables.length)];
    words.add(w);
  }
  return [...words];
}

/** Zipf (s = 1) sampling over the vocabulary: a table of 2^20 draws made once, then one lookup a word. */
function zipf(words: string[]): (r: () => number) => string {
  const cdf = new Float64Array(words.length);
  let sum = 0;
  for (let i = 0; i < words.length; i++) cdf[i] = sum += 1 / (i + 1);
  const table = new Uint16Array(1 << 20);
  let w = 0;
  for (let k = 0; k < table.length; k++) {
    const x = ((k + 0.5) / table.length) * sum;
    while (cdf[w]! < x) w++;
    table[k] = w;
  }
  return (r) => words[table[(r() * table.length) | 0]!]!;
}

interface Synthetic {
  title: string;
  summary: string;
  description: string;
  topics: { domains: string[]; concepts: string[]; entities: string[] };
  transcript: string;
}

function generator(transcriptBytes: number) {
  const draw = zipf(vocabulary());
  const words = (r: () => number, n: number) => Array.from({ length: n }, () => draw(r)).join(" ");
  /** Episode `i`'s texts: the same every time it is asked for. */
  return (i: number): Synthetic => {
    const r = prng(1_000_003 * (i + 1));
    const lines: string[] = [];
    let length = 0;
    for (let k = 0; length < transcriptBytes; k++) {
      const line = `${k % 2 === 0 ? "Ada Optimist" : "Bo Skeptic"}: ${words(r, 20 + Math.floor(r() * 30))}.`;
      lines.push(line);
      length += line.length + 1;
    }
    return {
      title: words(r, 6),
      summary: words(r, 30),
      description: words(r, 60),
      topics: { domains: [draw(r)], concepts: [draw(r), draw(r)], entities: [draw(r)] },
      transcript: `${lines.join("\n")}\n`,
    };
  };
}

function entryOf(i: number, n: number): IndexEntry {
  const p = T0 + (n - i) * 3_600_000;
  return { id: `00000000-0000-4000-8000-${i.toString(16).padStart(12, "0")}`, n: n - i, p, s: p, ref: String(n - i), title: "", domains: [], script: "ok", transcript: true, audio: null };
}

/** The project's modules, loaded once the options are read. */
async function project() {
  const [{ EpisodeIndex }, { ManifestAssetStore }, { DEFAULT_CACHE_BYTES }, { EpisodeSearch }, { SearchIndexBuilder }, { episodeFile }, tokens] = await Promise.all([
    import("../functions/data/episode-index.ts"),
    import("../functions/data/manifest-assets.ts"),
    import("../functions/node/file-assets.ts"),
    import("../functions/data/search.ts"),
    import("../src/generate/search-index.ts"),
    import("../src/shared/layout.ts"),
    import("../src/shared/search-tokens.ts"),
  ]);
  return { EpisodeIndex, ManifestAssetStore, DEFAULT_CACHE_BYTES, EpisodeSearch, SearchIndexBuilder, episodeFile, ...tokens };
}

function percentile(sorted: number[], q: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 100) / 100;
}

async function benchOne(n: number, transcriptBytes: number): Promise<SearchBenchFigures> {
  const { SearchIndexBuilder, episodeFile, searchDocOf } = await project();
  const dir = path.join(os.tmpdir(), `search-bench-${process.pid}-${n}`);
  rmSync(dir, { recursive: true, force: true });
  const gen = generator(transcriptBytes);
  const bar = progressBar(process.stderr, `index ${formatCount(n)}`, n, formatCount);

  // The episodes' built bodies on disk, as the build leaves them; the index is built from each in
  // turn, as the integration feeds it. Only the indexing is timed.
  const entries = Array.from({ length: n }, (_, i) => entryOf(i, n));
  const manifest: Record<string, string> = {};
  mkdirSync(path.join(dir, path.dirname(episodeFile("1", "json"))), { recursive: true });
  let indexMs = 0;
  const startCpu = process.cpuUsage();
  let generateCpu = 0;
  let builder: InstanceType<typeof SearchIndexBuilder> | null = new SearchIndexBuilder();
  for (let i = 0; i < n; i++) {
    bar.update(i);
    const g = process.cpuUsage();
    const e = gen(i);
    const entry = entries[i]!;
    const resource = { id: entry.id, title: e.title, summary: e.summary, description: e.description, topics: e.topics, publishedAt: new Date(entry.p).toISOString(), links: {} };
    for (const [part, body] of [["json", JSON.stringify(resource)], ["transcript", e.transcript]] as const) {
      writeFileSync(path.join(dir, episodeFile(entry.ref, part)), body);
      manifest[episodeFile(entry.ref, part)] = `"${entry.ref}.${part}"`;
    }
    const used = process.cpuUsage(g);
    generateCpu += used.user + used.system;
    const t = performance.now();
    builder.add(searchDocOf(resource, e.transcript));
    indexMs += performance.now() - t;
  }
  bar.done();
  const buildRssMb = mb(process.memoryUsage().rss);
  let bytes = 0;
  let largest = 0;
  let files = 0;
  const t = performance.now();
  for (const [rel, body] of builder.files()) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), body);
    manifest[rel] = `"${rel}"`;
    const size = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
    bytes += size;
    files++;
    if (rel.includes("shard-")) largest = Math.max(largest, size);
  }
  indexMs += performance.now() - t;
  const buildSeconds = Math.round(indexMs / 100) / 10;
  const buildCpu = process.cpuUsage(startCpu);
  const buildCpuSeconds = Math.round((buildCpu.user + buildCpu.system - generateCpu) / 100_000) / 10;
  builder = null;
  writeFileSync(path.join(dir, MANIFEST), JSON.stringify(manifest));
  // The query side in a process of its own, so its RSS is the shim's, not the build's.
  // Its progress and errors go straight to this process's stderr.
  const profile = process.env.SEARCH_BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.SEARCH_BENCH_PROFILE}`] : [];
  const phaseArgs = ["--query-phase", dir, "--sizes", String(n), "--transcript-kb", String(transcriptBytes / 1024)];
  const child = spawnSync(process.execPath, ["--expose-gc", ...profile, import.meta.filename, ...phaseArgs], { encoding: "utf8", maxBuffer: 1 << 24, stdio: ["ignore", "pipe", "inherit"] });
  rmSync(dir, { recursive: true, force: true });
  if (child.status !== 0) throw new Error(`the query phase exited with ${child.status ?? child.signal}`);
  const query = JSON.parse(child.stdout.trim().split("\n").pop()!) as QueryFigures;
  return { episodes: n, buildSeconds, buildCpuSeconds, buildRssMb, files, indexMb: mb(bytes), largestShardMb: mb(largest), ...query };
}

type QueryFigures = Pick<SearchBenchFigures, "queryP50Ms" | "queryP95Ms" | "queryCpuP50Ms" | "phraseFirst" | "queryRssMb" | "queryLiveMb">;

/** 200 queries over a built index in `dir`, through the asset store, as the Node entry reads files. */
async function queryPhase(dir: string, n: number, transcriptBytes: number): Promise<QueryFigures> {
  const { EpisodeIndex, ManifestAssetStore, DEFAULT_CACHE_BYTES, EpisodeSearch, foldText, phrasePattern, tokenize } = await project();
  const gen = generator(transcriptBytes);
  const bar = progressBar(process.stderr, "queries", QUERIES, formatCount);
  const entries = Array.from({ length: n }, (_, i) => entryOf(i, n));
  const manifest = JSON.parse(readFileSync(path.join(dir, MANIFEST), "utf8")) as Record<string, string>;
  const index = new EpisodeIndex({ version: 1, show: { slug: "bench", title: "Bench" }, termsUrl: "", baseUrl: "", siteUrl: "", episodes: entries });
  const byRef = new Map(entries.map((e, i) => [e.ref, i]));
  const read = async (rel: string): Promise<Uint8Array | null> => new Uint8Array(readFileSync(path.join(dir, rel)));
  const search = new EpisodeSearch(new ManifestAssetStore(manifest, read, DEFAULT_CACHE_BYTES), index);
  const r = prng(42);
  const draw = zipf(vocabulary());
  const times: number[] = [];
  const cpuTimes: number[] = [];
  let phrases = 0;
  let phraseHits = 0;
  const now = T0 + (n + 1) * 3_600_000;
  for (let q = 0; q < QUERIES; q++) {
    bar.update(q);
    let query: string;
    let want = -1;
    if (q % 4 === 3) {
      // A phrase from a random transcript: 4 consecutive words of one line.
      want = Math.floor(r() * n);
      const line = gen(want).transcript.split("\n")[1 + Math.floor(r() * 5)]!.split(": ")[1]!.split(" ");
      const at = Math.floor(r() * (line.length - 4));
      query = line.slice(at, at + 4).join(" ").replace(/\.$/, "");
    } else query = Array.from({ length: 1 + (q % 3) }, () => draw(r)).join(" ");
    const t = performance.now();
    const cpu = process.cpuUsage();
    const results = await search.search(query, 10, now);
    times.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    cpuTimes.push((used.user + used.system) / 1000);
    if (want >= 0) {
      // The phrase may occur in other transcripts too: the first result must hold it.
      phrases++;
      const top = results[0] === undefined ? null : gen(byRef.get(results[0].ref)!);
      if (top !== null && phrasePattern(tokenize(query)).test(foldText(top.transcript))) phraseHits++;
      else if (process.env.SEARCH_BENCH_DEBUG) {
        const all = await search.search(query, 1000, now);
        console.error(JSON.stringify({ query, want: entries[want]!.ref, inText: phrasePattern(tokenize(query)).test(foldText(gen(want).transcript)), rank: all.findIndex((x) => x.ref === entries[want]!.ref), of: all.length }));
      }
    }
  }
  bar.done();
  times.sort((a, b) => a - b);
  cpuTimes.sort((a, b) => a - b);
  (globalThis as { gc?: () => void }).gc?.();
  const memory = process.memoryUsage();
  return {
    queryP50Ms: percentile(times, 0.5),
    queryP95Ms: percentile(times, 0.95),
    queryCpuP50Ms: percentile(cpuTimes, 0.5),
    phraseFirst: `${phraseHits}/${phrases}`,
    queryRssMb: mb(memory.rss),
    queryLiveMb: mb(memory.heapUsed + memory.external),
  };
}

/** Figures for each size, smallest first; sizes run in one process, so run big sizes alone for their RSS. */
export async function searchBench(sizes: number[], transcriptKb = 20): Promise<SearchBenchFigures[]> {
  const out: SearchBenchFigures[] = [];
  for (const n of sizes) out.push(await benchOne(n, transcriptKb * 1024));
  return out;
}

if (isMain(import.meta)) {
  const { values } = SEARCH_BENCH.parse();
  const phaseDir = values["query-phase"];
  const transcriptKb = values["transcript-kb"];
  if (phaseDir !== undefined && values.sizes.length !== 1) SEARCH_BENCH.fail("--query-phase takes one size");
  void SEARCH_BENCH.run(async () => {
    if (phaseDir !== undefined) console.log(JSON.stringify(await queryPhase(phaseDir, values.sizes[0]!, transcriptKb * 1024)));
    else for (const f of await searchBench(values.sizes.sort((a, b) => a - b), transcriptKb)) console.log(JSON.stringify(f));
  });
}
