// Which folders of CONTENT_DIR/episodes the build reads (src/generate/content.ts episodeSources, and
// the build's listing of them, listEpisodeFolders): every folder holding an episode.json file, in
// the order of their paths, and nothing else.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { episodeSources, listEpisodeFolders } from "../../src/generate/content.ts";

const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A content folder holding `files` (paths relative to it; a path ending in / is a folder). */
function contentDir(files: string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), "episode-sources-"));
  made.push(dir);
  for (const rel of files) {
    const abs = path.join(dir, rel);
    if (rel.endsWith("/")) mkdirSync(abs, { recursive: true });
    else {
      mkdirSync(path.dirname(abs), { recursive: true });
      writeFileSync(abs, "{}");
    }
  }
  return dir;
}

/** The sources episodeSources names, each checked against the build's listing of the folders. */
function sources(dir: string): string[] {
  const listed = episodeSources(dir);
  expect(listEpisodeFolders(dir).map((l) => l.source)).toEqual(listed);
  return listed;
}

describe("episodeSources", () => {
  it("lists each folder's episode.json in the order of the paths", () => {
    // "a-b" sorts before "a" as a path ("-" < "/"), after it as a name: the order is the paths'.
    const dir = contentDir(["episodes/b/episode.json", "episodes/a/episode.json", "episodes/a-b/episode.json", "episodes/a/script.json"]);
    expect(sources(dir)).toEqual(["episodes/a-b/episode.json", "episodes/a/episode.json", "episodes/b/episode.json"]);
  });

  it("skips dot-folders, folders without an episode.json, an episode.json that is a folder, and files beside the folders", () => {
    const dir = contentDir([
      "episodes/kept/episode.json",
      "episodes/.publish-new-x1y2z3/episode.json",
      "episodes/empty/",
      "episodes/only-script/script.json",
      "episodes/odd/episode.json/",
      "episodes/stray.json",
      "episodes/nested/deeper/episode.json",
    ]);
    expect(sources(dir)).toEqual(["episodes/kept/episode.json"]);
  });

  it("follows a symbolic link to an episode folder, as the reads that follow do", () => {
    const dir = contentDir(["elsewhere/linked/episode.json", "episodes/"]);
    symlinkSync(path.join(dir, "elsewhere/linked"), path.join(dir, "episodes/linked"));
    expect(sources(dir)).toEqual(["episodes/linked/episode.json"]);
  });

  it("is empty without an episodes folder", () => {
    expect(sources(contentDir(["podcast.json"]))).toEqual([]);
  });
});
