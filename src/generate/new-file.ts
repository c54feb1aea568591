// Every write of the build makes a new file: a file of the build's folder that already exists is
// unlinked first, never truncated and written over. The folder may share that file's inode with
// the live build (src/generate/build-folder.ts links the live build's files into it), and a
// server may hold it open (an audio stream): both keep the bytes they had. Creating with "wx"
// costs nothing in a clean build, where no file exists yet.
import { constants, copyFileSync, unlinkSync, writeFileSync } from "node:fs";

function fresh(file: string, create: () => void): void {
  try {
    create();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    unlinkSync(file);
    create();
  }
}

/** Writes `bytes` to `file` as a new file. */
export function writeNewFile(file: string, bytes: Uint8Array | string): void {
  fresh(file, () => writeFileSync(file, bytes, { flag: "wx" }));
}

/** Copies `source` to `file` as a new file. */
export function copyNewFile(source: string, file: string): void {
  fresh(file, () => copyFileSync(source, file, constants.COPYFILE_EXCL));
}
