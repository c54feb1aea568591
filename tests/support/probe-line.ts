// The line the per-file probes (./cpu-probe.ts, ./gc-probe.ts) append for each test file: its
// project and path, then the probe's figures, as one JSON line.
import { appendFileSync } from "node:fs";

export function appendFileLine(log: string, suite: { name: string }, figures: Record<string, number>): void {
  const file = (suite as { filepath?: string }).filepath ?? suite.name;
  appendFileSync(log, `${JSON.stringify({ project: process.env.SHIM_TARGET ?? "node", file, ...figures })}\n`);
}
