// npm run publish -- <folder>: validates an episode folder, measures its MP3, uploads it in s3 mode,
// writes it into CONTENT_DIR/episodes and rebuilds (src/publish/publish.ts;
// docs/deploy.md#publishing-an-episode). Any failure: one line on stderr, exit code 1, nothing
// half-written.
import { argPath, command } from "./cli.ts";

const PUBLISH = command({
  name: "publish",
  usage: ["npm run publish -- <folder> [options]", "node scripts/publish.ts <folder> [options]"],
  about: `Publishes one episode from a folder (episode.json, script.json, the MP3): validates it as the build
does, measures the MP3, uploads it in s3 mode, writes it into CONTENT_DIR/episodes and rebuilds.
Ends with what goes live and when; any failure is one line, exit 1, and nothing left half-written.`,
  positionals: [{ name: "folder", help: "the episode's folder" }],
  options: {
    "dry-run": { type: "boolean", help: "validate and print only: no upload, no write, no build" },
    deploy: { type: "boolean", help: "then deploy the new build (npm run deploy -- --no-build)" },
    "no-notify": { type: "boolean", help: "with --deploy: announce nothing (docs/deploy.md#announcing-a-publication)" },
    "out-dir": { type: "string", value: "DIR", help: "build into DIR instead of dist/" },
  },
  examples: ["npm run publish -- ~/episodes/42 --dry-run", "AUDIO_BACKEND=s3 npm run publish -- ~/episodes/42 --deploy"],
});

const { values, positionals } = PUBLISH.parse();
if (values["no-notify"] && !values.deploy) PUBLISH.fail("--no-notify goes with --deploy: only a deploy announces");
const interrupt = new AbortController();
process.once("SIGINT", () => interrupt.abort());

void PUBLISH.run(async () => {
  const { publish } = await import("../src/publish/publish.ts");
  await publish({
    folder: argPath(positionals[0], ""),
    dryRun: values["dry-run"],
    deploy: values.deploy,
    notify: !values["no-notify"],
    outDir: values["out-dir"] === undefined ? null : argPath(values["out-dir"], ""),
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    signal: interrupt.signal,
  });
});
