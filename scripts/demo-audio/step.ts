// The steps of scripts/make-demo-audio.sh that read and write audio and JSON, one per call (the
// shell script runs espeak-ng, lame and ffmpeg between them). Not a command of its own.
//   segments <script.json>              the spoken segments, "<index>\t<speaker>\t<text>" a line;
//                                       refuses a script whose chapters would lose their anchors
//   join <work-dir> <pause-seconds>     seg-<index>.wav → all.wav, trimmed and joined; placed.json;
//                                       probe.wav, a click to measure the MP3's delay on
//   record <script.json> <mp3> <work-dir>  the delay (probe.mp3) and where the speech is in the MP3
//                                       → script.json's times
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stripStageDirections } from "../../src/generate/script.ts";
import { scriptFileSchema } from "../../src/shared/schema/content.ts";
import { anchorChapters, join, probe, probeDelay, readWav, seconds, timesOf, wavBytes, worstMismatch, type Placed } from "./timeline.ts";

const NAME = "make-demo-audio";

/**
 * How far, at most, a recorded time may be from where the decoded MP3's speech starts or ends: the
 * encoder spreads noise ahead of an onset (pre-echo) and may drop a faint tail below silence.
 */
const TOLERANCE_SECONDS = 0.1;

interface Script {
  chapters: Record<string, unknown>[];
  segments: Record<string, unknown>[];
}

function fail(message: string, code = 1): never {
  process.stderr.write(`${NAME}: ${message}\n`);
  process.exit(code);
}

function readScript(file: string): { raw: Script; kept: { at: number; speaker: string; text: string; start: number | undefined }[]; chapterStarts: (number | undefined)[] } {
  const raw = JSON.parse(readFileSync(file, "utf8")) as Script;
  const parsed = scriptFileSchema.safeParse(raw);
  if (!parsed.success) fail(`${file}: not a valid script.json: ${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}`);
  const kept = parsed.data.segments.flatMap((s, at) => {
    // The build's own rule (src/generate/script.ts): a segment left empty is dropped with its times.
    const text = stripStageDirections(s.text);
    return text === "" ? [] : [{ at, speaker: s.speaker, text, start: s.start }];
  });
  return { raw, kept, chapterStarts: parsed.data.chapters.map((c) => c.start) };
}

function segments(file: string): void {
  const { kept, chapterStarts } = readScript(file);
  const before = new Map(kept.map((s) => [s.at, s.start]));
  const same = new Map(kept.flatMap((s) => (s.start === undefined ? [] : [[s.at, s.start] as const])));
  const { problems } = anchorChapters(chapterStarts, before, same);
  if (problems.length > 0) fail(`${file}: ${problems.join("; ")}`);
  for (const s of kept) process.stdout.write(`${s.at}\t${s.speaker}\t${s.text}\n`);
}

interface Joined {
  rate: number;
  pause: number;
  placed: Placed[];
}

function joinStep(work: string, pauseSeconds: number): void {
  const files = readdirSync(work)
    .map((f) => /^seg-(\d+)\.wav$/.exec(f))
    .filter((m) => m !== null)
    .map((m) => ({ at: Number(m[1]), file: path.join(work, m[0]) }))
    .sort((a, b) => a.at - b.at);
  const { pcm, placed } = join(
    files.map(({ at, file }) => ({ at, pcm: readWav(readFileSync(file)) })),
    pauseSeconds,
  );
  writeFileSync(path.join(work, "all.wav"), wavBytes(pcm));
  writeFileSync(path.join(work, "probe.wav"), wavBytes(probe(pcm.rate)));
  const joined: Joined = { rate: pcm.rate, pause: Math.round(pauseSeconds * pcm.rate), placed };
  writeFileSync(path.join(work, "placed.json"), JSON.stringify(joined));
}

/** The MP3 decoded by ffmpeg to mono 16-bit PCM at `rate`: what a player plays. */
function decode(mp3: string, rate: number): Int16Array {
  const out = execFileSync("ffmpeg", ["-v", "error", "-i", mp3, "-f", "s16le", "-ac", "1", "-ar", String(rate), "-"], { maxBuffer: 1 << 30 });
  return new Int16Array(out.buffer.slice(out.byteOffset, out.byteOffset + (out.byteLength & ~1)));
}

function record(file: string, mp3: string, work: string): void {
  const { raw, kept, chapterStarts } = readScript(file);
  const { rate, pause, placed } = JSON.parse(readFileSync(path.join(work, "placed.json"), "utf8")) as Joined;
  if (placed.map((p) => p.at).join() !== kept.map((s) => s.at).join()) fail(`${file}: changed while its audio was made; run again`);
  const delay = probeDelay(decode(path.join(work, "probe.mp3"), rate), rate);
  const decoded = decode(mp3, rate);
  const worst = worstMismatch(decoded, placed, delay, pause);
  if (worst > TOLERANCE_SECONDS * rate) fail(`${mp3}: speech found ${seconds(worst, rate)} s from its recorded time (more than ${TOLERANCE_SECONDS} s)`);

  const times = timesOf(placed, delay, rate);
  const before = new Map(kept.map((s) => [s.at, s.start]));
  const { starts, problems } = anchorChapters(chapterStarts, before, new Map([...times].map(([at, t]) => [at, t.start])));
  if (problems.length > 0) fail(`${file}: ${problems.join("; ")}`);

  const timed: Script = {
    ...raw,
    chapters: raw.chapters.map((c, i) => {
      const { start: _, ...rest } = c;
      return starts[i] === undefined ? rest : { ...rest, start: starts[i] };
    }),
    segments: raw.segments.map((s, at) => {
      const { start: _s, end: _e, ...rest } = s;
      const t = times.get(at);
      return t === undefined ? rest : { ...rest, start: t.start, end: t.end };
    }),
  };
  writeFileSync(file, JSON.stringify(timed, null, 2) + "\n");
  process.stdout.write(`${NAME}: ${path.basename(path.dirname(file))}: ${placed.length} segments timed; encoder delay ${seconds(delay, rate)} s (${delay} samples), speech within ${seconds(worst, rate)} s of its times\n`);
}

const [step, ...args] = process.argv.slice(2);
if (step === "segments" && args.length === 1) segments(args[0]!);
else if (step === "join" && args.length === 2 && Number(args[1]) >= 0) joinStep(args[0]!, Number(args[1]));
else if (step === "record" && args.length === 3) record(args[0]!, args[1]!, args[2]!);
else fail(`unknown step '${[step, ...args].join(" ")}'`, 2);
