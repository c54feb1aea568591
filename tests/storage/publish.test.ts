// `npm run publish -- <folder>` (scripts/publish.ts, src/publish/): the CLI run as a child process
// on fixture content folders (the checks that stop before any write call the command's `publish()`
// in this process, with the command's arguments), with MP3s made by ffmpeg and measured by ffprobe,
// real builds, and Miniflare's local R2 as the S3 store. What it must hold: a dry run writes
// nothing; problems name the file and the field; the MP3's facts are filled; the next free number
// is chosen; the episode folder appears whole or not at all (a failed upload or build leaves none
// behind, exit code 1, one line, no stack trace); the same bytes are never uploaded twice; with
// --deploy (a stand-in for wrangler, tests/support/fake-wrangler.ts) the new set is announced to
// stand-ins for a WebSub hub, Podcast Index and Podping, and a failed announcement fails nothing.
import { execFile, execFileSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, readdir, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { GetObjectCommand, HeadObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { episodeSources } from "../../src/generate/content.ts";
import { progressBar } from "../../src/publish/progress.ts";
import { publish } from "../../src/publish/publish.ts";
import { startServer } from "../../functions/node/main.ts";
import { BUILD_FILES } from "../../src/shared/layout.ts";
import type { BuildIndex } from "../../src/shared/schema/build-index.ts";
import { announceEnv, startAnnounceTargets } from "../support/announce-targets.ts";
import { episode, fixtureBuild, ROOT, script, tempDir, writeContent, type EpisodeSpec } from "../support/fixture.ts";
import { LONG } from "../support/tiers.ts";
import { R2_BUCKET, R2_CREDENTIALS, s3EndpointOf, startLocalR2, type LocalR2 } from "../support/local-r2.ts";
import { freePort } from "../support/tcp-proxy.ts";

const run = promisify(execFile);
const DAY = 86_400_000;

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `node scripts/publish.ts <args>` as `npm run publish` does, with `env` over this process's. */
async function publishCli(args: string[], env: Record<string, string>): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["scripts/publish.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: err.code ?? -1, stdout: err.stdout ?? "", stderr: err.stderr ?? "" };
  }
}

/**
 * What scripts/publish.ts calls, called here with its output captured: the message it failed with
 * (which the command prints as `publish: <message>`, exit 1, as the CLI cases below show) or null.
 */
async function publishHere(folder: string, env: Record<string, string>, opts: { dryRun?: boolean; outDir?: string } = {}) {
  const out = { stdout: "", stderr: "" };
  try {
    await publish({
      folder,
      dryRun: opts.dryRun ?? false,
      deploy: false,
      outDir: opts.outDir ?? null,
      env: { ...process.env, ...env },
      stdout: { write: (text: string) => (out.stdout += text) },
      stderr: { write: (text: string) => (out.stderr += text) },
    });
    return { error: null, ...out };
  } catch (e) {
    return { error: (e as Error).message, ...out };
  }
}

/**
 * The one line a failed publish prints last: `publish: <message>`. Without a build (whose own
 * output, stack traces included, goes to the same terminal) nothing else looks like a stack trace.
 */
function failureLine(out: Outcome, buildRan = false): string {
  expect(out.code).toBe(1);
  const lines = out.stderr.trimEnd().split("\n");
  expect(lines.filter((l) => l.startsWith("publish: "))).toHaveLength(1);
  if (!buildRan) expect(out.stderr).not.toMatch(/^\s+at /m);
  return lines.at(-1)!;
}

/** An MP3 made by ffmpeg: a sine tone of `seconds`, CBR at `kbps`. */
function makeMp3(file: string, seconds: number, kbps = 64): Buffer {
  execFileSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`, "-c:a", "libmp3lame", "-b:a", `${kbps}k`, file]);
  return readFileSync(file);
}

function ffprobeSeconds(file: string): number {
  return Number(execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file], { encoding: "utf8" }).trim());
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/**
 * Every file under `dir` with its size and modification time, and every folder: what "writes
 * nothing" compares (a folder's own mtime moves when a staging folder comes and goes beside it).
 */
async function snapshot(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const out: string[] = [];
  for (const e of entries) {
    const abs = path.join(e.parentPath, e.name);
    const s = await stat(abs);
    out.push(e.isDirectory() ? `${path.relative(dir, abs)}/` : `${path.relative(dir, abs)} ${s.size} ${s.mtimeMs}`);
  }
  return out.sort();
}

/** An episode folder to publish: episode.json (no episodeNumber unless given), an MP3, maybe a script. */
async function episodeFolder(parent: string, name: string, members: Record<string, unknown>, mp3: Uint8Array, extra: { script?: unknown; mp3Name?: string } = {}) {
  const dir = path.join(parent, name);
  await mkdir(dir, { recursive: true });
  const { episodeNumber: _n, ...rest } = episode();
  await writeFile(path.join(dir, "episode.json"), JSON.stringify({ ...rest, ...members }, null, 2));
  await writeFile(path.join(dir, extra.mp3Name ?? "audio.mp3"), mp3);
  if (extra.script !== undefined) await writeFile(path.join(dir, "script.json"), typeof extra.script === "string" ? extra.script : JSON.stringify(extra.script));
  return dir;
}

const readJson = async <T>(file: string) => JSON.parse(await readFile(file, "utf8")) as T;
const exists = (p: string) => stat(p).then(() => true, () => false);

// The content the episodes are published into: numbers 1, 2 and 7 taken.
const EXISTING: EpisodeSpec[] = [
  { folder: "one", episode: episode({ episodeNumber: 1 }), script: script() },
  { folder: "two", episode: episode({ episodeNumber: 2 }) },
  { folder: "seven", episode: episode({ episodeNumber: 7 }) },
];

let work: string;
let tone: Buffer;
let toneFile: string;

beforeAll(async () => {
  work = await tempDir("publish");
  toneFile = path.join(work, "tone.mp3");
  tone = makeMp3(toneFile, 4);
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** A fresh content folder (and where its build goes) per test, so no test sees another's episode. */
async function content(name: string, specs: EpisodeSpec[] = EXISTING) {
  const dir = path.join(work, name);
  const contentDir = path.join(dir, "content");
  await writeContent(contentDir, specs);
  const outDir = path.join(dir, "dist");
  const env = { CONTENT_DIR: contentDir, ASTRO_CACHE_DIR: path.join(dir, ".cache"), SITE_URL: "https://show.example" };
  return { dir, contentDir, outDir, env };
}

describe("checking a folder", { timeout: 60_000 }, () => {
  it("a dry run prints the facts and what would go live, and writes nothing", async () => {
    const c = await content("dry");
    const folder = await episodeFolder(c.dir, "new-one", { title: "Dry Run", publishedAt: new Date(Date.now() + 3 * DAY + 3_600_000).toISOString() }, tone);
    const before = { content: await snapshot(c.contentDir), folder: await snapshot(folder) };
    const out = await publishHere(folder, c.env, { dryRun: true, outDir: c.outDir });
    expect(out.error, out.stderr).toBeNull();
    expect(out.stdout).toContain(`audio.mp3: ${Math.round(ffprobeSeconds(toneFile))} s`);
    expect(out.stdout).toContain(`sha256 ${sha256(tone)}`);
    expect(out.stdout).toContain("episodeNumber: 8 (the next free number)");
    expect(out.stdout).toMatch(/Episode 8 “Dry Run” scheduled for \S+ \(in 3 days\) at https:\/\/show\.example\/episodes\/8/);
    expect({ content: await snapshot(c.contentDir), folder: await snapshot(folder) }).toEqual(before);
    expect(await exists(c.outDir)).toBe(false);
  });

  it("names the file and the field of every problem, in one line, exit code 1", async () => {
    const c = await content("invalid");
    const before = await snapshot(c.contentDir);
    const folder = await episodeFolder(c.dir, "bad", { hosts: { a: 5, b: "Bo" }, title: "" }, tone, { script: { chapters: [], segments: [{ text: "?" }] } });
    const out = await publishCli([folder], c.env);
    const line = failureLine(out);
    expect(line).toContain("episode.json: field 'hosts.a': Invalid input: expected string, received number");
    expect(line).toContain("episode.json: field 'title'");
    // What would only warn is said in the same pass, so one round of fixes covers it.
    expect(out.stderr).toContain("warning: script.json: field 'segments.0.speaker'");
    expect(await snapshot(c.contentDir)).toEqual(before);
  });

  it("only warns about an invalid script.json, as the build does", async () => {
    const c = await content("bad-script");
    const folder = await episodeFolder(c.dir, "scripted", {}, tone, { script: { chapters: 3, segments: [] } });
    const out = await publishHere(folder, c.env, { dryRun: true });
    expect(out.error, out.stderr).toBeNull();
    expect(out.stderr).toContain("warning: script.json: field 'chapters': Invalid input: expected array, received number (its script route will answer 422)");
  });

  it("refuses timings that break a rule against the MP3's measured duration, naming the field; accepts the same script timed within it", async () => {
    const c = await content("timings");
    const timed = (lastEnd: number, secondChapter: number) => ({
      chapters: [{ title: "Start", start: 0 }, { title: "Late", start: secondChapter }],
      segments: [
        { speaker: "a", text: "One.", start: 0, end: 1.5 },
        { speaker: "b", text: "[laughs]", start: 9, end: 2 },
        { speaker: "b", text: "Two.", start: 1.5, end: lastEnd },
      ],
    });
    // The tone lasts 4 s; episode.json claims 100, which the measurement replaces.
    const bad = await episodeFolder(c.dir, "late", { durationSeconds: 100 }, tone, { script: timed(5.5, 4) });
    const line = (await publishHere(bad, c.env, { dryRun: true })).error;
    expect(line).toContain("script.json: field 'segments.2.end': 5.5 is more than 1 s past the audio's end (durationSeconds 4)");
    expect(line).toContain("script.json: field 'chapters.1.start': 4 is not before the audio's end (durationSeconds 4)");
    // The stage direction's own times (start after end) are dropped with it, never judged.
    expect(line).not.toContain("segments.1");
    const good = await episodeFolder(c.dir, "in-time", {}, tone, { script: timed(4.9, 2) });
    const out = await publishHere(good, c.env, { dryRun: true });
    expect(out.error, out.stderr).toBeNull();
    expect(out.stderr).not.toContain("script.json");
  });

  it("refuses a file that is not an MP3", async () => {
    const c = await content("not-mp3");
    const wav = path.join(c.dir, "tone.wav");
    execFileSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=duration=1", wav]);
    const folder = await episodeFolder(c.dir, "wave", {}, await readFile(wav));
    expect((await publishHere(folder, c.env, { dryRun: true })).error).toBe("audio.mp3: not an MP3: no MPEG layer III frame at its start (a RIFF WAVE file)");
    const text = await episodeFolder(c.dir, "text", {}, new TextEncoder().encode("not audio at all"));
    expect((await publishHere(text, c.env, { dryRun: true })).error).toBe("audio.mp3: not an MP3: no MPEG layer III frame at its start");
  });

  it("refuses an id or a number the content folder already has, naming the episode that has it", async () => {
    const c = await content("duplicates");
    const sameId = await episodeFolder(c.dir, "same-id", { id: (EXISTING[1]!.episode.id as string).toUpperCase() }, tone);
    expect((await publishHere(sameId, c.env, { dryRun: true })).error).toBe("episode.json: field 'id': duplicate of episodes/two/episode.json in CONTENT_DIR");
    const sameNumber = await episodeFolder(c.dir, "same-number", { episodeNumber: 7 }, tone);
    expect((await publishHere(sameNumber, c.env, { dryRun: true })).error).toBe(
      "episode.json: field 'episodeNumber': duplicate of episodes/seven/episode.json in CONTENT_DIR",
    );
    const sameFolder = await episodeFolder(path.join(c.dir, "elsewhere"), "one", {}, tone);
    expect((await publishHere(sameFolder, c.env, { dryRun: true })).error).toBe("one: CONTENT_DIR already holds episodes/one");
  });

  it("refuses --no-notify without --deploy: only a deploy announces", async () => {
    const c = await content("no-notify-alone");
    const folder = await episodeFolder(c.dir, "alone", {}, tone);
    const out = await publishCli([folder, "--no-notify"], c.env);
    // A usage error: one line and exit 2, as every script refuses its command line (scripts/cli.ts).
    expect(out.code).toBe(2);
    expect(out.stderr.trimEnd()).toBe("publish: --no-notify goes with --deploy: only a deploy announces; see --help");
  });

  it("keeps an explicit null episodeNumber (an unnumbered episode) and says a draft is saved, not published", async () => {
    const c = await content("draft");
    const folder = await episodeFolder(c.dir, "draft", { episodeNumber: null, status: "draft", title: "Later" }, tone);
    const out = await publishHere(folder, c.env, { dryRun: true });
    expect(out.error, out.stderr).toBeNull();
    expect(out.stdout).not.toContain("next free number");
    expect(out.stdout).toContain("Episode “Later” saved as a draft");
  });
});

describe("local mode", { timeout: 180_000 }, () => {
  it("writes the folder with its facts and the MP3 into CONTENT_DIR, then builds it", async () => {
    const c = await content("local");
    const mp3 = path.join(c.dir, "episode-source.mp3");
    const bytes = makeMp3(mp3, 3);
    const folder = await episodeFolder(c.dir, "new-local", { title: "Goes Live", publishedAt: "2026-01-01T00:00:00Z" }, bytes, {
      script: script(),
      mp3Name: "take-3.mp3",
    });
    const out = await publishCli([folder, "--out-dir", c.outDir], c.env);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain("Episode 8 “Goes Live” goes live now at https://show.example/episodes/8");
    expect(out.stdout).toMatch(/^No server is running from \S+dist: it is served once one starts \(npm start, or npm run serve\)\.$/m);

    const landed = path.join(c.contentDir, "episodes", "new-local");
    const written = await readJson<Record<string, unknown>>(path.join(landed, "episode.json"));
    expect(written).toMatchObject({
      episodeNumber: 8,
      durationSeconds: Math.round(ffprobeSeconds(mp3)),
      audio: { file: "take-3.mp3", bytes: bytes.byteLength, sha256: sha256(bytes) },
    });
    expect(sha256(await readFile(path.join(landed, "take-3.mp3")))).toBe(sha256(bytes));
    expect(await readFile(path.join(landed, "script.json"), "utf8")).toBe(await readFile(path.join(folder, "script.json"), "utf8"));
    expect((await readdir(path.join(c.contentDir, "episodes"))).sort()).toEqual(["new-local", "one", "seven", "two"]);

    const index = await readJson<BuildIndex>(path.join(c.outDir, BUILD_FILES.index));
    const entry = index.episodes.find((e) => e.id === written.id);
    expect(entry).toMatchObject({ n: 8, title: "Goes Live", audio: { bytes: bytes.byteLength } });
  });

  it("beside a running server, the episode is served when the command exits, without a restart, and the server logs the swap", async () => {
    const c = await content("beside-server");
    await fixtureBuild(c.contentDir, c.outDir, c.env);
    const log: string[] = [];
    const server = await startServer({ distDir: c.outDir, env: {}, log: (line) => void log.push(line) });
    try {
      expect((await fetch(`${server.url}/v1/episodes/8`)).status).toBe(404);
      const folder = await episodeFolder(c.dir, "right-away", { title: "Right Away", publishedAt: "2026-01-01T00:00:00Z" }, tone);
      const out = await publishCli([folder, "--out-dir", c.outDir], c.env);
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout).toContain("Episode 8 “Right Away” goes live now at https://show.example/episodes/8");
      expect(out.stdout).toContain(`Served now by the running server (pid ${process.pid}).`);
      const live = await fetch(`${server.url}/v1/episodes/8`);
      expect(live.status).toBe(200);
      expect(((await live.json()) as { title: string }).title).toBe("Right Away");
      expect((await fetch(`${server.url}/v1/episodes/8/audio`)).status).toBe(200);
      expect(log).toEqual([expect.stringMatching(/^build \S+ is live: 4 episodes \(was build \S+; loaded in \d+ ms\)$/)]);
    } finally {
      await server.close();
    }
  });

  it("takes the folder back out when the build fails, exit code 1", LONG, async () => {
    // An episode already in the folder that the build refuses (an empty title): publishing cannot fix it.
    const c = await content("failing-build", [...EXISTING, { folder: "broken", episode: episode({ episodeNumber: 20, title: "" }) }]);
    const before = await snapshot(c.contentDir);
    const folder = await episodeFolder(c.dir, "victim", {}, tone);
    const line = failureLine(await publishCli([folder, "--out-dir", c.outDir], c.env), true);
    expect(line).toMatch(/^publish: npm run build exited with 1: \S*episodes\/victim was removed again; fix the cause and publish again$/);
    expect(await snapshot(c.contentDir)).toEqual(before);
  });

  it("prepares the folder under a dot-name, which the build's content loader does not see", async () => {
    const c = await content("dot-folders", [
      { folder: "seen", episode: episode() },
      { folder: ".publish-unseen-x1y2z3", episode: episode() },
    ]);
    expect(episodeSources(c.contentDir)).toEqual(["episodes/seen/episode.json"]);
  });
});

describe("publishing with --deploy", { timeout: 180_000 }, () => {
  const FEED_URL = "https://show.example/feed.xml";
  const fakeWrangler = (log: string) => ({ WRANGLER_BIN: path.join(ROOT, "tests/support/fake-wrangler.ts"), FAKE_WRANGLER_LOG: log });

  it("deploys, then announces; a hub that hangs and a ping that answers 500 fail their announcements, not the publish", async () => {
    const targets = await startAnnounceTargets();
    try {
      targets.behave("/hub", "hang");
      targets.behave("/pubnotify", "fail");
      const c = await content("deploy-announce");
      const log = path.join(c.dir, "wrangler.log");
      const folder = await episodeFolder(c.dir, "announced", { title: "Told", publishedAt: "2026-01-01T00:00:00Z" }, tone);
      const out = await publishCli([folder, "--deploy", "--out-dir", c.outDir], { ...c.env, ...announceEnv(targets), ...fakeWrangler(log) });
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout).toContain("Episode 8 “Told” goes live now at https://show.example/episodes/8 (deployed)");
      expect(await exists(path.join(c.contentDir, "episodes", "announced", "episode.json"))).toBe(true);
      const [args] = (await readFile(log, "utf8")).trim().split("\n").map((l) => JSON.parse(l) as string[]);
      expect(args!.slice(0, 1)).toEqual(["deploy"]);
      // wrangler reads the build's own folder, which dist points to (a later build cannot change it mid-upload).
      expect(args![args!.indexOf("--assets") + 1]).toBe(await realpath(c.outDir));

      // Each target was tried, the failing ones twice.
      const hub = targets.received("/hub");
      expect(hub.map((r) => r.method)).toEqual(["POST", "POST"]);
      expect(Object.fromEntries(new URLSearchParams(hub[0]!.body))).toEqual({ "hub.mode": "publish", "hub.url": FEED_URL });
      expect(targets.received("/pubnotify").map((r) => [r.method, r.url])).toEqual([
        ["GET", `/pubnotify?url=${encodeURIComponent(FEED_URL)}`],
        ["GET", `/pubnotify?url=${encodeURIComponent(FEED_URL)}`],
      ]);
      const podping = targets.received("/podping");
      expect(podping.map((r) => r.headers.authorization)).toEqual(["podping-test-token"]);
      expect(Object.fromEntries(new URL(podping[0]!.url, targets.base).searchParams)).toEqual({ url: FEED_URL, reason: "update", medium: "podcast" });

      // The log says so: one line per target.
      const lines = out.stdout.split("\n").filter((l) => /^announce set 4-\S+: /.test(l));
      expect(lines).toHaveLength(3);
      expect(lines.filter((l) => l.includes(`websub ${targets.base}/hub FAILED (no answer within 5 s, 2 attempts)`))).toHaveLength(1);
      expect(lines.filter((l) => l.includes(`ping ${targets.base}/pubnotify FAILED (HTTP 500, 2 attempts)`))).toHaveLength(1);
      expect(lines.filter((l) => l.includes(`podping ${targets.base}/podping/ ok (HTTP 200, 1 attempt)`))).toHaveLength(1);
    } finally {
      await targets.close();
    }
  });

  it("announces nothing with --no-notify", LONG, async () => {
    const targets = await startAnnounceTargets();
    try {
      const c = await content("deploy-quiet");
      const folder = await episodeFolder(c.dir, "quiet", { title: "Quiet" }, tone);
      const out = await publishCli([folder, "--deploy", "--no-notify", "--out-dir", c.outDir], { ...c.env, ...announceEnv(targets), ...fakeWrangler(path.join(c.dir, "wrangler.log")) });
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout).toMatch(/^Not announced \(--no-notify\): set 4-\S+$/m);
      expect(targets.all()).toEqual([]);
    } finally {
      await targets.close();
    }
  });
});

describe("s3 mode", { timeout: 180_000 }, () => {
  let r2: LocalR2;
  let s3: S3Client;
  const s3Env = (endpoint: string, credentials = R2_CREDENTIALS) => ({
    AUDIO_BACKEND: "s3",
    S3_BUCKET: R2_BUCKET,
    S3_ENDPOINT: endpoint,
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
  });

  beforeAll(async () => {
    r2 = await startLocalR2();
    s3 = new S3Client({ endpoint: r2.endpoint, region: "auto", forcePathStyle: true, credentials: R2_CREDENTIALS, responseChecksumValidation: "WHEN_REQUIRED" });
  });
  afterAll(async () => {
    s3?.destroy();
    await r2?.dispose();
  });

  it("uploads in parts with progress, keeps the folder out when the build then fails, and a retry skips the upload", LONG, async () => {
    // ~10.4 MB at 320 kb/s: more than one 8 MiB part, so the upload is a real multipart one.
    const bigFile = path.join(work, "long.mp3");
    const big = makeMp3(bigFile, 260, 320);
    // s3 mode: every episode gives audio.bytes (its object is elsewhere); one the build refuses.
    const sized = EXISTING.map((e) => ({ ...e, episode: { ...e.episode, audio: { bytes: 1000 } } }));
    const c = await content("s3", [...sized, { folder: "broken", episode: episode({ episodeNumber: 20, title: "", audio: { bytes: 1 } }) }]);
    const id = randomUUID();
    const key = `audio/${id}.mp3`;
    const folder = await episodeFolder(c.dir, "s3-episode", { id, title: "On S3" }, big);
    const env = { ...c.env, ...s3Env(r2.endpoint) };

    const first = await publishCli([folder, "--out-dir", c.outDir], env);
    expect(failureLine(first, true)).toContain("the uploaded MP3 stays in the bucket and a retry skips its upload");
    expect(first.stdout).toContain(`Uploaded s3://${R2_BUCKET}/${key}`);
    // stderr is a pipe here: plain progress lines, the last one at 100 %.
    expect(first.stderr).toMatch(/^upload:\s+\d+%\s+[\d.]+ \w?B of 10\.4 MB$/m);
    expect(first.stderr).toContain("upload: 100%  10.4 MB of 10.4 MB");
    expect(await exists(path.join(c.contentDir, "episodes", "s3-episode"))).toBe(false);

    const head = await s3.send(new HeadObjectCommand({ Bucket: R2_BUCKET, Key: key }));
    expect(head.ETag).toMatch(/-2"$/); // the multipart form: two parts
    expect(head.Metadata).toEqual({ sha256: sha256(big) });
    const object = await s3.send(new GetObjectCommand({ Bucket: R2_BUCKET, Key: key }));
    expect(sha256(await object.Body!.transformToByteArray())).toBe(sha256(big));

    await rm(path.join(c.contentDir, "episodes", "broken"), { recursive: true });
    const retry = await publishCli([folder, "--out-dir", c.outDir], env);
    expect(retry.code, retry.stderr).toBe(0);
    expect(retry.stdout).toContain(`s3://${R2_BUCKET}/${key}: already uploaded (same size and sha256), upload skipped`);
    expect(retry.stderr).not.toContain("upload:");

    const landed = path.join(c.contentDir, "episodes", "s3-episode");
    expect(await readdir(landed)).toEqual(["episode.json"]); // the MP3 lives in the bucket only
    const written = await readJson<{ durationSeconds: number; audio: Record<string, unknown> }>(path.join(landed, "episode.json"));
    expect(written.durationSeconds).toBe(Math.round(ffprobeSeconds(bigFile)));
    expect(written.audio).toEqual({ bytes: big.byteLength, sha256: sha256(big) });
    const index = await readJson<BuildIndex>(path.join(c.outDir, BUILD_FILES.index));
    expect(index.episodes.find((e) => e.id === id)?.audio).toMatchObject({ key, bytes: big.byteLength });
  });

  it.each([
    ["wrong credentials", async () => s3Env(r2.endpoint, { accessKeyId: "test", secretAccessKey: "wrong" }), /failed: HTTP 403: check the credentials \(AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY\)/],
    ["a stopped endpoint", async () => s3Env(s3EndpointOf(`http://127.0.0.1:${await freePort()}`)), /ECONNREFUSED/],
  ])("a failed upload (%s) writes nothing and exits 1", async (name, envOf, cause) => {
    const c = await content(`s3-fail-${name.replace(/\W+/g, "-")}`);
    const before = await snapshot(c.contentDir);
    const folder = await episodeFolder(c.dir, "never", {}, tone);
    const line = failureLine(await publishCli([folder, "--out-dir", c.outDir], { ...c.env, ...(await envOf()) }));
    expect(line).toMatch(/^publish: upload to s3:\/\/audio\/audio\/[0-9a-f-]{36}\.mp3 failed: /);
    expect(line).toMatch(cause);
    expect(await snapshot(c.contentDir)).toEqual(before);
    expect(await exists(c.outDir)).toBe(false);
  });
});

describe("the progress bar", () => {
  it("redraws one line on a terminal: bar, percent, bytes", () => {
    let text = "";
    const bar = progressBar({ isTTY: true, columns: 80, write: (t: string) => void (text += t) }, "upload", 4_000_000);
    bar.update(1_000_000);
    bar.update(3_000_000);
    bar.done();
    const frames = text.split("\r").filter(Boolean);
    expect(frames).toHaveLength(3);
    expect(frames[0]).toMatch(/^upload \[█+░+\]  25%  1\.0 MB of 4\.0 MB\x1b\[K$/);
    expect(frames[2]).toMatch(/^upload \[█+\] 100%  4\.0 MB of 4\.0 MB\x1b\[K\n$/);
  });
});
