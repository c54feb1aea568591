// Bundles the Workers entry (functions/workers/entry.ts) into one ES module for workerd: what
// `npm run serve:edge` runs locally and what `npm run deploy` uploads (wrangler --no-bundle), so
// the tested file is the shipped file. Output: node_modules/.cache/edge/worker.js (ignored by git).
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { command, isMain } from "./cli.ts";

const BUNDLE_WORKER = command({
  name: "bundle-worker",
  usage: ["npm run bundle:worker", "node scripts/bundle-worker.ts"],
  about: `Bundles the Workers entry (functions/workers/entry.ts) into node_modules/.cache/edge/worker.js,
the file npm run serve:edge runs and npm run deploy uploads.`,
  options: {},
  examples: ["npm run bundle:worker"],
});

export const ROOT = path.resolve(import.meta.dirname, "..");
export const ENTRY = path.join(ROOT, "functions/workers/entry.ts");
export const WORKER_DIR = path.join(ROOT, "node_modules/.cache/edge");
export const WORKER_FILE = path.join(WORKER_DIR, "worker.js");
/** What the bundle takes in place of the MCP SDK's Ajv validator module: see that file. */
const NO_AJV = path.join(ROOT, "functions/workers/no-ajv.ts");

/**
 * Bundles the entry into `outFile`, replacing the file whole (a new file renamed over it): a
 * workerd starting meanwhile from the same path (a test suite, `npm run serve:edge` beside a
 * deploy) reads the old bundle or the new one, never a file cut short while it is written.
 */
export async function bundleWorker(outFile = WORKER_FILE): Promise<{ file: string; bytes: number }> {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [ENTRY],
    outfile: outFile,
    write: false,
    bundle: true,
    format: "esm",
    platform: "browser",
    // The export conditions wrangler uses for Workers.
    conditions: ["workerd", "worker", "browser"],
    target: "es2024",
    external: ["cloudflare:*"],
    plugins: [{ name: "no-ajv", setup: (b) => void b.onResolve({ filter: /\/validation\/ajv-provider\.js$/ }, () => ({ path: NO_AJV })) }],
    logLevel: "warning",
  });
  await mkdir(path.dirname(outFile), { recursive: true });
  let bytes = 0;
  for (const out of result.outputFiles) {
    const fresh = `${out.path}.${process.pid}.tmp`;
    await writeFile(fresh, out.contents);
    await rename(fresh, out.path);
    bytes += out.contents.byteLength;
  }
  return { file: outFile, bytes };
}

if (isMain(import.meta)) {
  BUNDLE_WORKER.parse();
  void BUNDLE_WORKER.run(async () => {
    const { file, bytes } = await bundleWorker();
    console.log(`Bundled ${path.relative(ROOT, file)} (${(bytes / 1024).toFixed(1)} KiB)`);
  });
}
