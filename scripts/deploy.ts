// npm run deploy: build, bundle the Workers entry, check the asset budget, `wrangler deploy`.
// npm run deploy -- --dry-run: the same, offline, ending in `wrangler deploy --dry-run --outdir`.
// The audio is not uploaded as assets: it lives in the R2 bucket (docs/deploy.md).
// Once deployed, the new published set is announced to WEBSUB_HUB, PING_URLS and Podping
// (docs/deploy.md#announcing-a-publication); a failed announcement is logged, never a failed deploy.
import { spawn } from "node:child_process";
import { readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { announce, announces, announceTargets } from "../functions/announce/announce.ts";
import { announceConfig } from "../src/shared/config.ts";
import { surfaceUrls } from "../functions/routes/crawl.ts";
import { loadIndexText } from "../functions/data/load-index.ts";
import { publishedSetName } from "../functions/data/published-set.ts";
import { BUILD_FILES } from "../src/shared/layout.ts";
import { assetFileLimit } from "../src/generate/config.ts";
import { ASSETS_IGNORE, fileBudgetProblem, filesPerEpisode, uploadFiles } from "../src/generate/file-budget.ts";
import { liveFolderOf } from "../src/node/builds.ts";
import { bundleWorker, ROOT } from "./bundle-worker.ts";
import { argPath, command, isMain } from "./cli.ts";

const DEPLOY = command({
  name: "deploy",
  usage: ["npm run deploy -- [options]", "node scripts/deploy.ts [options]"],
  about: `Builds, bundles the Workers entry, checks the files against ASSET_FILE_LIMIT and Workers' size
limit, then runs wrangler deploy (docs/deploy.md). The audio is not an asset: it lives in R2.`,
  options: {
    "dry-run": { type: "boolean", help: "do everything offline but the upload (wrangler deploy --dry-run)" },
    "no-build": { type: "boolean", help: "deploy the existing build instead of building first" },
    dist: { type: "string", value: "DIR", help: "the build to deploy (default dist/)" },
    outdir: { type: "string", value: "DIR", help: "where a dry run leaves wrangler's output (default node_modules/.cache/edge/dry-run)" },
    "no-notify": { type: "boolean", help: "announce nothing once deployed (docs/deploy.md#announcing-a-publication)" },
  },
  examples: ["npm run deploy -- --dry-run", "npm run deploy -- --no-build --dist /tmp/site"],
});

// The counting rule lives with the build, which fails past the same limit (src/generate/file-budget.ts).
export { ASSET_FILE_LIMIT_DEFAULT, ASSETS_IGNORE, uploadFiles } from "../src/generate/file-budget.ts";
export { assetFileLimit } from "../src/generate/config.ts";

/** Workers static assets refuse larger files. */
export const ASSET_FILE_MAX_BYTES = 25 * 1024 * 1024;

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: "inherit" });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(cmd)} ${args[0] ?? ""} exited with ${code}`))));
  });
}

export interface DeployOptions {
  dryRun: boolean;
  build: boolean;
  distDir: string;
  outDir: string;
  /** Announce the deployed set once deployed (false: --no-notify). */
  notify: boolean;
}

/**
 * The wrangler CLI, run with this Node: the project's own, unless WRANGLER_BIN names another script
 * (the tests' stand-in for Cloudflare, tests/support/fake-wrangler.ts).
 */
function wranglerBin(env: NodeJS.ProcessEnv): string {
  return env.WRANGLER_BIN?.trim() || path.join(ROOT, "node_modules/wrangler/bin/wrangler.js");
}

export async function deploy(opts: DeployOptions): Promise<void> {
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };
  // Read first: a wrong value stops the deploy before anything is built or uploaded.
  const notice = announceConfig(env);
  if (opts.build) await run("npm", ["run", "build"], env);

  // The build dist names now, by its own folder: a build finishing meanwhile switches dist, not this deploy's files.
  const distDir = liveFolderOf(opts.distDir) ?? opts.distDir;
  const limit = assetFileLimit(env);
  const files = await uploadFiles(distDir);
  console.log(`Assets to upload: ${files.length} files (limit ${limit}; ${ASSETS_IGNORE.join(", ")} not uploaded)`);
  const { episodes, perEpisode } = filesPerEpisode(distDir, files.length);
  console.log(`Files per episode: ${perEpisode} (${files.length} files for the ${episodes} episodes of the index)`);
  const problem = fileBudgetProblem(files.length, limit);
  if (problem !== null) throw new Error(problem);
  for (const rel of files) {
    const { size } = await stat(path.join(distDir, rel));
    if (size > ASSET_FILE_MAX_BYTES) throw new Error(`${rel} is ${size} bytes: Workers static assets take at most ${ASSET_FILE_MAX_BYTES} bytes per file`);
  }

  const worker = await bundleWorker();
  console.log(`Worker bundle: ${path.relative(ROOT, worker.file)} (${(worker.bytes / 1024).toFixed(1)} KiB)`);

  const ignoreFile = path.join(distDir, ".assetsignore");
  await writeFile(ignoreFile, `${ASSETS_IGNORE.join("\n")}\n`);
  // The published set this deploy answers for: announced below, so the Worker's Cron Trigger
  // leaves it alone (DEPLOYED_SET, functions/announce/watch.ts), also when --no-notify skips it.
  const index = loadIndexText(await readFile(path.join(distDir, BUILD_FILES.index), "utf8"));
  const deployedSet = await publishedSetName(index, Date.now());
  try {
    const args = ["deploy", worker.file, "--no-bundle", "--config", path.join(ROOT, "wrangler.jsonc"), "--assets", distDir, "--var", `DEPLOYED_SET:${deployedSet}`];
    if (opts.dryRun) args.push("--dry-run", "--outdir", opts.outDir);
    await run(process.execPath, [wranglerBin(env), ...args], env);
  } finally {
    await rm(ignoreFile, { force: true });
  }
  if (opts.dryRun) return void console.log(`Dry run passed: nothing was uploaded (wrangler's output in ${path.relative(ROOT, opts.outDir) || opts.outDir})`);
  console.log("Deployed.");
  if (!announces(notice)) return;
  if (!opts.notify) return void console.log(`Not announced (--no-notify): set ${deployedSet}`);
  await announce(announceTargets(notice, surfaceUrls(index.data).feed), `set ${deployedSet}`, { log: (line) => console.log(line) });
}

if (isMain(import.meta)) {
  const { values } = DEPLOY.parse();
  const distDir = argPath(values.dist, path.join(ROOT, "dist"));
  const outDir = argPath(values.outdir, path.join(ROOT, "node_modules/.cache/edge/dry-run"));
  void DEPLOY.run(() => deploy({ dryRun: values["dry-run"], build: !values["no-build"], distDir, outDir, notify: !values["no-notify"] }));
}
