// The build's file layout (src/shared/layout.ts): the params each Astro route is given put its
// output exactly where the shim reads it, for every kind of build output, and every route file
// under src/pages/ is one the layout knows.
import { readFileSync } from "node:fs";
import path from "node:path";
import fg from "fast-glob";
import { describe, expect, it } from "vitest";
import {
  API_PREFIX,
  BUILD_FILES,
  episodeFile,
  MEDIA_DIR,
  mediaFile,
  mediaKey,
  outputPath,
  paramsOf,
  PAGE_ROUTES,
  SITE_FILES,
} from "../../src/shared/layout.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const UUID = "0a8f5e2c-6b1d-4c3e-9f7a-1b2c3d4e5f60";

/** Every kind of build output an Astro route writes: its route, the path the shim reads, the name tests and manifests depend on. */
const KINDS: [kind: string, route: string, shimReads: string, expected: string][] = [
  ["openapi", PAGE_ROUTES.openapi, BUILD_FILES.openapi, "_api/openapi.json"],
  ["embed 404 page", PAGE_ROUTES.embedNotFound, SITE_FILES.embedNotFound, "_api/embed-404.html"],
  ["home page", PAGE_ROUTES.home, SITE_FILES.home, "index.html"],
  ["terms page", PAGE_ROUTES.terms, SITE_FILES.terms, "terms.html"],
  ["404 page", PAGE_ROUTES.notFound, SITE_FILES.notFound, "404.html"],
  ["episode page", PAGE_ROUTES.page, SITE_FILES.page("42"), "episodes/42.html"],
  ["episode page (UUID)", PAGE_ROUTES.page, SITE_FILES.page(UUID), `episodes/${UUID}.html`],
  ["player page", PAGE_ROUTES.embed, SITE_FILES.embed("42"), "embed/42.html"],
  ["player page (UUID)", PAGE_ROUTES.embed, SITE_FILES.embed(UUID), `embed/${UUID}.html`],
];

describe("the build's file layout", () => {
  it.each(KINDS)("%s: the params Astro is given join to the path the shim reads", (_kind, route, shimReads, expected) => {
    expect(shimReads).toBe(expected);
    const params = paramsOf(route, shimReads);
    for (const value of Object.values(params)) expect(value).not.toMatch(/\/|^$/);
    expect(outputPath(route, params)).toBe(shimReads);
  });

  it("gives the [api] segment the private prefix", () => {
    expect(API_PREFIX).toBe("_api");
    expect(paramsOf(PAGE_ROUTES.openapi, BUILD_FILES.openapi)).toEqual({ api: API_PREFIX });
    expect(paramsOf(PAGE_ROUTES.embedNotFound, SITE_FILES.embedNotFound)).toEqual({ api: API_PREFIX });
    expect(paramsOf(PAGE_ROUTES.page, SITE_FILES.page("7"))).toEqual({ ref: "7" });
    expect(paramsOf(PAGE_ROUTES.home, SITE_FILES.home)).toEqual({});
  });

  it("refuses a path the route cannot write", () => {
    expect(() => paramsOf(PAGE_ROUTES.openapi, BUILD_FILES.index)).toThrow();
    expect(() => paramsOf(PAGE_ROUTES.page, SITE_FILES.embed("42"))).toThrow();
    expect(() => paramsOf(PAGE_ROUTES.page, "episodes/42.json")).toThrow();
    expect(() => outputPath(PAGE_ROUTES.page, {})).toThrow();
    expect(() => outputPath(PAGE_ROUTES.page, { ref: "a/b" })).toThrow();
  });

  it("files the build's writer puts in dist/, not a route, sit under the private prefix", () => {
    expect(BUILD_FILES.index).toBe("_api/index.json");
    expect(BUILD_FILES.discovery).toBe("_api/discovery.json");
    expect(episodeFile("42", "json")).toBe("_api/episodes/42.json");
    expect(episodeFile(UUID, "json")).toBe(`_api/episodes/${UUID}.json`);
    expect(episodeFile("42", "script")).toBe("_api/episodes/42.script.json");
    expect(episodeFile("42", "transcript")).toBe("_api/episodes/42.transcript.txt");
    expect(SITE_FILES.oembed("42")).toBe("_api/oembed/42.json");
    expect(BUILD_FILES.manifest).toBe("_api/manifest.json");
    expect(BUILD_FILES.stamp).toBe("_api/build.json");
    expect(BUILD_FILES.state).toBe("_api/build-state.json");
  });

  it("puts local audio in the media folder, named by the episode's UUID", () => {
    expect(MEDIA_DIR).toBe("media");
    expect(mediaKey(UUID)).toBe(`${UUID}.mp3`);
    expect(mediaFile(mediaKey(UUID))).toBe(`media/${UUID}.mp3`);
  });

  it("knows every route file under src/pages/, and each exists", () => {
    const files = fg.sync("**/*.{ts,astro}", { cwd: path.join(ROOT, "src/pages") }).sort();
    expect(files).toEqual(Object.values(PAGE_ROUTES).sort());
  });

  it("relies on Astro writing routes as files (build.format 'file'), as astro.config.mjs says", () => {
    expect(readFileSync(path.join(ROOT, "astro.config.mjs"), "utf8")).toMatch(/format:\s*"file"/);
  });
});
