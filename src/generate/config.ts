// Build configuration (README.md#configuration), read from the environment in this one place.
import path from "node:path";

export interface BuildConfig {
  contentDir: string;
  baseUrl: string;
  siteUrl: string;
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

export function buildConfig(env: NodeJS.ProcessEnv = process.env): BuildConfig {
  return {
    contentDir: path.resolve(env.CONTENT_DIR?.trim() || "./content"),
    baseUrl: origin(env.API_BASE_URL, "http://localhost:4321", "API_BASE_URL"),
    siteUrl: origin(env.SITE_URL, "http://localhost:4321", "SITE_URL"),
  };
}
