// Durations and dates as people read them: "24:05" on a clock, "24 minutes 5 seconds" spoken
// (the player's aria-valuetext), "3 October 2026" on pages. Pure: the player bundles it too.

function parts(total: number): [h: number, m: number, s: number] {
  const t = Math.max(0, Math.floor(Number.isFinite(total) ? total : 0));
  return [Math.floor(t / 3600), Math.floor((t % 3600) / 60), t % 60];
}

/** Seconds kept to the millisecond, as the script carries them (src/generate/timings.ts). */
export function toMilliseconds(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/** "0:05", "24:05", "1:02:03". */
export function clockTime(seconds: number): string {
  const [h, m, s] = parts(seconds);
  const ss = String(s).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

function unit(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** "3 minutes 5 seconds", "1 hour 2 minutes", "0 seconds": zero parts are left out. */
export function spokenTime(seconds: number): string {
  const [h, m, s] = parts(seconds);
  const out: string[] = [];
  if (h > 0) out.push(unit(h, "hour"));
  if (m > 0) out.push(unit(m, "minute"));
  if (s > 0 || out.length === 0) out.push(unit(s, "second"));
  return out.join(" ");
}

/** "24 min", "1 h 2 min", "45 s": the short form on pages and lists. */
export function shortDuration(seconds: number): string {
  const [h, m, s] = parts(seconds);
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  if (m > 0) return `${m + (s >= 30 ? 1 : 0)} min`;
  return `${s} s`;
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "3 October 2026", in UTC so every build and every reader sees the same date. */
export function longDate(iso: string): string {
  const d = new Date(iso);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** "2026-10-03", the machine-readable date of a <time> element. */
export function isoDate(iso: string): string {
  return new Date(iso).toISOString().slice(0, 10);
}
