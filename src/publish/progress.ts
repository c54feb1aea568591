// The upload's progress on stderr: on a terminal one bar redrawn in place
// (`upload [██████░░░░░░░░] 42%  2.7 MB of 6.4 MB`); otherwise (a log, a CI job, a pipe) plain
// lines at every quarter, since carriage returns would garble the file.

export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface Progress {
  update(loaded: number): void;
  /** Ends the bar's line (a terminal) or prints the last line (anything else). */
  done(): void;
  /** Ends a terminal's bar line where it stopped, so the error that follows starts on its own line. */
  abandon(): void;
}

const MB = 1_000_000;

export function formatBytes(n: number): string {
  return n >= MB ? `${(n / MB).toFixed(1)} MB` : n >= 1000 ? `${(n / 1000).toFixed(1)} kB` : `${n} B`;
}

export function progressBar(out: ProgressOutput, label: string, total: number): Progress {
  let loaded = 0;
  let lastStep = -1;
  let drawn = false;
  const percent = () => (total === 0 ? 100 : Math.floor((Math.min(loaded, total) / total) * 100));
  const figures = () => `${String(percent()).padStart(3)}%  ${formatBytes(loaded)} of ${formatBytes(total)}`;
  const draw = () => {
    if (out.isTTY) {
      drawn = true;
      const width = Math.max(10, Math.min(40, (out.columns ?? 80) - label.length - 30));
      const full = Math.round((percent() / 100) * width);
      out.write(`\r${label} [${"█".repeat(full)}${"░".repeat(width - full)}] ${figures()}\x1b[K`);
      return;
    }
    const step = Math.floor(percent() / 25);
    if (step === lastStep) return;
    lastStep = step;
    out.write(`${label}: ${figures()}\n`);
  };
  return {
    update(n) {
      loaded = Math.max(loaded, n);
      draw();
    },
    done() {
      loaded = Math.max(loaded, total);
      draw();
      if (out.isTTY) out.write("\n");
    },
    abandon() {
      if (out.isTTY && drawn) out.write("\n");
    },
  };
}
