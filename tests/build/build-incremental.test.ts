// `npm run build` is incremental (docs/architecture.md#the-build): over the last build of the same
// build code and variables it renders only what changed, and its dist/ is byte for byte what a
// clean build of the same content gives. One content folder is changed step by step; after each
// step the incremental dist/ is compared, file by file, with a clean build into another folder.
// The builds are the run's fixture builds (tests/support/build-service.ts, the command's build byte
// for byte: tests/build/build-service.test.ts), but for the flag --clean, which is the command's.
import { createHash } from "node:crypto";
import { cp, mkdir, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SETTLE_MS } from "../../src/generate/content.ts";
import { uploadFiles } from "../../src/generate/file-budget.ts";
import { BUILD_FILES, episodeFile, SITE_FILES } from "../../src/shared/layout.ts";
import { build, episode, fixtureBuild, HOSTS, script, tempDir, timedScript, writeContent, type EpisodeSpec } from "../support/fixture.ts";

let dir: string;
let contentDir: string;
/** The folder every step builds into, incrementally. */
let dist: string;
const specs: EpisodeSpec[] = Array.from({ length: 6 }, (_, i) => ({
  folder: `ep-${i}`,
  episode: episode({ episodeNumber: i + 1, title: `Episode <${i + 1}>` }),
  // Every other one timed: the timed forms' tags (BUILD_FILES.timedEtags) are part of what must match.
  script: (i % 2 === 1 ? timedScript : script)([["a", `Line one of ${i + 1}.`], ["b", "Line two."]]),
}));
const draft: EpisodeSpec = { folder: "ep-draft", episode: episode({ episodeNumber: 50, status: "draft" }) };

async function filesOf(root: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const e of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const abs = path.join(e.parentPath, e.name);
    out.set(path.relative(root, abs), await readFile(abs));
  }
  return out;
}

/**
 * Clean builds of the content folder as it was, by its files' bytes and the variables: a clean
 * build depends on nothing else, so a state the folder comes back to is compared with the clean
 * build already made of it.
 */
const cleanBuilds = new Map<string, string>();

async function stateOf(env: Record<string, string>): Promise<string> {
  const hash = createHash("sha256").update(JSON.stringify(env));
  for (const [rel, bytes] of [...(await filesOf(contentDir))].sort(([a], [b]) => (a < b ? -1 : 1))) hash.update(`\0${rel}\0`).update(bytes);
  return hash.digest("hex");
}

/** The folder of a clean build of the content as it is now, with `env`. */
async function cleanBuild(env: Record<string, string>): Promise<string> {
  const state = await stateOf(env);
  let clean = cleanBuilds.get(state);
  if (clean === undefined) {
    clean = path.join(dir, `clean-${cleanBuilds.size}`);
    await fixtureBuild(contentDir, clean, env);
    cleanBuilds.set(state, clean);
  }
  return clean;
}

/** The incremental dist/ against a clean build of the same content and variables, file by file. */
async function expectEqualToClean(env: Record<string, string> = {}): Promise<void> {
  const clean = await cleanBuild(env);
  const [got, want] = await Promise.all([filesOf(dist), filesOf(clean)]);
  // Among them the files written from all episodes, changed or not: the index and the list's bodies in one file.
  expect(want.has(BUILD_FILES.listBodies)).toBe(true);
  expect(want.has(BUILD_FILES.timedEtags)).toBe(true);
  expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
  // The manifest names the files the build lists without walking the episodes' folders: those a walk finds (src/generate/integration.ts).
  const walked = (await uploadFiles(dist)).filter((rel) => rel !== BUILD_FILES.manifest && rel !== BUILD_FILES.stamp);
  expect(Object.keys(JSON.parse(got.get(BUILD_FILES.manifest)!.toString("utf8")) as Record<string, string>)).toEqual(walked);
  const differing = [...want].filter(([rel, bytes]) => !got.get(rel)!.equals(bytes)).map(([rel]) => rel);
  expect(differing).toEqual([]);
}

const log = (r: { stdout: string; stderr: string }) => `${r.stdout}\n${r.stderr}`;

