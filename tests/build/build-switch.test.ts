// `npm run build` beside the build it replaces (src/generate/build-folder.ts,
// docs/architecture.md#the-build): it writes a folder of its own, shares the live build's unchanged
// files through hard links without ever writing into one, and switches `dist` only once it has
// succeeded. A build refused (another one runs) or killed half-way leaves the pointer and the live
// build as they were, and the next build goes live. Node only: it tests the build, not a server.
// The builds are the run's fixture builds (the command's build byte for byte:
// tests/build/build-service.test.ts), but for the one killed half-way, which needs a process of its own.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { episodeFile, mediaFile } from "../../src/shared/layout.ts";
import { BUILD_ID, buildsFolderOf, liveFolderOf } from "../../src/node/builds.ts";
import { episode, fixtureBuild, makeSite, removeSite, ROOT, script, type EpisodeSpec, type Site } from "../support/fixture.ts";
import { longTone, TONE } from "../support/http.ts";

const edited = (n: number): EpisodeSpec[] =>
  Array.from({ length: 5 }, (_, i) => ({
    folder: `ep-${i + 1}`,
    episode: episode({ id: `00000000-0000-4000-8000-00000000000${i + 1}`, episodeNumber: i + 1, title: i === 0 ? `Title ${n}` : `Episode ${i + 1}` }),
    script: script([["a", i === 0 ? `Take ${n}.` : "Hello."]]),
    ...(i === 0 ? { audio: longTone(2 + n) } : i === 1 ? { audio: TONE } : {}),
  }));

let site: Site;
beforeAll(async () => {
  site = await makeSite("build-switch", edited(0));
});
afterAll(() => removeSite(site));

/** Every file of a build folder: its bytes' hash and its inode. */
async function filesOf(folder: string): Promise<Map<string, { sha: string; ino: number }>> {
  const out = new Map<string, { sha: string; ino: number }>();
  for (const e of await readdir(folder, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const abs = path.join(e.parentPath, e.name);
    out.set(path.relative(folder, abs), { sha: createHash("sha256").update(await readFile(abs)).digest("hex"), ino: (await stat(abs)).ino });
  }
  return out;
}

const builds = async () => (await readdir(buildsFolderOf(site.distDir))).filter((n) => BUILD_ID.test(n));
/** Episode 1 edited: its title, script and audio; the other folders untouched. */
const edit = async (n: number) => {
  const ep = edited(n)[0]!;
  const folder = path.join(site.contentDir, "episodes", ep.folder!);
  await writeFile(path.join(folder, "episode.json"), JSON.stringify({ ...ep.episode, audio: { file: "audio.mp3" } }));
  await writeFile(path.join(folder, "script.json"), JSON.stringify(ep.script));
  await writeFile(path.join(folder, "audio.mp3"), ep.audio!);
};
const failureOf = (p: Promise<unknown>) => p.then(() => "", (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ""}\n${e.stderr ?? ""}`);

describe("a build's own folder and its switch", () => {
  it("links the live build's unchanged files and writes none of them; is refused while another build runs; killed half-way, leaves everything as it was", { timeout: 600_000 }, async () => {
    const first = liveFolderOf(site.distDir)!;
    const firstFiles = await filesOf(first);

    // The first incremental build after a clean one starts from links to the live build.
    await edit(1);
    expect((await fixtureBuild(site.contentDir, site.distDir)).stdout).toMatch(/incremental build: 1 of 5 episodes changed since the last build; \d+ written into a copy of it made of links/);
    const second = liveFolderOf(site.distDir)!;
    expect(second).not.toBe(first);
    // The build before is whole, byte for byte and inode for inode: nothing was written into it.
    expect(await filesOf(first)).toEqual(firstFiles);
    const secondFiles = await filesOf(second);
    const shared = [...secondFiles].filter(([rel, f]) => firstFiles.get(rel)?.ino === f.ino).map(([rel]) => rel);
    expect(shared).toContain(episodeFile("3", "json"));
    for (const rel of [episodeFile("1", "json"), episodeFile("1", "script"), mediaFile("00000000-0000-4000-8000-000000000001.mp3")]) {
      expect(shared, rel).not.toContain(rel);
      expect(secondFiles.get(rel)!.sha).not.toBe(firstFiles.get(rel)!.sha);
    }
    expect(await builds()).toHaveLength(2);

    // While another build holds the lock (here: this live process), a build is refused at once.
    const lock = path.join(buildsFolderOf(site.distDir), ".lock");
    await writeFile(lock, String(process.pid));
    expect(await failureOf(fixtureBuild(site.contentDir, site.distDir))).toContain(`another build (pid ${process.pid}) is writing ${site.distDir}`);
    await rm(lock);
    expect(liveFolderOf(site.distDir)).toBe(second);

    // A build killed while it writes (its lock stays behind, with the pid of a process gone).
    await edit(2);
    const child = spawn(process.execPath, [path.join(ROOT, "node_modules/astro/bin/astro.mjs"), "build", "--outDir", site.distDir], {
      cwd: ROOT,
      env: { ...process.env, CONTENT_DIR: site.contentDir, ASTRO_TELEMETRY_DISABLED: "1", ASTRO_CACHE_DIR: path.join(site.dir, ".cache-dist") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (c: Buffer) => {
        out += c;
        if (/incremental build:/.test(out)) resolve();
      });
      child.once("exit", () => reject(new Error(`the build ended before it was killed:\n${out}`)));
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    expect(liveFolderOf(site.distDir)).toBe(second);
    expect(await filesOf(second)).toEqual(secondFiles);

    // The next build takes the lock over and goes live, with the content as it is now.
    await edit(3);
    await fixtureBuild(site.contentDir, site.distDir);
    const third = liveFolderOf(site.distDir)!;
    expect(third).not.toBe(second);
    expect(JSON.parse(await readFile(path.join(site.distDir, episodeFile("1", "json")), "utf8")).title).toBe("Title 3");
    expect(await filesOf(second)).toEqual(secondFiles);
    expect((await builds()).sort()).toEqual([path.basename(second), path.basename(third)].sort());
  });
});
