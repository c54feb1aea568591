// The `local` audio backend: MP3 files in a folder (dist/media, copied there by the build).
import { createReadStream, open } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import type { AudioObject, AudioStorage } from "../ports.ts";

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** fs.open as a promise; the stream closes the descriptor itself (a FileHandle's close was still pending after a thousand hang-ups). */
const openFile = promisify(open);

export class LocalAudioStorage implements AudioStorage {
  private readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  private file(key: string): string | null {
    return SAFE_KEY.test(key) && !key.includes("..") ? path.join(this.dir, key) : null;
  }

  async head(key: string): Promise<AudioObject | null> {
    const file = this.file(key);
    if (file === null) return null;
    const info = await stat(file).catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT" || e.code === "ENOTDIR") return null;
      throw e;
    });
    return info?.isFile() ? { size: info.size, etag: null } : null;
  }

  async read(key: string, first: number, last: number, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    const file = this.file(key);
    if (file === null) throw new Error("invalid storage key");
    // Opened before the stream is handed back: it reads this file to its end, even when a later
    // build replaces or removes it (builds never write over a file: src/generate/new-file.ts), and
    // the server lets the build go once the request has its answer (./live-build.ts).
    const fd = await openFile(file, "r");
    const stream = createReadStream(file, { fd, start: first, end: last, signal, highWaterMark: 64 * 1024 });
    // An abort is the client hanging up: not an error worth reporting.
    stream.on("error", () => {});
    return Readable.toWeb(stream) as ReadableStream<Uint8Array>;
  }
}
