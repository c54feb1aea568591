// Synthetic content for benchmarks and load tests: `npm run synthetic -- <outDir> <N>` writes a content folder in the format of README.md#content-format (podcast.json, episodes/<folder>/{episode.json,
// script.json}, no audio) with N episodes of realistic size: ~12 segments (--segments) and 2 chapters each, 1–2 of
// 8 domains with a skewed spread, ~1% drafts, a few scheduled far in the future, a few without a
// number. Everything comes from a seeded PRNG, so the same arguments always give the same bytes.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { formatCount, progressBar, type ProgressOutput } from "../src/publish/progress.ts";
import { argPath, command, isMain } from "./cli.ts";

export const SYNTHETIC = command({
  name: "synthetic-content",
  usage: ["npm run synthetic -- <outDir> <N> [options]", "node scripts/synthetic-content.ts <outDir> <N> [options]"],
  about: `Writes a content folder of N synthetic episodes (README.md#content-format), the same bytes for the
same arguments. It replaces <outDir> only when this script wrote it.`,
  positionals: [
    { name: "outDir", help: "the content folder to write" },
    { name: "N", help: "how many episodes (at least 1)" },
  ],
  options: {
    seed: { type: "integer", value: "S", default: 1, help: "the PRNG's seed" },
    segments: { type: "integer", min: 3, default: 12, help: "spoken segments per script on average; 12 make ~6 KB of script.json" },
  },
  examples: ["npm run synthetic -- /tmp/show 10000 --seed 7"],
});

const MARKER = ".synthetic";

/** mulberry32: small, fast, good enough for test data. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const pick = <T>(r: Rand, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;
const int = (r: Rand, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

function uuidV4(r: Rand): string {
  const bytes = Array.from({ length: 16 }, () => Math.floor(r() * 256));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Domains with weights: a few big beats and a long tail, as a real show has. */
const DOMAINS: [string, number][] = [
  ["ai", 30],
  ["security", 20],
  ["open-source", 14],
  ["hardware", 11],
  ["policy", 9],
  ["science", 7],
  ["energy", 5],
  ["space", 4],
];
const DOMAIN_TOTAL = DOMAINS.reduce((s, [, w]) => s + w, 0);

function weightedDomain(r: Rand): string {
  let x = r() * DOMAIN_TOTAL;
  for (const [d, w] of DOMAINS) if ((x -= w) < 0) return d;
  return DOMAINS[0]![0];
}

const SUBJECTS = ["the new model", "the patch", "the chip", "the regulator", "the maintainers", "the startup", "the standard", "the benchmark", "the data center", "the browser vendor", "the telescope team", "the grid operator", "the bill", "the open weights release", "the vulnerability"];
const VERBS = ["changes", "complicates", "speeds up", "quietly breaks", "finally fixes", "raises questions about", "puts pressure on", "rewrites", "exposes", "simplifies"];
const OBJECTS = ["how updates ship", "the cost of inference", "supply chains", "battery life", "who pays for compute", "the threat model", "developer workflows", "privacy defaults", "the road map", "energy use at night", "the release process", "trust in the results"];
const FILLERS = ["Honestly,", "To be fair,", "Here's the thing:", "Look,", "In practice,", "On paper,", "If you read the fine print,", "For listeners who just joined,"];
const DIRECTIONS = ["[laughs]", "[pause]", "*sighs*", "[papers rustle]", "*chuckles*"];
const CONCEPTS = ["inference", "supply-chain", "passkeys", "benchmarks", "open-weights", "firmware", "regulation", "energy-use", "memory-safety", "on-device", "provenance", "latency", "licensing", "telemetry"];
const ENTITIES = ["acme-labs", "openbench", "the-eu", "nist", "riscv-international", "linux-foundation", "w3c", "esa", "grid-co", "chipworks"];
const TITLE_HEADS = ["Why", "How", "What", "When", "Inside", "The week", "Who pays when", "Should we trust"];
const KINDS: [string, number][] = [["normal", 85], ["overview", 8], ["announcement", 5], ["model-behavior", 2]];

