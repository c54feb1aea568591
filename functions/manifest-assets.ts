// The asset store of every runtime: build outputs the manifest names, with the strong ETag the
// build computed, read once and kept in a byte-bounded cache (./lru.ts). Runtimes differ only in
// how a file's bytes are read: from the disk (functions/node/file-assets.ts) or through the
// static-assets binding (functions/workers/assets.ts).
import { ByteLru } from "./lru.ts";
import type { Asset, AssetStore } from "./ports.ts";

/** The bytes of a dist-relative file, or null when there is none. */
export type ReadFile = (rel: string) => Promise<Uint8Array | null>;

export class ManifestAssetStore implements AssetStore {
  readonly #cache: ByteLru<Asset>;
  /** dist-relative path → strong ETag, from the build's manifest. */
  readonly #manifest: Record<string, string>;
  readonly #read: ReadFile;

  constructor(manifest: Record<string, string>, read: ReadFile, maxBytes: number) {
    this.#manifest = manifest;
    this.#read = read;
    this.#cache = new ByteLru(maxBytes, (a) => a.body.byteLength);
  }

  async get(rel: string): Promise<Asset | null> {
    const hit = this.#cache.get(rel);
    if (hit !== undefined) return hit;
    // Only files the manifest names are ever read.
    const etag = Object.hasOwn(this.#manifest, rel) ? this.#manifest[rel] : undefined;
    if (etag === undefined) return null;
    const body = await this.#read(rel);
    if (body === null) return null;
    const asset = { body, etag };
    this.#cache.set(rel, asset);
    return asset;
  }
}
