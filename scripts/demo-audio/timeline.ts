// The timeline of a demo episode's audio (scripts/make-demo-audio.sh): each spoken segment's
// synthesis trimmed to its speech, the segments joined with a fixed pause, where each one's speech
// starts and ends in the joined audio, how far the MP3 encoder moves it, and the chapters carried
// along with the segments they begin at. Pure: the steps that read and write files are in step.ts.
import { toMilliseconds } from "../../src/shared/duration.ts";

/** Quieter than this is silence: what is trimmed, and what `ffmpeg -af silencedetect=n=-50dB` finds. */
export const SILENCE_DB = -50;
const THRESHOLD = Math.round(32768 * 10 ** (SILENCE_DB / 20));

/** Mono 16-bit PCM. */
export interface Pcm {
  rate: number;
  samples: Int16Array;
}

/** The PCM of a mono 16-bit WAV file (what espeak-ng writes); throws on anything else. */
export function readWav(bytes: Uint8Array): Pcm {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== "RIFF" || tag(8) !== "WAVE") throw new Error("not a WAV file");
  let rate = 0;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === "fmt ") {
      const format = view.getUint16(body, true);
      const channels = view.getUint16(body + 2, true);
      const bits = view.getUint16(body + 14, true);
      if (format !== 1 || channels !== 1 || bits !== 16) throw new Error(`not mono 16-bit PCM (format ${format}, ${channels} channels, ${bits} bits)`);
      rate = view.getUint32(body + 4, true);
    } else if (id === "data") {
      if (rate === 0) throw new Error("data before fmt");
      // A streamed WAV may carry a size larger than the file: the data runs to its end.
      const end = Math.min(bytes.length, body + size) & ~1;
      return { rate, samples: new Int16Array(bytes.slice(body, end).buffer) };
    }
    at = body + size + (size & 1);
  }
  throw new Error("no data chunk");
}

/** A mono 16-bit WAV file of `pcm`. */
export function wavBytes(pcm: Pcm): Uint8Array {
  const data = pcm.samples.length * 2;
  const out = new Uint8Array(44 + data);
  const view = new DataView(out.buffer);
  const text = (at: number, s: string) => [...s].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
  text(0, "RIFF");
  view.setUint32(4, 36 + data, true);
  text(8, "WAVE");
  text(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, pcm.rate, true);
  view.setUint32(28, pcm.rate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, "data");
  view.setUint32(40, data, true);
  out.set(new Uint8Array(pcm.samples.buffer, pcm.samples.byteOffset, data), 44);
  return out;
}

/** The first and one past the last sample louder than silence in [from, to), or null when all is silence. */
export function speechSpan(samples: Int16Array, from = 0, to = samples.length): { start: number; end: number } | null {
  const lo = Math.max(0, from);
  const hi = Math.min(samples.length, to);
  const loud = (i: number) => Math.abs(samples[i]!) > THRESHOLD;
  let start = lo;
  while (start < hi && !loud(start)) start++;
  if (start === hi) return null;
  let end = hi;
  while (!loud(end - 1)) end--;
  return { start, end };
}

/** Where a segment's speech is in the joined audio, in samples. */
export interface Placed {
  /** Its index in script.json's `segments`. */
  at: number;
  start: number;
  end: number;
}

/**
 * The segments' syntheses trimmed to their speech (espeak-ng pads each with silence) and joined in
 * order, `pause` samples of silence between two and after the last: the joined audio and where each
 * segment's speech is in it. Throws when a segment's synthesis is all silence (it could carry no time).
 */
export function join(segments: readonly { at: number; pcm: Pcm }[], pauseSeconds: number): { pcm: Pcm; placed: Placed[] } {
  const rate = segments[0]?.pcm.rate;
  if (rate === undefined) throw new Error("no segments to join");
  const pause = Math.round(pauseSeconds * rate);
  const spans = segments.map(({ at, pcm }) => {
    if (pcm.rate !== rate) throw new Error(`segment ${at}: ${pcm.rate} Hz, not ${rate} Hz like the first`);
    const span = speechSpan(pcm.samples);
    if (span === null) throw new Error(`segment ${at}: its synthesis is silent`);
    return { at, speech: pcm.samples.subarray(span.start, span.end) };
  });
  const samples = new Int16Array(spans.reduce((n, s) => n + s.speech.length + pause, 0));
  const placed: Placed[] = [];
  let cursor = 0;
  for (const { at, speech } of spans) {
    samples.set(speech, cursor);
    placed.push({ at, start: cursor, end: cursor + speech.length });
    cursor += speech.length + pause;
  }
  return { pcm: { rate, samples }, placed };
}

