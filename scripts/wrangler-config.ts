// wrangler.jsonc read by our own scripts (serve:edge, deploy), so the local runtime and the deploy
// use the one configuration. JSONC: comments and trailing commas are dropped outside strings.
import { readFileSync } from "node:fs";
import path from "node:path";

export const WRANGLER_CONFIG = path.resolve(import.meta.dirname, "../wrangler.jsonc");

export interface WranglerConfig {
  name: string;
  main: string;
  compatibility_date: string;
  compatibility_flags?: string[];
  assets: { directory: string; binding: string; html_handling?: string; not_found_handling?: string; run_worker_first: string[] };
  r2_buckets: { binding: string; bucket_name: string }[];
  durable_objects: { bindings: { name: string; class_name: string }[] };
  triggers?: { crons: string[] };
  vars: Record<string, string>;
}

/** JSON with comments → JSON: strips // and /* *\/ comments and trailing commas, never inside strings. */
export function stripJsonc(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && text[i + 1] === "*") {
      i = text.indexOf("*/", i + 2) + 1;
      if (i === 0) throw new Error("unterminated comment in JSONC");
    } else out += c;
  }
  return out.replace(/,(\s*[}\]])/g, "$1");
}

export function readWranglerConfig(file = WRANGLER_CONFIG): WranglerConfig {
  return JSON.parse(stripJsonc(readFileSync(file, "utf8"))) as WranglerConfig;
}
