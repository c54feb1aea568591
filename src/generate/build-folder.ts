// The folder a build writes, and the switch that makes it live (docs/architecture.md#the-build;
// the layout: src/node/builds.ts). A build never writes a file a server may read:
// - it writes into a folder of its own under `<dist>.builds/`, never the live build's: the build
//   before the live one, renamed to the new build's id (so every path of the old build stops
//   naming anything) once no server reads it any more, and brought up to date like any
//   incremental build; or, when that folder cannot be reused, a copy of the live build made of
//   hard links (./site.ts decides), or an empty folder (a clean build);
// - every file it writes is a new file (./new-file.ts), and the files Astro writes itself are
//   removed first (`clearSiteFiles`), so a file shared with the live build through a hard link
//   is never written over;
// - only when it has succeeded is `<dist>` renamed to name it: an interrupted or failed build
//   leaves the live build and the pointer as they were.
// At most two builds are kept: the live one and the one before it. One build runs at a time per
// pointer (a lock file).
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { episodeFile, mediaFile, SITE_FILES } from "../shared/layout.ts";
import { BUILD_ID, buildIdOf, buildsFolderOf, pointTo, processAlive, serverRecords, type ServerRecord } from "../node/builds.ts";

export interface BuildFolder {
  /** The path `--outDir` names (`dist`): the pointer. */
  pointer: string;
  /** The live build's folder when the build started, or null when there is none. */
  live: string | null;
  /** Where this build writes: `<pointer>.builds/<id>`. */
  folder: string;
  id: string;
  /** A folder `pointer` was before it became a pointer: servers started on it must leave it before the switch. */
  adopted: string | null;
}

/** How long a build waits for servers to finish the requests they started on the folder it reuses. */
const RELEASE_TIMEOUT_MS = 60_000;
/** How long a build waits for each running server to notice the switch, and then to load the build. */
const NOTICE_TIMEOUT_MS = 10_000;
const TAKE_UP_TIMEOUT_MS = 300_000;
const POLL_MS = 50;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const pids = (records: ServerRecord[]) => [...new Set(records.map((r) => r.pid))].join(", ");

/** The folders that hold one episode's files only, each written by the build's own writer as new files. */
const EPISODE_FOLDERS = new Set([episodeFile("x", "json"), SITE_FILES.oembed("x"), SITE_FILES.page("x"), SITE_FILES.embed("x"), mediaFile("x")].map((f) => path.posix.dirname(f)));

/** A new build's id: its start time (BUILD_ID). */
function newId(builds: string): string {
  const t = new Date().toISOString(); // 2026-03-01T10:11:12.345Z
  const base = `${t.slice(0, 4)}${t.slice(5, 7)}${t.slice(8, 10)}-${t.slice(11, 13)}${t.slice(14, 16)}${t.slice(17, 19)}-${t.slice(20, 23)}`;
  let id = base;
  for (let n = 1; existsSync(path.join(builds, id)); n++) id = `${base}-${n}`;
  return id;
}

/**
 * Renames `dir` aside at once and deletes it once this process exits: deleting tens of thousands of
 * files takes longer than writing them, and deleting them while the build creates its own slows
 * every creation (docs/performance.md). A dot-name, so it is never taken for a build.
 */
export function removeLater(dir: string): void {
  const aside = path.join(path.dirname(dir), `.removed-${path.basename(dir)}-${process.pid}-${Date.now()}`);
  try {
    renameSync(dir, aside);
    // spawn() starts the child synchronously, as an exit listener must.
    process.once("exit", () => spawn("rm", ["-rf", aside], { detached: true, stdio: "ignore" }).unref());
  } catch {
    rmSync(dir, { recursive: true, force: true }); // another file system, or no `rm`
  }
}

