// The builds: synthetic content (scripts/synthetic-content.ts, seed 1) reused while its parameters
// are the same, a clean build of it timed with its phases read off its stamped log, and beside it
// `cp -r` of the same dist/ (the cost of writing those files at all). Each build leaves a record
// (build.json) by which a later run measures it without building again.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { writeSyntheticContent } from "../synthetic-content.ts";
import { astro, dirOf, EPISODE_FILE, NODE, OUT, ROOT, round, timed, type TimedFigures } from "./common.ts";
import { PHASE_LINE, TIMINGS_VARIABLE } from "../../src/generate/build-timings.ts";

/** Disk a build needs per episode, content and dist/ with its compressed variants, when no smaller build says better. */
const BYTES_PER_EPISODE_GUESS = 80_000;

/**
 * When each phase of the build ended, in seconds since the command started, from its stamped log:
 * prepare (content read, API bodies written: src/generate/prepare-build.ts), Astro's rendering of the pages,
 * then the astro:build:done hook's steps (src/generate/integration.ts).
 */
export function buildPhases(output: string): Record<string, number | null> {
  const lines = output.split("\n");
  const index = (re: RegExp, from = 0) => lines.findIndex((l, i) => i >= from && re.test(l));
  const at = (re: RegExp, from = 0) => {
    const i = index(re, from);
    const m = i >= 0 ? /^\[\s*([\d.]+)s\]/.exec(lines[i]!) : null;
    return m ? Number(m[1]) : null;
  };
  const pages = index(/generating static routes/);
  return {
    prepared: at(/(clean|incremental) build: \d+/),
    pagesStarted: at(/generating static routes/),
    // Astro's "✓ Completed in" of its page generation (an earlier one closes "Collecting build info").
    pagesDone: pages < 0 ? null : at(/Completed in/, pages),
    searchIndex: at(/search index: \d+ files/),
    compressed: at(/compressed \d+ files/),
    manifest: at(/files with ETags/),
    counted: at(/files to upload/),
  };
}

/** A phase as the build reports it with BUILD_TIMINGS=1 (src/generate/build-timings.ts); cpuMs null for a part of the phase before it. */
export interface ReportedPhase {
  name: string;
  wallMs: number;
  cpuMs: number | null;
}

/** The phases the build printed (BUILD_TIMINGS=1), in order. */
export function reportedPhases(output: string): ReportedPhase[] {
  const phases: ReportedPhase[] = [];
  for (const m of output.matchAll(new RegExp(`${PHASE_LINE} (.+?): (\\d+) ms wall(?:, (\\d+) ms CPU)?$`, "gm"))) {
    phases.push({ name: m[1]!.trim().replace(/^of which /, ""), wallMs: Number(m[2]), cpuMs: m[3] === undefined ? null : Number(m[3]) });
  }
  return phases;
}

/** The durations between the phases' ends: where a build's time goes. */
export function phaseDurations(phases: Record<string, number | null>, wall: number): Record<string, number | null> {
  const d = (from: number | null, to: number | null) => (from !== null && to !== null ? round(to - from, 2) : null);
  return {
    "start + prepare": phases.prepared ?? null,
    "Astro before pages": d(phases.prepared ?? null, phases.pagesStarted ?? null),
    pages: d(phases.pagesStarted ?? null, phases.pagesDone ?? null),
    "search index": d(phases.pagesDone ?? null, phases.searchIndex ?? null),
    compress: d(phases.searchIndex ?? null, phases.compressed ?? null),
    manifest: d(phases.compressed ?? null, phases.manifest ?? null),
    "count + exit": d(phases.manifest ?? null, wall),
  };
}

// ---------------------------------------------------------------------------------------------
// Content and the clean build

interface ContentParams {
  episodes: number;
  seed: number;
  segments: number;
}

export const paramsFile = (size: number) => path.join(dirOf(size), "content-params.json");

function contentMatches(size: number, want: ContentParams): boolean {
  try {
    const have = JSON.parse(readFileSync(paramsFile(size), "utf8")) as ContentParams;
    return have.episodes === want.episodes && have.seed === want.seed && have.segments === want.segments && existsSync(path.join(dirOf(size), "content/episodes"));
  } catch {
    return false;
  }
}

export interface BuildFigures extends TimedFigures {
  episodes: number;
  segments: number;
  /** Seconds to write the synthetic content, or null when the same content was reused. */
  generateSeconds: number | null;
  contentMb: number | null;
  phases: Record<string, number | null>;
  files: number | null;
  distMb: number | null;
  /** `cp -r` of the built dist/ on the same disk: the cost of writing those files at all. */
  copySeconds: number | null;
  log: string;
  /** When the build ran, and at which commit (a build of an earlier run is reused for HTTP figures). */
  at: string;
  commit: string;
}

function duSize(named: string): { files: number | null; mb: number | null } {
  // The folder itself when `named` is a link (dist names its live build: docs/architecture.md#the-build).
  const dir = realpathSync(named);
  const du = spawnSync("du", ["-sb", dir], { encoding: "utf8" });
  const count = spawnSync("sh", ["-c", `find "${dir}" -type f | wc -l`], { encoding: "utf8" });
  return {
    mb: du.status === 0 ? round(Number(du.stdout.split(/\s/)[0]) / 1e6) : null,
    files: count.status === 0 ? Number(count.stdout.trim()) : null,
  };
}

