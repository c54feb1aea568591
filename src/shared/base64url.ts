// base64url without padding (RFC 4648 §5), by table: portable (Node and Workers). Through btoa/atob
// each list page with a cursor would build a binary string a character at a time, run three regular
// expressions and check a decode by encoding again, a real share of a page composed per request
// during a crawl (docs/performance.md#the-list-walk-a-page-composed-per-request).

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const CODE = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
/** A character's 6 bits, or -1 for a character outside the alphabet. */
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) VALUE[CODE[i]!] = i;

/** Characters given to String.fromCharCode at a time (its arguments are bounded). */
const CHUNK = 8192;

export function toBase64Url(bytes: Uint8Array): string {
  const codes = new Array<number>(Math.ceil((bytes.length * 4) / 3));
  let c = 0;
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    codes[c++] = CODE[n >>> 18]!;
    codes[c++] = CODE[(n >>> 12) & 63]!;
    codes[c++] = CODE[(n >>> 6) & 63]!;
    codes[c++] = CODE[n & 63]!;
  }
  if (i < bytes.length) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8);
    codes[c++] = CODE[n >>> 18]!;
    codes[c++] = CODE[(n >>> 12) & 63]!;
    if (i + 1 < bytes.length) codes[c++] = CODE[(n >>> 6) & 63]!;
  }
  let text = "";
  for (let at = 0; at < codes.length; at += CHUNK) text += String.fromCharCode(...codes.slice(at, at + CHUNK));
  return text;
}

/**
 * Null for anything that is not canonical base64url: a character outside the alphabet, padding, a
 * length no encoding has, or stray bits in the last character (so altered text cannot decode to
 * the same bytes).
 */
export function fromBase64Url(text: string): Uint8Array | null {
  const rest = text.length % 4;
  if (rest === 1) return null;
  const out = new Uint8Array(((text.length - rest) / 4) * 3 + (rest === 0 ? 0 : rest - 1));
  let bits = 0;
  let n = 0;
  let o = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const v = code < 128 ? VALUE[code]! : -1;
    if (v < 0) return null;
    bits = (bits << 6) | v;
    n += 6;
    if (n >= 8) {
      n -= 8;
      out[o++] = (bits >>> n) & 0xff;
      bits &= (1 << n) - 1;
    }
  }
  return bits === 0 ? out : null;
}
