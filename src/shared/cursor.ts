// Opaque keyset cursors (docs/api.md#get-v1episodes). A cursor carries the position of the last episode of
// the page (its order key, so it survives rebuilds) and the filters of the first page, followed by
// a checksum so that truncated or altered cursors are refused rather than misread.
import { fromBase64Url, toBase64Url } from "./base64url.ts";
import type { OrderKey } from "./order.ts";

const VERSION = 1;
const CHECKSUM_BYTES = 4;
/** The longest cursor decoded: a cursor is ~100 characters; anything far longer is not one of ours. */
export const CURSOR_MAX_LENGTH = 512;

export interface CursorFilters {
  domain: string | null;
  /** `since` as epoch milliseconds. */
  since: number | null;
}

export interface Cursor extends CursorFilters {
  after: OrderKey;
}

/** FNV-1a, 32 bits: cheap, and enough to catch accidental damage (cursors are not secrets). */
function fnv1a(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (const b of bytes) hash = Math.imul(hash ^ b, 0x01000193) >>> 0;
  return hash;
}

export function encodeCursor(cursor: Cursor): string {
  const payload = new TextEncoder().encode(
    JSON.stringify([VERSION, cursor.after.p, cursor.after.n, cursor.after.id, cursor.domain, cursor.since]),
  );
  const bytes = new Uint8Array(payload.length + CHECKSUM_BYTES);
  bytes.set(payload);
  new DataView(bytes.buffer).setUint32(payload.length, fnv1a(payload));
  return toBase64Url(bytes);
}

/** Null when the cursor is malformed, truncated, altered or of another version. */
export function decodeCursor(text: string): Cursor | null {
  if (text.length === 0 || text.length > CURSOR_MAX_LENGTH) return null;
  const bytes = fromBase64Url(text);
  if (!bytes || bytes.length <= CHECKSUM_BYTES) return null;
  const payload = bytes.subarray(0, bytes.length - CHECKSUM_BYTES);
  const sum = new DataView(bytes.buffer, bytes.byteOffset).getUint32(payload.length);
  if (sum !== fnv1a(payload)) return null;
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(payload));
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 6 || value[0] !== VERSION) return null;
  const [, p, n, id, domain, since] = value as unknown[];
  if (typeof p !== "number" || !Number.isFinite(p)) return null;
  if (typeof n !== "number" || !Number.isInteger(n)) return null;
  if (typeof id !== "string") return null;
  if (domain !== null && typeof domain !== "string") return null;
  if (since !== null && (typeof since !== "number" || !Number.isFinite(since))) return null;
  return { after: { p, n, id }, domain, since };
}
