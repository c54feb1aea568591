// The encoded representations of a body (docs/api.md#compression), for runtimes whose shim sends
// encoded bytes itself (Node): the build's precompressed variants of a built file
// (functions/data/manifest-assets.ts registers a lazy reader of `<file>.br` and `<file>.gz`), and the
// variants of a composed body (list page, home page, feed…), compressed once by `composedAsset`.
//
// Variants are found by the body's bytes (a WeakMap), so every route that answers with
// bodyResponse(found.body, found.etag, …) serves them without passing more than it does, and they
// go with the bytes when a cache drops them. At the edge nothing is registered: the Worker lets
// the runtime encode (functions/http/response.ts). Portable: no runtime imports.
import { CODINGS, type Coding } from "../../src/shared/etag.ts";
import type { Asset, Compress, EtagFunction } from "../ports.ts";

/** The body in one coding; null when there is no such variant (it would not be smaller). */
export type VariantReader = (coding: Coding) => Promise<Uint8Array | null> | Uint8Array | null;

const registry = new WeakMap<Uint8Array, VariantReader>();

/** Declares where the encoded variants of `body` come from. */
export function registerVariants(body: Uint8Array, read: VariantReader): void {
  registry.set(body, read);
}

/** The encoded variants of `body`, when any were registered. */
export function variantsOf(body: Uint8Array): VariantReader | undefined {
  return registry.get(body);
}

/** A composed body with its variants: what a page cache keeps, and how many bytes it holds. */
export interface ComposedAsset extends Asset {
  /** The plain body and its variants together (a byte-bounded cache's size of the entry). */
  bytes: number;
}

/**
 * A body composed at request time as a representation set, made once and kept with the page: its
 * bytes, its strong ETag and, when the runtime passes `compress` (Node), its br and gzip variants
 * (each kept only when smaller), whose ETags bodyResponse derives (src/shared/etag.ts encodedEtag).
 * Without `compress` (Workers) the runtime encodes at send time. One call for every composed body:
 * `const page = await composedAsset(bytes, etag, compress)`, then `bodyResponse(req, ctx, page.body, page.etag, …)`.
 *
 * With `grown` (list pages), each variant is made the first time a request negotiates its coding,
 * not with the body: a crawler walking the list without Accept-Encoding would otherwise make every
 * composed page pay brotli and gzip, most of the walk's cost, for bytes nobody asked for. `bytes` then grows as variants are made, and `grown` is called so the cache holding
 * the body counts them.
 */
export async function composedAsset(body: Uint8Array | string, etag: EtagFunction, compress?: Compress, grown?: () => void): Promise<ComposedAsset> {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const tag = await etag(bytes);
  const asset: ComposedAsset = { body: bytes, etag: tag, bytes: bytes.byteLength };
  if (compress === undefined) return asset;
  /** Keeps a variant only when smaller than the plain body. */
  const keep = (encoded: Uint8Array) => (encoded.byteLength < bytes.byteLength ? encoded : null);
  if (grown !== undefined) {
    const made = new Map<Coding, Promise<Uint8Array | null>>();
    registerVariants(bytes, (c) => {
      let variant = made.get(c);
      if (variant === undefined) {
        variant = compress(bytes, c).then(keep);
        made.set(c, variant);
        // A failed compression is retried by the next request that negotiates it.
        void variant.then(
          (v) => {
            asset.bytes += v?.byteLength ?? 0;
            grown();
          },
          () => made.delete(c),
        );
      }
      return variant;
    });
    return asset;
  }
  const encoded = await Promise.all(CODINGS.map((c) => compress(bytes, c)));
  const kept = new Map<Coding, Uint8Array>();
  CODINGS.forEach((c, i) => {
    const v = keep(encoded[i]!);
    if (v !== null) kept.set(c, v);
  });
  registerVariants(bytes, (c) => kept.get(c) ?? null);
  for (const v of kept.values()) asset.bytes += v.byteLength;
  return asset;
}
