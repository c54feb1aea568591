// Name-based UUIDs, version 5 (RFC 9562 §5.5: SHA-1 of namespace + name), for the feed's
// podcast:guid (docs/api.md#feed). crypto.subtle, so it runs on Node and in Workers alike.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The Podcasting 2.0 namespace of podcast:guid values. */
export const PODCAST_GUID_NAMESPACE = "ead4c236-bf58-58c6-a2c6-a6b28d128cb6";

function bytesOf(uuid: string): Uint8Array {
  if (!UUID.test(uuid)) throw new Error(`not a UUID: ${uuid}`);
  const hex = uuid.replace(/-/g, "");
  const out = new Uint8Array(16);
  for (let i = 0; i < 16; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** The version-5 UUID of `name` (UTF-8) in `namespace`, lower case. */
export async function uuidV5(name: string, namespace: string): Promise<string> {
  const ns = bytesOf(namespace);
  const text = new TextEncoder().encode(name);
  const data = new Uint8Array(ns.byteLength + text.byteLength);
  data.set(ns);
  data.set(text, ns.byteLength);
  const b = new Uint8Array(await crypto.subtle.digest("SHA-1", data)).slice(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** podcast:guid of a feed: the UUIDv5 of its URL without the scheme and trailing slashes. */
export function podcastGuid(feedUrl: string): Promise<string> {
  return uuidV5(feedUrl.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").replace(/\/+$/, ""), PODCAST_GUID_NAMESPACE);
}
