// How build outputs are written.

/** Private prefix of API bodies in dist/ (a dynamic segment, since Astro ignores _-prefixed folders). */
export const API_PREFIX = "_api";

/** API JSON bodies: compact, UTF-8, no trailing newline. */
export function json(value: unknown): string {
  return JSON.stringify(value);
}