/** One build at a time per pointer: `<builds>/.lock` holds the pid of the build writing. */
function takeLock(builds: string, pointer: string): void {
  const lock = path.join(builds, ".lock");
  for (;;) {
    try {
      const fd = openSync(lock, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      process.once("exit", () => rmSync(lock, { force: true }));
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    const pid = Number(readFileSync(lock, "utf8").trim() || "0");
    if (pid !== 0 && pid !== process.pid && processAlive(pid)) throw new Error(`another build (pid ${pid}) is writing ${pointer}: build again once it is done`);
    rmSync(lock, { force: true }); // left by a build that was killed
  }
}

/**
 * The live build's folder. A `pointer` that is still a folder (made before builds had folders of
 * their own) is moved into the builds' folder and named by a new pointer: the same files, now a build.
 */
function adoptPointer(pointer: string, builds: string, say: (line: string) => void): { live: string | null; adopted: string | null } {
  let isLink: boolean;
  try {
    const stat = lstatSync(pointer);
    if (!stat.isSymbolicLink() && !stat.isDirectory()) throw new Error(`${pointer} is neither a folder nor a link to a build: move it away and build again`);
    isLink = stat.isSymbolicLink();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { live: null, adopted: null };
    throw e;
  }
  if (isLink) {
    try {
      return { live: realpathSync(pointer), adopted: null };
    } catch {
      return { live: null, adopted: null }; // its build is gone
    }
  }
  const adopted = realpathSync(pointer);
  const folder = path.join(builds, newId(builds));
  renameSync(pointer, folder);
  pointTo(pointer, folder);
  say(`${path.basename(pointer)}/ was a folder: moved to ${path.relative(path.dirname(pointer), folder)}, which ${path.basename(pointer)} now names`);
  return { live: realpathSync(folder), adopted };
}

/** Waits until no server running from `pointer` reads `folder`; fails when one keeps serving it. */
async function awaitRelease(pointer: string, folder: string, say: (line: string) => void): Promise<void> {
  const started = Date.now();
  let said = false;
  for (;;) {
    const holders = serverRecords(pointer).filter((r) => r.holding.includes(folder));
    if (holders.length === 0) return;
    // A server that serves the folder and is taking up nothing will not leave it: it did not take up the last build.
    const stuck = holders.filter((r) => r.serving === folder && r.taking === null);
    const late = Date.now() - started > RELEASE_TIMEOUT_MS;
    if (stuck.length > 0 || late) {
      const who = stuck.length > 0 ? stuck : holders;
      const why = stuck.length > 0 ? `still serve${who.length === 1 ? "s" : ""} it: it did not take up the last build (its log says why)` : `still answer${who.length === 1 ? "s" : ""} requests on it after ${RELEASE_TIMEOUT_MS / 1000} s`;
      // A record outlives a server killed outright; its pid may then name another process.
      const records = path.relative(process.cwd(), path.join(buildsFolderOf(pointer), "servers"));
      throw new Error(`this build would reuse the folder of build ${buildIdOf(folder)}, but the server with pid ${pids(who)} ${why}; restart it (or, if no such server runs, remove its record in ${records}), then build again`);
    }
    if (!said && Date.now() - started > 1000) {
      say(`waiting for ${plural(holders.length, "server")} to finish the requests started on build ${buildIdOf(folder)}…`);
      said = true;
    }
    await sleep(POLL_MS);
  }
}

/**
 * Takes the lock and the folder this build writes: the newest build folder that is not live (the
 * one before it), once no server reads it, renamed to the new id; else a new folder. Older build
 * folders and leftovers no server reads are removed.
 */
export async function openBuildFolder(pointer: string, say: (line: string) => void): Promise<BuildFolder> {
  const builds = buildsFolderOf(pointer);
  mkdirSync(builds, { recursive: true });
  takeLock(builds, pointer);
  const { live, adopted } = adoptPointer(pointer, builds, say);
  const real = realpathSync(builds);
  const names = readdirSync(real);
  const others = names
    .filter((n) => BUILD_ID.test(n))
    .map((n) => path.join(real, n))
    .filter((f) => f !== live)
    .sort()
    .reverse();
  const held = new Set(serverRecords(pointer).flatMap((r) => r.holding));
  for (const old of others.slice(1)) if (!held.has(old)) removeLater(old);
  for (const n of names) if (n.startsWith(".removed-")) process.once("exit", () => spawn("rm", ["-rf", path.join(real, n)], { detached: true, stdio: "ignore" }).unref());
  const spare = others[0] ?? null;
  if (spare !== null) await awaitRelease(pointer, spare, say);
  const id = newId(real);
  const folder = path.join(real, id);
  if (spare !== null) renameSync(spare, folder);
  else mkdirSync(folder);
  return { pointer, live, folder, id, adopted };
}

/**
 * Makes `folder` a copy of the build in `live` made of hard links to its files (its content is
 * replaced): the cost of one link a file (`cp -al`), where a clean build writes and compresses
 * every file again. Every write into it then makes a new file (./new-file.ts, `clearSiteFiles`).
 */
export function linkCopy(live: string, folder: string): void {
  if (existsSync(folder)) removeLater(folder);
  if (spawnSync("cp", ["-al", live, folder], { stdio: "ignore" }).status === 0) return;
  rmSync(folder, { recursive: true, force: true }); // no GNU cp: the same, file by file
  const walk = (rel: string) => {
    mkdirSync(path.join(folder, rel), { recursive: true });
    for (const e of readdirSync(path.join(live, rel), { withFileTypes: true })) {
      const child = path.join(rel, e.name);
      if (e.isDirectory()) walk(child);
      else linkSync(path.join(live, child), path.join(folder, child));
    }
  };
  walk("");
}

/** Every file of `folder` outside the episodes' folders, folder-relative with "/": a few hundred at any size of show. */
export function siteFiles(folder: string): string[] {
  const files: string[] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(folder, rel), { withFileTypes: true })) {
      const child = rel === "" ? e.name : `${rel}/${e.name}`;
      if (!e.isDirectory()) files.push(child);
      else if (!EPISODE_FOLDERS.has(child)) walk(child);
    }
  };
  walk("");
  return files;
}