/** Where the probe's click is: far enough in that the encoder's first frames do not touch it. */
const PROBE_AT = 0.5;

/**
 * A second of silence at `rate` with one click in it: encoded and decoded like the episode, where
 * the click comes out gives the MP3's delay (`probeDelay`).
 */
export function probe(rate: number): Pcm {
  const samples = new Int16Array(rate);
  samples[Math.round(PROBE_AT * rate)] = 16384;
  return { rate, samples };
}

/**
 * How many samples later than it went in the probe's click comes out of `decoded` (the probe's MP3
 * decoded at its rate): lame's encoder delay and the decoder's, which no LAME tag cancels when a
 * frame is too small to hold one. Measured on a click, not on the speech: the encoder spreads its
 * noise ahead of a sound (pre-echo), so decoded speech seems to start early, by a varying amount.
 */
export function probeDelay(decoded: Int16Array, rate: number): number {
  let loudest = 0;
  for (let i = 1; i < decoded.length; i++) if (Math.abs(decoded[i]!) > Math.abs(decoded[loudest]!)) loudest = i;
  return loudest - Math.round(PROBE_AT * rate);
}

/**
 * The largest distance, in samples, between a segment's start or end moved by `delay` and where
 * its speech starts or ends in `decoded`, looking half a pause around it. Throws when a segment's
 * speech is not there at all.
 */
export function worstMismatch(decoded: Int16Array, placed: readonly Placed[], delay: number, pauseSamples: number): number {
  const half = Math.floor(pauseSamples / 2);
  return Math.max(
    ...placed.flatMap((p) => {
      const span = speechSpan(decoded, p.start + delay - half, p.end + delay + half);
      if (span === null) throw new Error(`segment ${p.at}: no speech where it should be in the decoded MP3`);
      return [Math.abs(span.start - p.start - delay), Math.abs(span.end - p.end - delay)];
    }),
  );
}

/** Seconds to the millisecond. */
export const seconds = (samples: number, rate: number): number => toMilliseconds(samples / rate);

/** Each placed segment's times in the MP3, in seconds to the millisecond. */
export function timesOf(placed: readonly Placed[], delay: number, rate: number): Map<number, { start: number; end: number }> {
  return new Map(placed.map((p) => [p.at, { start: seconds(p.start + delay, rate), end: seconds(p.end + delay, rate) }]));
}

/**
 * Each chapter's start after re-synthesis. A chapter begins at 0 (the start of the audio) or at the
 * start of a segment: the segment whose start, before this synthesis, equals the chapter's (to the
 * millisecond), whose new start it takes. A chapter without a start keeps none. `before`: each
 * kept segment's start before (in order); `after`: their new starts. A chapter whose start is no
 * segment's is a problem naming its field.
 */
export function anchorChapters(
  chapterStarts: readonly (number | undefined)[],
  before: ReadonlyMap<number, number | undefined>,
  after: ReadonlyMap<number, number>,
): { starts: (number | undefined)[]; problems: string[] } {
  const problems: string[] = [];
  const starts = chapterStarts.map((start, i) => {
    if (start === undefined || start === 0) return start;
    const ms = toMilliseconds(start);
    const at = [...before].find(([, s]) => s !== undefined && toMilliseconds(s) === ms)?.[0];
    const moved = at === undefined ? undefined : after.get(at);
    if (moved === undefined) problems.push(`field 'chapters.${i}.start': ${ms} is not the start of a spoken segment; set it to 0 or to the start of the segment the chapter begins at`);
    return moved;
  });
  return { starts, problems };
}
