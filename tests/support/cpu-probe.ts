// With SUITE_CPU_LOG=<file> (docs/testing.md, "Measuring the suite"): one JSON line per test file
// with the CPU seconds its worker process spent (`self`: the tests, the servers they start in
// process, their clients) and its children that ended (`children`: workerd, builds and scripts in
// child processes), read from /proc/self/stat: what the process spent from this file's setup to its
// end (files share their worker's process: vitest.config.ts). Not in any file's line: the build
// service's CPU, which is the run's, and Chromium's, whose one process per worker
// (tests/browser/support/browser.ts) ends with the worker.
import { readFileSync } from "node:fs";
import { afterAll } from "vitest";
import { appendFileLine } from "./probe-line.ts";

const TICKS_PER_SECOND = 100;

function cpuSeconds(): { self: number; children: number } {
  const stat = readFileSync("/proc/self/stat", "utf8");
  // The fields after the command name, which may hold spaces, in parentheses; utime is the 14th field.
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ").map(Number);
  return { self: (f[11]! + f[12]!) / TICKS_PER_SECOND, children: (f[13]! + f[14]!) / TICKS_PER_SECOND };
}

const start = cpuSeconds();

afterAll(({}, suite) => {
  const end = cpuSeconds();
  const self = Math.round((end.self - start.self) * 100) / 100;
  const children = Math.round((end.children - start.children) * 100) / 100;
  appendFileLine(process.env.SUITE_CPU_LOG!, suite, { self, children });
});
