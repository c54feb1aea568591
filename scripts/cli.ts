// The contract every script under scripts/ keeps, as the ecosystem's tools do: options are read by
// node:util's parseArgs (strict) from one table near the top of the script; `-h`/`--help` prints
// the usage and exits 0 before any work; a usage error is one line on stderr,
// `<name>: <what is wrong>; see --help`, and exit code 2 (1 stays "ran and found problems").
// Scripts import this module alone before parsing and load anything heavy after it.
import path from "node:path";
import { parseArgs } from "node:util";

/** The checkout: where defaults such as dist/ live, whatever folder the command was typed in. */
export const ROOT = path.resolve(import.meta.dirname, "..");

/**
 * A path given on the command line, as the caller meant it (npm runs scripts in the checkout and
 * says in INIT_CWD where the caller was), or `fallback` when none was given.
 */
export function argPath(value: string | undefined, fallback: string): string {
  return value === undefined ? fallback : path.resolve(process.env.INIT_CWD ?? process.cwd(), value);
}

interface Described {
  /** One line for the help; the default is appended. */
  help: string;
  /** The value's placeholder in the help (`N`, `DIR`). */
  value?: string;
}

export type OptionSpec = Described &
  (
    | { type: "boolean" }
    | { type: "string"; default?: string; choices?: readonly string[] }
    | { type: "integer" | "number"; default?: number; min?: number; max?: number }
    /** A comma-separated list of whole numbers (`--sizes 1000,10000`). */
    | { type: "integers"; default?: readonly number[]; min?: number }
  );

type ValueOf<S> = S extends { type: "boolean" }
  ? boolean
  : S extends { type: "integers" }
    ? number[]
    : S extends { type: "integer" | "number" }
      ? S extends { default: number }
        ? number
        : number | undefined
      : S extends { choices: readonly (infer C)[] }
        ? S extends { default: string }
          ? C
          : C | undefined
        : S extends { default: string }
          ? string
          : string | undefined;

export type Values<O extends Record<string, OptionSpec>> = { -readonly [K in keyof O]: ValueOf<O[K]> };

export interface CommandSpec<O extends Record<string, OptionSpec>> {
  /** The name messages start with (`fuzz: …`). */
  name: string;
  /** Synopsis lines, e.g. `npm run fuzz -- [options]`. */
  usage: readonly string[];
  /** What it does, a few lines. */
  about: string;
  options: O;
  /** Positional arguments in order; all required unless `optional`. */
  positionals?: readonly { name: string; help: string; optional?: boolean }[];
  examples: readonly string[];
}

export type Parsed<O extends Record<string, OptionSpec>> =
  | { kind: "help"; text: string }
  | { kind: "error"; message: string }
  | { kind: "ok"; values: Values<O>; positionals: string[] };

/** A value that parseArgs took but the table refuses (a malformed number, a choice not offered). */
class UsageError extends Error {}

const HELP = "print this help and exit";

function placeholder(spec: OptionSpec): string {
  if (spec.type === "boolean") return "";
  if (spec.value) return ` ${spec.value}`;
  if (spec.type === "string" && spec.choices) return ` ${spec.choices.join("|")}`;
  return spec.type === "integers" ? " N,N" : spec.type === "string" ? " VALUE" : " N";
}

function defaultOf(spec: OptionSpec): string {
  if (spec.type === "boolean" || spec.default === undefined) return "";
  const shown = Array.isArray(spec.default) ? spec.default.join(",") : String(spec.default);
  return ` [default: ${shown}]`;
}