/**
 * Removes every file of `folder` outside the episodes' folders: the files Astro writes itself (the
 * site-wide pages, its assets, the copies of public/), which it writes over in place, and the
 * build's own site-wide files. Every build writes all of them again; what an earlier build left
 * there and this one does not write is gone too, as in a clean build. But for `keep`: files the
 * build reads before it writes them anew (the list's bodies, src/generate/list-bodies.ts).
 */
export function clearSiteFiles(folder: string, keep: ReadonlySet<string> = new Set()): void {
  for (const rel of siteFiles(folder)) if (!keep.has(rel)) unlinkSync(path.join(folder, rel));
}

/** Makes `pointer` name the build in `b.folder`, at once. */
export async function switchPointer(b: BuildFolder, say: (line: string) => void): Promise<void> {
  // A server started on `pointer` while it was a folder reads through the name: it must have left it first.
  if (b.adopted !== null) await awaitRelease(b.pointer, b.adopted, say);
  pointTo(b.pointer, path.join(buildsFolderOf(b.pointer), b.id));
}

/**
 * Once the pointer names this build: waits until every server running from it serves the build
 * (functions/node/live-build.ts), and says how many do, which could not and which did not answer.
 */
export async function awaitServers(b: BuildFolder, say: (line: string) => void): Promise<void> {
  const started = Date.now();
  const done = (r: ServerRecord) => r.serving === b.folder || r.failed?.folder === b.folder;
  let records = serverRecords(b.pointer);
  const silent: ServerRecord[] = [];
  for (;;) {
    records = serverRecords(b.pointer);
    const waiting = records.filter((r) => !done(r));
    const elapsed = Date.now() - started;
    const unnoticed = waiting.filter((r) => r.taking !== b.folder);
    if (waiting.length === 0 || (elapsed > NOTICE_TIMEOUT_MS && unnoticed.length === waiting.length) || elapsed > TAKE_UP_TIMEOUT_MS) {
      silent.push(...waiting);
      break;
    }
    await sleep(POLL_MS);
  }
  const serving = records.filter((r) => r.serving === b.folder);
  const failed = records.filter((r) => r.serving !== b.folder && r.failed?.folder === b.folder);
  const where = path.basename(b.pointer);
  if (records.length === 0) say(`build ${b.id} is in ${where}; no server runs from it now (npm start or npm run serve serves it)`);
  else if (serving.length > 0) say(`build ${b.id} is live: ${plural(serving.length, "running server")} took it up (pid ${pids(serving)})`);
  for (const r of failed) say(`the server with pid ${r.pid} could not take up build ${b.id} (${r.failed!.reason}): it still serves build ${buildIdOf(r.serving)}`);
  if (silent.length > 0) say(`the server with pid ${pids(silent)} did not take up build ${b.id} within ${Math.round((Date.now() - started) / 1000)} s: it still serves the build before`);
}
