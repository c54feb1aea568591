// The demo audio tells the truth (scripts/make-demo-audio.sh): for every published demo episode
// with audio, the silences that ffmpeg's silencedetect finds in the MP3 the API serves fall on the
// cue boundaries of the WebVTT transcript it serves, within 0.25 s, and no silence as long as the
// pause between turns lies inside a cue. The demo content is built and served by the real build and
// server; the cues are read by ffmpeg's WebVTT demuxer. Needs ffmpeg only (not espeak-ng or lame).
// Decoding every MP3 is the cost: `npm test` decodes every other episode's, test:full all (FULL).
import { execFile } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../functions/node/main.ts";
import { SILENCE_DB } from "../../scripts/demo-audio/timeline.ts";
import { demoSite, removeSite, serveSite, tempDir, type Site } from "../support/fixture.ts";
import { call, json, NO_LIMITS } from "../support/http.ts";
import { FULL } from "../support/tiers.ts";

const run = promisify(execFile);

/** How far a silence's edge may be from the cue boundary it marks, in seconds. */
const TOLERANCE = 0.25;
/** Quieter than this is silence: the level the demo's segments were trimmed at. */
const NOISE = `${SILENCE_DB}dB`;
/**
 * The shortest silence looked for, as a share of the pause between turns: long enough that the
 * pauses between sentences inside a turn are not found, short enough that every pause between
 * turns is (the encoder's pre-echo shortens a silence a little).
 */
const PAUSE_SHARE = 0.75;

interface Span {
  start: number;
  end: number;
}

let site: Site;
/** Where the served transcripts and audio are written for the independent parsers. */
let work: string;
let server: RunningServer;

beforeAll(async () => {
  site = await demoSite();
  work = await tempDir("demo-timings");
  server = await serveSite(site, { env: NO_LIMITS });
});
afterAll(async () => {
  await server?.close();
  await removeSite(site);
  if (work) await rm(work, { recursive: true, force: true });
});

/** The cues of a WebVTT file as ffmpeg's WebVTT demuxer reads them. */
async function cuesOf(file: string): Promise<Span[]> {
  const { stdout } = await run("ffprobe", ["-v", "error", "-show_entries", "packet=pts_time,duration_time", "-of", "json", file]);
  const packets = (JSON.parse(stdout) as { packets: { pts_time: string; duration_time: string }[] }).packets;
  return packets.map((p) => ({ start: Number(p.pts_time), end: Number(p.pts_time) + Number(p.duration_time) }));
}

/** The silences ffmpeg's silencedetect finds in an audio file: at least `minimum` seconds below NOISE. */
async function silencesOf(file: string, minimum: number): Promise<Span[]> {
  const { stderr } = await run("ffmpeg", ["-hide_banner", "-nostats", "-i", file, "-af", `silencedetect=n=${NOISE}:d=${minimum}`, "-f", "null", "-"]);
  const starts = [...stderr.matchAll(/silence_start: (-?[\d.]+)/g)].map((m) => Number(m[1]));
  const ends = [...stderr.matchAll(/silence_end: ([\d.]+)/g)].map((m) => Number(m[1]));
  // A silence that runs to the end of the file has a start and no end.
  return starts.map((start, i) => ({ start, end: ends[i] ?? Infinity }));
}

/** Every published episode's number (or id) whose audio the API serves. */
async function episodesWithAudio(): Promise<string[]> {
  const refs: string[] = [];
  let query = "/v1/episodes?limit=50";
  for (;;) {
    const page = json<{ episodes: { id: string; episodeNumber: number | null; audioUrl?: string }[]; pagination: { nextCursor: string | null } }>(await call(server.url, query));
    for (const e of page.episodes) if (e.audioUrl !== undefined) refs.push(String(e.episodeNumber ?? e.id));
    if (page.pagination.nextCursor === null) return refs;
    query = `/v1/episodes?limit=50&cursor=${encodeURIComponent(page.pagination.nextCursor)}`;
  }
}

/** The gaps between consecutive cues: where the pauses between turns should be. */
const gapsOf = (cues: Span[]): Span[] => cues.slice(1).map((next, i) => ({ start: cues[i]!.end, end: next.start }));
/** The pause between turns: the shortest gap (a cue that overlaps the next is a disagreement of its own). */
const pauseOf = (cues: Span[]): number => Math.min(...gapsOf(cues).flatMap((g) => (g.end > g.start ? [g.end - g.start] : [])));

