// The router compiled from the route table: literal paths, one-segment and rest templates, order.
import { describe, expect, it } from "vitest";
import { Router } from "../../functions/router.ts";

const router = new Router();
const id = (path: string) => router.match(path)?.id ?? null;

describe("router", () => {
  it("matches literal paths and their listed aliases", () => {
    expect(id("/v1")).toBe("discovery");
    expect(id("/v1/")).toBe("discovery");
    expect(id("/v1/episodes")).toBe("listEpisodes");
    expect(id("/v1/episodes/")).toBe("listEpisodes");
    expect(id("/")).toBe("home");
    expect(id("/index.html")).toBe("home");
  });

  it("a literal path wins over a template that also matches it", () => {
    expect(id("/v1/openapi.json")).toBe("openapi");
    expect(id("/embed/latest")).toBe("embedLatest");
  });

  it("a {name} template takes exactly one segment and hands it over undecoded", () => {
    expect(router.match("/v1/episodes/42/audio")).toMatchObject({ id: "getEpisodeAudio", params: { ref: "42" } });
    expect(router.match("/v1/episodes/a%20b")).toMatchObject({ id: "getEpisode", params: { ref: "a%20b" } });
    expect(id("/v1/episodes/42/")).toBe("apiNotFound");
    expect(id("/embed/7")).toBe("embed");
    expect(id("/embed/7/x")).toBe("embedNotFound");
  });

  it("a {name+} template takes the rest of the path", () => {
    expect(router.match("/media/a/b.mp3")).toMatchObject({ id: "media", params: { file: "a/b.mp3" } });
    expect(id("/v1/anything/at/all")).toBe("apiNotFound");
    expect(router.match("/_astro/x.css")).toMatchObject({ id: "buildAsset", params: { file: "x.css" } });
  });

  it("routes the feed and the crawler files", () => {
    expect(["/feed.xml", "/feed.json", "/sitemap.xml", "/robots.txt", "/llms.txt"].map(id)).toEqual(["feed", "jsonFeed", "sitemap", "robots", "llms"]);
  });

  it("paths no route names are left to the static files", () => {
    expect(id("/favicon.ico")).toBeNull();
    expect(id("/v1x")).toBeNull();
    expect(id("/media")).toBeNull();
  });
});
