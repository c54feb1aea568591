// Build configuration (src/generate/config.ts) and the file budget's counting rule
// (src/generate/file-budget.ts): defaults, accepted forms, and refusals that name the variable.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { assetFileLimit, buildConfig } from "../../src/generate/config.ts";
import { ASSET_FILE_LIMIT_DEFAULT, fileBudgetProblem, uploadFiles } from "../../src/generate/file-budget.ts";
import { BUILD_FILES } from "../../src/shared/layout.ts";

describe("buildConfig", () => {
  it("defaults to the local backend, no public audio URL and the free plan's file limit", () => {
    expect(buildConfig({})).toMatchObject({ audioBackend: "local", audioPublicUrl: null, assetFileLimit: 20_000 });
    expect(buildConfig({ AUDIO_BACKEND: " ", AUDIO_PUBLIC_URL: "", ASSET_FILE_LIMIT: "" })).toEqual(buildConfig({}));
  });

  it("reads AUDIO_BACKEND=s3 and AUDIO_PUBLIC_URL without its trailing slashes, keeping its path", () => {
    expect(buildConfig({ AUDIO_BACKEND: "s3", AUDIO_PUBLIC_URL: "https://cdn.example/show//" })).toMatchObject({
      audioBackend: "s3",
      audioPublicUrl: "https://cdn.example/show",
    });
  });

  it.each([
    ["AUDIO_BACKEND", "S3", "AUDIO_BACKEND must be 'local' or 's3', got 'S3'"],
    ["AUDIO_BACKEND", "r2", "AUDIO_BACKEND must be 'local' or 's3', got 'r2'"],
    ["AUDIO_PUBLIC_URL", "cdn.example", "AUDIO_PUBLIC_URL is not an absolute URL"],
    ["AUDIO_PUBLIC_URL", "ftp://cdn.example", "AUDIO_PUBLIC_URL must be http or https"],
    ["AUDIO_PUBLIC_URL", "https://cdn.example/a?sig=1", "AUDIO_PUBLIC_URL must not carry a query or fragment"],
    ["ASSET_FILE_LIMIT", "0", "ASSET_FILE_LIMIT must be a whole number >= 1, got '0'"],
    ["ASSET_FILE_LIMIT", "1.5", "ASSET_FILE_LIMIT must be a whole number >= 1, got '1.5'"],
  ])("refuses %s=%s, naming the variable", (name, value, message) => {
    expect(() => buildConfig({ [name]: value })).toThrow(message);
  });

  it("reads ASSET_FILE_LIMIT as deploy reads it", () => {
    expect(assetFileLimit({})).toBe(ASSET_FILE_LIMIT_DEFAULT);
    expect(assetFileLimit({ ASSET_FILE_LIMIT: " 100000 " })).toBe(100_000);
    expect(buildConfig({ ASSET_FILE_LIMIT: "1" }).assetFileLimit).toBe(1);
  });
});

describe("the file budget", () => {
  it("counts every file of dist/ but the audio, precompressed variants, .assetsignore and the Node server's private files", async () => {
    const dist = await mkdtemp(path.join(tmpdir(), "budget-"));
    try {
      await mkdir(path.join(dist, "media"), { recursive: true });
      await mkdir(path.join(dist, "_api/episodes"), { recursive: true });
      for (const rel of ["index.html", "index.html.br", "app.js.gz", ".assetsignore", "media/a.mp3", "_api/episodes/1.json", "_api/media.json", BUILD_FILES.state, BUILD_FILES.listBodies]) {
        await writeFile(path.join(dist, rel), "x");
      }
      expect(await uploadFiles(dist)).toEqual(["_api/episodes/1.json", "_api/media.json", "index.html"]);
    } finally {
      await rm(dist, { recursive: true, force: true });
    }
  });

  it("refuses only past the limit, with the message deploy gives", () => {
    expect(fileBudgetProblem(5, 5)).toBeNull();
    expect(fileBudgetProblem(6, 5)).toMatch(/^6 files to upload exceed ASSET_FILE_LIMIT=5 \(Cloudflare's files per deploy.*Raise ASSET_FILE_LIMIT/);
  });
});
