// `npm run publish -- <folder>`: one episode from a folder to the site, in an order that leaves
// nothing half-written (docs/deploy.md#publishing-an-episode):
//   1. validate the folder and measure the MP3 (src/publish/validate.ts, src/publish/mp3-facts.ts); --dry-run stops here;
//   2. s3 mode: upload the MP3, or skip it when the same bytes are there (src/publish/upload.ts);
//   3. write the folder into CONTENT_DIR/episodes, atomically (src/publish/episode-folder.ts);
//   4. `npm run build`, then with --deploy `npm run deploy -- --no-build` (their scripts, without npm), which announces the new
//      published set once deployed (--no-notify: not); without, the servers running from the
//      build's folder have taken the build up when the build exits, or it says which did not
//      (src/generate/build-folder.ts).
// A failure in 3 or 4 takes the folder back out, so a retry of the same command starts clean (an
// uploaded object stays: the retry finds it and skips the upload).
import { spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildConfig } from "../generate/config.ts";
import { pageUrl, type Origins } from "../shared/links.ts";
import { buildIdOf, liveFolderOf, serverRecords } from "../node/builds.ts";
import { canonicalRef } from "../shared/refs.ts";
import type { EpisodeFile } from "../shared/schema/content.ts";
import { removeEpisodeFolder, writeEpisodeFolder } from "./episode-folder.ts";
import { formatBytes, type ProgressOutput } from "./progress.ts";
import { InvalidEpisodeError, prepareEpisode } from "./validate.ts";

export const ROOT = path.resolve(import.meta.dirname, "../..");

export interface PublishOptions {
  folder: string;
  env: NodeJS.ProcessEnv;
  dryRun: boolean;
  deploy: boolean;
  /** With deploy: announce the new published set once deployed (false: --no-notify). */
  notify?: boolean;
  /** Build into this folder instead of dist/ (the build's --outDir, the deploy's --dist). */
  outDir: string | null;
  stdout: { write(text: string): unknown };
  /** Warnings and the upload's progress. */
  stderr: ProgressOutput;
  now?: () => number;
  /** Aborts the upload; the steps after it are not started. */
  signal?: AbortSignal;
}

/** A step that failed after the folder was written; the message says what was undone. */
export class PublishError extends Error {}

/**
 * A command of package.json's scripts: how to start it, its name for messages, and variables it
 * starts with unless the caller's environment sets them. Both start their script without npm:
 * npm's own start-up is a share of a one-episode publish worth sparing; and with Node's compile
 * cache (where Astro's command keeps its own), the build's TypeScript is not stripped again on
 * every start (docs/performance.md#publishing-one-episode-the-builds-phases).
 */
interface Script {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}
const BUILD: Script = {
  name: "npm run build",
  command: process.execPath,
  args: [path.join(ROOT, "scripts/build.ts")],
  env: { NODE_COMPILE_CACHE: path.join(tmpdir(), "node-compile-cache") },
};
const DEPLOY: Script = { name: "npm run deploy", command: process.execPath, args: [path.join(ROOT, "scripts/deploy.ts")], env: {} };

/** Runs a script in the repository with `args` and `env`, output to this terminal. */
function runScript(script: Script, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(script.command, [...script.args, ...args], { cwd: ROOT, env: { ...script.env, ...env }, stdio: "inherit" });
    child.once("error", reject);
    child.once("exit", (code, signal) => (code === 0 ? resolve() : reject(new Error(`${script.name} ${signal !== null ? `was stopped (${signal})` : `exited with ${code}`}`))));
  });
}

const relative = new Intl.RelativeTimeFormat("en", { numeric: "always" });

/** `in 3 days`, `in 5 hours`, `in 12 minutes`. */
export function fromNow(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 60) return relative.format(minutes, "minute");
  const hours = Math.round(minutes / 60);
  if (hours < 48) return relative.format(hours, "hour");
  return relative.format(Math.round(hours / 24), "day");
}

/** What goes live and when: now, scheduled (a future publishedAt), or never (a draft). */
export function announcement(file: EpisodeFile, origins: Origins, now: number): string {
  const who = `Episode ${file.episodeNumber === null ? "" : `${file.episodeNumber} `}“${file.title}”`;
  if (file.status === "draft") return `${who} saved as a draft`;
  if (file.publishedAt === null) return `${who} saved as a draft (no publishedAt: it goes live once it has one)`;
  const url = pageUrl(origins, canonicalRef({ id: file.id.toLowerCase(), episodeNumber: file.episodeNumber }));
  const at = Date.parse(file.publishedAt);
  return at <= now ? `${who} goes live now at ${url}` : `${who} scheduled for ${file.publishedAt} (${fromNow(at - now)}) at ${url}`;
}

