// Fixture sites are built by the run's build service (tests/support/build-service.ts): Astro's own
// build() in a long-lived process. It must make what `astro build` makes, byte for byte, and log
// what it logs, or every suite would test something the command does not make.
import { readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { build, episode, fixtureBuild, script, tempDir, writeContent, type BuildResult } from "../support/fixture.ts";
import { TONE } from "../support/http.ts";

let dir: string;
let contentDir: string;
const env = { SITE_URL: "https://show.example" };
beforeAll(async () => {
  dir = await tempDir("build-service");
  contentDir = path.join(dir, "content");
  await writeContent(contentDir, [{ episode: episode({ episodeNumber: 1 }), script: script(), audio: TONE }, { episode: episode({ episodeNumber: 2 }) }]);
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

describe("the build service", () => {
  it("builds what `astro build` builds, byte for byte, and logs what it logs, build after build", async () => {
    expect(inject("buildService")).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const cli = await build(contentDir, path.join(dir, "cli"), env);
    const want = await filesOf(path.join(dir, "cli"));
    // More builds than the service has processes: some process makes a second build.
    for (const n of [1, 2, 3]) {
      const service: BuildResult = await fixtureBuild(contentDir, path.join(dir, `service-${n}`), env);
      const got = await filesOf(path.join(dir, `service-${n}`));
      expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
      expect([...want].filter(([rel, bytes]) => !got.get(rel)!.equals(bytes)).map(([rel]) => rel)).toEqual([]);
      for (const line of ["clean build: 2 episodes", "2 episodes, ", "files to upload (limit 20000)"]) {
        expect(service.stdout, line).toContain(line);
        expect(cli.stdout, line).toContain(line);
      }
    }
  });
});
