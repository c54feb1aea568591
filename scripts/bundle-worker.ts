// Bundles the Workers entry (functions/workers/entry.ts) into one ES module for workerd: what
// `npm run serve:edge` runs locally and what `npm run deploy` uploads (wrangler --no-bundle), so
// the tested file is the shipped file. Output: node_modules/.cache/edge/worker.js (ignored by git).
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

export async function bundleWorker(outFile = WORKER_FILE): Promise<{ file: string; bytes: number }> {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [ENTRY],
    outfile: outFile,
    bundle: true,
    format: "esm",
    platform: "browser",
    // The export conditions wrangler uses for Workers.
    conditions: ["workerd", "worker", "browser"],
    target: "es2024",
    external: ["cloudflare:*"],
    plugins: [{ name: "no-ajv", setup: (b) => void b.onResolve({ filter: /\/validation\/ajv-provider\.js$/ }, () => ({ path: NO_AJV })) }],
    metafile: true,
    logLevel: "warning",
  });
  const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
  return { file: outFile, bytes };
}

if (isMain(import.meta)) {
  BUNDLE_WORKER.parse();
  void BUNDLE_WORKER.run(async () => {
    const { file, bytes } = await bundleWorker();
    console.log(`Bundled ${path.relative(ROOT, file)} (${(bytes / 1024).toFixed(1)} KiB)`);
  });
}