function sentence(r: Rand): string {
  const s = `${pick(r, SUBJECTS)} ${pick(r, VERBS)} ${pick(r, OBJECTS)}`;
  const tail = r() < 0.5 ? `, and that matters for ${pick(r, OBJECTS)}` : r() < 0.5 ? ` more than the headline suggests` : "";
  const text = `${r() < 0.3 ? `${pick(r, FILLERS)} ` : ""}${s}${tail}.`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function segmentText(r: Rand): string {
  const parts: string[] = [];
  const n = int(r, 2, 4);
  for (let i = 0; i < n; i++) {
    parts.push(sentence(r));
    if (r() < 0.08) parts.push(pick(r, DIRECTIONS));
  }
  return parts.join(" ");
}

function titleOf(r: Rand): string {
  const words = `${pick(r, TITLE_HEADS)} ${pick(r, SUBJECTS)} ${pick(r, VERBS)} ${pick(r, OBJECTS)}`;
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function slugOf(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 50).replace(/-+$/, "");
}

function weighted(r: Rand, table: [string, number][]): string {
  const total = table.reduce((s, [, w]) => s + w, 0);
  let x = r() * total;
  for (const [v, w] of table) if ((x -= w) < 0) return v;
  return table[0]![0];
}

export interface SyntheticOptions {
  seed?: number;
  /** Spoken segments per script, on average (12 ≈ 6 KB of script.json; 40 ≈ 20 KB). */
  segments?: number;
  /** Where to show the progress (stderr for a person); none by default. */
  progress?: ProgressOutput;
}

export interface SyntheticSummary {
  episodes: number;
  drafts: number;
  scheduled: number;
  unnumbered: number;
  domains: Record<string, number>;
}

const HOSTS = { a: "Maya Chen", b: "Theo Park" };
/** Published episodes spread from here, several a day; scheduled ones go to 2099 (always in the future). */
const START = Date.UTC(2019, 0, 1, 6);
const FUTURE = Date.UTC(2099, 0, 1, 6);
const HOUR = 3_600_000;

export function writeSyntheticContent(outDir: string, count: number, options: SyntheticOptions = {}): SyntheticSummary {
  const r = prng(options.seed ?? 1);
  if (existsSync(outDir) && readdirSync(outDir).length > 0) {
    if (!existsSync(path.join(outDir, MARKER))) throw new Error(`${outDir} exists and was not written by this script; refusing to replace it`);
    rmSync(outDir, { recursive: true, force: true });
  }
  mkdirSync(path.join(outDir, "episodes"), { recursive: true });
  writeFileSync(path.join(outDir, MARKER), "written by scripts/synthetic-content.ts; safe to delete\n");
  writeFileSync(
    path.join(outDir, "podcast.json"),
    JSON.stringify(
      {
        title: "Synthetic Signal",
        slug: "synthetic-signal",
        description: "Generated content for benchmarks: a daily technology show with two AI hosts.",
        language: "en",
        author: "Benchmark Studio",
      },
      null,
      2,
    ),
  );

  // A few scheduled (in the future) and ~1% drafts, chosen by the PRNG; the rest publish in order.
  const scheduledCount = Math.max(1, Math.min(5, Math.round(count / 2000)));
  const summary: SyntheticSummary = { episodes: count, drafts: 0, scheduled: 0, unnumbered: 0, domains: {} };
  let number = 0;
  let t = START;
  const bar = options.progress ? progressBar(options.progress, "episodes", count, formatCount) : null;
  for (let i = 0; i < count; i++) {
    bar?.update(i);
    const draft = r() < 0.01;
    const scheduled = !draft && i >= count - scheduledCount;
    const bonus = !draft && !scheduled && r() < 0.005; // published without a number
    // Several a day; sometimes two at the same instant (ties in the order).
    if (r() >= 0.03) t += int(r, 2, 10) * HOUR;
    const publishedAt = draft ? (r() < 0.5 ? null : new Date(t).toISOString()) : new Date(scheduled ? FUTURE + i * HOUR : t).toISOString();
    const discoveredAt = new Date((scheduled ? FUTURE + i * HOUR : t) - int(r, 1, 72) * HOUR).toISOString();
    const episodeNumber = draft || bonus ? null : ++number;
    if (draft) summary.drafts++;
    if (scheduled) summary.scheduled++;
    if (!draft && episodeNumber === null) summary.unnumbered++;

    const domains = [weightedDomain(r)];
    if (r() < 0.35) {
      const second = weightedDomain(r);
      if (second !== domains[0]) domains.push(second);
    }
    for (const d of domains) summary.domains[d] = (summary.domains[d] ?? 0) + 1;
    const title = titleOf(r);
    const id = uuidV4(r);
    const kind = weighted(r, KINDS);
    const episode = {
      id,
      episodeNumber,
      title,
      shareTitle: `${title} | Synthetic Signal`,
      summary: `${sentence(r)} ${sentence(r)}`,
      description: Array.from({ length: 4 }, () => sentence(r)).join(" "),
      status: draft ? "draft" : "published",
      publishedAt,
      discoveredAt,
      durationSeconds: int(r, 180, 900),
      sourceUrl: `https://example.com/news/${slugOf(title)}-${i}`,
      hosts: HOSTS,
      archetype: pick(r, ["explainer", "debate", "news-brief", "deep-dive"]),
      kind: { type: kind, ...(r() < 0.5 ? { sourceForm: pick(r, ["article", "paper", "press-release", "thread"]) } : {}) },
      topics: {
        domains,
        concepts: Array.from(new Set(Array.from({ length: int(r, 2, 4) }, () => pick(r, CONCEPTS)))),
        entities: Array.from(new Set(Array.from({ length: int(r, 1, 3) }, () => pick(r, ENTITIES)))),
      },
    };
    const chapters = [0, 1].map((c) => ({
      title: c === 0 ? "What happened" : "Why it matters",
      summary: sentence(r),
      takeaways: Array.from({ length: int(r, 2, 3) }, () => sentence(r)),
    }));
    const meanSegments = options.segments ?? 12;
    const segments = Array.from({ length: int(r, meanSegments - 2, meanSegments + 2) }, (_, k) => ({ speaker: k % 2 === 0 ? "a" : "b", text: segmentText(r) }));

    const folder = path.join(outDir, "episodes", `${String(i + 1).padStart(6, "0")}-${slugOf(title)}`);
    mkdirSync(folder);
    writeFileSync(path.join(folder, "episode.json"), JSON.stringify(episode, null, 2));
    writeFileSync(path.join(folder, "script.json"), JSON.stringify({ chapters, segments }, null, 2));
  }
  bar?.done();
  return summary;
}

if (isMain(import.meta)) {
  const { values, positionals } = SYNTHETIC.parse();
  const [outDir, n] = positionals as [string, string];
  const count = /^\d+$/.test(n) ? Number(n) : NaN;
  if (!(count >= 1)) SYNTHETIC.fail(`<N> must be a whole number of at least 1, got '${n}'`);
  const started = performance.now();
  let summary: SyntheticSummary;
  try {
    summary = writeSyntheticContent(argPath(outDir, outDir), count, { ...values, progress: process.stderr });
  } catch (e) {
    console.error(`synthetic-content: ${(e as Error).message}`);
    process.exit(1);
  }
  const ms = Math.round(performance.now() - started);
  console.log(
    `wrote ${summary.episodes} episodes to ${outDir} in ${ms} ms (${summary.drafts} drafts, ${summary.scheduled} scheduled, ${summary.unnumbered} without a number; domains ${JSON.stringify(summary.domains)})`,
  );
}
