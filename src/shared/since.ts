// The `since` filter (docs/api.md#get-v1episodes): YYYY-MM-DD (midnight UTC) or an RFC 3339 date-time with
// an offset. Impossible dates (2026-02-30, 25:00) are refused rather than rolled over.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/** Date.UTC with month 0-based, but years 0–99 taken literally (Date.UTC maps them to 1900–1999). */
function utc(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number {
  const t = new Date(0);
  t.setUTCFullYear(y, mo, d);
  t.setUTCHours(h, mi, s, ms);
  return t.getTime();
}

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(utc(y, m, 0)).getUTCDate();
}

/** Epoch milliseconds, or null when the text is not an accepted form. */
export function parseSince(text: string): number | null {
  let m = DATE.exec(text);
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    return validDate(y, mo, d) ? utc(y, mo - 1, d) : null;
  }
  m = DATE_TIME.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (!validDate(y, mo, d) || h > 23 || mi > 59 || s > 60) return null;
  let offsetMinutes = 0;
  if (m[9]) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (m[9] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  const ms = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0;
  // A leap second (:60) counts as the next second.
  return utc(y, mo - 1, d, h, mi, s, ms) - offsetMinutes * 60_000;
}