/** Whether the servers running from `pointer` serve the build it names, and the line that says so. */
export function servedBy(pointer: string): { live: boolean; line: string } {
  const folder = liveFolderOf(pointer);
  const records = serverRecords(pointer);
  const behind = records.filter((r) => r.serving !== folder);
  const pids = (rs: typeof records) => [...new Set(rs.map((r) => r.pid))].join(", ");
  const where = path.relative(process.cwd(), pointer) || ".";
  if (records.length === 0) return { live: true, line: `No server is running from ${where}: it is served once one starts (npm start, or npm run serve).` };
  if (behind.length === 0) return { live: true, line: `Served now by ${records.length === 1 ? "the running server" : `${records.length} running servers`} (pid ${pids(records)}).` };
  const why = behind.map((r) => r.failed?.reason).find((reason) => reason !== undefined);
  return { live: false, line: `The server with pid ${pids(behind)} still serves build ${buildIdOf(behind[0]!.serving)}${why ? ` (${why})` : ""}: restart it to serve this one.` };
}

export interface PublishResult {
  /** The episode folder written, or null for a dry run. */
  folder: string | null;
  upload: "uploaded" | "already uploaded" | null;
  announcement: string;
}

export async function publish(opts: PublishOptions): Promise<PublishResult> {
  const config = buildConfig(opts.env);
  // The S3 client and the episode writer load in s3 mode only: they are most of a local publish's start-up.
  const s3 = config.audioBackend === "s3" ? { ...(await import("./upload.ts")), ...(await import("../generate/episode-writer.ts")) } : null;
  const target = s3?.s3Target(opts.env) ?? null;
  const say = (line: string) => void opts.stdout.write(`${line}\n`);
  const shown = (abs: string) => path.relative(process.cwd(), abs) || ".";
  if (!(await stat(path.join(config.contentDir, "podcast.json")).then((s) => s.isFile(), () => false))) {
    throw new Error(`CONTENT_DIR ${shown(config.contentDir)} has no podcast.json: is it the show's content folder?`);
  }

  // Ctrl-C stops the upload (src/publish/upload.ts) and, between steps, everything after it.
  const checkpoint = (what: string) => {
    if (opts.signal?.aborted) throw new Error(`interrupted before ${what}: nothing was written`);
  };
  const warn = (warnings: string[]) => warnings.forEach((w) => opts.stderr.write(`warning: ${w}\n`));
  const ep = await prepareEpisode(opts.folder, config.contentDir, config.audioBackend).catch((e: Error) => {
    if (e instanceof InvalidEpisodeError) warn(e.warnings);
    throw e;
  });
  warn(ep.warnings);
  const { facts } = ep;
  say(`${ep.mp3.rel}: ${facts.durationSeconds} s, ${formatBytes(facts.bytes)}, sha256 ${facts.sha256}`);
  if (ep.numberChosen) say(`episodeNumber: ${ep.file.episodeNumber} (the next free number)`);
  const key = ep.file.audio?.key ?? s3?.defaultObjectKey(ep.file.id) ?? null;
  const where = target === null ? null : `s3://${target.bucket}/${key}`;
  const destination = path.join(config.contentDir, "episodes", ep.name);
  const now = (opts.now ?? Date.now)();
  const live = announcement(ep.file, config, now);

  if (opts.dryRun) {
    const steps = [where === null ? null : `upload ${where}`, `write ${shown(destination)}`, "build", opts.deploy ? "deploy" : null].filter(Boolean);
    say(`Dry run: the folder is valid; nothing was uploaded, written or built (publishing would ${steps.join(", then ")})`);
    say(live.replace(" goes live now", " would go live now"));
    return { folder: null, upload: null, announcement: live };
  }

  let upload: PublishResult["upload"] = null;
  if (s3 !== null && target !== null && key !== null) {
    checkpoint("the upload");
    upload = await s3.uploadAudio(target, key, ep.mp3.abs, facts, { progress: opts.stderr, signal: opts.signal });
    say(upload === "uploaded" ? `Uploaded ${where}` : `${where}: already uploaded (same size and sha256), upload skipped`);
  }
  checkpoint("writing the episode folder");

  const written = await writeEpisodeFolder(config.contentDir, ep, target === null);
  say(`Wrote ${shown(written)}`);
  let built = false;
  try {
    await runScript(BUILD, opts.outDir === null ? [] : ["--outDir", opts.outDir], opts.env);
    built = true;
    const deployArgs = ["--no-build", ...(opts.outDir === null ? [] : ["--dist", opts.outDir]), ...(opts.notify === false ? ["--no-notify"] : [])];
    if (opts.deploy) await runScript(DEPLOY, deployArgs, opts.env);
  } catch (e) {
    await removeEpisodeFolder(written);
    const kept = upload === null ? "" : "; the uploaded MP3 stays in the bucket and a retry skips its upload";
    // The build that passed holds the episode, and servers running from it took it up.
    const stale = built ? `; ${shown(opts.outDir ?? path.join(ROOT, "dist"))} still holds the episode (servers running from it serve it): run npm run build to take it out` : "";
    throw new PublishError(`${(e as Error).message}: ${shown(written)} was removed again${kept}${stale}; fix the cause and publish again`);
  }
  if (opts.deploy) say(`${live} (deployed)`);
  else {
    const served = servedBy(opts.outDir ?? path.join(ROOT, "dist"));
    say(served.live ? live : live.replace(" goes live now", " is built but not live"));
    say(served.line);
  }
  return { folder: written, upload, announcement: live };
}