export function buildEnv(size: number, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const dir = dirOf(size);
  // Sizes past ~3,000 episodes exceed the free plan's files per deploy, which the build refuses by
  // default (src/generate/file-budget.ts); the bench measures the build, not a deploy.
  return {
    ...process.env,
    CONTENT_DIR: path.join(dir, "content"),
    ASTRO_TELEMETRY_DISABLED: "1",
    ASTRO_CACHE_DIR: path.join(dir, ".astro-cache"),
    ASSET_FILE_LIMIT: process.env.ASSET_FILE_LIMIT ?? "10000000",
    // The build prints its phases' wall and CPU time (src/generate/build-timings.ts).
    [TIMINGS_VARIABLE]: "1",
    ...extra,
  };
}

/** Free disk under bench/.out against what a build of `size` needs (from the largest smaller build, else a guess). */
export function diskCheck(size: number): { freeGb: number; needGb: number; ok: boolean } {
  const fs = statfsSync(OUT);
  const freeGb = round((fs.bavail * fs.bsize) / 1e9);
  let perEpisode = BYTES_PER_EPISODE_GUESS;
  const known = readdirSync(OUT)
    .map((d) => /^n(\d+)$/.exec(d)?.[1])
    .filter((d): d is string => d !== undefined)
    .map(Number)
    .filter((n) => n < size && n >= 1000)
    .sort((a, b) => b - a);
  for (const n of known) {
    const b = readBuildRecord(n);
    if (b?.distMb && b.contentMb) {
      perEpisode = ((b.distMb + b.contentMb) * 1e6) / n;
      break;
    }
  }
  // Room for a second dist/ beside the first: the `cp -r` anchor.
  const needGb = round((size * perEpisode * 1.6) / 1e9);
  return { freeGb, needGb, ok: freeGb > needGb };
}

const recordFile = (size: number) => path.join(dirOf(size), "build.json");

export function readBuildRecord(size: number): BuildFigures | null {
  try {
    return JSON.parse(readFileSync(recordFile(size), "utf8")) as BuildFigures;
  } catch {
    return null;
  }
}

export async function buildClean(size: number, segments: number, commit: string): Promise<BuildFigures> {
  const dir = dirOf(size);
  const content = path.join(dir, "content");
  const dist = path.join(dir, "dist");
  const want: ContentParams = { episodes: size, seed: 1, segments };
  let generateSeconds: number | null = null;
  if (!contentMatches(size, want)) {
    rmSync(paramsFile(size), { force: true });
    console.log(`  writing ${size} synthetic episodes (seed 1, ~${segments} segments per script): node scripts/synthetic-content.ts ${path.relative(ROOT, content)} ${size} --segments ${segments}`);
    const g0 = performance.now();
    writeSyntheticContent(content, size, { seed: 1, segments });
    generateSeconds = round((performance.now() - g0) / 1000);
    writeFileSync(paramsFile(size), JSON.stringify(want));
  }
  const contentMb = duSize(content).mb;
  rmSync(recordFile(size), { force: true });
  // The last dist/ is moved aside and deleted after the build and its copy: deleted before, its
  // inodes would be freed seconds before the build allocates as many, which this machine's ext4 makes
  // slow (docs/performance.md#the-disk-freed-inodes-slow-file-creation).
  // dist is a link to its build, beside the folder of builds: both go.
  const old = `${dist}-old-${process.pid}`;
  if (existsSync(dist)) renameSync(dist, old);
  if (existsSync(`${dist}.builds`)) renameSync(`${dist}.builds`, `${old}.builds`);
  rmSync(path.join(dir, ".astro-cache"), { recursive: true, force: true });
  console.log(`  clean build of ${size}: BUILD_CLEAN=1 CONTENT_DIR=${path.relative(ROOT, content)} node node_modules/astro/bin/astro.mjs build --outDir ${path.relative(ROOT, dist)}`);
  const t = await timed([NODE, astro(), "build", "--outDir", dist], buildEnv(size, { BUILD_CLEAN: "1" }), path.join(dir, "build.log"));
  const { output, ...figures } = t;
  const { files, mb } = t.ok ? duSize(dist) : { files: null, mb: null };
  let copySeconds: number | null = null;
  if (t.ok) {
    const copy = path.join(dir, "dist-copy");
    rmSync(copy, { recursive: true, force: true });
    const c0 = performance.now();
    const cp = spawnSync("cp", ["-r", realpathSync(dist), copy]);
    copySeconds = cp.status === 0 ? round((performance.now() - c0) / 1000, 2) : null;
    rmSync(copy, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
  rmSync(`${old}.builds`, { recursive: true, force: true });
  const record: BuildFigures = {
    episodes: size,
    segments,
    generateSeconds,
    contentMb,
    ...figures,
    phases: phaseDurations(buildPhases(output), t.wallSeconds),
    files,
    distMb: mb,
    copySeconds,
    log: path.relative(ROOT, path.join(dir, "build.log")),
    at: new Date().toISOString(),
    commit,
  };
  if (t.ok) writeFileSync(recordFile(size), JSON.stringify(record, null, 2));
  return record;
}

/** Sizes with a finished build of this content (a build record, a dist/ with its index). */
export function builtSizes(segments: number): number[] {
  if (!existsSync(OUT)) return [];
  return readdirSync(OUT)
    .map((d) => Number(/^n(\d+)$/.exec(d)?.[1] ?? NaN))
    .filter((n) => Number.isInteger(n) && readBuildRecord(n)?.segments === segments && existsSync(path.join(dirOf(n), "dist", EPISODE_FILE)))
    .sort((a, b) => a - b);
}
