// The progress of long work (src/publish/progress.ts): a bar over a count and a status line for
// work without a total, on a terminal (frames redrawn in place, not one per item) and in a pipe
// (plain lines, few of them).
import { describe, expect, it } from "vitest";
import { formatCount, progressBar, statusLine } from "../../src/publish/progress.ts";

function output(isTTY: boolean) {
  const out = { isTTY, columns: 60, text: "", write: (t: string) => void (out.text += t) };
  return out;
}

describe("progressBar over a count", () => {
  it("prints a line at every quarter in a pipe", () => {
    const out = output(false);
    const bar = progressBar(out, "episodes", 2000, formatCount);
    for (let i = 0; i < 2000; i++) bar.update(i);
    bar.done();
    expect(out.text).toBe(
      "episodes:   0%  0 of 2,000\nepisodes:  25%  500 of 2,000\nepisodes:  50%  1,000 of 2,000\nepisodes:  75%  1,500 of 2,000\nepisodes: 100%  2,000 of 2,000\n",
    );
  });

  it("redraws a terminal's line once a percent, not once an item", () => {
    const out = output(true);
    const bar = progressBar(out, "episodes", 100_000, formatCount);
    const started = performance.now();
    for (let i = 0; i < 100_000; i++) bar.update(i);
    const elapsed = performance.now() - started;
    bar.done();
    const frames = out.text.split("\r").filter(Boolean);
    // One frame a percent, plus at most one per 100 ms that the loop took, plus the last.
    expect(frames.length).toBeGreaterThanOrEqual(100);
    expect(frames.length).toBeLessThanOrEqual(101 + Math.ceil(elapsed / 100));
    expect(frames.at(-1)).toMatch(/^episodes \[█+\] 100%  100,000 of 100,000\x1b\[K\n$/);
  });
});

describe("statusLine", () => {
  it("in a pipe: every phase, and the count only now and then", () => {
    const out = output(false);
    const status = statusLine(out, "build", 60_000);
    status.update("[build] Collecting build info...", true);
    for (let i = 1; i <= 5000; i++) status.update(`rendering routes: ${i}`);
    status.log("build: 5000 episodes");
    status.update("[build] Complete!", true);
    status.done();
    expect(out.text).toBe("build: [build] Collecting build info...\nbuild: 5000 episodes\nbuild: [build] Complete!\n");
  });

  it("on a terminal: one line redrawn in place, cut to the width, with lasting lines above it", () => {
    const out = output(true);
    const status = statusLine(out, "build");
    status.update("[build] Building static entrypoints...", true);
    const started = performance.now();
    for (let i = 1; i <= 5000; i++) status.update(`rendering routes: ${i}`);
    const elapsed = performance.now() - started;
    status.log("warning: episodes/x/script.json: field 'segments'");
    status.update(`a phase whose text is much longer than the sixty columns of this terminal`, true);
    status.done();
    const frames = out.text.split("\r").filter(Boolean);
    // The routes' updates are spaced in time: at most one frame per 100 ms of the loop, not 5,000.
    expect(frames.length).toBeLessThanOrEqual(4 + Math.ceil(elapsed / 100));
    expect(frames[0]).toBe("build: [build] Building static entrypoints...\x1b[K");
    expect(out.text).toContain("\r\x1b[Kwarning: episodes/x/script.json: field 'segments'\n\rbuild: ");
    const long = frames.find((f) => f.startsWith("build: a phase"))!;
    expect(long).toBe(`${"build: a phase whose text is much longer than the sixty columns of this terminal".slice(0, 58)}…\x1b[K`);
    expect(out.text.endsWith("\r\x1b[K")).toBe(true);
  });
});
