// The asset store every runtime shares (functions/data/manifest-assets.ts): only manifest-named files
// are read, each once while it is cached, and a read with `keep: false` leaves the cache as it was.
import { describe, expect, it } from "vitest";
import { ManifestAssetStore } from "../../functions/data/manifest-assets.ts";

function storeOf(files: Record<string, string>, maxBytes = 1024 * 1024) {
  const reads: string[] = [];
  const manifest = Object.fromEntries(Object.keys(files).map((rel) => [rel, `"${rel}"`]));
  const store = new ManifestAssetStore(
    manifest,
    async (rel) => {
      reads.push(rel);
      return rel in files ? new TextEncoder().encode(files[rel]) : null;
    },
    maxBytes,
  );
  return { store, reads };
}

describe("ManifestAssetStore", () => {
  it("reads a manifest-named file once while it is cached, with the manifest's ETag", async () => {
    const { store, reads } = storeOf({ "a.json": "{}" });
    const first = await store.get("a.json");
    expect(first?.etag).toBe('"a.json"');
    expect(await store.get("a.json")).toBe(first);
    expect(reads).toEqual(["a.json"]);
  });

  it("never reads a file the manifest does not name", async () => {
    const { store, reads } = storeOf({ "a.json": "{}" });
    expect(await store.get("secret.json")).toBeNull();
    expect(reads).toEqual([]);
  });

  it("keep: false reads the file each time and keeps nothing, yet answers from what is already kept", async () => {
    const { store, reads } = storeOf({ "once.txt": "x".repeat(100), "hot.json": "{}" });
    expect(new TextDecoder().decode((await store.get("once.txt", { keep: false }))!.body)).toBe("x".repeat(100));
    await store.get("once.txt", { keep: false });
    expect(reads).toEqual(["once.txt", "once.txt"]);
    await store.get("once.txt");
    await store.get("once.txt");
    expect(reads).toEqual(["once.txt", "once.txt", "once.txt"]);
    await store.get("hot.json");
    await store.get("hot.json", { keep: false });
    expect(reads.filter((r) => r === "hot.json")).toHaveLength(1);
  });

  it("a one-off read does not push the kept files out of a full cache", async () => {
    // Each small body counts ~400 bytes with its entry: five fill 2,400; the big one (~600) would not fit beside them.
    const small = ["a", "b", "c", "d", "e"].map((n) => `${n}.json`);
    const { store, reads } = storeOf({ ...Object.fromEntries(small.map((rel) => [rel, "1"])), "big.txt": "y".repeat(200) }, 2400);
    for (const rel of small) await store.get(rel);
    await store.get("big.txt", { keep: false });
    for (const rel of small) await store.get(rel);
    // Kept, the big body would have pushed out a.json, the oldest (none had been used again yet).
    expect(reads).toEqual([...small, "big.txt"]);
  });
});
