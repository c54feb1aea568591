// Build outputs through the static-assets binding: bodies fetched from ASSETS, their strong ETags
// from the build's manifest (read through ASSETS once per isolate), cached as on every runtime
// (functions/data/manifest-assets.ts).
import { BUILD_FILES } from "../../src/shared/layout.ts";
import { ManifestAssetStore } from "../data/manifest-assets.ts";
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

/** Build outputs through ASSETS, behind the manifest-gated cache every runtime shares. */
export class WorkersAssetStore extends ManifestAssetStore {
  constructor(assets: Fetcher, manifest: Record<string, string>) {
    super(manifest, (rel) => fetchAsset(assets, rel), CACHE_BYTES);
  }

  static async load(assets: Fetcher): Promise<WorkersAssetStore> {
    return new WorkersAssetStore(assets, (await fetchJson(assets, BUILD_FILES.manifest)) as Record<string, string>);
  }
}
