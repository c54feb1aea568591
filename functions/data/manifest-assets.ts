// The asset store of every runtime: build outputs the manifest names, with the strong ETag the
// build computed, read once and kept in a byte-bounded cache (./lru.ts), unless the caller reads
// with `keep: false` (what it holds itself or needs once: ./search.ts). Runtimes differ only in
// how a file's bytes are read: from the disk (functions/node/file-assets.ts) or through the
// static-assets binding (functions/workers/assets.ts). A runtime that serves the build's
// precompressed variants (Node) also passes how to read one (`<file>.br`, `<file>.gz`): each is
// read the first time a request negotiates its coding, and kept in the same cache.
import { CODING_SUFFIX, type Coding } from "../../src/shared/etag.ts";
import { ByteLru } from "./lru.ts";
import type { ManifestLookup } from "./manifest-table.ts";
import type { Asset, AssetStore, GetOptions } from "../ports.ts";
import { registerVariants } from "../http/representations.ts";

/** The bytes of a dist-relative file, or null when there is none. */
export type ReadFile = (rel: string) => Promise<Uint8Array | null>;

/** A variant read from the build (null: the build wrote none, as it would not have been smaller). */
interface Variant {
  variant: Uint8Array | null;
}

/**
 * What an entry holds beside its bytes (the key, the asset, the typed array and its buffer, the
 * cache's slot, the variant reader), as measured (docs/performance.md). Counted, so the bound is
 * the memory the cache takes, not only its bodies, which are small for episode JSON.
 */
const ENTRY_OVERHEAD = 400;

export class ManifestAssetStore implements AssetStore {
  readonly #cache: ByteLru<Asset | Variant>;
  /** dist-relative path → strong ETag, from the build's manifest. */
  readonly #etagOf: (rel: string) => string | undefined;
  readonly #read: ReadFile;
  readonly #readVariant: ReadFile | null;

  /**
   * `manifest`: the parsed object, or a compact ManifestLookup (./manifest-table.ts: what the Node
   * entry passes, as a long-running process holding every episode's paths).
   */
  constructor(manifest: Record<string, string> | ManifestLookup, read: ReadFile, maxBytes: number, readVariant: ReadFile | null = null) {
    this.#etagOf = isLookup(manifest) ? (rel) => manifest.etagOf(rel) : (rel) => (Object.hasOwn(manifest, rel) ? manifest[rel] : undefined);
    this.#read = read;
    this.#readVariant = readVariant;
    this.#cache = new ByteLru(maxBytes, (a) => ENTRY_OVERHEAD + ("body" in a ? a.body.byteLength : (a.variant?.byteLength ?? 0)));
  }

  get(rel: string, options?: GetOptions): Asset | Promise<Asset | null> {
    const hit = this.#cache.get(rel);
    return hit !== undefined ? (hit as Asset) : this.#load(rel, options);
  }

  async #load(rel: string, options?: GetOptions): Promise<Asset | null> {
    // Only files the manifest names are ever read.
    const etag = this.#etagOf(rel);
    if (etag === undefined) return null;
    const body = await this.#read(rel);
    if (body === null) return null;
    const asset = { body, etag };
    if (this.#readVariant !== null) registerVariants(body, (coding) => this.#variant(rel, coding));
    if (options?.keep !== false) this.#cache.set(rel, asset);
    return asset;
  }

  /** The variant of a manifest-named file in one coding, read once. */
  async #variant(rel: string, coding: Coding): Promise<Uint8Array | null> {
    // A key no path can take (paths never hold NUL), so `get` never returns a variant as an asset.
    const key = `${coding}\0${rel}`;
    const hit = this.#cache.get(key) as Variant | undefined;
    if (hit !== undefined) return hit.variant;
    const variant = await this.#readVariant!(rel + CODING_SUFFIX[coding]);
    this.#cache.set(key, { variant });
    return variant;
  }
}

function isLookup(m: Record<string, string> | ManifestLookup): m is ManifestLookup {
  return typeof (m as Partial<ManifestLookup>).etagOf === "function";
}
