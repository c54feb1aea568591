// Range requests on a file of known size (RFC 9110 §14). Suffix ranges are resolved to explicit
// byte positions here, so storage only ever sees first–last pairs (s3rver gets suffixes wrong).

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

export type RangeResult =
  | { kind: "none" } // no Range, another unit, or syntactically invalid: serve the whole file
  | { kind: "unsatisfiable" }
  | { kind: "ranges"; ranges: ByteRange[] };

const MAX_RANGES = 16;

export function parseRange(header: string | null, size: number): RangeResult {
  if (header === null) return { kind: "none" };
  const m = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!m) return { kind: "none" };
  const specs = m[1]!.split(",").map((s) => s.trim()).filter((s) => s.length > 0);
  if (specs.length === 0 || specs.length > MAX_RANGES) return { kind: "none" };
  const ranges: ByteRange[] = [];
  for (const spec of specs) {
    const r = /^(\d*)\s*-\s*(\d*)$/.exec(spec);
    if (!r || (r[1] === "" && r[2] === "")) return { kind: "none" };
    if (r[1] === "") {
      const suffix = Number(r[2]);
      if (suffix === 0 || size === 0) continue; // unsatisfiable on its own
      ranges.push({ start: Math.max(0, size - suffix), end: size - 1 });
      continue;
    }
    const start = Number(r[1]);
    // A written last position before the first is invalid syntax (§14.1.1): ignore the header.
    // (Compare the written one only: `bytes=<size>-` is unsatisfiable, not invalid.)
    if (r[2] !== "" && Number(r[2]) < start) return { kind: "none" };
    if (start >= size) continue;
    const end = r[2] === "" ? size - 1 : Number(r[2]);
    ranges.push({ start, end: Math.min(end, size - 1) });
  }
  if (ranges.length === 0) return { kind: "unsatisfiable" };
  return { kind: "ranges", ranges: coalesce(ranges) };
}

/** Merges overlapping or adjacent ranges so a multipart body never repeats bytes. */
function coalesce(ranges: ByteRange[]): ByteRange[] {
  if (ranges.length === 1) return ranges;
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const out: ByteRange[] = [{ ...sorted[0]! }];
  for (const r of sorted.slice(1)) {
    const last = out[out.length - 1]!;
    if (r.start <= last.end + 1) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}
