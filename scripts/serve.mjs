// npm run serve (and the serving half of npm start): scripts/serve.ts, bundled into one plain ES
// module and run from it. Plain JavaScript on purpose: a process that loads a single .ts file
// makes Node load its TypeScript stripper (a WebAssembly module and its source) and keep it for the
// process's life, memory a server meant to stay under 200 MB at 100,000 episodes cannot spare
// (docs/performance.md#nodes-typescript-stripper). Bundling our own modules is quick at each start;
// packages stay imports (the AWS SDK and ioredis are still loaded only when the configuration asks
// for them, functions/node/main.ts).
//
// Output: node_modules/.cache/node-server/serve-<pid>.mjs, made afresh at each start (never stale),
// written under a name of its own so that concurrent starts do not read each other's half-written
// file, and removed once imported. The options are scripts/serve.ts's; `--help` is answered from it
// unbundled, before any bundling (the process ends right after, stripper or not).
//
// The process starts with a floor under V8's young generation, YOUNG_GENERATION_MB per semi-space
// (functions/node/main.ts grows it there after start-up and ./young-generation.ts keeps it from
// growing further): V8 shrinks the young generation to its floor whenever it collects while the
// allocation rate is low, after any idle moment, and at V8's own floor every ~100 requests end in a
// scavenge whose fixed cost is most of its pause. Only a start flag sets the floor, so this file
// restarts itself with it in place (process.execve: same pid, same stdio) when it was started
// without it (docs/performance.md#the-young-generation).
import { rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = path.resolve(import.meta.dirname, "..");
const OUT_DIR = path.join(ROOT, "node_modules/.cache/node-server");

/**
 * Bundles scripts/serve.ts; the file's path. esbuild is imported here, so that a process that
 * restarts itself with the floor (below) has loaded nothing but Node's own modules.
 */
async function bundle() {
  const { build, stop } = await import("esbuild");
  const result = await build({
    entryPoints: [path.join(ROOT, "scripts/serve.ts")],
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    target: "node22",
    packages: "external",
    logLevel: "warning",
  });
  await stop();
  await mkdir(OUT_DIR, { recursive: true });
  const file = path.join(OUT_DIR, `serve-${process.pid}.mjs`);
  await writeFile(file, result.outputFiles[0].contents);
  return file;
}

/** functions/node/main.ts YOUNG_GENERATION_BYTES, in MB (tests/http/smoke.test.ts holds them equal). */
const YOUNG_GENERATION_MB = 8;
const FLOOR = `--min-semi-space-size=${YOUNG_GENERATION_MB}`;

const args = process.argv.slice(2);
if (args.includes("-h") || args.includes("--help")) await (await import("./serve.ts")).serve(args);

// Windows has no execve: there the server runs without the floor.
if (!process.execArgv.some((a) => a.startsWith("--min-semi-space-size")) && process.execve) {
  process.execve(process.execPath, [process.execPath, FLOOR, ...process.execArgv, import.meta.filename, ...args]);
}

try {
  const file = await bundle();
  let serve;
  try {
    ({ serve } = await import(pathToFileURL(file).href));
  } finally {
    rmSync(file, { force: true });
  }
  await serve(args);
} catch (e) {
  console.error(`serve: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
