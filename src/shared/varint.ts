// Unsigned varints (7 bits a byte, low bits first), the number format of the search index's files:
// written at build time (src/generate/search-index.ts, src/generate/search-cache.ts), read at
// request time (functions/data/search.ts). Portable.

/** A growing byte array. */
export interface ByteBuffer {
  bytes: Uint8Array;
  length: number;
}

export function byteBuffer(capacity = 64): ByteBuffer {
  return { bytes: new Uint8Array(capacity), length: 0 };
}

/** Room for `extra` more bytes, doubling: amortized O(1) per byte. */
export function reserve(buf: ByteBuffer, extra: number): void {
  if (buf.bytes.length - buf.length >= extra) return;
  const bigger = new Uint8Array(Math.max(buf.bytes.length * 2, buf.length + extra));
  bigger.set(buf.bytes.subarray(0, buf.length));
  buf.bytes = bigger;
}

/** Appends an unsigned varint (values below 2^32). */
export function putVarint(buf: ByteBuffer, value: number): void {
  reserve(buf, 5);
  let v = value;
  while (v >= 0x80) {
    buf.bytes[buf.length++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  buf.bytes[buf.length++] = v;
}

/** Appends bytes as they are. */
export function putBytes(buf: ByteBuffer, bytes: Uint8Array): void {
  reserve(buf, bytes.length);
  buf.bytes.set(bytes, buf.length);
  buf.length += bytes.length;
}

/** Reads an unsigned varint at `at.pos`, moving it past. */
export function readVarint(bytes: Uint8Array, at: { pos: number }): number {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[at.pos++]!;
    value += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) return value;
    shift += 7;
  }
}
