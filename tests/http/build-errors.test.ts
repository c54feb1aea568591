// Content that fails the build (README.md#content-format): an invalid episode.json, a duplicate id or
// episodeNumber, a missing referenced audio file, a podcast.json category outside Apple's list. The
// real build runs and must fail with a message that names the file and the field.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { build, episode, PODCAST, tempDir, writeContent, type EpisodeSpec } from "../support/fixture.ts";
import { rm } from "node:fs/promises";

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** Builds the content and returns the build's whole output; fails the test if the build succeeds. */
async function failingBuild(
  name: string,
  specs: EpisodeSpec[],
  after?: (contentDir: string) => Promise<void>,
  podcast: Record<string, unknown> = PODCAST,
): Promise<string> {
  const dir = await tempDir(`fail-${name}`);
  dirs.push(dir);
  const contentDir = path.join(dir, "content");
  await writeContent(contentDir, specs, podcast);
  if (after) await after(contentDir);
  const error = await build(contentDir, path.join(dir, "dist")).then(
    () => null,
    (e: { stdout?: string; stderr?: string; code?: number }) => e,
  );
  expect(error, "the build should have failed").not.toBeNull();
  expect(error!.code).not.toBe(0);
  return `${error!.stdout ?? ""}\n${error!.stderr ?? ""}`;
}

const good = () => ({ folder: "good", episode: episode() });

// Each test runs a whole build; on a loaded machine one can take tens of seconds.
describe("the build fails on invalid content, naming the file and the field", { timeout: 180_000 }, () => {
  it("episode.json that is not JSON", async () => {
    const out = await failingBuild("not-json", [good(), { folder: "broken", episode: episode() }], (c) =>
      writeFile(path.join(c, "episodes/broken/episode.json"), '{ "id": "x", '),
    );
    expect(out).toContain("episodes/broken/episode.json");
    expect(out).toMatch(/JSON/i);
  });

  it("episode.json without a required member", async () => {
    const { title: _, ...untitled } = episode();
    const out = await failingBuild("no-title", [good(), { folder: "untitled", episode: untitled }]);
    expect(out).toContain("episodes/untitled/episode.json");
    expect(out).toContain("'title'");
  });

  it("episode.json with a member of the wrong type", async () => {
    const out = await failingBuild("bad-number", [good(), { folder: "wrong-type", episode: episode({ episodeNumber: "seven" }) }]);
    expect(out).toContain("episodes/wrong-type/episode.json");
    expect(out).toContain("'episodeNumber'");
  });

  it("episode.json with an id that is not a UUID", async () => {
    const out = await failingBuild("bad-id", [good(), { folder: "bad-id", episode: episode({ id: "not-a-uuid" }) }]);
    expect(out).toContain("episodes/bad-id/episode.json");
    expect(out).toContain("'id'");
  });

  it("episode.json with an invalid nested member", async () => {
    const out = await failingBuild("bad-domain", [
      good(),
      { folder: "bad-domain", episode: episode({ topics: { domains: ["Not A Slug"], concepts: [], entities: [] } }) },
    ]);
    expect(out).toContain("episodes/bad-domain/episode.json");
    expect(out).toContain("'topics.domains.0'");
  });

  it("episode.json with an impossible publishedAt", async () => {
    const out = await failingBuild("bad-date", [good(), { folder: "bad-date", episode: episode({ publishedAt: "last tuesday" }) }]);
    expect(out).toContain("episodes/bad-date/episode.json");
    expect(out).toContain("'publishedAt'");
  });

  it("a duplicate id, even in another letter case", async () => {
    const id = randomUUID();
    const out = await failingBuild("dup-id", [
      { folder: "first", episode: episode({ id }) },
      { folder: "second", episode: episode({ id: id.toUpperCase() }) },
    ]);
    expect(out).toContain("episodes/second/episode.json");
    expect(out).toContain("'id'");
    expect(out).toContain("episodes/first/episode.json");
  });

  it("a duplicate episodeNumber", async () => {
    const out = await failingBuild("dup-number", [
      { folder: "first", episode: episode({ episodeNumber: 77 }) },
      { folder: "second", episode: episode({ episodeNumber: 77 }) },
    ]);
    expect(out).toContain("episodes/second/episode.json");
    expect(out).toContain("'episodeNumber'");
    expect(out).toContain("episodes/first/episode.json");
  });

  it("a missing referenced audio file", async () => {
    const out = await failingBuild("no-audio", [good(), { folder: "silent", episode: episode({ audio: { file: "episode-audio.mp3" } }) }]);
    expect(out).toContain("episodes/silent/episode.json");
    expect(out).toContain("'audio.file'");
    expect(out).toContain("episode-audio.mp3");
  });

  it("an invalid podcast.json", async () => {
    const { slug: _, ...noSlug } = PODCAST;
    const out = await failingBuild("podcast", [good()], undefined, noSlug);
    expect(out).toContain("podcast.json");
    expect(out).toContain("'slug'");
  });

  it("a podcast.json category or subcategory not on Apple's list", async () => {
    const categories = [{ category: "Technology" }, { category: "Tech" }, { category: "News", subcategory: "AI News" }];
    const out = await failingBuild("category", [good()], undefined, { ...PODCAST, categories });
    expect(out).toContain("podcast.json");
    expect(out).toContain("'categories.1.category'");
    expect(out).toContain("'Tech' is not an Apple Podcasts category");
    expect(out).toContain("'categories.2.subcategory'");
    expect(out).toContain("'AI News' is not an Apple Podcasts subcategory of News");
    expect(out).not.toContain("'categories.0");
  });

  it("reports every problem of the content in one run", async () => {
    const out = await failingBuild("many", [
      good(),
      { folder: "one", episode: episode({ title: "" }) },
      { folder: "two", episode: episode({ hosts: { a: "A" } }) },
    ]);
    expect(out).toContain("episodes/one/episode.json");
    expect(out).toContain("'title'");
    expect(out).toContain("episodes/two/episode.json");
    expect(out).toContain("'hosts.b'");
  });
});
