// npm run publish -- <folder> [--dry-run] [--deploy [--no-notify]] [--out-dir <dir>]: validates an episode folder,
// measures its MP3, uploads it in s3 mode, writes it into CONTENT_DIR/episodes and rebuilds
// (src/publish/publish.ts; docs/deploy.md#publishing-an-episode). Any failure: one line on stderr,
// exit code 1, nothing half-written.
import path from "node:path";
import { publish, type PublishOptions } from "../src/publish/publish.ts";

// npm runs scripts in the package's folder; paths on the command line are the caller's (INIT_CWD).
const HERE = process.env.INIT_CWD ?? process.cwd();
const USAGE = "usage: npm run publish -- <folder> [--dry-run] [--deploy [--no-notify]] [--out-dir <dir>]";

function parseArgs(argv: string[]): Pick<PublishOptions, "folder" | "dryRun" | "deploy" | "notify" | "outDir"> {
  let folder: string | null = null;
  const opts = { dryRun: false, deploy: false, notify: true, outDir: null as string | null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--dry-run") opts.dryRun = true;
    else if (a === "--deploy") opts.deploy = true;
    else if (a === "--no-notify") opts.notify = false;
    else if (a === "--out-dir" && argv[i + 1]) opts.outDir = path.resolve(HERE, argv[++i]!);
    else if (a.startsWith("-") || folder !== null) throw new Error(`unknown argument '${a}' (${USAGE})`);
    else folder = path.resolve(HERE, a);
  }
  if (folder === null) throw new Error(USAGE);
  if (!opts.notify && !opts.deploy) throw new Error(`--no-notify goes with --deploy: only a deploy announces (${USAGE})`);
  return { folder, ...opts };
}

const interrupt = new AbortController();
process.once("SIGINT", () => interrupt.abort());

Promise.resolve()
  .then(() => publish({ ...parseArgs(process.argv.slice(2)), env: process.env, stdout: process.stdout, stderr: process.stderr, signal: interrupt.signal }))
  .then(
    () => process.exit(0),
    (e: Error) => {
      process.stderr.write(`publish: ${e.message.split("\n").join(" ")}\n`);
      process.exit(1);
    },
  );
