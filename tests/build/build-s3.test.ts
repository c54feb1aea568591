// The build's side of AUDIO_BACKEND=s3 (README.md#configuration, docs/api.md#get-v1episodesrefaudio): the object key is
// audio.key or audio/<uuid>.mp3, audio.bytes is required for every publishable episode, the build
// never contacts storage nor copies audio into dist/media, and audioUrl is AUDIO_PUBLIC_URL + key
// (else links.audio). Real builds of fixture content; local mode is held by every other suite.
import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildConfig } from "../../src/generate/config.ts";
import { stampOf } from "../../src/generate/stamp.ts";
import { strongEtag } from "../../src/shared/etag.ts";
import { BUILD_FILES, episodeFile, MEDIA_DIR } from "../../src/shared/layout.ts";
import { nodeEtag } from "../../src/node/etag.ts";
import type { BuildIndex } from "../../src/shared/schema/build-index.ts";
import { episode, fixtureBuild, makeSite, removeSite, tempDir, writeContent, type EpisodeSpec, type Site } from "../support/fixture.ts";
import { TONE } from "../support/http.ts";

const PUBLIC = "https://cdn.example/podcast";
const SHA = createHash("sha256").update("object one").digest("hex");

// 1: default key from an upper-case UUID, bytes and sha256 given. 2: its own key (with a space), bytes
// only. 3: the MP3 in its folder measures the object (not copied). 4, 5: a draft and an unscheduled
// episode need no bytes (they are never built).
const UPPER = randomUUID().toUpperCase();
const one = episode({ id: UPPER, episodeNumber: 1, audio: { bytes: 1234, sha256: SHA } });
const two = episode({ episodeNumber: 2, audio: { key: "shows/ep two.mp3", bytes: 999 } });
const three = episode({ episodeNumber: 3 });
const draft = episode({ episodeNumber: 4, status: "draft" });
const unscheduled = episode({ episodeNumber: 5, publishedAt: null });
const SPECS: EpisodeSpec[] = [
  { folder: "one", episode: one },
  { folder: "two", episode: two },
  { folder: "three", episode: three, audio: TONE },
  { folder: "draft", episode: draft },
  { folder: "unscheduled", episode: unscheduled },
];

const S3 = { AUDIO_BACKEND: "s3", AUDIO_PUBLIC_URL: `${PUBLIC}/` };
let withPublic: Site;
let withoutPublic: Site;
const dirs: string[] = [];

