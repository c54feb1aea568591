// The per-deploy file budget (README.md#configuration, ASSET_FILE_LIMIT; docs/deploy.md): the build counts the files a deploy uploads, as
// `npm run deploy` counts them (src/generate/file-budget.ts), prints the count, and fails past
// ASSET_FILE_LIMIT with the message deploy gives. Real builds of the same fixture content.
import { existsSync, readdirSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadFiles } from "../../src/generate/file-budget.ts";
import { BUILD_FILES } from "../../src/shared/layout.ts";
import { BUILD_ID, buildsFolderOf } from "../../src/node/builds.ts";
import { episode, fixtureBuild, makeSite, removeSite, script, tempDir, writeContent, type EpisodeSpec, type Site } from "../support/fixture.ts";
import { TONE } from "../support/http.ts";

const SPECS: EpisodeSpec[] = [{ episode: episode(), script: script(), audio: TONE }, { episode: episode() }];
let site: Site;
const dirs: string[] = [];

beforeAll(async () => {
  site = await makeSite("budget", SPECS);
});
afterAll(async () => {
  await removeSite(site);
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** Builds SPECS again with `env`; the build's output and whether it failed. */
async function buildWith(name: string, env: Record<string, string>) {
  const dir = await tempDir(`budget-${name}`);
  dirs.push(dir);
  const contentDir = path.join(dir, "content");
  const distDir = path.join(dir, "dist");
  await writeContent(contentDir, SPECS);
  return fixtureBuild(contentDir, distDir, env).then(
    (r) => ({ failed: false, code: 0, out: `${r.stdout}\n${r.stderr}`, distDir }),
    (e: { stdout?: string; stderr?: string; code?: number }) => ({ failed: true, code: e.code, out: `${e.stdout ?? ""}\n${e.stderr ?? ""}`, distDir }),
  );
}

describe("the build's file budget (ASSET_FILE_LIMIT)", { timeout: 180_000 }, () => {
  it("prints the files to upload, counted as npm run deploy counts them (manifest and stamp included, media not)", async () => {
    const files = await uploadFiles(site.distDir);
    expect(files).toContain(BUILD_FILES.manifest);
    expect(files).toContain(BUILD_FILES.stamp);
    expect(files.some((f) => f.startsWith("media/"))).toBe(false);
    expect(site.build.stdout).toContain(`${files.length} files to upload (limit 20000)`);
  });

  it("fails past ASSET_FILE_LIMIT with deploy's message, and leaves no stamp for npm start to trust", async () => {
    const count = (await uploadFiles(site.distDir)).length;
    const r = await buildWith("over", { ASSET_FILE_LIMIT: "5" });
    expect(r.failed, r.out).toBe(true);
    expect(r.code).not.toBe(0);
    expect(r.out).toContain(`${count} files to upload (limit 5)`);
    expect(r.out).toContain(`${count} files to upload exceed ASSET_FILE_LIMIT=5 (Cloudflare's files per deploy`);
    // It got as far as the manifest, in its own folder, which dist does not name: a failed build is
    // never switched in (docs/architecture.md#the-build), and its folder holds no stamp either.
    expect(existsSync(r.distDir)).toBe(false);
    const folders = readdirSync(buildsFolderOf(r.distDir)).filter((n) => BUILD_ID.test(n));
    expect(folders).toHaveLength(1);
    expect(existsSync(path.join(buildsFolderOf(r.distDir), folders[0]!, BUILD_FILES.manifest))).toBe(true);
    expect(existsSync(path.join(buildsFolderOf(r.distDir), folders[0]!, BUILD_FILES.stamp))).toBe(false);
  });

  it("passes at exactly the limit", async () => {
    const count = (await uploadFiles(site.distDir)).length;
    const r = await buildWith("exact", { ASSET_FILE_LIMIT: String(count) });
    expect(r.failed, r.out).toBe(false);
    expect(r.out).toContain(`${count} files to upload (limit ${count})`);
    expect(JSON.parse(await readFile(path.join(r.distDir, BUILD_FILES.stamp), "utf8"))).toHaveProperty("stamp");
  });

  it("refuses a malformed ASSET_FILE_LIMIT, naming the variable", async () => {
    const r = await buildWith("malformed", { ASSET_FILE_LIMIT: "lots" });
    expect(r.failed, r.out).toBe(true);
    expect(r.out).toContain("ASSET_FILE_LIMIT must be a whole number >= 1, got 'lots'");
  });
});
