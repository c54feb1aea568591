// Build configuration (README.md#configuration), read from the environment in this one place.
// Every refused value fails the build with a message naming the variable.
import path from "node:path";
import { AUDIO_BACKENDS, oneOf, wholeNumber, type AudioBackend, type Env } from "../shared/env.ts";
import { ASSET_FILE_LIMIT_DEFAULT } from "./file-budget.ts";

export interface BuildConfig {
  contentDir: string;
  baseUrl: string;
  siteUrl: string;
  audioBackend: AudioBackend;
  /** AUDIO_PUBLIC_URL without trailing slashes: s3 mode's `audioUrl` is this + "/" + the object key. */
  audioPublicUrl: string | null;
  /** ASSET_FILE_LIMIT: files one deploy may upload (src/generate/file-budget.ts counts them). */
  assetFileLimit: number;
}

function origin(value: string | undefined, fallback: string, name: string): string {
  const text = (value ?? "").trim() || fallback;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${name} is not an absolute URL: ${text}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`${name} must be http or https: ${text}`);
  return text.replace(/\/+$/, "");
}

/** AUDIO_PUBLIC_URL: an absolute http(s) base URL (a path is kept; a query or fragment is refused). */
function audioPublicUrl(env: NodeJS.ProcessEnv): string | null {
  const raw = env.AUDIO_PUBLIC_URL?.trim();
  if (raw === undefined || raw === "") return null;
  const base = origin(raw, raw, "AUDIO_PUBLIC_URL");
  const url = new URL(base);
  if (url.search !== "" || url.hash !== "") throw new Error(`AUDIO_PUBLIC_URL must not carry a query or fragment (object keys are appended to it): ${raw}`);
  return base;
}

/** ASSET_FILE_LIMIT: a whole number >= 1, 20,000 (the free plan) when unset. */
export function assetFileLimit(env: Env): number {
  return wholeNumber(env, "ASSET_FILE_LIMIT", ASSET_FILE_LIMIT_DEFAULT, 1);
}

export function buildConfig(env: NodeJS.ProcessEnv = process.env): BuildConfig {
  return {
    contentDir: path.resolve(env.CONTENT_DIR?.trim() || "./content"),
    baseUrl: origin(env.API_BASE_URL, "http://localhost:4321", "API_BASE_URL"),
    siteUrl: origin(env.SITE_URL, "http://localhost:4321", "SITE_URL"),
    audioBackend: oneOf(env, "AUDIO_BACKEND", AUDIO_BACKENDS, "local"),
    audioPublicUrl: audioPublicUrl(env),
    assetFileLimit: assetFileLimit(env),
  };
}
