// The build stamp: what a build was made from (the content folder's files and the build
// variables). `npm start` rebuilds only when the stamp of the current inputs differs.
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import path from "node:path";
import fg from "fast-glob";
import type { BuildConfig } from "./config.ts";

export async function stampOf(config: BuildConfig): Promise<string> {
  const hash = createHash("sha256");
  hash.update(JSON.stringify([config.contentDir, config.baseUrl, config.siteUrl]));
  const files = (await fg("**/*", { cwd: config.contentDir, dot: false, onlyFiles: true })).sort();
  for (const rel of files) {
    const info = statSync(path.join(config.contentDir, rel)); // sync: ~10x faster than awaiting each
    hash.update(`\n${rel}\t${info.size}\t${info.mtimeMs}`);
  }
  return hash.digest("hex");
}
