// wrangler.jsonc read by our own scripts (serve:edge, deploy), so the local runtime and the deploy
// use the one configuration. JSONC (comments, trailing commas) is read by jsonc-parser, the parser
// VS Code's settings use: a hand-made stripper must also know strings, escapes and both comment forms.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse, printParseErrorCode, type ParseError } from "jsonc-parser";
import { command, isMain } from "./cli.ts";

export const WRANGLER_CONFIG_COMMAND = command({
  name: "wrangler-config",
  usage: ["node scripts/wrangler-config.ts"],
  about: `Prints wrangler.jsonc as plain JSON, as npm run serve:edge and npm run deploy read it.`,
  options: {},
  examples: ["node scripts/wrangler-config.ts"],
});

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

/** JSON with comments and trailing commas, as wrangler reads it; a syntax error names its line and column. */
export function parseJsonc(text: string, file = "JSONC"): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first !== undefined) {
    const before = text.slice(0, first.offset).split("\n");
    throw new Error(`${file}:${before.length}:${before.at(-1)!.length + 1}: ${printParseErrorCode(first.error)}`);
  }
  return value;
}

export function readWranglerConfig(file = WRANGLER_CONFIG): WranglerConfig {
  return parseJsonc(readFileSync(file, "utf8"), path.basename(file)) as WranglerConfig;
}

if (isMain(import.meta)) {
  WRANGLER_CONFIG_COMMAND.parse();
  try {
    process.stdout.write(`${JSON.stringify(readWranglerConfig(), null, 2)}\n`);
  } catch (e) {
    process.stderr.write(`wrangler-config: ${(e as Error).message}\n`);
    process.exitCode = 1;
  }
}
