// npm start rebuilds only when the build's inputs changed: the stamp a build writes must equal the
// stamp of unchanged inputs, and differ when content or a build variable changes.
import { readFile, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildConfig } from "../../src/generate/config.ts";
import { stampOf } from "../../src/generate/stamp.ts";
import { BUILD_FILES } from "../../src/shared/layout.ts";
import { episode, makeSite, removeSite, type Site } from "../support/fixture.ts";

let site: Site;
const env = (extra: Record<string, string> = {}) => buildConfig({ CONTENT_DIR: site.contentDir, ...extra });
const built = async () => (JSON.parse(await readFile(path.join(site.distDir, BUILD_FILES.stamp), "utf8")) as { stamp: string }).stamp;

beforeAll(async () => {
  site = await makeSite("stamp", [{ episode: episode() }]);
});
afterAll(() => removeSite(site));

describe("build stamp (npm start's rebuild decision)", () => {
  it("unchanged content and settings match the stamp of the last build, so npm start serves at once", async () => {
    expect(await stampOf(env())).toBe(await built());
  });

  it("a different SITE_URL or API_BASE_URL calls for a rebuild", async () => {
    expect(await stampOf(env({ SITE_URL: "https://podcast.example" }))).not.toBe(await built());
    expect(await stampOf(env({ API_BASE_URL: "https://api.example" }))).not.toBe(await built());
  });

  it("an edited or added content file calls for a rebuild", async () => {
    const before = await built();
    const file = path.join(site.contentDir, "podcast.json");
    const later = new Date(Date.now() + 5_000);
    await utimes(file, later, later);
    expect(await stampOf(env())).not.toBe(before);
    await writeFile(path.join(site.contentDir, "episodes", "notes.txt"), "x");
    expect(await stampOf(env())).not.toBe(before);
  });
});
