// Build outputs on the local disk, through the manifest-gated cache every runtime shares
// (functions/manifest-assets.ts), so the request path reads the disk once per file, not per request.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { ManifestAssetStore } from "../manifest-assets.ts";

export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

export class FileAssetStore extends ManifestAssetStore {
  constructor(distDir: string, manifest: Record<string, string>, maxBytes = DEFAULT_CACHE_BYTES) {
    super(manifest, async (rel) => new Uint8Array(await readFile(path.join(distDir, rel))), maxBytes);
  }
}
