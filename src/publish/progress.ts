// Progress of long work on stderr (the upload, the build, synthetic content, the search bench): on
// a terminal one line redrawn in place (`upload [██████░░░░░░░░] 42%  2.7 MB of 6.4 MB`); otherwise
// (a log, a CI job, a pipe) plain lines, fewer of them, since carriage returns would garble the file.

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

/** A count for people: `12,345`. */
export const formatCount = (n: number): string => n.toLocaleString("en");

/** A bar over `total` units, shown by `format` (bytes by default); off a terminal a line at every quarter. */
export function progressBar(out: ProgressOutput, label: string, total: number, format: (n: number) => string = formatBytes): Progress {
  let loaded = 0;
  let lastStep = -1;
  let drawn = false;
  let drawnAt = -Infinity;
  let drawnPercent = -1;
  const percent = () => (total === 0 ? 100 : Math.floor((Math.min(loaded, total) / total) * 100));
  const figures = () => `${String(percent()).padStart(3)}%  ${format(loaded)} of ${format(total)}`;
  const draw = (force = false) => {
    if (out.isTTY) {
      // A redraw per call would flood the terminal when the caller counts thousands of items.
      const now = performance.now();
      if (!force && percent() === drawnPercent && now - drawnAt < 100) return;
      drawnAt = now;
      drawnPercent = percent();
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
      draw(true);
      if (out.isTTY) out.write("\n");
    },
    abandon() {
      if (out.isTTY && drawn) out.write("\n");
    },
  };
}

export interface StatusLine {
  /** The work's current state: redrawn in place on a terminal; off it, a line. Either is skipped when recent, unless `always`. */
  update(text: string, always?: boolean): void;
  /** A line that stays (a warning, a result): printed above the status on a terminal. */
  log(line: string): void;
  /** Clears a terminal's status line. */
  done(): void;
}

/** One line of state for work without a known total (the build's phases); `everyMs` spaces the plain lines. */
export function statusLine(out: ProgressOutput, label: string, everyMs = 5000): StatusLine {
  let shown = "";
  let last = -Infinity;
  const clear = () => {
    if (shown !== "") out.write("\r\x1b[K");
  };
  const draw = () => {
    if (shown !== "") out.write(`\r${shown}\x1b[K`);
  };
  return {
    update(text, always = false) {
      const now = performance.now();
      // A terminal is redrawn at most every 100 ms (a build reports each of thousands of pages).
      if (!always && now - last < (out.isTTY ? 100 : everyMs)) return;
      last = now;
      const line = `${label}: ${text}`;
      if (!out.isTTY) {
        out.write(`${line}\n`);
        return;
      }
      // Cut to the terminal's width: a wrapped line cannot be redrawn in place.
      const columns = out.columns ?? 80;
      shown = line.length >= columns ? `${line.slice(0, columns - 2)}…` : line;
      draw();
    },
    log(line) {
      clear();
      out.write(`${line}\n`);
      draw();
    },
    done() {
      clear();
      shown = "";
    },
  };
}