beforeAll(async () => {
  dir = await tempDir("incremental");
  contentDir = path.join(dir, "content");
  dist = path.join(dir, "dist");
  await writeContent(contentDir, [...specs, draft]);
  const first = await fixtureBuild(contentDir, dist);
  expect(log(first)).toMatch(/clean build: 6 episodes/);
  // The first build is a clean one of the content as it is: kept (dist/ names the build's own folder) for the first comparison.
  const copy = path.join(dir, "clean-first");
  await cp(dist, copy, { recursive: true, dereference: true });
  cleanBuilds.set(await stateOf({}), copy);
});
afterAll(() => (dir === undefined ? undefined : rm(dir, { recursive: true, force: true })));

describe("incremental build", () => {
  it("with nothing changed, renders no episode again and leaves dist/ as a clean build", async () => {
    const r = await fixtureBuild(contentDir, dist);
    expect(log(r)).toMatch(/incremental build: 0 of 6 episodes changed/);
    await expectEqualToClean();
  });

  it("after one episode is added, renders only it, and dist/ equals a clean build", async () => {
    const added: EpisodeSpec = { folder: "ep-new", episode: episode({ episodeNumber: 7, title: "Added" }), script: script() };
    await writeContent(contentDir, [...specs, draft, added]);
    const r = await fixtureBuild(contentDir, dist);
    expect(log(r)).toMatch(/incremental build: 1 of 7 episodes changed/);
    // The list's bodies in one file: the unchanged ones from the last file of the folder (src/generate/list-bodies.ts).
    expect(log(r)).toMatch(/list bodies: 7 in one file, 1 read from their files/);
    expect(JSON.parse(await readFile(path.join(dist, BUILD_FILES.index), "utf8")).episodes.map((e: { n: number }) => e.n)).toContain(7);
    await expectEqualToClean();
  });

  it("after an episode is edited (its number too), its old files go and dist/ equals a clean build", async () => {
    const file = path.join(contentDir, "episodes", "ep-2", "episode.json");
    const ep = JSON.parse(await readFile(file, "utf8"));
    await writeFile(file, JSON.stringify({ ...ep, title: "Edited title", episodeNumber: 30 }));
    const r = await fixtureBuild(contentDir, dist);
    expect(log(r)).toMatch(/incremental build: 1 of 7 episodes changed/);
    await expect(readFile(path.join(dist, episodeFile("3", "json")))).rejects.toThrow();
    await expect(readFile(path.join(dist, SITE_FILES.page("3")))).rejects.toThrow();
    expect(JSON.parse(await readFile(path.join(dist, episodeFile("30", "json")), "utf8")).title).toBe("Edited title");
    await expectEqualToClean();
  });

  it("after an episode's script is edited, dist/ equals a clean build", async () => {
    // Untimed before, timed now.
    await writeFile(path.join(contentDir, "episodes", "ep-4", "script.json"), JSON.stringify(timedScript([["b", "A new line."]])));
    const r = await fixtureBuild(contentDir, dist);
    expect(log(r)).toMatch(/incremental build: 1 of 7 episodes changed/);
    expect(await readFile(path.join(dist, episodeFile("5", "transcript")), "utf8")).toBe(`${HOSTS.b}: A new line.\n`);
    await expectEqualToClean();
  });

  it("after only the times of a script are edited, its forms' tags change and dist/ equals a clean build", async () => {
    const tags = () => readFile(path.join(dist, BUILD_FILES.timedEtags));
    const before = await tags();
    const file = path.join(contentDir, "episodes", "ep-1", "script.json");
    const timed = JSON.parse(await readFile(file, "utf8"));
    timed.segments[1].end += 0.5;
    await writeFile(file, JSON.stringify(timed));
    const r = await fixtureBuild(contentDir, dist);
    expect(log(r)).toMatch(/incremental build: 1 of 7 episodes changed/);
    expect((await tags()).equals(before)).toBe(false);
    await expectEqualToClean();
  });

  it("reads no folder whose files stat as before, and still sees an edit that puts back the file's size and modification time", async () => {
    // A modification time of whole seconds, which utimes puts back exactly.
    const file = path.join(contentDir, "episodes", "ep-5", "episode.json");
    const then = Math.floor(Date.now() / 1000) - 60;
    await utimes(file, then, then);
    // Folders are trusted by their files' stat only once every timestamp is SETTLE_MS old (src/generate/content.ts).
    await sleep(SETTLE_MS + 200);
    await fixtureBuild(contentDir, dist);
    const unchanged = await fixtureBuild(contentDir, dist);
    expect(log(unchanged)).toMatch(/incremental build: 0 of 7 episodes changed.*; 8 folders not read/);
    // The same number of bytes, the modification time put back: only the change time (and the bytes) differ.
    const before = await stat(file);
    const text = await readFile(file, "utf8");
    expect(text).toContain("Episode <6>");
    await writeFile(file, text.replace("Episode <6>", "Episode <9>"));
    await utimes(file, then, then);
    const after = await stat(file);
    expect([after.size, after.mtimeMs, after.ino]).toEqual([before.size, before.mtimeMs, before.ino]);
    const r = await fixtureBuild(contentDir, dist);
    expect(log(r)).toMatch(/incremental build: 1 of 7 episodes changed.*; 7 folders not read/);
    expect(JSON.parse(await readFile(path.join(dist, episodeFile("6", "json")), "utf8")).title).toBe("Episode <9>");
    await expectEqualToClean();
  });

  it("lists no folder whose own times are as before, and still sees a file added beside the others or in a subfolder", async () => {
    // A folder with a subfolder is always listed: a name can come in the subfolder while the folder's own times stay.
    const withSubfolder = path.join(contentDir, "episodes", "ep-4");
    await mkdir(path.join(withSubfolder, "notes"));
    await writeFile(path.join(withSubfolder, "notes", "a.txt"), "a");
    await sleep(SETTLE_MS + 200);
    await fixtureBuild(contentDir, dist);
    const unchanged = await fixtureBuild(contentDir, dist);
    expect(log(unchanged)).toMatch(/incremental build: 0 of 7 episodes changed.*; 8 folders not read [^,]*, 7 not listed/);
    // Beside the others: the folder's own times change, and it is listed again.
    await writeFile(path.join(contentDir, "episodes", "ep-3", "notes.txt"), "b");
    await writeFile(path.join(withSubfolder, "notes", "b.txt"), "b");
    const r = await fixtureBuild(contentDir, dist);
    expect(log(r)).toMatch(/incremental build: 2 of 7 episodes changed.*; 6 folders not read [^,]*, 6 not listed/);
    await expectEqualToClean();
  });

  it("after an episode is deleted, its files go (compressed variants too) and dist/ equals a clean build", async () => {
    await rm(path.join(contentDir, "episodes", "ep-0"), { recursive: true });
    const r = await fixtureBuild(contentDir, dist);
    expect(log(r)).toMatch(/incremental build: 0 of 6 episodes changed/);
    for (const rel of [episodeFile("1", "json"), SITE_FILES.page("1"), SITE_FILES.embed("1"), SITE_FILES.oembed("1")]) {
      await expect(readFile(path.join(dist, rel)), rel).rejects.toThrow();
    }
    await expectEqualToClean();
  });

  it("after SITE_URL changes, builds clean, and dist/ equals a clean build with it", async () => {
    const env = { SITE_URL: "https://show.example" };
    const r = await fixtureBuild(contentDir, dist, env);
    expect(log(r)).toMatch(/clean build: 6 episodes/);
    await expectEqualToClean(env);
    await fixtureBuild(contentDir, dist); // back to the default for the next steps
  });

  it("when the last build was made by other build code, builds clean: nothing of the old dist/ survives", async () => {
    // What a change of the build code does: the state's key (src/generate/build-state.ts) differs.
    const stateFile = path.join(dist, BUILD_FILES.state);
    const state = await readFile(stateFile, "utf8");
    const key = /"key":"([0-9a-f]+)"/.exec(state)![1]!;
    await writeFile(stateFile, state.replace(key, "built-by-other-code"));
    await writeFile(path.join(dist, "stray.html"), "left by the other code");
    const r = await fixtureBuild(contentDir, dist);
    expect(log(r)).toMatch(/clean build: 6 episodes/);
    await expect(readFile(path.join(dist, "stray.html"))).rejects.toThrow();
    await expectEqualToClean();
  });

  it("--clean forces a clean build", async () => {
    const r = await build(contentDir, dist, {}, ["--clean"]);
    expect(log(r)).toMatch(/clean build: 6 episodes/);
    await expectEqualToClean();
  });
});