beforeAll(async () => {
  [withPublic, withoutPublic] = await Promise.all([makeSite("s3-public", SPECS, S3), makeSite("s3-plain", SPECS, { AUDIO_BACKEND: "s3" })]);
});
afterAll(async () => {
  await removeSite(withPublic);
  await removeSite(withoutPublic);
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const json = async <T>(site: Site, rel: string) => JSON.parse(await readFile(path.join(site.distDir, rel), "utf8")) as T;
const index = (site: Site) => json<BuildIndex>(site, BUILD_FILES.index);
const resource = (site: Site, ref: string) => json<{ audioUrl?: string; links: { audio: string } }>(site, episodeFile(ref, "json"));
const audioOf = async (site: Site, id: string) => (await index(site)).episodes.find((e) => e.id === id.toLowerCase())!.audio;

describe("AUDIO_BACKEND=s3 with AUDIO_PUBLIC_URL", { timeout: 180_000 }, () => {
  it("keys an episode without audio.key as audio/<uuid>.mp3 in lower case, its ETag from audio.sha256", async () => {
    expect(await audioOf(withPublic, UPPER)).toEqual({
      key: `audio/${UPPER.toLowerCase()}.mp3`,
      bytes: 1234,
      etag: strongEtag(Buffer.from(SHA, "hex")),
    });
  });

  it("keeps audio.key as authored, its ETag from key and size without a sha256", async () => {
    expect(await audioOf(withPublic, two.id as string)).toEqual({ key: "shows/ep two.mp3", bytes: 999, etag: nodeEtag("shows/ep two.mp3\n999") });
  });

  it("writes audioUrl as AUDIO_PUBLIC_URL (trailing slash dropped) + / + the key, the key's segments percent-encoded", async () => {
    expect((await resource(withPublic, "1")).audioUrl).toBe(`${PUBLIC}/audio/${UPPER.toLowerCase()}.mp3`);
    expect((await resource(withPublic, "2")).audioUrl).toBe(`${PUBLIC}/shows/ep%20two.mp3`);
  });

  it("measures an MP3 in the folder (bytes, sha256) without copying it into dist/media", async () => {
    const sha = createHash("sha256").update(TONE).digest("hex");
    expect(await audioOf(withPublic, three.id as string)).toEqual({
      key: `audio/${three.id}.mp3`,
      bytes: TONE.byteLength,
      etag: strongEtag(Buffer.from(sha, "hex")),
    });
    expect((await resource(withPublic, "3")).audioUrl).toBe(`${PUBLIC}/audio/${three.id}.mp3`);
    const media = await readdir(path.join(withPublic.distDir, MEDIA_DIR)).catch(() => []);
    expect(media).toEqual([]);
  });

  it("builds drafts and unscheduled episodes without audio.bytes (they are never rendered)", async () => {
    const ids = (await index(withPublic)).episodes.map((e) => e.id);
    expect(ids).toHaveLength(3);
    expect(ids).not.toContain(draft.id);
    expect(ids).not.toContain(unscheduled.id);
  });

  it("stamps the build with AUDIO_BACKEND and AUDIO_PUBLIC_URL, so npm start rebuilds when either changes", async () => {
    const built = (await json<{ stamp: string }>(withPublic, BUILD_FILES.stamp)).stamp;
    const stamp = (env: Record<string, string>) => stampOf(buildConfig({ CONTENT_DIR: withPublic.contentDir, ...env }));
    expect(await stamp(S3)).toBe(built);
    expect(await stamp({ ...S3, AUDIO_PUBLIC_URL: "https://other.example" })).not.toBe(built);
    expect(await stamp({ AUDIO_BACKEND: "s3" })).not.toBe(built);
    expect(await stamp({ AUDIO_PUBLIC_URL: S3.AUDIO_PUBLIC_URL })).not.toBe(built);
  });
});

describe("AUDIO_BACKEND=s3 without AUDIO_PUBLIC_URL", { timeout: 180_000 }, () => {
  it("writes audioUrl as the episode's links.audio", async () => {
    for (const ref of ["1", "2", "3"]) {
      const r = await resource(withoutPublic, ref);
      expect(r.audioUrl).toBe(r.links.audio);
      expect(r.audioUrl).toMatch(new RegExp(`/v1/episodes/${ref}/audio$`));
    }
  });

  it("writes the same index audio as with AUDIO_PUBLIC_URL, and nothing into dist/media", async () => {
    expect((await index(withoutPublic)).episodes.map((e) => e.audio)).toEqual((await index(withPublic)).episodes.map((e) => e.audio));
    expect(await readdir(path.join(withoutPublic.distDir, MEDIA_DIR)).catch(() => [])).toEqual([]);
  });
});

/** Builds the content with `env`; returns the build's whole output; fails the test if the build succeeds. */
async function failingBuild(name: string, specs: EpisodeSpec[], env: Record<string, string>): Promise<string> {
  const dir = await tempDir(`s3-fail-${name}`);
  dirs.push(dir);
  const contentDir = path.join(dir, "content");
  await writeContent(contentDir, specs);
  const error = await fixtureBuild(contentDir, path.join(dir, "dist"), env).then(
    () => null,
    (e: { stdout?: string; stderr?: string; code?: number }) => e,
  );
  expect(error, "the build should have failed").not.toBeNull();
  expect(error!.code).not.toBe(0);
  return `${error!.stdout ?? ""}\n${error!.stderr ?? ""}`;
}

describe("the s3 build fails, naming the file and the field or the variable", { timeout: 180_000 }, () => {
  it("a publishable episode without audio.bytes, reported with the content's other problems", async () => {
    const out = await failingBuild(
      "no-bytes",
      [
        { folder: "sized", episode: episode({ audio: { bytes: 10 } }) },
        { folder: "unsized", episode: episode() },
        { folder: "keyed", episode: episode({ audio: { key: "k.mp3" } }) },
        { folder: "untitled", episode: episode({ title: "", audio: { bytes: 10 } }) },
      ],
      { AUDIO_BACKEND: "s3" },
    );
    expect(out).toContain("episodes/unsized/episode.json: field 'audio.bytes': required when AUDIO_BACKEND=s3");
    expect(out).toContain("episodes/keyed/episode.json: field 'audio.bytes': required when AUDIO_BACKEND=s3");
    expect(out).toContain("episodes/untitled/episode.json: field 'title'");
    expect(out).not.toContain("episodes/sized/episode.json");
  });

  it("audio.bytes that contradicts the MP3 in the folder", async () => {
    const out = await failingBuild("wrong-bytes", [{ folder: "wrong", episode: episode({ audio: { bytes: 7 } }), audio: TONE }], { AUDIO_BACKEND: "s3" });
    expect(out).toContain("episodes/wrong/episode.json: field 'audio.bytes': 7 does not match episodes/wrong/audio.mp3");
  });

  it("an AUDIO_BACKEND other than local or s3", async () => {
    const out = await failingBuild("backend", [{ episode: episode() }], { AUDIO_BACKEND: "ftp" });
    expect(out).toContain("AUDIO_BACKEND must be 'local' or 's3', got 'ftp'");
  });

  it("an AUDIO_PUBLIC_URL that is not an absolute http(s) URL", async () => {
    const out = await failingBuild("public-url", [{ episode: episode({ audio: { bytes: 1 } }) }], { AUDIO_BACKEND: "s3", AUDIO_PUBLIC_URL: "cdn.example/audio" });
    expect(out).toContain("AUDIO_PUBLIC_URL is not an absolute URL");
  });
});
