// npm run deploy -- --dry-run: bundles the entry and runs `wrangler deploy --dry-run` offline on a
// fixture build, counting the files to upload; a count past ASSET_FILE_LIMIT stops it before
// wrangler with a message that names the limit. npm run deploy with a stand-in for wrangler
// (tests/support/fake-wrangler.ts): once deployed, the published set is announced to stand-ins
// for a WebSub hub, Podcast Index and Podping, and told to the Worker as DEPLOYED_SET.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadIndexText } from "../../functions/data/load-index.ts";
import { publishedSetName } from "../../functions/data/published-set.ts";
import { uploadFiles } from "../../scripts/deploy.ts";
import { BUILD_FILES } from "../../src/shared/layout.ts";
import { announceEnv, expectAnnouncedOnce, startAnnounceTargets, type AnnounceTargets } from "../support/announce-targets.ts";
import { episode, makeSite, removeSite, ROOT, script, type Site } from "../support/fixture.ts";
import { TONE } from "../support/http.ts";

const run = promisify(execFile);
let site: Site;
let targets: AnnounceTargets;

beforeAll(async () => {
  site = await makeSite("edge-deploy", [{ episode: episode(), script: script(), audio: TONE }, { episode: episode() }]);
  targets = await startAnnounceTargets();
});
afterAll(async () => {
  await targets?.close();
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
    targets.clear();
    const { code, out } = await deploy(["--dry-run", "--outdir", outDir], announceEnv(targets));
    expect(code, out).toBe(0);
    // Nothing was deployed, so nothing is announced.
    expect(targets.all()).toEqual([]);
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

describe("npm run deploy, then the announcement", () => {
  const FEED_URL = "http://localhost:4321/feed.xml";
  const wranglerLog = () => path.join(site.dir, `wrangler-${Math.random().toString(36).slice(2)}.log`);
  const fake = (log: string, exit = 0) => ({ WRANGLER_BIN: path.join(ROOT, "tests/support/fake-wrangler.ts"), FAKE_WRANGLER_LOG: log, FAKE_WRANGLER_EXIT: String(exit) });
  const calls = async (log: string) => (await readFile(log, "utf8")).trim().split("\n").map((l) => JSON.parse(l) as string[]);
  const deployedSet = async () => publishedSetName(loadIndexText(await readFile(path.join(site.distDir, BUILD_FILES.index), "utf8")), Date.now());

  it("announces the deployed set to every target once the deploy finished, and tells the Worker it did", async () => {
    targets.clear();
    const log = wranglerLog();
    const { code, out } = await deploy([], { ...announceEnv(targets), ...fake(log) });
    expect(code, out).toBe(0);
    const set = await deployedSet();
    const [args] = await calls(log);
    expect(args!.slice(0, 1)).toEqual(["deploy"]);
    expect(args!.join(" ")).toContain(`--var DEPLOYED_SET:${set}`);
    expect(args).not.toContain("--dry-run");
    expectAnnouncedOnce(targets, FEED_URL);
    // After the deploy, one line per target.
    const lines = out.split("\n");
    const deployed = lines.indexOf("Deployed.");
    expect(deployed).toBeGreaterThan(-1);
    const announced = lines.filter((l) => l.startsWith(`announce set ${set}: `));
    expect(announced).toHaveLength(3);
    for (const line of announced) expect(lines.indexOf(line)).toBeGreaterThan(deployed);
    expect(announced.every((l) => / ok \(HTTP 20\d, 1 attempt\)$/.test(l))).toBe(true);
  });

  it("announces nothing with --no-notify, and still tells the Worker the set is the deploy's", async () => {
    targets.clear();
    const log = wranglerLog();
    const { code, out } = await deploy(["--no-notify"], { ...announceEnv(targets), ...fake(log) });
    expect(code, out).toBe(0);
    const set = await deployedSet();
    expect((await calls(log))[0]!.join(" ")).toContain(`--var DEPLOYED_SET:${set}`);
    expect(out).toContain(`Not announced (--no-notify): set ${set}`);
    expect(targets.all()).toEqual([]);
  });

  it("announces nothing when the deploy fails (a dry run neither: above)", async () => {
    targets.clear();
    const failed = await deploy([], { ...announceEnv(targets), ...fake(wranglerLog(), 1) });
    expect(failed.code).toBe(1);
    expect(failed.out).not.toContain("announce set");
    expect(targets.all()).toEqual([]);
  });
});
