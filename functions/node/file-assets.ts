// Build outputs on the local disk, behind a byte-bounded LRU cache so the request path reads the
// disk once per file, not once per request. Only files the manifest names are ever opened.
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Asset, AssetStore } from "../ports.ts";

export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

export class FileAssetStore implements AssetStore {
  private readonly cache = new Map<string, Asset>();
  private cachedBytes = 0;
  private readonly distDir: string;
  /** dist-relative path → strong ETag, from the build's manifest. */
  private readonly manifest: Record<string, string>;
  private readonly maxBytes: number;

  constructor(distDir: string, manifest: Record<string, string>, maxBytes = DEFAULT_CACHE_BYTES) {
    this.distDir = distDir;
    this.manifest = manifest;
    this.maxBytes = maxBytes;
  }

  async get(rel: string): Promise<Asset | null> {
    const hit = this.cache.get(rel);
    if (hit !== undefined) {
      this.cache.delete(rel); // re-insert: Map order is the recency order
      this.cache.set(rel, hit);
      return hit;
    }
    const etag = Object.hasOwn(this.manifest, rel) ? this.manifest[rel] : undefined;
    if (etag === undefined) return null;
    const body = new Uint8Array(await readFile(path.join(this.distDir, rel)));
    const asset = { body, etag };
    if (body.byteLength <= this.maxBytes / 4) {
      this.cache.set(rel, asset);
      this.cachedBytes += body.byteLength;
      for (const [k, v] of this.cache) {
        if (this.cachedBytes <= this.maxBytes) break;
        this.cache.delete(k);
        this.cachedBytes -= v.body.byteLength;
      }
    }
    return asset;
  }
}
