// Content negotiation of Accept-Encoding (RFC 9110 §12.5.3): which coding a response is sent in
// (docs/api.md#compression). The service offers br, then gzip, and the plain body ("identity"),
// which it sends whenever no coding is acceptable: a 406 would leave a client with nothing, while
// every client can read the plain body. Portable: no runtime imports.
import { CODINGS, type Coding } from "../../src/shared/etag.ts";

/** A qvalue: 0 to 1 with at most three decimals (RFC 9110 §12.4.2). */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** The weights an Accept-Encoding value gives, by lower-case coding name (`*` included). */
function weights(header: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const element of header.split(",")) {
    const [name, ...params] = element.split(";").map((s) => s.trim());
    if (!name) continue;
    let q = 1;
    let valid = true;
    for (const p of params) {
      const [key, value] = p.split("=").map((s) => s.trim());
      if (key?.toLowerCase() !== "q") continue;
      if (value === undefined || !QVALUE.test(value)) valid = false;
      else q = Number(value);
    }
    // An element with an unreadable weight says nothing reliable: it is ignored.
    if (!valid) continue;
    // x-gzip is gzip (RFC 9110 §8.4.1.3); a repeated coding keeps its first weight.
    const coding = name.toLowerCase() === "x-gzip" ? "gzip" : name.toLowerCase();
    if (!out.has(coding)) out.set(coding, q);
  }
  return out;
}

/**
 * The coding to send a compressible body in, or null for the plain body.
 * - No header, or an empty one: the plain body (an empty value asks for no coding).
 * - A coding's weight is its own element's, else that of `*` (the codings not named), else 0.
 * - `q=0` refuses a coding; among the acceptable ones the highest weight wins, ties going to br.
 * - identity is preferred only when the header names it (or `*`) with a greater weight than every
 *   acceptable coding; refusing it (`identity;q=0`) with no acceptable coding still gets the plain body.
 */
export function negotiateEncoding(header: string | null, offered: readonly Coding[] = CODINGS): Coding | null {
  if (header === null || header.trim() === "") return null;
  const w = weights(header);
  const star = w.get("*");
  const weightOf = (name: string) => w.get(name) ?? star ?? 0;
  let best: Coding | null = null;
  let bestQ = 0;
  for (const coding of offered) {
    const q = weightOf(coding);
    if (q > bestQ) [best, bestQ] = [coding, q];
  }
  if (best === null) return null;
  return weightOf("identity") > bestQ ? null : best;
}
