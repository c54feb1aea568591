// Build outputs on the local disk, behind a byte-bounded LRU cache so the request path reads the
// disk once per file, not once per request. Only files the manifest names are ever opened.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { ByteLru } from "../lru.ts";
import type { Asset, AssetStore } from "../ports.ts";

export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

export class FileAssetStore implements AssetStore {
  private readonly cache: ByteLru<Asset>;
  private readonly distDir: string;
  /** dist-relative path → strong ETag, from the build's manifest. */
  private readonly manifest: Record<string, string>;

  constructor(distDir: string, manifest: Record<string, string>, maxBytes = DEFAULT_CACHE_BYTES) {
    this.distDir = distDir;
    this.manifest = manifest;
    this.cache = new ByteLru(maxBytes, (a) => a.body.byteLength);
  }

  async get(rel: string): Promise<Asset | null> {
    const hit = this.cache.get(rel);
    if (hit !== undefined) return hit;
    const etag = Object.hasOwn(this.manifest, rel) ? this.manifest[rel] : undefined;
    if (etag === undefined) return null;
    const asset = { body: new Uint8Array(await readFile(path.join(this.distDir, rel))), etag };
    this.cache.set(rel, asset);
    return asset;
  }
}
