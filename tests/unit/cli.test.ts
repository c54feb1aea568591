// Every script under scripts/ keeps the command-line contract of scripts/cli.ts: `--help` prints
// the usage on stdout and exits 0 before any work, and a malformed option is one line on stderr,
// `<name>: <what is wrong>; see --help`, with exit code 2. Each script runs as a person runs it, in
// a process of the pinned Node (or bash); the paths handed to it with --help must stay unwritten.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { helpText, parseCommand } from "../../scripts/cli.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TMP = mkdtempSync(path.join(os.tmpdir(), "cli-test-"));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));
/** A path in the test's folder that a script would write if it did any work. */
const untouched = (name: string) => path.join(TMP, name);

interface Case {
  /** The name its messages start with. */
  name: string;
  /** A request for help, with options that would make the script write or serve were they obeyed. */
  help: string[];
  /** Paths those arguments name, which must not exist afterwards. */
  unwritten?: string[];
  /** A malformed command line. */
  malformed: string[];
}

/** One entry per script; scripts/cli.ts is the shared module, not a command. */
const CASES: Record<string, Case> = {
  "bench.ts": { name: "bench", help: ["-h", "--sizes", "100", "--no-http"], malformed: ["--sizes", "abc"] },
  "build.ts": { name: "build", help: ["--outDir", untouched("build-out"), "--help"], unwritten: [untouched("build-out")], malformed: ["--outDir"] },
  "bundle-worker.ts": { name: "bundle-worker", help: ["--help"], malformed: ["--out", "x"] },
  "cpu-profile-top.ts": { name: "cpu-profile-top", help: ["profile.cpuprofile", "--help"], malformed: ["profile.cpuprofile", "--top", "all"] },
  "deploy.ts": {
    name: "deploy",
    help: ["--dry-run", "--outdir", untouched("deploy-out"), "--help"],
    unwritten: [untouched("deploy-out")],
    malformed: ["--dry-run", "--dist"],
  },
  "fuzz.ts": { name: "fuzz", help: ["--requests", "10", "--help"], malformed: ["--concurrency", "x"] },
  "gallery.ts": { name: "gallery", help: ["--help"], malformed: ["--update"] },
  "make-demo-audio.sh": { name: "make-demo-audio", help: [untouched("audio-content"), "--help"], malformed: ["--force"] },
  "publish.ts": {
    name: "publish",
    help: [untouched("episode"), "--out-dir", untouched("publish-out"), "--help"],
    unwritten: [untouched("publish-out")],
    malformed: ["--dry-run"],
  },
  "search-bench.ts": { name: "search-bench", help: ["--sizes", "100", "--help"], malformed: ["--sizes", "10,abc"] },
  "serve-edge.ts": { name: "serve:edge", help: ["--help"], malformed: ["--port", "8080"] },
  "serve.mjs": { name: "serve", help: ["-h"], malformed: ["--dist"] },
  "serve.ts": { name: "serve", help: ["--help"], malformed: ["--dist="] },
  "soak-rebuilds.ts": { name: "soak:rebuilds", help: ["--rebuilds", "2", "--help"], malformed: ["--rebuilds", "lots"] },
  "timed-bench.ts": { name: "timed-bench", help: ["--turns", "3", "--help"], malformed: ["--turns", "many"] },
  "soak.ts": { name: "soak", help: ["--minutes", "1", "--help"], malformed: ["--minutes", "soon"] },
  "start.ts": { name: "start", help: ["--dist", untouched("start-dist"), "--help"], unwritten: [untouched("start-dist")], malformed: ["--clean"] },
  "synthetic-content.ts": {
    name: "synthetic-content",
    help: [untouched("synthetic"), "10", "--help"],
    unwritten: [untouched("synthetic")],
    malformed: [untouched("synthetic"), "ten"],
  },
  "wrangler-config.ts": { name: "wrangler-config", help: ["--help"], malformed: ["wrangler.toml"] },
};

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs scripts/<file> with `args` from the checkout, as npm does (on any free port, were it to serve). */
function run(file: string, args: string[]): Promise<Outcome> {
  const cmd = file.endsWith(".sh") ? "bash" : process.execPath;
  return new Promise((resolve) => {
    execFile(cmd, [path.join(ROOT, "scripts", file), ...args], { cwd: ROOT, env: { ...process.env, PORT: "0" }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout, stderr });
    });
  });
}

