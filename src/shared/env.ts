// Reading configuration from an environment-like record (process.env on Node and for the build,
// the Worker's vars at the edge): one set of readers, so every variable is trimmed, defaulted and
// refused the same way, with a message that names it. Portable: used by the build
// (src/generate/config.ts) and by the shim (src/shared/config.ts).

export type Env = Record<string, string | undefined>;

/** Where audio bytes live: files copied into the build, or objects in an S3-compatible store. */
export const AUDIO_BACKENDS = ["local", "s3"] as const;
export type AudioBackend = (typeof AUDIO_BACKENDS)[number];

export function text(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw === undefined || raw === "" ? undefined : raw;
}

export function wholeNumber(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
    throw new Error(`${name} must be a whole number ${range}, got '${raw}'`);
  }
  return Number(raw);
}

export function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = text(env, name) ?? fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new Error(`${name} must be ${allowed.map((a) => `'${a}'`).join(" or ")}, got '${raw}'`);
  return raw as T;
}

export function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  throw new Error(`${name} must be 'true' or 'false', got '${raw}'`);
}

export function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new Error(`${name} must be a URL (${protocols.join(" or ")}), got '${raw}'`);
  }
  if (!protocols.includes(parsed.protocol)) throw new Error(`${name} must be a ${protocols.join(" or ")} URL, got '${parsed.protocol}'`);
  return raw;
}
