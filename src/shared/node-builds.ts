// NODE-ONLY, shared by the build (src/generate/build-folder.ts), the Node server
// (functions/node/live-build.ts) and `npm run publish`: where the builds of one output folder live,
// and how the servers reading them say which build they read (docs/architecture.md#the-build).
//
//   dist                        a symbolic link, the pointer: the live build, renamed into place at once
//   dist.builds/<id>/           the live build, and the one before it (the next build's folder)
//   dist.builds/servers/*.json  one record per server running from `dist`
//   dist.builds/.lock           the pid of the build writing now
//
// A build's folder is named by its id and never renamed while it is live or read: a path of a build
// names that build's bytes or nothing.
import { mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

/** A build's id and folder name: its start time in UTC, `YYYYMMDD-HHMMSS-mmm`, and `-<n>` if taken. */
export const BUILD_ID = /^\d{8}-\d{6}-\d{3}(-\d+)?$/;

/** The folder holding the builds of `pointer` (the path `--outDir` names: `dist`). */
export function buildsFolderOf(pointer: string): string {
  return `${pointer}.builds`;
}

function serversFolderOf(pointer: string): string {
  return path.join(buildsFolderOf(pointer), "servers");
}

/** The real folder `pointer` names now (a build's folder, or `pointer` itself when it is a folder); null when none. */
export function liveFolderOf(pointer: string): string | null {
  try {
    return realpathSync(pointer);
  } catch {
    return null;
  }
}

/**
 * Makes `pointer` name `folder` at once: a new link (relative, so the tree can move) renamed over
 * the old one. A reader sees the old build or the new one, never neither.
 */
export function pointTo(pointer: string, folder: string): void {
  const dir = path.dirname(pointer);
  const link = path.join(dir, `.${path.basename(pointer)}.switch-${process.pid}`);
  rmSync(link, { force: true });
  symlinkSync(path.relative(dir, folder), link);
  renameSync(link, pointer);
}

/** What a log calls the build in `folder`: its id (the folder's name). */
export function buildIdOf(folder: string): string {
  return path.basename(folder);
}

/** What one server running from a pointer says of itself (functions/node/live-build.ts writes it). */
export interface ServerRecord {
  pid: number;
  /** The build folder it answers new requests from. */
  serving: string;
  /** Every build folder its requests may still read: the one it serves, one it is taking up, one still finishing requests. */
  holding: string[];
  /** The folder it has seen the pointer name and is loading; null once done. */
  taking: string | null;
  /** The last folder it could not take up, and why. */
  failed: { folder: string; reason: string } | null;
}

/** Whether process `pid` runs (a record or a lock of a process gone is stale). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The records of the servers running from `pointer`; the records of processes gone are removed. */
export function serverRecords(pointer: string): ServerRecord[] {
  const dir = serversFolderOf(pointer);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
  const records: ServerRecord[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    let record: ServerRecord;
    try {
      record = JSON.parse(readFileSync(file, "utf8")) as ServerRecord;
    } catch {
      continue; // removed meanwhile: its server closed
    }
    if (processAlive(record.pid)) records.push(record);
    else rmSync(file, { force: true });
  }
  return records;
}

/** Writes a server's record whole (a reader never sees half of one). */
export function writeServerRecord(pointer: string, name: string, record: ServerRecord): void {
  const dir = serversFolderOf(pointer);
  mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${name}.tmp`);
  writeFileSync(tmp, JSON.stringify(record));
  renameSync(tmp, path.join(dir, `${name}.json`));
}

export function removeServerRecord(pointer: string, name: string): void {
  rmSync(path.join(serversFolderOf(pointer), `${name}.json`), { force: true });
}
