// The bench's printed tables, and the summary's rows: each figure beside its target and anchor.

/** A table row: the first column left-aligned, figures right-aligned. */
export function pad(cells: (string | number | null | undefined)[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? String(c ?? "–").padEnd(widths[i]!) : String(c ?? "–").padStart(widths[i]!))).join("  ");
}

export function ratio(a: number | null | undefined, b: number | null | undefined, digits = 2): string {
  return a && b ? (a / b).toFixed(digits) : "–";
}

/** The middle value (the lower of the two middle ones for an even count); null for none. */
export function median(values: (number | null | undefined)[]): number | null {
  const known = values.filter((v): v is number => typeof v === "number" && Number.isFinite(v)).sort((a, b) => a - b);
  return known.length === 0 ? null : known[Math.floor((known.length - 1) / 2)]!;
}

/** One line of the summary: a figure beside its target and its anchor of the same run. */
export interface TargetRow {
  figure: string;
  measured: string;
  target: string;
  anchor: string;
  /** Whether the target is met; null when there is no target or no figure. */
  met: boolean | null;
}

export const verdict = (met: boolean | null) => (met === null ? "" : met ? "met" : "MISSED");

export function printTable(title: string, header: string[], rows: (string | number | null | undefined)[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i] ?? "–").length)));
  console.log(`\n${title}`);
  console.log(pad(header, widths));
  for (const r of rows) console.log(pad(r, widths));
}