/** What is wrong with one episode's cues against its MP3's silences; empty when they agree. */
function disagreements(cues: Span[], silences: Span[]): string[] {
  const gaps = gapsOf(cues);
  const near = (a: number, b: number) => Math.abs(a - b) <= TOLERANCE;
  const onGap = (s: Span, g: Span) => near(s.start, g.start) && near(s.end, g.end);
  const fmt = (s: Span) => `${s.start.toFixed(3)}–${s.end.toFixed(3)} s`;
  const wrong = gaps.filter((g) => !silences.some((s) => onGap(s, g))).map((g) => `no silence on the gap between cues at ${fmt(g)}`);
  wrong.push(...gaps.filter((g) => g.end <= g.start).map((g) => `a cue ends at ${g.start.toFixed(3)} s, after the next one starts`));
  const first = cues[0]!.start;
  const last = cues[cues.length - 1]!.end;
  for (const s of silences) {
    const outside = s.end <= first + TOLERANCE || s.start >= last - TOLERANCE;
    if (!outside && !gaps.some((g) => onGap(s, g))) wrong.push(`a silence of ${(s.end - s.start).toFixed(3)} s at ${fmt(s)} lies inside a cue (the pause between turns is ${pauseOf(cues).toFixed(3)} s)`);
  }
  return wrong;
}

/** Each demo episode with audio: its reference, its cues as the API serves them, its MP3 as a file. */
interface Served {
  ref: string;
  cues: Span[];
  mp3File: string;
}

/** Fetches each episode's transcript.vtt and audio through the API. */
async function served(): Promise<Served[]> {
  const out: Served[] = [];
  for (const ref of await episodesWithAudio()) {
    const vtt = await call(server.url, `/v1/episodes/${ref}/transcript.vtt`);
    expect(vtt.status, `episode ${ref}: transcript.vtt`).toBe(200);
    const mp3 = await call(server.url, `/v1/episodes/${ref}/audio`);
    expect(mp3.status, `episode ${ref}: audio`).toBe(200);
    const vttFile = path.join(work, `${ref}.vtt`);
    const mp3File = path.join(work, `${ref}.mp3`);
    await writeFile(vttFile, vtt.bytes);
    await writeFile(mp3File, mp3.bytes);
    out.push({ ref, cues: await cuesOf(vttFile), mp3File });
  }
  return out;
}

describe("the demo content's timings", () => {
  let episodes: Served[];
  beforeAll(async () => {
    episodes = await served();
  });

  it("put every cue boundary of each demo episode's transcript.vtt on a silence of its MP3, within 0.25 s, and no turn-long silence inside a cue", async () => {
    const sampled = FULL ? episodes : episodes.filter((_, i) => i % 2 === 0);
    expect(sampled.length).toBeGreaterThan(0);
    const report: Record<string, string[]> = {};
    let boundaries = 0;
    for (const { ref, cues, mp3File } of sampled) {
      expect(cues.length, `episode ${ref}: cues`).toBeGreaterThan(1);
      boundaries += cues.length - 1;
      report[ref] = disagreements(cues, await silencesOf(mp3File, pauseOf(cues) * PAUSE_SHARE));
    }
    expect(report).toEqual(Object.fromEntries(sampled.map((e) => [e.ref, []])));
    expect(boundaries).toBeGreaterThan(sampled.length * 5);
    // ffmpeg decodes every demo MP3 once: on a loaded machine that takes longer than one request.
  }, 180_000);

  it("start each demo episode's chapters at the start of the audio or of a cue, in order, before the audio's end", async () => {
    for (const { ref, cues } of episodes) {
      const reply = await call(server.url, `/v1/episodes/${ref}/chapters.json`);
      expect(reply.status, `episode ${ref}: chapters.json`).toBe(200);
      const { chapters } = json<{ chapters: { startTime: number; endTime?: number }[] }>(reply);
      const starts = new Set([0, ...cues.map((c) => c.start)]);
      expect(chapters.length, `episode ${ref}: chapters`).toBeGreaterThan(1);
      for (const c of chapters) expect(starts.has(c.startTime), `episode ${ref}: chapter at ${c.startTime} s`).toBe(true);
      for (const c of chapters) expect(c.startTime).toBeLessThan(c.endTime!);
    }
  });
});
