// Test fixtures: a content folder written by the test, built by the real build (astro build in a
// child process, as `npm run build` does), and served by the real Node server on a loopback port.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { randomUUID } from "node:crypto";
import { startServer, type RunningServer, type ServeOptions } from "../../functions/node/main.ts";

const run = promisify(execFile);
export const ROOT = path.resolve(import.meta.dirname, "../..");
const TMP = path.join(ROOT, "tests/.tmp");

export interface EpisodeSpec {
  /** Folder name under episodes/. */
  folder?: string;
  episode: Record<string, unknown>;
  /** Object → script.json as JSON; string → written verbatim (to test unparseable scripts). */
  script?: unknown;
  /** Bytes of audio.mp3 in the folder. */
  audio?: Uint8Array;
}

export const PODCAST = {
  title: "Fixture Show",
  slug: "fixture-show",
  description: "A show made by the tests.",
  language: "en",
  author: "Test Suite",
};

export const HOSTS = { a: "Ada Optimist", b: "Bo Skeptic" };

let counter = 0;

/** A valid episode.json with overridable members. */
export function episode(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter++;
  return {
    id: randomUUID(),
    episodeNumber: counter,
    title: `Episode ${counter}`,
    summary: `Summary ${counter}`,
    publishedAt: new Date(Date.UTC(2026, 0, 1) + counter * 86_400_000).toISOString(),
    hosts: HOSTS,
    kind: { type: "normal" },
    topics: { domains: ["general"], concepts: [], entities: [] },
    ...overrides,
  };
}

export function script(lines: [speaker: string, text: string][] = [["a", "Hello."], ["b", "Hi."]]) {
  return {
    chapters: [{ title: "Only chapter", summary: "All of it.", takeaways: ["One"] }],
    segments: lines.map(([speaker, text]) => ({ speaker, text })),
  };
}

/** script() with times: each line two seconds, one after the other, and its chapter at the start. */
export function timedScript(lines?: [speaker: string, text: string][]) {
  const plain = script(lines);
  return {
    chapters: plain.chapters.map((c) => ({ ...c, start: 0 })),
    segments: plain.segments.map((s, i) => ({ ...s, start: 2 * i, end: 2 * i + 2 })),
  };
}

export async function tempDir(prefix: string): Promise<string> {
  await mkdir(TMP, { recursive: true });
  return mkdtemp(path.join(TMP, `${prefix}-`));
}

export async function writeContent(dir: string, episodes: EpisodeSpec[], podcast: Record<string, unknown> = PODCAST): Promise<void> {
  await mkdir(path.join(dir, "episodes"), { recursive: true });
  await writeFile(path.join(dir, "podcast.json"), JSON.stringify(podcast, null, 2));
  for (const [i, spec] of episodes.entries()) {
    const folder = path.join(dir, "episodes", spec.folder ?? `ep-${String(i).padStart(5, "0")}`);
    await mkdir(folder, { recursive: true });
    const ep = { ...spec.episode };
    if (spec.audio) ep.audio = { file: "audio.mp3", ...(ep.audio as object | undefined) };
    await writeFile(path.join(folder, "episode.json"), JSON.stringify(ep, null, 2));
    if (spec.script !== undefined) {
      await writeFile(path.join(folder, "script.json"), typeof spec.script === "string" ? spec.script : JSON.stringify(spec.script));
    }
    if (spec.audio) await writeFile(path.join(folder, "audio.mp3"), spec.audio);
  }
}

export interface BuildResult {
  outDir: string;
  stdout: string;
  stderr: string;
}

/** Runs the real build on a content folder; rejects with the build's output when it fails. */
export async function build(contentDir: string, outDir: string, env: Record<string, string> = {}, args: string[] = []): Promise<BuildResult> {
  const astro = path.join(ROOT, "node_modules/astro/bin/astro.mjs");
  const { stdout, stderr } = await run(process.execPath, [astro, "build", "--outDir", outDir, ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      CONTENT_DIR: contentDir,
      ASTRO_TELEMETRY_DISABLED: "1",
      ASTRO_CACHE_DIR: path.join(outDir, "..", `.cache-${path.basename(outDir)}`),
      ...env,
    },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { outDir, stdout, stderr };
}

export interface Site {
  dir: string;
  contentDir: string;
  distDir: string;
  build: BuildResult;
}

/** Writes content, builds it, returns the folders. */
export async function makeSite(name: string, episodes: EpisodeSpec[], env: Record<string, string> = {}, podcast?: Record<string, unknown>): Promise<Site> {
  const dir = await tempDir(name);
  const contentDir = path.join(dir, "content");
  const distDir = path.join(dir, "dist");
  await writeContent(contentDir, episodes, podcast);
  const result = await build(contentDir, distDir, env);
  return { dir, contentDir, distDir, build: result };
}

/** Builds the repository's own demo content (./content) into a temporary folder. */
export async function demoSite(name: string): Promise<Site> {
  const dir = await tempDir(name);
  const contentDir = path.join(ROOT, "content");
  const distDir = path.join(dir, "dist");
  return { dir, contentDir, distDir, build: await build(contentDir, distDir) };
}

export async function serveSite(site: Site, opts: Omit<ServeOptions, "distDir"> = {}): Promise<RunningServer> {
  // SHIM_TARGET=edge (vitest's "edge" project): the same site through the Workers entry on workerd.
  if (process.env.SHIM_TARGET === "edge") return (await import("./edge.ts")).serveEdgeSite(site.distDir, opts);
  return startServer({ distDir: site.distDir, env: {}, ...opts });
}

export async function removeSite(site: Site | undefined): Promise<void> {
  if (site) await rm(site.dir, { recursive: true, force: true });
}

/** A settable clock for the publication schedule. */
export function clock(start: number) {
  let t = start;
  return { now: () => t, set: (v: number) => void (t = v), advance: (ms: number) => void (t += ms) };
}
