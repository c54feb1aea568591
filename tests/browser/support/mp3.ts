// A long MP3 made in memory: constant-bitrate MPEG-1 Layer III frames of silence (128 kbit/s,
// 44.1 kHz, mono). Long enough that Chromium cannot buffer it all, so seeks need Range requests.

const FRAME_BYTES = 417; // 144 * 128000 / 44100, no padding
const FRAME_SECONDS = 1152 / 44100;

export function silentMp3(seconds: number): Uint8Array {
  const frames = Math.ceil(seconds / FRAME_SECONDS);
  const out = new Uint8Array(frames * FRAME_BYTES);
  for (let i = 0; i < frames; i++) {
    // Sync, MPEG-1, Layer III, no CRC | 128 kbit/s, 44.1 kHz | mono, original. Side info and main
    // data stay zero: every granule decodes to silence.
    out.set([0xff, 0xfb, 0x90, 0xc4], i * FRAME_BYTES);
  }
  return out;
}
