// Incremental: one episode folder added and built again; the one-episode publish (its dry run, then
// a local publish, which builds); the added folders removed and built once more, which leaves the
// clean build's dist/ for the HTTP figures.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildEnv, buildPhases, paramsFile, phaseDurations, reportedPhases, type ReportedPhase } from "./build.ts";
import { astro, codeDir, codeHash, dirOf, NODE, ROOT, timed, withoutOutput, type TimedFigures } from "./common.ts";

export interface IncrementalFigures {
  episodes: number;
  /** `astro build` after one episode folder was added; `changed` is what the build says it rebuilt. */
  addOne: (TimedFigures & { changed: string | null; phases: Record<string, number | null>; reported: ReportedPhase[] }) | null;
  /** `node scripts/publish.ts --dry-run <folder>` (validate, measure the MP3, no write). */
  publishDryRun: TimedFigures | null;
  /** `node scripts/publish.ts --out-dir <dist> <folder>` in local mode: write the folder, then `npm run build`. */
  publish: (TimedFigures & { cleanBuild: boolean }) | null;
  /** The added folders removed again, built once more: the clean build's dist/ again. */
  removeTwo: (TimedFigures & { changed: string | null }) | null;
  notes: string[];
}

function changedLine(output: string): string | null {
  return /incremental build: [^\n]*|clean build: [^\n]*/.exec(output)?.[0] ?? null;
}

/** A fresh random UUID v4 (the new episodes must not clash with the synthetic ones). */
const newId = () => crypto.randomUUID();

