// The router compiled from the route table: literal paths, one-segment and rest templates, order.
import { describe, expect, it } from "vitest";
import { PlainTarget, plainPath, plainTargetPath, Router, searchOf } from "../../functions/router.ts";

const router = new Router();
const id = (path: string) => router.match(path)?.id ?? null;

describe("router", () => {
  it("gives each template's parameter under its name", () => {
    expect(router.match("/v1/episodes/42/script")?.params).toEqual({ ref: "42" });
    expect(router.match("/media/a/b.mp3")?.params).toEqual({ file: "a/b.mp3" });
    expect(router.match("/v1/nothing/here")?.params).toEqual({ rest: "nothing/here" });
  });

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

  it("a template's parameter is never empty, and a {name} one never holds a slash", () => {
    expect(id("/v1/episodes/")).toBe("listEpisodes");
    expect(id("/v1/episodes//audio")).toBe("apiNotFound");
    expect(router.match("/v1/episodes/a/b/audio")).toMatchObject({ id: "apiNotFound", params: { rest: "episodes/a/b/audio" } });
    expect(router.match("/v1/episodes/42/transcript.vtt")).toMatchObject({ id: "getEpisodeTranscriptVtt", params: { ref: "42" } });
    expect(id("/media/")).toBeNull();
    expect(id("/embed/7\n")).toBe("embed");
    expect(id("/v1/a\nb")).toBeNull();
  });

  it("paths no route names are left to the static files", () => {
    expect(id("/favicon.ico")).toBeNull();
    expect(id("/v1x")).toBeNull();
    expect(id("/media")).toBeNull();
  });
});

describe("plainPath: a target's path read without the URL parser", () => {
  const parsed = (href: string) => new URL(href).pathname;

  it("gives the parser's pathname for plain paths, and null for what the parser would change or does not hold", () => {
    for (const path of ["/", "/v1/episodes/42", "//v1", "/v1/.well-known/x", "/a/.../b", "/a./b.", "/embed/7/", "/Media/A-b_c~d.mp3"]) {
      expect(plainPath(`http://localhost${path}`), path).toBe(parsed(`http://localhost${path}`));
    }
    expect(plainPath("https://api.example.com/v1/episodes")).toBe("/v1/episodes");
    for (const path of ["/v1/episodes?limit=5", "/v1#x", "/a/../b", "/a/./b", "/a/..", "/a/.", "/%41", "/a\\b", "/a b", "/é", "/a%2e%2e/b", "/a|b"]) {
      expect(plainPath(`http://localhost${path}`), path).toBeNull();
    }
  });

  it("agrees with the parser on random targets", () => {
    // A seeded walk over the characters that matter to the parser: separators, dots, escapes.
    const alphabet = ["/", "/", ".", ".", "a", "Z", "0", "-", "_", "~", "%", "2e", "?", "#", "\\", " ", "é", "+", ";", "@"];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 20_000; i++) {
      let path = "/";
      for (let n = next() % 12; n > 0; n--) path += alphabet[next() % alphabet.length];
      const href = `http://localhost${path}`;
      const fast = plainPath(href);
      if (fast !== null) expect(fast, path).toBe(parsed(href));
      // A server's origin-form target (functions/node/request.ts) gives the same answer as its absolute URL.
      expect(plainTargetPath(path), path).toBe(fast);
    }
    expect(plainTargetPath("*")).toBeNull();
  });

  it("a plain target parses its URL only when a route asks, and has no query", () => {
    const at = new PlainTarget("http://localhost/v1/episodes", {});
    expect(searchOf(at)).toBe("");
    expect(at.url.pathname).toBe("/v1/episodes");
    expect(searchOf({ url: new URL("http://localhost/v1/episodes?limit=5"), params: {} })).toBe("?limit=5");
  });
});
