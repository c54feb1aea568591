// Content that fails the build (README.md#content-format): an invalid episode.json, a duplicate id or
// episodeNumber, a missing referenced audio file, a podcast.json category outside Apple's list. Each
// case goes through the content's validation (src/generate/content.ts `loadContent`: the checks the
// build runs, in the same functions), which must refuse it with a message that names the file and
// the field; the last case runs the real build too, which must fail and print every problem.
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ContentError, loadContent } from "../../src/generate/content.ts";
import { build, episode, fixtureId, PODCAST, tempDir, writeContent, type EpisodeSpec } from "../support/fixture.ts";

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** Writes the content; its folder. */
async function content(name: string, specs: EpisodeSpec[], after?: (contentDir: string) => Promise<void>, podcast: Record<string, unknown> = PODCAST): Promise<string> {
  const dir = await tempDir(`fail-${name}`);
  dirs.push(dir);
  const contentDir = path.join(dir, "content");
  await writeContent(contentDir, specs, podcast);
  if (after) await after(contentDir);
  return contentDir;
}

/** The validation's refusal of the content, every problem in one message; fails the test if it passes. */
async function refused(...args: Parameters<typeof content>): Promise<string> {
  const error = await loadContent(await content(...args)).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "the content should have been refused").toBeInstanceOf(ContentError);
  return (error as ContentError).message;
}

const good = () => ({ folder: "good", episode: episode() });

describe("the build's validation refuses invalid content, naming the file and the field", () => {
  it("episode.json that is not JSON", async () => {
    const out = await refused("not-json", [good(), { folder: "broken", episode: episode() }], (c) =>
      writeFile(path.join(c, "episodes/broken/episode.json"), '{ "id": "x", '),
    );
    expect(out).toContain("episodes/broken/episode.json");
    expect(out).toMatch(/JSON/i);
  });

  it("episode.json without a required member", async () => {
    const { title: _, ...untitled } = episode();
    const out = await refused("no-title", [good(), { folder: "untitled", episode: untitled }]);
    expect(out).toContain("episodes/untitled/episode.json");
    expect(out).toContain("'title'");
  });

  it("episode.json with a member of the wrong type", async () => {
    const out = await refused("bad-number", [good(), { folder: "wrong-type", episode: episode({ episodeNumber: "seven" }) }]);
    expect(out).toContain("episodes/wrong-type/episode.json");
    expect(out).toContain("'episodeNumber'");
  });

  it("episode.json with an id that is not a UUID", async () => {
    const out = await refused("bad-id", [good(), { folder: "bad-id", episode: episode({ id: "not-a-uuid" }) }]);
    expect(out).toContain("episodes/bad-id/episode.json");
    expect(out).toContain("'id'");
  });

  it("episode.json with an invalid nested member", async () => {
    const out = await refused("bad-domain", [
      good(),
      { folder: "bad-domain", episode: episode({ topics: { domains: ["Not A Slug"], concepts: [], entities: [] } }) },
    ]);
    expect(out).toContain("episodes/bad-domain/episode.json");
    expect(out).toContain("'topics.domains.0'");
  });

  it("episode.json with an impossible publishedAt", async () => {
    const out = await refused("bad-date", [good(), { folder: "bad-date", episode: episode({ publishedAt: "last tuesday" }) }]);
    expect(out).toContain("episodes/bad-date/episode.json");
    expect(out).toContain("'publishedAt'");
  });

  it("a duplicate id, even in another letter case", async () => {
    const id = fixtureId("dup-id");
    const out = await refused("dup-id", [
      { folder: "first", episode: episode({ id }) },
      { folder: "second", episode: episode({ id: id.toUpperCase() }) },
    ]);
    expect(out).toContain("episodes/second/episode.json");
    expect(out).toContain("'id'");
    expect(out).toContain("episodes/first/episode.json");
  });

  it("a duplicate episodeNumber", async () => {
    const out = await refused("dup-number", [
      { folder: "first", episode: episode({ episodeNumber: 77 }) },
      { folder: "second", episode: episode({ episodeNumber: 77 }) },
    ]);
    expect(out).toContain("episodes/second/episode.json");
    expect(out).toContain("'episodeNumber'");
    expect(out).toContain("episodes/first/episode.json");
  });

  it("a missing referenced audio file", async () => {
    const out = await refused("no-audio", [good(), { folder: "silent", episode: episode({ audio: { file: "episode-audio.mp3" } }) }]);
    expect(out).toContain("episodes/silent/episode.json");
    expect(out).toContain("'audio.file'");
    expect(out).toContain("episode-audio.mp3");
  });

  it("an invalid podcast.json", async () => {
    const { slug: _, ...noSlug } = PODCAST;
    const out = await refused("podcast", [good()], undefined, noSlug);
    expect(out).toContain("podcast.json");
    expect(out).toContain("'slug'");
  });

  it("a podcast.json category or subcategory not on Apple's list", async () => {
    const categories = [{ category: "Technology" }, { category: "Tech" }, { category: "News", subcategory: "AI News" }];
    const out = await refused("category", [good()], undefined, { ...PODCAST, categories });
    expect(out).toContain("podcast.json");
    expect(out).toContain("'categories.1.category'");
    expect(out).toContain("'Tech' is not an Apple Podcasts category");
    expect(out).toContain("'categories.2.subcategory'");
    expect(out).toContain("'AI News' is not an Apple Podcasts subcategory of News");
    expect(out).not.toContain("'categories.0");
  });

  it("reports every problem of the content in one run", async () => {
    const out = await refused("many", MANY);
    expect(out).toContain("episodes/one/episode.json");
    expect(out).toContain("'title'");
    expect(out).toContain("episodes/two/episode.json");
    expect(out).toContain("'hosts.b'");
  });
});

// A problem in each of two files, and one good episode.
const MANY: EpisodeSpec[] = [
  good(),
  { folder: "one", episode: episode({ title: "" }) },
  { folder: "two", episode: episode({ hosts: { a: "A" } }) },
];

describe("the build", () => {
  // A whole build in a child process: on a loaded machine it can take tens of seconds.
  it("fails on invalid content and prints every problem the validation finds", { timeout: 180_000 }, async () => {
    const contentDir = await content("build", MANY);
    const error = await build(contentDir, path.join(path.dirname(contentDir), "dist")).then(
      () => null,
      (e: { stdout?: string; stderr?: string; code?: number }) => e,
    );
    expect(error, "the build should have failed").not.toBeNull();
    expect(error!.code).not.toBe(0);
    const out = `${error!.stdout ?? ""}\n${error!.stderr ?? ""}`;
    const problems = await loadContent(contentDir).then(
      () => [],
      (e: ContentError) => e.problems,
    );
    expect(problems.length).toBe(2);
    for (const problem of problems) expect(out).toContain(problem);
  });
});