export async function incremental(size: number, segments: number): Promise<IncrementalFigures> {
  /** The build code's hash as the last build started: a build that starts with another one is clean. */
  let lastCode = codeHash();
  const dir = dirOf(size);
  const content = path.join(dir, "content");
  const episodes = path.join(content, "episodes");
  const dist = path.join(dir, "dist");
  const notes: string[] = [];
  const result: IncrementalFigures = { episodes: size, addOne: null, publishDryRun: null, publish: null, removeTwo: null, notes };
  const first = readdirSync(episodes).sort()[0]!;
  const addedFolders: string[] = [];
  const publishedFolders: string[] = [];
  const published = `${String(size + 2).padStart(6, "0")}-bench-published`;
  const sources = path.join(dir, "publish-source");
  rmSync(sources, { recursive: true, force: true });
  // The content is changed from here: a bench stopped midway writes it again next time.
  rmSync(paramsFile(size), { force: true });
  try {
    // 1. One episode folder more (a copy of the first, a new id, the next number, published a minute ago), built again.
    // The build is clean instead when its key changed (src/ edited meanwhile: docs/architecture.md#the-build);
    // then the same is measured once more, over the build that just ran.
    const episode = JSON.parse(readFileSync(path.join(episodes, first, "episode.json"), "utf8")) as Record<string, unknown>;
    const now = new Date(Date.now() - 60_000).toISOString();
    for (let attempt = 1; attempt <= 2; attempt++) {
      const folder = path.join(episodes, `${String(size + 1).padStart(6, "0")}-bench-added${attempt === 1 ? "" : `-${attempt}`}`);
      mkdirSync(folder);
      const id = newId();
      writeFileSync(path.join(folder, "episode.json"), JSON.stringify({ ...episode, id, episodeNumber: size + 2 + attempt, title: "Bench: one episode added", status: "published", publishedAt: now, discoveredAt: now }, null, 2));
      cpSync(path.join(episodes, first, "script.json"), path.join(folder, "script.json"));
      addedFolders.push(folder);
      console.log(`  incremental (${size}): added ${path.relative(ROOT, folder)}, then node node_modules/astro/bin/astro.mjs build --outDir ${path.relative(ROOT, dist)}`);
      const log = path.join(dir, `build-add-one${attempt === 1 ? "" : `-${attempt}`}.log`);
      lastCode = codeHash();
      const t = await timed([NODE, astro(), "build", "--outDir", dist], buildEnv(size), log);
      result.addOne = { ...withoutOutput(t), changed: changedLine(t.output), phases: phaseDurations(buildPhases(t.output), t.wallSeconds), reported: reportedPhases(t.output) };
      if (!t.ok) notes.push(`incremental build failed: see ${path.relative(ROOT, log)}`);
      if (!t.ok || !/^clean build/.test(result.addOne.changed ?? "")) break;
      notes.push(`the +1 build ${attempt} was clean (its key changed: the build code was edited meanwhile)${attempt === 1 ? "; measured again" : ""}`);
    }

    // 2. The one-episode publish of a folder with an MP3 (local mode: the MP3 is copied to dist/media).
    // Its build's log (scripts/build.ts) is not read: whether it was clean is told by the build
    // code's hash, taken as the builds start (the build's key includes it); a clean one is measured once more.
    const { episodeNumber: _n, audio: _a, durationSeconds: _d, ...rest } = episode;
    const publishEnv = buildEnv(size, { AUDIO_BACKEND: "local", INIT_CWD: ROOT });
    const publishScript = path.join(codeDir(), "scripts/publish.ts");
    if (!existsSync(publishScript)) notes.push("scripts/publish.ts is missing: no publish figures");
    for (let attempt = 1; attempt <= 2 && existsSync(publishScript); attempt++) {
      const name = `${published}${attempt === 1 ? "" : `-${attempt}`}`;
      const source = path.join(sources, name);
      mkdirSync(source, { recursive: true });
      writeFileSync(path.join(source, "episode.json"), JSON.stringify({ ...rest, id: newId(), title: "Bench: one episode published", status: "published", publishedAt: now, discoveredAt: now }, null, 2));
      cpSync(path.join(episodes, first, "script.json"), path.join(source, "script.json"));
      cpSync(path.join(ROOT, "tests/fixtures/short.mp3"), path.join(source, "audio.mp3"));
      publishedFolders.push(path.join(episodes, name));
      console.log(`  publish (${size}): node scripts/publish.ts --dry-run ${path.relative(ROOT, source)}`);
      const dry = await timed([NODE, publishScript, "--dry-run", source], publishEnv, path.join(dir, "publish-dry-run.log"));
      result.publishDryRun = withoutOutput(dry);
      if (!dry.ok) {
        notes.push(`publish --dry-run failed: ${dry.output.split("\n").find((l) => /publish:/.test(l)) ?? "see publish-dry-run.log"}`);
        break;
      }
      console.log(`  publish (${size}): node scripts/publish.ts --out-dir ${path.relative(ROOT, dist)} ${path.relative(ROOT, source)}`);
      const code = codeHash();
      const full = await timed([NODE, publishScript, "--out-dir", dist, source], publishEnv, path.join(dir, "publish.log"));
      result.publish = { ...withoutOutput(full), cleanBuild: code !== lastCode };
      lastCode = code;
      if (!full.ok) {
        notes.push(`publish failed: ${full.output.split("\n").find((l) => /publish:/.test(l)) ?? "see publish.log"}`);
        break;
      }
      if (!result.publish.cleanBuild) break;
      notes.push(`publish ${attempt}: its build was clean (the build code was edited meanwhile)${attempt === 1 ? "; measured again" : ""}`);
    }
  } finally {
    // 3. Back to the synthetic content, and a build of it: the HTTP figures are of the same episodes as the clean build.
    for (const f of [...addedFolders, ...publishedFolders]) rmSync(f, { recursive: true, force: true });
    rmSync(sources, { recursive: true, force: true });
    console.log(`  incremental (${size}): the added folders removed, built again`);
    const t = await timed([NODE, astro(), "build", "--outDir", dist], buildEnv(size), path.join(dir, "build-remove.log"));
    result.removeTwo = { ...withoutOutput(t), changed: changedLine(t.output) };
    if (t.ok) writeFileSync(paramsFile(size), JSON.stringify({ episodes: size, seed: 1, segments }));
    else notes.push("the build after removing the added folders failed: the next bench writes this size's content again");
  }
  return result;
}
