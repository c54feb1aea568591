// npm start: build content/ when it, a build variable or the build code changed since the last
// build, then serve. The serving process is scripts/serve.mjs, which serves from a bundle so that
// it never loads Node's TypeScript stripper (see its header): this process replaces itself with it
// (process.execve, same pid), so nothing of this one stays resident.
import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { argPath, command, isMain } from "./cli.ts";
import { SERVE } from "./serve.ts";

const START = command({
  name: "start",
  usage: ["npm start -- [options]", "node scripts/start.ts [options]"],
  about: `Builds dist/ when content/ (CONTENT_DIR), a build variable or the build code changed since the last
build, then serves it as npm run serve does (PORT, HOST and the variables of README.md#configuration).`,
  // npm run serve's options, passed on to it.
  options: { ...SERVE.spec.options },
  examples: ["npm start", "HOST=0.0.0.0 npm start"],
});

async function lastStamp(dist: string): Promise<string | null> {
  const { BUILD_FILES } = await import("../src/shared/layout.ts");
  try {
    return (JSON.parse(await readFile(path.join(dist, BUILD_FILES.stamp), "utf8")) as { stamp: string }).stamp;
  } catch {
    return null;
  }
}

if (isMain(import.meta)) {
  const argv = process.argv.slice(2);
  const { values } = START.parse(argv);
  const dist = argPath(values.dist, path.resolve("dist"));
  void START.run(async () => {
    const { buildConfig } = await import("../src/generate/config.ts");
    const { stampOf } = await import("../src/generate/stamp.ts");
    if ((await lastStamp(dist)) !== (await stampOf(buildConfig()))) {
      console.log("content/, a build variable or the build code changed since the last build: building…");
      const { build } = await import("./build.ts");
      const code = await build({ outDir: dist, clean: false });
      if (code !== 0) return code;
    } else console.log("dist/ is up to date with content/ and the build settings: starting at once.");
    const serve = [path.join(import.meta.dirname, "serve.mjs"), ...argv];
    if (process.execve) process.execve(process.execPath, [process.execPath, ...serve]);
    // Windows has no execve: serve from a child instead.
    return spawnSync(process.execPath, serve, { stdio: "inherit" }).status ?? 1;
  });
}
