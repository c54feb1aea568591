// With SUITE_GC_LOG=<file> (docs/testing.md, "Measuring the suite"): one JSON line per test file
// with the garbage collections of its worker process while the file ran: their count and
// milliseconds, and those of the major ones. Files share their worker's process, so what one file
// leaves in the heap costs the collections of the next ones.
import { constants, PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";
import { afterAll } from "vitest";
import { appendFileLine } from "./probe-line.ts";

interface Totals {
  count: number;
  ms: number;
  majorMs: number;
}

// One observer per worker process, kept across its files (the setup file runs once per file).
const KEY = Symbol.for("episode-service.gc-totals");
const holder = globalThis as { [KEY]?: Totals };
const totals = (holder[KEY] ??= observe());

function observe(): Totals {
  const t: Totals = { count: 0, ms: 0, majorMs: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as (PerformanceEntry & { detail?: { kind?: number } })[]) {
      t.count++;
      t.ms += e.duration;
      if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) t.majorMs += e.duration;
    }
  }).observe({ entryTypes: ["gc"] });
  return t;
}

const start = { ...totals };

afterAll(({}, suite) => {
  appendFileLine(process.env.SUITE_GC_LOG!, suite, { count: totals.count - start.count, ms: Math.round(totals.ms - start.ms), majorMs: Math.round(totals.majorMs - start.majorMs) });
});
