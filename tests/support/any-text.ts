// Strings of any Unicode scalar values for the property tests: what fast-check's
// `fc.string({ unit: "binary" })` draws, without the table of every code point fast-check builds
// for that unit on its first use in a process (more than a second of CPU in each test worker).
import fc from "fast-check";

/** The code points 0 to 0x10FFFF less the surrogates, as fast-check's "binary" unit has them. */
const SURROGATES = 0x800;

/** One code point, never a lone surrogate; fc.integer favours the small ones, as the unit does. */
export const anyCodePoint: fc.Arbitrary<string> = fc
  .integer({ min: 0, max: 0x10ffff - SURROGATES })
  .map((i) => String.fromCodePoint(i < 0xd800 ? i : i + SURROGATES));

/** `fc.string({ unit: "binary", ...constraints })`. */
export const binaryString = (constraints: Omit<fc.StringConstraints, "unit"> = {}): fc.Arbitrary<string> => fc.string({ ...constraints, unit: anyCodePoint });