describe("the scripts", () => {
  // *.worker.ts are Workers run inside workerd (scripts/front-line.worker.ts), not commands.
  it("are every script under scripts/", () => {
    const scripts = readdirSync(path.join(ROOT, "scripts")).filter((f) => /\.(ts|mjs|sh)$/.test(f) && f !== "cli.ts" && !f.endsWith(".worker.ts"));
    expect(scripts.sort()).toEqual(Object.keys(CASES).sort());
  });
});

// Every script's --help first, then every malformed line: a script's second start then finds its
// compiled code in Node's compile cache (vitest.config.ts) instead of loading the TypeScript stripper
// again, as it would were both started at once.
describe.concurrent.each(Object.entries(CASES))("scripts/%s", (file, c) => {
  it("prints its usage on --help and exits 0 without doing any work", async () => {
    const out = await run(file, c.help);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    expect(out.stdout.startsWith(`${c.name}: `)).toBe(true);
    expect(out.stdout).toMatch(/\nUsage:\n {2}\S.*\n[\s\S]*\nOptions:\n[\s\S]*-h, --help +print this help and exit\n\nExamples?:\n {2}\S/);
    for (const p of c.unwritten ?? []) expect(existsSync(p), p).toBe(false);
  });
});

describe.concurrent.each(Object.entries(CASES))("scripts/%s", (file, c) => {
  it("refuses a malformed command line in one line on stderr, exit 2", async () => {
    const out = await run(file, c.malformed);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe("");
    expect(out.stderr).toMatch(new RegExp(`^${c.name}: [^\\n]+; see --help\\n$`));
    for (const p of c.unwritten ?? []) expect(existsSync(p), p).toBe(false);
  });
});

describe("parseCommand", () => {
  const spec = {
    name: "x",
    usage: ["x [options]"],
    about: "A test command.",
    options: {
      n: { type: "integer", min: 1, default: 3, help: "a count" },
      ratio: { type: "number", max: 1, help: "a share" },
      sizes: { type: "integers", min: 1, default: [10], help: "sizes" },
      target: { type: "string", choices: ["node", "edge"], default: "node", help: "where" },
      "dry-run": { type: "boolean", help: "do nothing" },
    },
    positionals: [{ name: "folder", help: "a folder", optional: true }],
    examples: ["x 7"],
  } as const;
  const ok = (argv: string[]) => {
    const parsed = parseCommand(spec, argv);
    if (parsed.kind !== "ok") throw new Error(JSON.stringify(parsed));
    return parsed;
  };
  const error = (argv: string[]) => {
    const parsed = parseCommand(spec, argv);
    return parsed.kind === "error" ? parsed.message : `not an error: ${parsed.kind}`;
  };

  it("gives typed values and the defaults", () => {
    expect(ok([]).values).toEqual({ n: 3, ratio: undefined, sizes: [10], target: "node", "dry-run": false });
    expect(ok(["f", "--n", "5", "--ratio=0.5", "--sizes", "1,2", "--target", "edge", "--dry-run"])).toEqual({
      kind: "ok",
      values: { n: 5, ratio: 0.5, sizes: [1, 2], target: "edge", "dry-run": true },
      positionals: ["f"],
    });
  });

  it("names what is wrong", () => {
    expect(error(["--n", "x"])).toBe("--n must be a whole number, got 'x'");
    expect(error(["--n", "1.5"])).toBe("--n must be a whole number, got '1.5'");
    expect(error(["--n", "0"])).toBe("--n must be at least 1, got '0'");
    expect(error(["--n", ""])).toBe("--n needs a value");
    expect(error(["--n"])).toBe("--n needs a value");
    expect(error(["--n", "--dry-run"])).toBe("--n needs a value");
    expect(error(["--ratio", "2"])).toBe("--ratio must be at most 1, got '2'");
    expect(error(["--sizes", "1,,2"])).toBe("--sizes must be whole numbers separated by commas, got '1,,2'");
    expect(error(["--target", "lambda"])).toBe("--target must be one of node, edge, got 'lambda'");
    expect(error(["--dry-run=yes"])).toBe("--dry-run takes no value");
    expect(error(["--frobnicate"])).toBe("unknown option --frobnicate");
    expect(error(["a", "b"])).toBe("unexpected argument 'b'");
  });

  it("answers --help before anything else, but not after --", () => {
    expect(parseCommand(spec, ["--n", "x", "--help"])).toEqual({ kind: "help", text: helpText(spec) });
    expect(ok(["--", "--help"]).positionals).toEqual(["--help"]);
  });

  it("lists every option with its default in the help", () => {
    const text = helpText(spec);
    expect(text).toContain("  --n N");
    expect(text).toContain("a count [default: 3]");
    expect(text).toContain("  --target node|edge");
    expect(text).toContain("  <folder>");
  });
});
