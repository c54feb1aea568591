// Build outputs through the static-assets binding: bodies fetched from ASSETS, their strong ETags
// from the build's manifest (read through ASSETS once per isolate), kept in a byte-bounded cache.
import { BUILD_FILES } from "../../src/shared/layout.ts";
import { ByteLru } from "../lru.ts";
import type { Asset, AssetStore } from "../ports.ts";
import type { Fetcher } from "./bindings.ts";

/** An isolate has 128 MB; keep the hot bodies, not the whole site. */
const CACHE_BYTES = 16 * 1024 * 1024;

/** The bytes of dist/<rel> through ASSETS, or null when there is no such file. */
export async function fetchAsset(assets: Fetcher, rel: string): Promise<Uint8Array | null> {
  // html_handling "none" (wrangler.jsonc): a path names exactly one file, never a redirect.
  const res = await assets.fetch(new Request(`https://assets.local/${rel.split("/").map(encodeURIComponent).join("/")}`));
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`ASSETS answered ${res.status} for ${rel}`);
  return new Uint8Array(await res.arrayBuffer());
}

export async function fetchJson(assets: Fetcher, rel: string): Promise<unknown> {
  const bytes = await fetchAsset(assets, rel);
  if (bytes === null) throw new Error(`build output missing: ${rel}`);
  return JSON.parse(new TextDecoder().decode(bytes));
}

export class WorkersAssetStore implements AssetStore {
  private readonly cache = new ByteLru<Asset>(CACHE_BYTES, (a) => a.body.byteLength);
  private readonly assets: Fetcher;
  /** dist-relative path → strong ETag. */
  private readonly manifest: Record<string, string>;

  constructor(assets: Fetcher, manifest: Record<string, string>) {
    this.assets = assets;
    this.manifest = manifest;
  }

  static async load(assets: Fetcher): Promise<WorkersAssetStore> {
    return new WorkersAssetStore(assets, (await fetchJson(assets, BUILD_FILES.manifest)) as Record<string, string>);
  }

  async get(rel: string): Promise<Asset | null> {
    const hit = this.cache.get(rel);
    if (hit !== undefined) return hit;
    // Only files the manifest names are ever asked for.
    const etag = Object.hasOwn(this.manifest, rel) ? this.manifest[rel] : undefined;
    if (etag === undefined) return null;
    const body = await fetchAsset(this.assets, rel);
    if (body === null) return null;
    const asset = { body, etag };
    this.cache.set(rel, asset);
    return asset;
  }
}
