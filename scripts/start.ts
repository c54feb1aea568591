// npm start, its first half: build content/ when it or a build variable changed since the last build.
// The second half is scripts/serve.mjs (package.json chains them), which serves from a bundle so
// that the serving process never loads Node's TypeScript stripper (see its header).
import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { buildConfig } from "../src/generate/config.ts";
import { stampOf } from "../src/generate/stamp.ts";
import { BUILD_FILES } from "../src/shared/layout.ts";

const dist = path.resolve("dist");

async function lastStamp(): Promise<string | null> {
  try {
    return (JSON.parse(await readFile(path.join(dist, BUILD_FILES.stamp), "utf8")) as { stamp: string }).stamp;
  } catch {
    return null;
  }
}

const current = await stampOf(buildConfig());
if ((await lastStamp()) !== current) {
  console.log("content/, a build variable or the build code changed since the last build: building…");
  const run = spawnSync("npm", ["run", "build", "--silent"], { stdio: "inherit" });
  if (run.status !== 0) process.exit(run.status ?? 1);
} else console.log("dist/ is up to date with content/ and the build settings: starting at once.");
