// A moment of an episode as links write it (docs/player.md#start-at-a-moment): `t=<start>` or
// `t=<start>,<end>` in a URL's query or fragment, each time as seconds (`93`, `93.5`), a clock
// (`1:33`, `1:02:03`) or units (`1m33s`, `1h2m3s`), optionally prefixed `npt:` (Media Fragments'
// normal play time). One reading for the player, the episode page's route and oEmbed, and one
// writing of a URL at a moment for the page's time links, the shim and search results
// (functions/data/search.ts). Pure and small: the player bundles it inside its byte budget.
import { toMilliseconds } from "./duration.ts";

/** Where to start, in seconds, and where to pause (null: play on). */
export interface Moment {
  start: number;
  end: number | null;
}

/** Longer values are not times anyone writes; refusing them bounds the work. */
const MAX_LENGTH = 40;
/** `[h:]m:ss[.f]`: minutes and seconds after a colon are two digits below 60. */
const CLOCK = /^(?:(\d+):(?=[0-5]\d:))?(\d+):([0-5]\d(?:\.\d*)?)$/;
/** `[Nh][Nm][N[.f]s]`, or seconds alone. */
const UNITS = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d*)?)s)?$|^(\d+(?:\.\d*)?)$/;

/** Seconds from one time as written (see above), or null when it is not one. */
export function parseTime(raw: string): number | null {
  // Both patterns put hours, minutes and seconds in groups 1-3 (UNITS: plain seconds in 4).
  const m = CLOCK.exec(raw) ?? (raw === "" ? null : UNITS.exec(raw));
  if (m === null) return null;
  const t = (+m[1]! || 0) * 3600 + (+m[2]! || 0) * 60 + (+m[3]! || +m[4]! || 0);
  return t < Infinity ? t : null;
}

/**
 * A `t` value: `<start>`, `<start>,<end>` or `,<end>` (from 0), with an optional `npt:` prefix;
 * null when any part is not a time or the end is not after the start.
 */
export function parseMoment(raw: string | null): Moment | null {
  if (raw === null || raw.length > MAX_LENGTH) return null;
  const [a, b, extra] = raw.replace(/^npt:/, "").split(",");
  const start = a === "" && b !== undefined ? 0 : parseTime(a!);
  const end = b === undefined ? null : parseTime(b);
  return start === null || extra !== undefined || (b !== undefined && !(end! > start)) ? null : { start, end };
}

/** The moment a URL names: its fragment's `t` when it has one, else its query's (null: none, or not valid). */
export function momentOf(url: { search: string; hash: string }): Moment | null {
  const t = (part: string) => new URLSearchParams(part.slice(1)).get("t");
  return parseMoment(t(url.hash) ?? t(url.search));
}

/** The canonical `t` value of a moment: seconds to the millisecond, `93`, `93.5`, `93,120`. */
export function momentParam(m: Moment): string {
  const s = (t: number) => String(toMilliseconds(t));
  return m.end === null ? s(m.start) : `${s(m.start)},${s(m.end)}`;
}

/** A page or player URL at a moment: `<url>?t=<canonical t>` (the URL as it is without one). */
export function urlAt(url: string, m: Moment | null): string {
  return m === null ? url : `${url}?t=${momentParam(m)}`;
}
