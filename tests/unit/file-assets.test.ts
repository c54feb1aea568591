// The Node asset store (functions/node/file-assets.ts) on a real folder: every file comes back byte
// for byte whatever its size against the read buffer (one read below it, a second path at and
// above it), each body is its own copy, and a compressed variant is read from beside its file.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { FileAssetStore } from "../../functions/node/file-assets.ts";
import { variantsOf } from "../../functions/http/representations.ts";

const dir = mkdtempSync(path.join(tmpdir(), "file-assets-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SIZES = [0, 1, 1500, 65_535, 65_536, 65_537, 300_000];
const files = Object.fromEntries(SIZES.map((n) => [`f${n}.json`, randomBytes(n)]));
for (const [rel, bytes] of Object.entries(files)) writeFileSync(path.join(dir, rel), bytes);
writeFileSync(path.join(dir, "f1500.json.br"), Buffer.from("brotli bytes"));
const manifest = Object.fromEntries(Object.keys(files).map((rel) => [rel, `"${rel}"`]));

describe("FileAssetStore", () => {
  it.each(SIZES)("reads a file of %i bytes whole and exactly", async (n) => {
    const store = new FileAssetStore(dir, manifest);
    const asset = await store.get(`f${n}.json`);
    expect(asset?.etag).toBe(`"f${n}.json"`);
    expect(Buffer.from(asset!.body).equals(files[`f${n}.json`]!)).toBe(true);
  });

  it("gives each body its own bytes: a later read does not change an earlier body", async () => {
    const store = new FileAssetStore(dir, manifest);
    const first = await store.get("f1500.json", { keep: false });
    const copy = Buffer.from(first!.body);
    await store.get("f1.json", { keep: false });
    await store.get("f65535.json", { keep: false });
    expect(Buffer.from(first!.body).equals(copy)).toBe(true);
  });

  it("reads a compressed variant from beside its file, and none where the build wrote none", async () => {
    const store = new FileAssetStore(dir, manifest);
    const asset = await store.get("f1500.json");
    const variants = variantsOf(asset!.body)!;
    expect(Buffer.from((await variants("br"))!).toString()).toBe("brotli bytes");
    expect(await variants("gzip")).toBeNull();
  });
});
