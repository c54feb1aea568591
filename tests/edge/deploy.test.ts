// npm run deploy -- --dry-run: bundles the entry and runs `wrangler deploy --dry-run` offline on a
// fixture build, counting the files to upload; a count past ASSET_FILE_LIMIT stops it before
// wrangler with a message that names the limit.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadFiles } from "../../scripts/deploy.ts";
import { episode, makeSite, removeSite, ROOT, script, type Site } from "../support/fixture.ts";
import { TONE } from "../support/http.ts";

const run = promisify(execFile);
let site: Site;

beforeAll(async () => {
  site = await makeSite("edge-deploy", [{ episode: episode(), script: script(), audio: TONE }, { episode: episode() }]);
});
afterAll(async () => {
  await removeSite(site);
});

/** `npm run deploy -- <args>` without the build step, on the fixture's dist/; never throws. */
async function deploy(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  const cmd = [path.join(ROOT, "scripts/deploy.ts"), "--no-build", "--dist", site.distDir, ...args];
  // No credentials and no network: a dry run must not need either.
  const childEnv = { ...process.env, CLOUDFLARE_API_TOKEN: "", CLOUDFLARE_ACCOUNT_ID: "", HTTPS_PROXY: "http://127.0.0.1:9", ...env };
  try {
    const { stdout, stderr } = await run(process.execPath, cmd, { cwd: ROOT, env: childEnv });
    return { code: 0, out: stdout + stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr };
  }
}

describe("npm run deploy -- --dry-run", () => {
  it("bundles and checks everything offline, uploading no audio and counting what wrangler reads", async () => {
    const outDir = path.join(site.dir, "dry-run");
    const { code, out } = await deploy(["--dry-run", "--outdir", outDir]);
    expect(code, out).toBe(0);
    const files = await uploadFiles(site.distDir);
    expect(files.some((f) => f.startsWith("media/"))).toBe(false);
    expect(files).toContain("_api/index.json");
    expect(out).toContain(`Assets to upload: ${files.length} files (limit 20000;`);
    const episodes = JSON.parse(readFileSync(path.join(site.distDir, "_api/index.json"), "utf8")).episodes.length;
    expect(out).toContain(`Files per episode: ${Math.round((files.length / episodes) * 100) / 100} (${files.length} files for the ${episodes} episodes of the index)`);
    // (wrangler's "Read N files" line counts folders and ignored files too: not the upload count.)
    expect(out).toMatch(/Read \d+ files from the assets directory/);
    expect(out).toContain("env.RATE_LIMITER (RateLimitCounter)");
    expect(out).toContain("env.AUDIO (episode-audio)");
    expect(out).toContain("--dry-run: exiting now.");
    expect(readdirSync(outDir)).toContain("worker.js");
    // The ignore file exists only while wrangler runs.
    expect(existsSync(path.join(site.distDir, ".assetsignore"))).toBe(false);
  });

  it("refuses, before wrangler runs, when the files to upload exceed ASSET_FILE_LIMIT", async () => {
    const files = await uploadFiles(site.distDir);
    const { code, out } = await deploy(["--dry-run"], { ASSET_FILE_LIMIT: "5" });
    expect(code).toBe(1);
    expect(out).toContain(`deploy: ${files.length} files to upload exceed ASSET_FILE_LIMIT=5`);
    expect(out).not.toContain("wrangler");
  });

  it("refuses a malformed ASSET_FILE_LIMIT with the variable's name", async () => {
    const { code, out } = await deploy(["--dry-run"], { ASSET_FILE_LIMIT: "lots" });
    expect(code).toBe(1);
    expect(out).toContain("ASSET_FILE_LIMIT must be a whole number >= 1, got 'lots'");
  });
});
