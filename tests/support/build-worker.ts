// A build process that stays up for the whole test run (./build-service.ts starts it): each message
// is one build, run through Astro's own `build()` (what `astro build` calls once it has read its
// flags) with that build's variables, its log captured. Only the first build pays for loading Astro
// and Vite; the command pays it on every build.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { registerHooks } from "node:module";
import path from "node:path";
import { build } from "astro";
import { buildsFolderOf } from "../../src/node/builds.ts";

export interface BuildRequest {
  id: number;
  outDir: string;
  /** The build's variables (CONTENT_DIR, SITE_URL, ASTRO_CACHE_DIR, …), over this process's environment. */
  env: Record<string, string>;
}

export interface BuildReply {
  id: number;
  ok: boolean;
  stdout: string;
  stderr: string;
}

const ROOT = path.resolve(import.meta.dirname, "../..");
const baseEnv = { ...process.env };
// The build registers exit listeners (its lock, folders to delete): several per build, many builds.
process.setMaxListeners(0);

// Astro imports the pages it bundled from <outDir>/.prerender/, the same path for every build of
// one site: a second build of it would get the first build's modules from Node's module cache. Each
// build imports them under a URL of its own, as a new process would.
let builds = 0;
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    if (!resolved.url.startsWith("file:") || !resolved.url.includes("/.prerender/")) return resolved;
    const url = new URL(resolved.url);
    url.searchParams.set("build", String(builds));
    return { ...resolved, url: url.href };
  },
});

/**
 * What a build keeps on globalThis for the rest of its process (src/generate/prepare-build.ts,
 * src/generate/integration.ts): one site and one build folder per process, so they go before the
 * next build, as a new process would start without them.
 */
const PER_PROCESS = [Symbol.for("episode-service.site"), Symbol.for("episode-service.build-folder")];

function setEnv(env: Record<string, string>): void {
  for (const key of Object.keys(process.env)) if (!(key in baseEnv)) delete process.env[key];
  Object.assign(process.env, baseEnv, env);
}

/** Runs `fn` with everything written to stdout and stderr captured instead. */
async function captured(fn: () => Promise<void>): Promise<{ error: unknown; stdout: string; stderr: string }> {
  const text = { stdout: "", stderr: "" };
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  for (const name of ["stdout", "stderr"] as const) {
    process[name].write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      text[name] += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
      (rest.find((r) => typeof r === "function") as (() => void) | undefined)?.();
      return true;
    }) as typeof process.stdout.write;
  }
  let error: unknown = null;
  try {
    await fn();
  } catch (e) {
    error = e;
  } finally {
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
  }
  return { error, ...text };
}

process.on("message", async (request: BuildRequest) => {
  builds++;
  for (const key of PER_PROCESS) delete (globalThis as Record<symbol, unknown>)[key];
  setEnv(request.env);
  const { error, stdout, stderr } = await captured(() => build({ root: ROOT, outDir: request.outDir }));
  setEnv({});
  // The build's lock is released when its process exits; this one lives on, and a later build of
  // the same site (an incremental one, by the command) must find it free. Another process's lock stays.
  const lock = path.join(buildsFolderOf(request.outDir), ".lock");
  if (existsSync(lock) && readFileSync(lock, "utf8").trim() === String(process.pid)) rmSync(lock, { force: true });
  const reply: BuildReply = {
    id: request.id,
    ok: error === null,
    stdout,
    // What the command prints of an error: its message and where it came from.
    stderr: error === null ? stderr : `${stderr}\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  };
  process.send!(reply);
});
