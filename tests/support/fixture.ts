// Test fixtures: a content folder written by the test, built by the real build (Astro's build with
// the project's integration; docs/testing.md says where it runs), and served by the real Node server
// on a loopback port.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
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

/** Episode numbers start again at 1: each test file's fixtures are the same whatever ran before it in its process. */
export function resetFixtureCounter(): void {
  counter = 0;
}

/**
 * The n-th fixture UUID (version 4 layout): random-looking, but the same in every process, so a
 * suite writes the same content wherever it runs and its site can be shared (`sharedSite`).
 */
export function fixtureId(n: number | string): string {
  const h = createHash("sha256").update(`fixture-episode-${n}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${"89ab"[parseInt(h[16]!, 16) % 4]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A valid episode.json with overridable members. */
export function episode(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter++;
  return {
    id: fixtureId(counter),
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

/** The build's variables for a content folder and an output folder, over `env`. */
function buildEnv(contentDir: string, outDir: string, env: Record<string, string>): Record<string, string> {
  return {
    CONTENT_DIR: contentDir,
    ASTRO_TELEMETRY_DISABLED: "1",
    // A cache of its own per output folder, so builds never collide (astro.config.mjs).
    ASTRO_CACHE_DIR: path.join(outDir, "..", `.cache-${path.basename(outDir)}`),
    ...env,
  };
}

/**
 * `astro build` in a child process, as `npm run build` runs it; rejects with the build's output
 * when it fails. The tests of the build itself use it: what the command does is their subject.
 */
export async function build(contentDir: string, outDir: string, env: Record<string, string> = {}, args: string[] = []): Promise<BuildResult> {
  const astro = path.join(ROOT, "node_modules/astro/bin/astro.mjs");
  const { stdout, stderr } = await run(process.execPath, [astro, "build", "--outDir", outDir, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...buildEnv(contentDir, outDir, env) },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { outDir, stdout, stderr };
}

/** What the run's global setup provides (tests/support/global-setup.ts); null outside a vitest run. */
async function provided(key: "buildService" | "sharedSites"): Promise<string | null> {
  if (!process.env.VITEST) return null;
  const { inject } = await import("vitest");
  return inject(key) ?? null;
}

/**
 * The same build as `build`, made by the run's build service (tests/support/build-service.ts):
 * Astro's own build in a process that has loaded Astro already. Outside a vitest run, the command.
 */
export async function fixtureBuild(contentDir: string, outDir: string, env: Record<string, string> = {}): Promise<BuildResult> {
  const service = await provided("buildService");
  if (service === null) return build(contentDir, outDir, env);
  const { buildInService } = await import("./build-service.ts");
  return { outDir, ...(await buildInService(service, outDir, buildEnv(contentDir, outDir, env))) };
}

export interface Site {
  dir: string;
  contentDir: string;
  distDir: string;
  build: BuildResult;
  /** Built once per run for every suite that asks (`sharedSite`): read-only, never removed by a suite. */
  shared?: boolean;
}

/** Writes content, builds it, returns the folders: a site of the suite's own, which it may change. */
export async function makeSite(name: string, episodes: EpisodeSpec[], env: Record<string, string> = {}, podcast?: Record<string, unknown>): Promise<Site> {
  const dir = await tempDir(name);
  const contentDir = path.join(dir, "content");
  const distDir = path.join(dir, "dist");
  await writeContent(contentDir, episodes, podcast);
  const result = await fixtureBuild(contentDir, distDir, env);
  return { dir, contentDir, distDir, build: result };
}

/** The content as written to disk, audio by its digest: equal keys, equal sites. */
function siteKey(name: string, episodes: EpisodeSpec[], env: Record<string, string>, podcast: Record<string, unknown> | undefined): string {
  const digest = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
  const content = episodes.map((s) => ({ ...s, audio: s.audio === undefined ? undefined : digest(s.audio) }));
  const hash = createHash("sha256").update(JSON.stringify({ content, env, podcast })).digest("hex");
  return `${name}-${hash.slice(0, 16)}`;
}

async function readJson<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as T;
  } catch {
    return null;
  }
}

/** Writes a file whole or not at all, so a waiting process never reads half of it. */
async function writeWhole(file: string, value: unknown): Promise<void> {
  await writeFile(`${file}.tmp`, JSON.stringify(value));
  await rename(`${file}.tmp`, file);
}

/**
 * The site of this content (arguments as `makeSite`), built once per run: every suite that asks
 * for the same name and content, in either vitest project, gets the same folder. Read-only: a
 * suite that writes into its content or its build, or whose subject is a second build, uses
 * `makeSite` (or `copySite`). `removeSite` leaves it; the run's teardown removes it. Outside a
 * vitest run, `makeSite`.
 */
export async function sharedSite(name: string, episodes: EpisodeSpec[], env: Record<string, string> = {}, podcast?: Record<string, unknown>): Promise<Site> {
  const root = await provided("sharedSites");
  if (root === null) return makeSite(name, episodes, env, podcast);
  return builtOnce(path.join(root, siteKey(name, episodes, env, podcast)), name, async (site) => {
    await writeContent(site.contentDir, episodes, podcast);
    return fixtureBuild(site.contentDir, site.distDir, env);
  });
}

/**
 * The site in `dir`, made by `make` in the first process that asks; the others wait for its marker
 * file and get the same folder.
 */
async function builtOnce(dir: string, name: string, make: (site: Site) => Promise<BuildResult>, contentDir = path.join(dir, "content")): Promise<Site> {
  const site: Site = { dir, contentDir, distDir: path.join(dir, "dist"), build: { outDir: "", stdout: "", stderr: "" }, shared: true };
  const built = path.join(dir, "built.json");
  const failed = path.join(dir, "failed.json");
  const owner = await mkdir(dir).then(
    () => true,
    (e: NodeJS.ErrnoException) => {
      if (e.code === "EEXIST") return false;
      throw e;
    },
  );
  if (owner) {
    try {
      site.build = await make(site);
      await writeWhole(built, site.build);
      return site;
    } catch (e) {
      const error = e as { message?: string };
      await writeWhole(failed, { message: error.message ?? String(e) });
      throw e;
    }
  }
  for (;;) {
    const result = await readJson<BuildResult>(built);
    if (result !== null) return { ...site, build: result };
    const failure = await readJson<{ message: string }>(failed);
    if (failure !== null) throw new Error(`the shared site ${name} failed to build for another suite: ${failure.message}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A copy of a site of the suite's own, which it may change (a shared site is read-only). */
export async function copySite(site: Site, name: string): Promise<Site> {
  const dir = await tempDir(name);
  // dist is a relative link to its build (src/node/builds.ts): the copy's names the copy's build.
  await cp(site.dir, dir, { recursive: true, verbatimSymlinks: true });
  return { dir, contentDir: path.join(dir, "content"), distDir: path.join(dir, "dist"), build: site.build };
}

/** The repository's own demo content (./content), built once per run and shared read-only like `sharedSite`. */
export async function demoSite(): Promise<Site> {
  const contentDir = path.join(ROOT, "content");
  const root = await provided("sharedSites");
  if (root === null) {
    const dir = await tempDir("demo");
    const distDir = path.join(dir, "dist");
    return { dir, contentDir, distDir, build: await fixtureBuild(contentDir, distDir) };
  }
  return builtOnce(path.join(root, "demo"), "demo", (site) => fixtureBuild(contentDir, site.distDir), contentDir);
}

export async function serveSite(site: Site, opts: Omit<ServeOptions, "distDir"> = {}): Promise<RunningServer> {
  // SHIM_TARGET=edge (vitest's "edge" project): the same site through the Workers entry on workerd.
  if (process.env.SHIM_TARGET === "edge") return (await import("./edge.ts")).serveEdgeSite(site.distDir, opts);
  return startServer({ distDir: site.distDir, env: {}, ...opts });
}

export async function removeSite(site: Site | undefined): Promise<void> {
  if (site && !site.shared) await rm(site.dir, { recursive: true, force: true });
}

/** A settable clock for the publication schedule. */
export function clock(start: number) {
  let t = start;
  return { now: () => t, set: (v: number) => void (t = v), advance: (ms: number) => void (t += ms) };
}
