// Independent real clients against the running server: curl (ranges, ETag revalidation, the
// download file name) and ffprobe (reads the episode's audio over HTTP). Each is a child process.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../functions/node/main.ts";
import { episode, sharedSite, PODCAST, removeSite, script, serveSite, type Site } from "../support/fixture.ts";
import { findExecutable } from "../support/executables.ts";
import { NO_LIMITS, sameBytes, TONE } from "../support/http.ts";

const run = promisify(execFile);

const HAS_CURL = findExecutable("curl") !== null;
const HAS_FFPROBE = findExecutable("ffprobe") !== null;

const ep = episode({ episodeNumber: 42, title: "Leaked Signing Key" });
const SHOW = { ...PODCAST, title: "Signal and Noise", slug: "signal-and-noise" };

let site: Site;
let server: RunningServer;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), "real-clients-"));
  // The audioUrl must point at this server: the site URL is only known once a port is chosen, so
  // the build uses a placeholder and the tests read the path from it.
  site = await sharedSite("real-clients", [{ episode: ep, script: script(), audio: TONE }], {}, SHOW);
  server = await serveSite(site, { env: NO_LIMITS });
});
afterAll(async () => {
  await server?.close();
  await removeSite(site);
  await rm(work, { recursive: true, force: true });
});

const audio = () => `${server.url}/v1/episodes/42/audio`;

/** Parses curl's -D header dump: the last response's status and headers. */
function dump(text: string): { status: number; headers: Map<string, string> } {
  const blocks = text.split(/\r?\n\r?\n/).filter((b) => b.trim().length > 0);
  const lines = blocks.at(-1)!.split(/\r?\n/);
  const status = Number(/^HTTP\/[\d.]+ (\d{3})/.exec(lines[0]!)![1]);
  const headers = new Map(
    lines.slice(1).map((l) => {
      const i = l.indexOf(":");
      return [l.slice(0, i).trim().toLowerCase(), l.slice(i + 1).trim()] as const;
    }),
  );
  return { status, headers };
}

describe.skipIf(!HAS_CURL)("curl", () => {
  it("gets 206 and the exact bytes for a Range request (-r 0-99)", async () => {
    const out = path.join(work, "part.bin");
    const headers = path.join(work, "part.headers");
    await run("curl", ["-sS", "-r", "0-99", "-D", headers, "-o", out, audio()]);
    const { status, headers: h } = dump(await readFile(headers, "utf8"));
    expect(status).toBe(206);
    expect(h.get("content-range")).toBe(`bytes 0-99/${TONE.byteLength}`);
    expect(h.get("content-type")).toBe("audio/mpeg");
    expect(sameBytes(new Uint8Array(await readFile(out)), TONE.subarray(0, 100))).toBe(true);
  });

  it("gets the last bytes of the file with a suffix range (-r -100)", async () => {
    const { stdout } = await run("curl", ["-sS", "-r", "-100", audio()], { encoding: "buffer" });
    expect(sameBytes(new Uint8Array(stdout), TONE.subarray(TONE.byteLength - 100))).toBe(true);
  });

  it("revalidates with --etag-save then --etag-compare and gets 304", async () => {
    const etagFile = path.join(work, "etag.txt");
    const url = `${server.url}/v1/episodes/42`;
    const first = await run("curl", ["-sS", "--etag-save", etagFile, "-o", "/dev/null", "-w", "%{http_code}", url]);
    expect(first.stdout).toBe("200");
    const saved = (await readFile(etagFile, "utf8")).trim();
    // curl without --compressed asks for no coding: the plain representation's tag (docs/api.md#compression).
    expect(saved).toBe((await fetch(url, { method: "HEAD", headers: { "Accept-Encoding": "identity" } })).headers.get("etag"));
    const second = await run("curl", ["-sS", "--etag-compare", etagFile, "-o", "/dev/null", "-w", "%{http_code}", url]);
    expect(second.stdout).toBe("304");
  });

  it("gets 304 with an explicit If-None-Match on the audio, and 200 after a change of validator", async () => {
    const etag = (await fetch(audio(), { method: "HEAD" })).headers.get("etag")!;
    const hit = await run("curl", ["-sS", "-H", `If-None-Match: ${etag}`, "-o", "/dev/null", "-w", "%{http_code} %{size_download}", audio()]);
    expect(hit.stdout).toBe("304 0");
    const miss = await run("curl", ["-sS", "-H", 'If-None-Match: "other"', "-o", "/dev/null", "-w", "%{http_code} %{size_download}", audio()]);
    expect(miss.stdout).toBe(`200 ${TONE.byteLength}`);
  });

  it("saves a download under the descriptive name from Content-Disposition (-O -J)", async () => {
    const dir = await mkdtemp(path.join(work, "dl-"));
    await run("curl", ["-sS", "-O", "-J", `${audio()}?download=1`], { cwd: dir });
    const files = await readdir(dir);
    expect(files).toEqual(["signal-and-noise-042-leaked-signing-key.mp3"]);
    expect(sameBytes(new Uint8Array(await readFile(path.join(dir, files[0]!))), TONE)).toBe(true);
  });

  it("sees CORS and the license Link on a HEAD request (-I)", async () => {
    const { stdout } = await run("curl", ["-sS", "-I", `${server.url}/v1/episodes?limit=1`]);
    const { status, headers } = dump(stdout);
    expect(status).toBe(200);
    expect(headers.get("access-control-allow-origin")).toBe("*");
    expect(headers.get("link")).toMatch(/rel="license"/);
    expect(headers.get("etag")).toMatch(/^"[^"]+"$/);
  });
});

describe.skipIf(!HAS_FFPROBE)("ffprobe", () => {
  async function probe(target: string): Promise<{ codec: string; duration: number }> {
    const { stdout } = await run("ffprobe", ["-v", "error", "-show_entries", "format=duration:stream=codec_name", "-of", "json", target]);
    const info = JSON.parse(stdout) as { streams: { codec_name: string }[]; format: { duration: string } };
    return { codec: info.streams[0]!.codec_name, duration: Number(info.format.duration) };
  }

  it("reads the episode's audio route as MP3 with the duration of the file", async () => {
    const local = path.join(work, "tone.mp3");
    await writeFile(local, TONE);
    const expected = await probe(local);
    const remote = await probe(audio());
    expect(remote.codec).toBe("mp3");
    expect(remote.duration).toBeGreaterThan(0);
    expect(Math.abs(remote.duration - expected.duration)).toBeLessThan(0.05);
  });

  it("reads the episode's audioUrl as MP3", async () => {
    const { audioUrl } = (await (await fetch(`${server.url}/v1/episodes/42`)).json()) as { audioUrl: string };
    const remote = await probe(`${server.url}${new URL(audioUrl).pathname}`);
    expect(remote.codec).toBe("mp3");
    expect(remote.duration).toBeGreaterThan(0);
  });
});
