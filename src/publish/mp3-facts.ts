// What `npm run publish` measures of an episode's MP3 before anything is written: its duration
// from the MPEG frames (music-metadata scans them all, so a VBR file without a Xing header is
// measured right), its size, and its SHA-256 (streamed, like the build's own measurement in
// src/generate/content.ts, so both always agree on the audio ETag's input).
import { open, stat } from "node:fs/promises";
import { parseFile } from "music-metadata";
import { sha256File } from "../generate/content.ts";

export interface Mp3Facts {
  /** Whole seconds, rounded to the nearest: episode.json's `durationSeconds` is an integer. */
  durationSeconds: number;
  bytes: number;
  sha256: string;
}

/** Thrown for a file that is not an MPEG layer 3 stream; the message names the file (`label`). */
export class NotAnMp3Error extends Error {}

/** Where the audio starts: past an ID3v2 tag and the zero padding some taggers leave after it. */
function audioStart(head: Buffer): number {
  let at = 0;
  if (head.length >= 10 && head.toString("latin1", 0, 3) === "ID3") {
    // The tag's size is "synchsafe" (7 bits per byte), without its 10-byte header and optional footer.
    const size = (head[6]! << 21) | (head[7]! << 14) | (head[8]! << 7) | head[9]!;
    at = 10 + size + (head[5]! & 0x10 ? 10 : 0);
  }
  while (at < head.length && head[at] === 0) at++;
  return at;
}

/** An MPEG audio frame header of layer III at `at`: 11 sync bits, then the layer bits `01`. */
function layer3FrameAt(head: Buffer, at: number): boolean {
  return head[at] === 0xff && (head[at + 1]! & 0xe0) === 0xe0 && ((head[at + 1]! >> 1) & 0x3) === 0x1;
}

const HEAD_BYTES = 256 * 1024;

/** The first 256 KiB: enough for the ID3 tags of podcast MP3s, a large cover image excepted. */
async function readHead(file: string, bytes = HEAD_BYTES): Promise<Buffer> {
  const handle = await open(file);
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export async function mp3Facts(file: string, label: string): Promise<Mp3Facts> {
  // The parser alone is too lenient: it finds "frames" in a WAV's samples. An MP3 starts with an
  // ID3v2 tag or a layer III frame; a tag larger than the head read (a big cover) is taken on trust.
  const head = await readHead(file);
  const start = audioStart(head);
  const pastHead = start >= head.length && head.length === HEAD_BYTES;
  if (!pastHead && !layer3FrameAt(head, start)) {
    const riff = head.toString("latin1", 0, 4) === "RIFF" ? ` (a RIFF ${head.toString("latin1", 8, 12).trim()} file)` : "";
    throw new NotAnMp3Error(`${label}: not an MP3: no MPEG layer III frame at its start${riff}`);
  }
  const meta = await parseFile(file, { duration: true, skipCovers: true }).catch((e: Error) => {
    throw new NotAnMp3Error(`${label}: not an MP3 (${e.message})`);
  });
  const { container, codec, duration } = meta.format;
  if (container !== "MPEG" || !/Layer 3$/.test(codec ?? "")) {
    throw new NotAnMp3Error(`${label}: not an MP3 (found ${[container, codec].filter(Boolean).join(", ") || "no audio frames"})`);
  }
  if (duration === undefined || !Number.isFinite(duration) || duration <= 0) throw new NotAnMp3Error(`${label}: not an MP3 (no playable frames)`);
  const [info, sha256] = await Promise.all([stat(file), sha256File(file)]);
  return { durationSeconds: Math.round(duration), bytes: info.size, sha256 };
}
