// Types generated from the served OpenAPI document by openapi-typescript compile the example client
// (examples/typed-client) with tsc --noEmit, refuse code that misreads the API, and the client pages
// through the running server's list with cursors.
import { execFile } from "node:child_process";
import { copyFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import openapiTS from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../functions/node/main.ts";
import { episode, makeSite, removeSite, ROOT, script, serveSite, tempDir, type Site } from "../support/fixture.ts";
import { NO_LIMITS } from "../support/http.ts";

const run = promisify(execFile);
const CLIENT = path.join(ROOT, "examples/typed-client/list-episodes.ts");

let site: Site;
let server: RunningServer;
let work: string;

const TSCONFIG = {
  compilerOptions: {
    target: "ES2023",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    lib: ["ES2023", "DOM"],
    types: ["node"],
    strict: true,
    noUncheckedIndexedAccess: true,
    allowImportingTsExtensions: true,
    verbatimModuleSyntax: true,
    noEmit: true,
    // The client and the generated types are checked; @types/node's own declarations need not be.
    skipLibCheck: true,
  },
};

/** tsc --noEmit over the given files of the work folder; resolves to its diagnostics. */
async function tsc(files: string[]): Promise<{ ok: boolean; output: string }> {
  const config = path.join(work, `tsconfig.${files.join("-")}.json`);
  await writeFile(config, JSON.stringify({ ...TSCONFIG, files }));
  const bin = path.join(ROOT, "node_modules/typescript/bin/tsc");
  try {
    const { stdout } = await run(process.execPath, [bin, "--noEmit", "-p", config], { cwd: work });
    return { ok: true, output: stdout };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return { ok: false, output: `${err.stdout ?? ""}${err.stderr ?? ""}` };
  }
}

/** Code that misreads the API: each of lines 4–7 must be a type error. */
const MISUSE = [
  'import type { components, paths } from "./openapi.ts";',
  'type Episode = components["schemas"]["Episode"];',
  "declare const e: Episode;",
  "export const n: number = e.episodeNumber; // null when the episode has no number",
  "export const u: string = e.audioUrl; // absent when there is no audio",
  'export const q: NonNullable<paths["/v1/episodes"]["get"]["parameters"]["query"]> = { limit: "20" };',
  'export const p: paths["/v1/episodes"]["get"]["responses"][200]["content"]["application/json"] = { episodes: [] };',
  "",
].join("\n");

/**
 * One tsc over the client and the misuse, each a module of its own: a diagnostic names its file,
 * so one run answers both tests for the price of one tsc start.
 */
let checked: Promise<{ ok: boolean; output: string }> | undefined;
function typeCheck(): Promise<{ ok: boolean; output: string }> {
  checked ??= writeFile(path.join(work, "misuse.ts"), MISUSE).then(() => tsc(["list-episodes.ts", "misuse.ts"]));
  return checked;
}

async function client(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(work, "list-episodes.ts"), ...args], { cwd: work });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

beforeAll(async () => {
  const day = (d: number) => new Date(Date.UTC(2026, 1, d, 9)).toISOString();
  site = await makeSite("typed-client", [
    ...[1, 2, 3, 4, 5, 6].map((n) => ({
      episode: episode({ episodeNumber: n, publishedAt: day(n), topics: { domains: [n % 2 ? "odd" : "even"], concepts: [], entities: [] } }),
      script: script(),
    })),
    { episode: episode({ episodeNumber: null, title: "Without a number", publishedAt: day(7) }) },
    { episode: episode({ episodeNumber: 8, publishedAt: "2099-01-01T00:00:00Z" }) },
  ]);
  server = await serveSite(site, { env: NO_LIMITS });
  work = await tempDir("typed-client-work");
  const doc = await (await fetch(`${server.url}/v1/openapi.json`)).json();
  await writeFile(path.join(work, "openapi.ts"), await openapiTS(doc));
  await copyFile(CLIENT, path.join(work, "list-episodes.ts"));
});
afterAll(async () => {
  await server?.close();
  await removeSite(site);
  if (work) await rm(work, { recursive: true, force: true });
});

describe("a typed client generated from the OpenAPI document", () => {
  it("compiles with tsc --noEmit against the generated types", async () => {
    const { output } = await typeCheck();
    // Every diagnostic is one of misuse.ts's (below); the file names start tsc's diagnostic lines.
    expect(output).toMatch(/^misuse\.ts\(/);
    expect(output.split("\n").filter((line) => /^\S+\(\d+,\d+\): /.test(line) && !line.startsWith("misuse.ts("))).toEqual([]);
  });

  it("the generated types refuse code that misreads the API", async () => {
    const result = await typeCheck();
    expect(result.ok).toBe(false);
    for (const line of [4, 5, 6, 7]) expect(result.output).toMatch(new RegExp(`misuse\\.ts\\(${line},\\d+\\): error TS2(322|741):`));
  });

  it("pages through the whole list with cursors, newest first, as the server lists it", async () => {
    const listed = await (await fetch(`${server.url}/v1/episodes?limit=50`)).json();
    const expected = listed.episodes.map((e: { episodeNumber: number | null; id: string }) => (e.episodeNumber === null ? e.id : String(e.episodeNumber)));
    expect(expected).toHaveLength(7);
    for (const limit of ["1", "2", "3", "50"]) {
      const out = await client(server.url, limit);
      expect(out.stderr).toBe("");
      expect(out.stdout.trim().split("\n").map((l) => l.split("\t")[0])).toEqual(expected);
    }
  });

  it("keeps the first page's filters across pages, and reports API errors by code", async () => {
    const out = await client(server.url, "1", "even");
    expect(out.stdout.trim().split("\n").map((l) => l.split("\t")[0])).toEqual(["6", "4", "2"]);
    const bad = await client(server.url, "0");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("error invalid_limit (400)");
  });
});
