// npm run build: `astro build` with its log made compact. Astro prints one line per rendered page,
// tens of thousands at a real show's size, too many to read, and --silent would leave its longest
// step showing nothing. Here the phases and the page count make one status line on a terminal (plain
// lines, the count every few seconds, in a pipe); the integration's own lines
// (src/generate/integration.ts) and every warning or error stay as they are.
import { spawn } from "node:child_process";
import path from "node:path";
import { formatCount, statusLine } from "../src/publish/progress.ts";
import { argPath, command, isMain, ROOT } from "./cli.ts";

const BUILD = command({
  name: "build",
  usage: ["npm run build -- [options]", "node scripts/build.ts [options]"],
  about: `Builds content/ (CONTENT_DIR) into dist/ with Astro and the build's integration: incremental over
the last build of the same code and variables (docs/architecture.md#the-build).`,
  options: {
    outDir: { type: "string", value: "DIR", help: "build into DIR instead of the checkout's dist/" },
    clean: { type: "boolean", help: "a clean build, ignoring the last one (also BUILD_CLEAN=1)" },
  },
  examples: ["npm run build", "npm run build -- --clean --outDir /tmp/site"],
});

/**
 * The young generation's semi-spaces, in MB. The build parses and writes JSON of the whole show
 * (the last builds' states, the manifest), which V8's default young generation copies survivor by
 * survivor; a larger one spares a one-episode build of a large show much of that copying
 * (docs/performance.md#publishing-one-episode-the-builds-phases).
 */
const SEMI_SPACE_MB = 32;

/** Astro's own tag for lines of this project's integration: they stay on screen. */
const OWN_TAG = "[episode-service:build]";
const ANSI = /\x1b\[[0-9;]*m/g;
const PAGE = /[├└]─/g;

export async function build(opts: { outDir: string | undefined; clean: boolean }): Promise<number> {
  const astro = path.join(ROOT, "node_modules/astro/bin/astro.mjs");
  const outDir = opts.outDir === undefined ? [] : ["--outDir", argPath(opts.outDir, "")];
  const args = [`--max-semi-space-size=${SEMI_SPACE_MB}`, astro, "build", ...outDir, ...(opts.clean ? ["--clean"] : [])];
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1" }, stdio: ["ignore", "pipe", "pipe"] });

  const status = statusLine(process.stderr, "build");
  const started = performance.now();
  let pages = 0;
  const line = (raw: string) => {
    const text = raw.replace(ANSI, "").trimEnd();
    const rendered = text.match(PAGE)?.length ?? 0;
    if (rendered > 0) {
      pages += rendered;
      status.update(`rendering routes: ${formatCount(pages)}`);
      return;
    }
    // What is left of a page line once others were printed between its parts: `(+8ms) (…)`.
    const phase = text.replace(/^\d\d:\d\d:\d\d /, "").trim();
    if (phase === "" || phase.startsWith("(+")) return;
    if (phase.startsWith(OWN_TAG)) status.log(`build: ${phase.slice(OWN_TAG.length).trim()}`);
    else status.update(phase, true);
  };
  const relay = (stream: NodeJS.ReadableStream, each: (line: string) => void) => {
    let rest = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop()!;
      lines.forEach(each);
    });
    stream.on("end", () => rest && each(rest));
  };
  relay(child.stdout, line);
  // Astro writes warnings and errors to stderr: every one stays, above the status line.
  relay(child.stderr, (l) => status.log(l));

  const code = await new Promise<number>((resolve) => {
    child.once("error", (e) => {
      status.log(`build: ${e.message}`);
      resolve(1);
    });
    child.once("close", (c) => resolve(c ?? 1));
  });
  status.done();
  if (code === 0) process.stderr.write(`build: done in ${((performance.now() - started) / 1000).toFixed(1)} s (${formatCount(pages)} routes rendered)\n`);
  return code;
}

if (isMain(import.meta)) {
  const { values } = BUILD.parse();
  void BUILD.run(() => build(values));
}
