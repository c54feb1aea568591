// Accent colours the player can trust: whatever RRGGBB an embedder asks for, the shade used for
// text is nudged toward the theme's ink until it reaches 4.5:1 against the background (WCAG 1.4.3),
// which also clears 3:1 for controls and the focus ring (WCAG 1.4.11); the icon drawn on an accent
// fill takes the background colour, which has that same contrast. Pure, so tests can check it; the
// shim computes it per request (functions/routes/site.ts), so the player's script does not carry it.

export type Rgb = [r: number, g: number, b: number];
export type Theme = "light" | "dark";

export const ACCENT_PATTERN = /^[0-9a-fA-F]{6}$/;

export const THEMES: Record<Theme, { background: Rgb; defaultAccent: string }> = {
  light: { background: [255, 255, 255], defaultAccent: "0b57d0" },
  dark: { background: [22, 24, 28], defaultAccent: "8ab4f8" },
};

export const TEXT_CONTRAST = 4.5;

export function parseHex(hex: string): Rgb | null {
  if (!ACCENT_PATTERN.test(hex)) return null;
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
}

export function toHex(c: Rgb): string {
  return `#${c.map((v) => Math.round(v).toString(16).padStart(2, "0")).join("")}`;
}

function channel(v: number): number {
  const s = v / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance. */
export function luminance([r, g, b]: Rgb): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [0, 1, 2].map((i) => Math.round(a[i]! + (b[i]! - a[i]!) * t)) as Rgb;
}

export interface Palette {
  /** Accent for text, controls and the focus ring: >= 4.5:1 against the background. */
  accent: string;
  /** Colour of icons and text drawn on an accent fill. */
  onAccent: string;
}

/** The palette for a requested accent (null or malformed: the theme's default accent). */
export function paletteOf(requested: string | null, theme: Theme): Palette {
  const { background, defaultAccent } = THEMES[theme];
  const base = (requested !== null && parseHex(requested)) || parseHex(defaultAccent)!;
  const ink: Rgb = theme === "light" ? [0, 0, 0] : [255, 255, 255];
  let shade = base;
  // Black against white (and white against the dark background) exceeds 15:1, so this ends.
  for (let t = 0.05; contrast(shade, background) < TEXT_CONTRAST && t <= 1; t += 0.05) shade = mix(base, ink, t);
  return { accent: toHex(shade), onAccent: toHex(background) };
}
