// The runtime guard: request-time code runs on any fetch-style runtime (Node today, Workers next),
// so nothing the portable shim reaches may import a runtime's own modules. Starting from every
// module of functions/ outside its two adapters (functions/node/ may use Node, functions/workers/
// Workers) and every module of src/shared, it follows relative imports, type-only ones included
// (stricter than needed), and reports every reached file that imports `node:*` (or any `scheme:`
// module: `cloudflare:`, `bun:`), a Node builtin by its bare name, Astro, or a package outside the
// allowlist. It also holds the layering of docs/architecture.md: src/shared imports neither
// src/generate nor functions; request-time code does not import build-time code (src/generate) or
// Node-only code (src/node); the build and publish (src/generate, src/publish) import no request-time
// code (functions/).
//
// Imports are found with a small regex, not a parser: `import … from "…"`, `import "…"`,
// `export … from "…"`, `import("…")` and `require("…")`, after comments are removed.
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROUTES } from "../../src/shared/routes.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * Packages request-time code may import. The list grows only with packages that run unchanged on
 * Workers as on Node (pure JavaScript over Web APIs, no Node builtins, no native code); a package
 * is added here together with the reason it qualifies.
 */
export const PORTABLE_PACKAGES: ReadonlySet<string> = new Set([
  // Validation of the build index at start-up; pure JavaScript, no runtime APIs.
  "zod",
  // The MCP endpoint (functions/routes/mcp.ts): its server and Web-standard transport take a Fetch Request
  // and answer a Fetch Response; the HTTP suites run it on Node and in workerd.
  "@modelcontextprotocol/sdk",
]);

const BUILTINS = new Set(builtinModules.map((m) => m.replace(/^node:/, "")));
/** Files whose imports are read; others (JSON, CSS) may be imported but import nothing. */
const CODE = /\.(?:[cm]?[jt]s|tsx|jsx)$/;

const STATEMENT = /\b(?:import|export)\s+(?:[^"'`;]*?\s+from\s*)?["']([^"'\n]+)["']/g;
const CALL = /\b(?:import|require)\s*\(\s*["']([^"'\n]+)["']\s*\)/g;

/** The module specifiers a source imports or re-exports, in order. */
export function importsOf(source: string): string[] {
  // Comments out, so prose naming a module is not an import. Line comments only where one can start
  // (not the // of a URL inside a string).
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[\s;{}()])\/\/.*$/gm, "$1");
  const found: [number, string][] = [];
  for (const re of [STATEMENT, CALL]) for (const m of code.matchAll(re)) found.push([m.index, m[1]!]);
  return found.sort((a, b) => a[0] - b[0]).map(([, s]) => s);
}

