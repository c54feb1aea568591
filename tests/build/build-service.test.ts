// Fixture sites are built by the run's build service (tests/support/build-service.ts): Astro's own
// build() in a long-lived process. It must make what `astro build` makes, byte for byte, and log
// what it logs, or every suite would test something the command does not make.
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { build, episode, fixtureBuild, script, tempDir, writeContent, type BuildResult, type EpisodeSpec } from "../support/fixture.ts";
import { TONE } from "../support/http.ts";

const SPECS: EpisodeSpec[] = [
  { folder: "one", episode: episode({ episodeNumber: 1 }), script: script(), audio: TONE },
  { folder: "two", episode: episode({ episodeNumber: 2 }) },
];
let dir: string;
let contentDir: string;
const env = { SITE_URL: "https://show.example" };
beforeAll(async () => {
  dir = await tempDir("build-service");
  contentDir = path.join(dir, "content");
  await writeContent(contentDir, SPECS);
});
afterAll(() => (dir === undefined ? undefined : rm(dir, { recursive: true, force: true })));

/** Every file of a build by its path. */
async function filesOf(dist: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const e of await readdir(dist, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const rel = path.relative(dist, path.join(e.parentPath, e.name));
    out.set(rel, await readFile(path.join(e.parentPath, e.name)));
  }
  return out;
}

/** Both folders hold the same files, byte for byte. */
async function expectSameFiles(got: string, want: string): Promise<void> {
  const [a, b] = await Promise.all([filesOf(got), filesOf(want)]);
  expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
  expect([...b].filter(([rel, bytes]) => !a.get(rel)!.equals(bytes)).map(([rel]) => rel)).toEqual([]);
}

// Five whole builds and a change of content: on a loaded machine they take minutes.
describe("the build service", { timeout: 180_000 }, () => {
  it("builds what `astro build` builds, byte for byte, and logs what it logs, build after build, clean and incremental", async () => {
    expect(inject("buildService")).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const at = (name: string) => path.join(dir, name);
    const cli = await build(contentDir, at("cli"), env);
    // More builds than the service has processes: some process makes a second build.
    for (const n of [1, 2, 3]) {
      const service: BuildResult = await fixtureBuild(contentDir, at(`service-${n}`), env);
      await expectSameFiles(at(`service-${n}`), at("cli"));
      for (const line of ["clean build: 2 episodes", "2 episodes, ", "files to upload (limit 20000)"]) {
        expect(service.stdout, line).toContain(line);
        expect(cli.stdout, line).toContain(line);
      }
    }
    // An episode added, and each folder built again over its last build.
    await mkdir(path.join(contentDir, "episodes", "added"));
    await writeFile(path.join(contentDir, "episodes", "added", "episode.json"), JSON.stringify(episode({ episodeNumber: 3, title: "Added" })));
    const [service, again] = await Promise.all([fixtureBuild(contentDir, at("service-1"), env), build(contentDir, at("cli"), env)]);
    for (const r of [service, again]) expect(r.stdout).toContain("incremental build: 1 of 3 episodes changed");
    await expectSameFiles(at("service-1"), at("cli"));
  });
});
