// The build's compressed variants (src/generate/precompress.ts): beside each compressible file,
// .br and .gz that decode to it, only when smaller; other files untouched; stale variants removed.
import { existsSync, readFileSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompress, THREADS_FROM, type PrecompressResult } from "../../src/generate/precompress.ts";
import { tempDir } from "../support/fixture.ts";

const json = JSON.stringify({ episodes: Array.from({ length: 50 }, (_, i) => ({ n: i, title: `Episode ${i}`, summary: "The same words again and again." })) });
const html = `<!doctype html><title>x</title>${"<p>Paragraph of a page, repeated.</p>".repeat(100)}`;
const FILES: Record<string, string | Uint8Array> = {
  "_api/episodes/1.json": json,
  "episodes/1.html": html,
  "_api/episodes/1.transcript.txt": "Ada: hello.\nBo: hi.\n".repeat(200),
  "_astro/site.css": "body { margin: 0; }\n".repeat(50),
  "_astro/player.js": "export const a = 1;\n".repeat(50),
  // Too small to shrink: no variant.
  "tiny.txt": "a",
  // Not compressible by type.
  "cover.png": new Uint8Array(4096).fill(7),
};

let dist: string;
let result: PrecompressResult;

beforeAll(async () => {
  dist = await tempDir("precompress");
  for (const [rel, body] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(dist, rel)), { recursive: true });
    await writeFile(path.join(dist, rel), body);
  }
  // A variant left by an earlier build of a file that no longer compresses: it must go.
  await writeFile(path.join(dist, "tiny.txt.br"), "stale");
  result = await precompress(dist, Object.keys(FILES));
});
afterAll(async () => {
  await rm(dist, { recursive: true, force: true });
});

const read = (rel: string) => readFileSync(path.join(dist, rel));

describe("precompress", () => {
  it.each(["_api/episodes/1.json", "episodes/1.html", "_api/episodes/1.transcript.txt", "_astro/site.css", "_astro/player.js"])(
    "writes %s.br and .gz, smaller, decoding to the file",
    (rel) => {
      const plain = read(rel);
      const br = read(`${rel}.br`);
      const gz = read(`${rel}.gz`);
      expect(br.byteLength).toBeLessThan(plain.byteLength);
      expect(gz.byteLength).toBeLessThan(plain.byteLength);
      expect(brotliDecompressSync(br).equals(plain)).toBe(true);
      expect(gunzipSync(gz).equals(plain)).toBe(true);
    },
  );

  it("writes no variant that would not be smaller, and removes an older one", () => {
    expect(existsSync(path.join(dist, "tiny.txt.br"))).toBe(false);
    expect(existsSync(path.join(dist, "tiny.txt.gz"))).toBe(false);
  });

  it("leaves files of other types alone", () => {
    expect(existsSync(path.join(dist, "cover.png.br"))).toBe(false);
    expect(existsSync(path.join(dist, "cover.png.gz"))).toBe(false);
  });

  it("reports what it did: a few files, on the build's main thread", () => {
    expect(result.files).toBe(6);
    expect(result.variants).toBe(10);
    expect(result.bytesOut).toBeLessThan(result.bytesIn);
    expect(result.threads).toBe(0);
  });
});

describe("precompress of many files", () => {
  // Enough files to start the threads; each file differs, so a variant written for the wrong file shows.
  const many = Array.from({ length: THREADS_FROM + 70 }, (_, i) => [`_api/episodes/${i}.json`, `${json.replace(/Episode/g, `Episode ${i}`)}`] as const);
  let manyDist: string;
  let manyResult: PrecompressResult;

  beforeAll(async () => {
    manyDist = await tempDir("precompress-many");
    await mkdir(path.join(manyDist, "_api/episodes"), { recursive: true });
    for (const [rel, body] of many) await writeFile(path.join(manyDist, rel), body);
    manyResult = await precompress(manyDist, [...many.map(([rel]) => rel), "cover.png"], 2);
  });
  afterAll(async () => {
    await rm(manyDist, { recursive: true, force: true });
  });

  it("runs on the threads and writes every file's variants, decoding to that file", () => {
    expect(manyResult.threads).toBe(2);
    expect(manyResult.files).toBe(many.length);
    expect(manyResult.variants).toBe(2 * many.length);
    for (const [rel, body] of many) {
      const plain = Buffer.from(body);
      expect(brotliDecompressSync(readFileSync(path.join(manyDist, `${rel}.br`))).equals(plain)).toBe(true);
      expect(gunzipSync(readFileSync(path.join(manyDist, `${rel}.gz`))).equals(plain)).toBe(true);
    }
  });
});