/** The file a relative specifier names, among the known files (extension optional, or an index). */
function resolve(files: ReadonlyMap<string, string>, from: string, specifier: string): string | null {
  const base = path.posix.join(path.posix.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}/index.ts`]) if (files.has(candidate)) return candidate;
  return null;
}

/** Why a non-relative specifier cannot run on every runtime, or null when it can. */
function nonPortable(specifier: string): string | null {
  if (specifier === "astro" || specifier.startsWith("astro/") || specifier.startsWith("astro:")) return "Astro, which exists only at build time";
  if (specifier.startsWith("node:") || BUILTINS.has(specifier) || BUILTINS.has(specifier.split("/")[0]!)) return "a Node builtin";
  if (/^[a-z][a-z0-9+.-]*:/i.test(specifier)) return `a module of one runtime ("${specifier.split(":")[0]}:")`;
  const pkg = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!;
  if (!PORTABLE_PACKAGES.has(pkg)) return `the package "${pkg}", not in the allowlist of packages that run on Workers (PORTABLE_PACKAGES)`;
  return null;
}

const under = (file: string, dir: string) => file.startsWith(`${dir}/`);

/**
 * Every breach of the rules in `files` (repository-relative path → source text): non-portable
 * imports of any file reached from `entries` through relative imports, and layering breaches of
 * any file. Each message names the importing file; a reached file's also names how it was reached.
 */
export function checkRuntimeImports(files: ReadonlyMap<string, string>, entries: readonly string[]): string[] {
  const problems: string[] = [];
  const via = new Map<string, string | null>();
  const queue: string[] = [];
  for (const entry of entries) {
    if (!files.has(entry)) problems.push(`${entry}: entry point not found`);
    else if (!via.has(entry)) (via.set(entry, null), queue.push(entry));
  }
  const chain = (file: string): string => {
    const steps = [file];
    for (let at = via.get(file); at != null; at = via.get(at)) steps.unshift(at);
    return steps.length === 1 ? `${file} is a request-time entry point` : `reached by ${steps.join(" → ")}`;
  };
  // Portability: what the request-time entry points reach.
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (!CODE.test(file)) continue;
    for (const specifier of importsOf(files.get(file)!)) {
      if (specifier.startsWith(".") || specifier.startsWith("/")) {
        const target = specifier.startsWith("/") ? null : resolve(files, file, specifier);
        if (target === null) problems.push(`${file} imports "${specifier}", which resolves to no file of the project (${chain(file)})`);
        else if (!via.has(target)) (via.set(target, file), queue.push(target));
        continue;
      }
      const why = nonPortable(specifier);
      if (why !== null) problems.push(`${file} imports "${specifier}": ${why}. Request-time code must run on any runtime; Node-only code belongs in functions/node/, behind a port (${chain(file)})`);
    }
  }
  // Layering: every file, reached or not.
  for (const [file, source] of files) {
    if (!CODE.test(file)) continue;
    const shared = under(file, "src/shared");
    const requestTime = under(file, "functions") && !under(file, "functions/node");
    const buildTime = under(file, "src/generate") || under(file, "src/publish");
    if (!shared && !requestTime && !buildTime) continue;
    const layer = shared ? "src/shared" : requestTime ? "request-time code (functions/)" : "the build and publish (src/generate, src/publish)";
    for (const specifier of importsOf(source)) {
      if (!specifier.startsWith(".")) continue;
      const target = path.posix.join(path.posix.dirname(file), specifier);
      if (!buildTime && under(target, "src/generate")) problems.push(`${file} imports "${specifier}": ${layer} must not import build-time code (src/generate)`);
      else if (!buildTime && under(target, "src/node")) problems.push(`${file} imports "${specifier}": ${layer} must not import Node-only code (src/node)`);
      else if ((shared || buildTime) && under(target, "functions")) problems.push(`${file} imports "${specifier}": ${layer} must not import request-time code (functions/)`);
    }
  }
  return problems;
}

/** The repository's files under `dirs`, repository-relative with / separators, with their text. */
function projectFiles(dirs: string[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const dir of dirs) {
    for (const entry of readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const rel = path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join("/");
      if (rel.split("/").includes("node_modules")) continue;
      files.set(rel, CODE.test(rel) ? readFileSync(path.join(ROOT, rel), "utf8") : "");
    }
  }
  return files;
}

/** The portable entry points: every module of functions/ outside its two adapters, and every module of src/shared. */
function requestTimeEntries(files: ReadonlyMap<string, string>): string[] {
  const portable = (f: string) =>
    (/^functions\/.+\.ts$/.test(f) && !/^functions\/(?:node|workers)\//.test(f)) || /^src\/shared\/.+\.ts$/.test(f);
  return [...files.keys()].filter(portable).sort();
}

describe("request-time code runs on any runtime", () => {
  it("nothing the shim reaches from functions/*.ts imports Node, Astro, a runtime module or an unlisted package; the layers hold", () => {
    const files = projectFiles(["functions", "src"]);
    const entries = requestTimeEntries(files);
    expect(entries).toContain("functions/handler.ts");
    expect(entries).toContain("functions/routes/episodes.ts");
    expect(entries).toContain("src/shared/routes.ts");
    expect(entries).not.toContain("functions/node/server.ts");
    expect(entries).not.toContain("src/node/etag.ts");
    expect(checkRuntimeImports(files, entries)).toEqual([]);
  });

  it("the Workers entry reaches nothing of Node or Astro; its one runtime module is cloudflare:workers, for its Durable Objects", () => {
    const files = projectFiles(["functions", "src"]);
    const entries = [...files.keys()].filter((f) => /^functions\/workers\/[^/]+\.ts$/.test(f) && !f.endsWith(".d.ts"));
    expect(entries).toContain("functions/workers/entry.ts");
    const problems = checkRuntimeImports(files, entries);
    const durableObjects = ["functions/workers/rate-limit-object.ts", "functions/workers/announced-set-object.ts"];
    expect(problems.filter((p) => !durableObjects.some((f) => p.startsWith(`${f} imports "cloudflare:workers"`)))).toEqual([]);
  });

  it("request-time code imports zod as a namespace: `import { z }` keeps every zod locale in the Worker bundle", () => {
    // esbuild drops the unused parts of `import * as z`, not of the `z` object zod's index exports.
    const files = projectFiles(["functions", "src"]);
    const named = requestTimeEntries(files).filter((f) => /\bimport\s+(?:type\s+)?\{[^}]*\bz\b[^}]*\}\s+from\s+["']zod/.test(withoutComments(files.get(f)!)));
    expect(named).toEqual([]);
    expect(files.get("src/shared/schema/api.ts")).toMatch(/^import \* as z from "zod";$/m);
  });
});

describe("the runtime guard itself", () => {
  const graph = (files: Record<string, string>) => new Map(Object.entries(files));
  const portable = 'import { apiError } from "../src/shared/errors.ts";\n';

  it("reports a reached file that imports node:fs, naming it and the way it was reached", () => {
    const problems = checkRuntimeImports(
      graph({
        "functions/handler.ts": 'import { errorResponse } from "./http.ts";\n',
        "functions/http.ts": `${portable}import "node:fs";\n`,
        "src/shared/errors.ts": "export const ERRORS = {};\n",
      }),
      ["functions/handler.ts"],
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^functions\/http\.ts imports "node:fs": a Node builtin\. /);
    expect(problems[0]).toContain("reached by functions/handler.ts → functions/http.ts");
  });

  it("follows every import form, type-only and dynamic ones too, through src/shared", () => {
    const files = graph({
      "functions/a.ts": [
        'import type { T } from "./types.ts";',
        "import {",
        "  x,",
        "  y,",
        '} from "../src/shared/b.ts";',
        'export * from "./c.ts";',
        'const lazy = () => import("./d.ts");',
      ].join("\n"),
      "functions/types.ts": 'import type { Stats } from "fs";\n',
      "src/shared/b.ts": 'export { createHash } from "crypto";\n',
      "functions/c.ts": 'import { defineConfig } from "astro/config";\n',
      "functions/d.ts": 'const { getCollection } = await import("astro:content");\nimport { env } from "cloudflare:workers";\n',
    });
    const problems = checkRuntimeImports(files, ["functions/a.ts"]);
    expect(problems.map((p) => p.split(":")[0])).toEqual(["functions/types.ts imports \"fs\"", "src/shared/b.ts imports \"crypto\"", "functions/c.ts imports \"astro/config\"", "functions/d.ts imports \"astro", "functions/d.ts imports \"cloudflare"]);
  });

  it("allows the listed packages and their subpaths, and nothing else", () => {
    const files = graph({ "functions/a.ts": 'import { z } from "zod";\nimport * as m from "zod/mini";\nimport { S3Client } from "@aws-sdk/client-s3";\nimport x from "lodash";\n' });
    const problems = checkRuntimeImports(files, ["functions/a.ts"]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('the package "@aws-sdk/client-s3", not in the allowlist');
    expect(problems[1]).toContain('the package "lodash", not in the allowlist');
  });

  it("ignores what it does not reach and what comments say", () => {
    const files = graph({
      "functions/a.ts": '// import "node:fs" would break Workers\n/* import("node:path") */\nconst url = "http://example.com"; // import "node:os"\nexport const a = 1;\n',
      "functions/node/server.ts": 'import { createServer } from "node:http";\n',
      "src/generate/prepare-build.ts": 'import { readFile } from "node:fs/promises";\n',
    });
    expect(checkRuntimeImports(files, ["functions/a.ts"])).toEqual([]);
  });

  it("reports a relative import that names no file", () => {
    const problems = checkRuntimeImports(graph({ "functions/a.ts": 'import "./gone.ts";\n' }), ["functions/a.ts"]);
    expect(problems).toEqual(['functions/a.ts imports "./gone.ts", which resolves to no file of the project (functions/a.ts is a request-time entry point)']);
  });

  it("holds the layers: src/shared, request-time code, Node-only code, the build and publish", () => {
    const files = graph({
      "src/shared/a.ts": 'import { x } from "../generate/x.ts";\nimport type { Shim } from "../../functions/handler.ts";\nimport { nodeEtag } from "../node/etag.ts";\n',
      "functions/b.ts": 'import { rateLimitsOf } from "../src/generate/discovery.ts";\n',
      "functions/routes/c.ts": 'import { compressFile } from "../../src/node/compress.ts";\n',
      "functions/node/main.ts": 'import { stamp } from "../../src/generate/stamp.ts";\nimport { nodeEtag } from "../../src/node/etag.ts";\n',
      "src/generate/prepare-build.ts": 'import { ERRORS } from "../shared/errors.ts";\nimport { nodeEtag } from "../node/etag.ts";\n',
      "src/generate/precompress.ts": 'import { compressible } from "../../functions/http/response.ts";\n',
      "src/publish/upload.ts": 'import { shimConfig } from "../../functions/config.ts";\n',
    });
    expect(checkRuntimeImports(files, [])).toEqual([
      'src/shared/a.ts imports "../generate/x.ts": src/shared must not import build-time code (src/generate)',
      'src/shared/a.ts imports "../../functions/handler.ts": src/shared must not import request-time code (functions/)',
      'src/shared/a.ts imports "../node/etag.ts": src/shared must not import Node-only code (src/node)',
      'functions/b.ts imports "../src/generate/discovery.ts": request-time code (functions/) must not import build-time code (src/generate)',
      'functions/routes/c.ts imports "../../src/node/compress.ts": request-time code (functions/) must not import Node-only code (src/node)',
      'src/generate/precompress.ts imports "../../functions/http/response.ts": the build and publish (src/generate, src/publish) must not import request-time code (functions/)',
      'src/publish/upload.ts imports "../../functions/config.ts": the build and publish (src/generate, src/publish) must not import request-time code (functions/)',
    ]);
  });

  it("reads every import form and no prose", () => {
    expect(
      importsOf(
        [
          'import a from "a";',
          'import { b,\n c } from "b";',
          'import "side";',
          'export { d } from "d";',
          'export type { E } from "e";',
          "const f = await import( 'f' );",
          'const g = require("g");',
          '// copied from "nowhere"',
          'const s = "text from here";',
          "export const h = 1;",
        ].join("\n"),
      ),
    ).toEqual(["a", "b", "side", "d", "e", "f", "g"]);
  });
});

/** Comments out of a source: JS block and line comments, and HTML comments of Astro templates. */
function withoutComments(source: string): string {
  return source
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[\s;{}()])\/\/.*$/gm, "$1");
}

/** First segments of the route table's literal paths (`v1`, `episodes`, `feed.xml`…). */
function publicSegments(): string[] {
  const segments = Object.values(ROUTES as Record<string, { paths: readonly string[] }>).flatMap((r) => r.paths.map((p) => p.split("/")[1] ?? ""));
  return [...new Set(segments.filter((s) => s !== "" && !s.startsWith("{")))].sort();
}

/**
 * Public path literals in `files` (path → source): a string or template that starts with a path of
 * the route table (`"/v1…"`, `'/episodes'`), or a URL made by hand (`${siteUrl}/feed.xml`). Paths
 * are made from the table (src/shared/routes.ts `pathOf`, src/shared/links.ts `urlOf`).
 */
export function pathLiterals(files: ReadonlyMap<string, string>, segments: readonly string[]): string[] {
  const alternatives = segments.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  const literal = new RegExp(`(?:["'\`]|\\$\\{[^}]*(?:[uU]rl|origin)\\})/(?:${alternatives})(?=[/"'\`?#]|$)`, "gm");
  const found: string[] = [];
  for (const [file, source] of files) {
    if (!/\.(?:ts|astro|mjs)$/.test(file) || file === "src/shared/routes.ts") continue;
    for (const m of withoutComments(source).matchAll(literal)) found.push(`${file}: ${m[0]}`);
  }
  return found;
}

describe("one home for every public path", () => {
  it("no code outside the route table writes a public path: links, discovery, llms.txt, the sitemap, the feeds, MCP and the pages make them with pathOf/urlOf", () => {
    const segments = publicSegments();
    expect(segments).toEqual(expect.arrayContaining(["v1", "episodes", "embed", "feed.xml", "mcp", "llms.txt"]));
    expect(pathLiterals(projectFiles(["functions", "src"]), segments)).toEqual([]);
  });

  it("finds a path written by hand, in any quote, after an origin, and not in comments", () => {
    const files = new Map(
      Object.entries({
        "functions/a.ts": 'const a = "/v1/episodes";\nconst b = `${o.siteUrl}/feed.xml`;\n// "/v1" in a comment\n',
        "src/pages/b.astro": '<a href="/episodes">All</a>\n<!-- <a href="/terms"> -->\n',
        "src/shared/layout.ts": "const file = `${API_PREFIX}/episodes/${ref}.json`;\nconst v = '/v10';\n",
        "src/shared/routes.ts": 'paths: ["/v1"]\n',
      }),
    );
    expect(pathLiterals(files, ["v1", "episodes", "feed.xml", "terms"])).toEqual(['functions/a.ts: "/v1', "functions/a.ts: ${o.siteUrl}/feed.xml", 'src/pages/b.astro: "/episodes']);
  });
});