export function helpText<O extends Record<string, OptionSpec>>(spec: CommandSpec<O>): string {
  const rows: [string, string][] = Object.entries(spec.options).map(([name, o]) => [`--${name}${placeholder(o)}`, `${o.help}${defaultOf(o)}`]);
  rows.push(["-h, --help", HELP]);
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  const lines = [`${spec.name}: ${spec.about.trim()}`, "", "Usage:", ...spec.usage.map((u) => `  ${u}`)];
  if (spec.positionals?.length) {
    const pw = Math.max(...spec.positionals.map((p) => p.name.length + 2)) + 2;
    lines.push("", "Arguments:", ...spec.positionals.map((p) => `  ${`<${p.name}>`.padEnd(pw)}${p.help}${p.optional ? " (optional)" : ""}`));
  }
  lines.push("", "Options:", ...rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`));
  lines.push("", spec.examples.length > 1 ? "Examples:" : "Example:", ...spec.examples.map((e) => `  ${e}`));
  return `${lines.join("\n")}\n`;
}

/** parseArgs's messages, shortened to what the one line needs. */
function parseArgsMessage(e: Error & { code?: string }): string {
  const first = e.message.split("\n")[0]!;
  const option = /'(-[^' ]+)/.exec(first)?.[1];
  switch (e.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown option ${option}`;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument '${/'([^']*)'/.exec(first)?.[1] ?? ""}'`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return /does not take/.test(first) ? `${option} takes no value` : `${option} needs a value`;
    default:
      return first;
  }
}

function convert(name: string, spec: OptionSpec, raw: string | boolean | undefined): unknown {
  const flag = `--${name}`;
  if (spec.type === "boolean") return raw === true;
  if (raw === undefined) return spec.type === "integers" ? [...(spec.default ?? [])] : spec.default;
  const text = String(raw);
  if (text.trim() === "") throw new UsageError(`${flag} needs a value`);
  if (spec.type === "string") {
    if (spec.choices && !spec.choices.includes(text)) throw new UsageError(`${flag} must be one of ${spec.choices.join(", ")}, got '${text}'`);
    return text;
  }
  const number = (part: string, whole: boolean): number => {
    const n = whole ? (/^-?\d+$/.test(part.trim()) ? Number(part) : NaN) : Number(part);
    const what = spec.type === "integers" ? "whole numbers separated by commas" : whole ? "a whole number" : "a number";
    if (!Number.isFinite(n) || part.trim() === "") throw new UsageError(`${flag} must be ${what}, got '${text}'`);
    if (spec.min !== undefined && n < spec.min) throw new UsageError(`${flag} must be at least ${spec.min}, got '${text}'`);
    if (spec.type !== "integers" && spec.max !== undefined && n > spec.max) throw new UsageError(`${flag} must be at most ${spec.max}, got '${text}'`);
    return n;
  };
  if (spec.type === "integers") return text.split(",").map((part) => number(part, true));
  return number(text, spec.type === "integer");
}

/** Parses `argv` against the table; never exits (see `command` for the process's side). */
export function parseCommand<O extends Record<string, OptionSpec>>(spec: CommandSpec<O>, argv: readonly string[]): Parsed<O> {
  const end = argv.indexOf("--");
  if ((end < 0 ? argv : argv.slice(0, end)).some((a) => a === "-h" || a === "--help")) return { kind: "help", text: helpText(spec) };
  const options: Record<string, { type: "string" | "boolean" }> = {};
  for (const [name, o] of Object.entries(spec.options)) options[name] = { type: o.type === "boolean" ? "boolean" : "string" };
  const wanted = spec.positionals ?? [];
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: wanted.length > 0 });
    const required = wanted.filter((p) => !p.optional).length;
    if (positionals.length > wanted.length) throw new UsageError(`unexpected argument '${positionals[wanted.length]}'`);
    if (positionals.length < required) throw new UsageError(`missing <${wanted[positionals.length]!.name}>`);
    const out: Record<string, unknown> = {};
    for (const [name, o] of Object.entries(spec.options)) out[name] = convert(name, o, values[name]);
    return { kind: "ok", values: out as Values<O>, positionals };
  } catch (e) {
    if (e instanceof UsageError) return { kind: "error", message: e.message };
    if ((e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) return { kind: "error", message: parseArgsMessage(e as Error) };
    throw e;
  }
}

/** Prints the one-line usage error and exits 2. */
function usageError(name: string, message: string): never {
  process.stderr.write(`${name}: ${message}; see --help\n`);
  process.exit(2);
}

export interface Command<O extends Record<string, OptionSpec>> {
  spec: CommandSpec<O>;
  /** The options of this process (or `argv`): prints the help and exits 0, or refuses and exits 2. */
  parse(argv?: readonly string[]): { values: Values<O>; positionals: string[] };
  /** A usage error found after parsing: one line, exit 2. */
  fail(message: string): never;
  /**
   * Runs the work: its result is the exit code (0 when none); an error is one line,
   * `<name>: <message>`, and exit 1, never a stack trace.
   */
  run(work: () => Promise<number | void>): Promise<void>;
}

export function command<const O extends Record<string, OptionSpec>>(spec: CommandSpec<O>): Command<O> {
  return {
    spec,
    parse(argv = process.argv.slice(2)) {
      const parsed = parseCommand(spec, argv);
      if (parsed.kind === "help") {
        process.stdout.write(parsed.text);
        process.exit(0);
      }
      if (parsed.kind === "error") usageError(spec.name, parsed.message);
      return parsed;
    },
    fail: (message) => usageError(spec.name, message),
    run: (work) =>
      work().then(
        (code) => process.exit(code ?? 0),
        (e: unknown) => {
          process.stderr.write(`${spec.name}: ${(e instanceof Error ? e.message : String(e)).split("\n").join(" ")}\n`);
          process.exit(1);
        },
      ),
  };
}

/** True when this module is the process's entry (`node scripts/x.ts`), not imported by another. */
export function isMain(meta: ImportMeta): boolean {
  return meta.filename === process.argv[1];
}
