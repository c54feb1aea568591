// npm run deploy: build, bundle the Workers entry, check the asset budget, `wrangler deploy`.
// npm run deploy -- --dry-run: the same, offline, ending in `wrangler deploy --dry-run --outdir`.
// Options: --no-build (deploy the existing dist/), --dist <dir>, --outdir <dir> (dry run output).
// The audio is not uploaded as assets: it lives in the R2 bucket (docs/deploy.md).
import { spawn } from "node:child_process";
import { rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { assetFileLimit } from "../src/generate/config.ts";
import { ASSETS_IGNORE, fileBudgetProblem, uploadFiles } from "../src/generate/file-budget.ts";
import { liveFolderOf } from "../src/shared/node-builds.ts";
import { bundleWorker, ROOT } from "./bundle-worker.ts";

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
}

export async function deploy(opts: DeployOptions): Promise<void> {
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };
  if (opts.build) await run("npm", ["run", "build"], env);

  // The build dist names now, by its own folder: a build finishing meanwhile switches dist, not this deploy's files.
  const distDir = liveFolderOf(opts.distDir) ?? opts.distDir;
  const limit = assetFileLimit(env);
  const files = await uploadFiles(distDir);
  console.log(`Assets to upload: ${files.length} files (limit ${limit}; ${ASSETS_IGNORE.join(", ")} not uploaded)`);
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
  try {
    const wrangler = path.join(ROOT, "node_modules/wrangler/bin/wrangler.js");
    const args = ["deploy", worker.file, "--no-bundle", "--config", path.join(ROOT, "wrangler.jsonc"), "--assets", distDir];
    if (opts.dryRun) args.push("--dry-run", "--outdir", opts.outDir);
    await run(process.execPath, [wrangler, ...args], env);
  } finally {
    await rm(ignoreFile, { force: true });
  }
  console.log(opts.dryRun ? `Dry run passed: nothing was uploaded (wrangler's output in ${path.relative(ROOT, opts.outDir) || opts.outDir})` : "Deployed.");
}

function parseArgs(argv: string[]): DeployOptions {
  const opts: DeployOptions = { dryRun: false, build: true, distDir: path.join(ROOT, "dist"), outDir: path.join(ROOT, "node_modules/.cache/edge/dry-run") };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--dry-run") opts.dryRun = true;
    else if (a === "--no-build") opts.build = false;
    else if (a === "--dist" && argv[i + 1]) opts.distDir = path.resolve(argv[++i]!);
    else if (a === "--outdir" && argv[i + 1]) opts.outDir = path.resolve(argv[++i]!);
    else throw new Error(`unknown argument '${a}' (use --dry-run, --no-build, --dist <dir>, --outdir <dir>)`);
  }
  return opts;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  Promise.resolve()
    .then(() => deploy(parseArgs(process.argv.slice(2))))
    .catch((e: Error) => {
      console.error(`deploy: ${e.message}`);
      process.exit(1);
    });
}
