import { spawn } from "node:child_process";
import { once } from "node:events";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { episode, sharedSite, removeSite, ROOT, script, serveSite, type Site } from "../support/fixture.ts";
import { YOUNG_GENERATION_BYTES, type RunningServer } from "../../functions/node/main.ts";

let site: Site;
let server: RunningServer;

beforeAll(async () => {
  site = await sharedSite("smoke", [{ episode: episode({ episodeNumber: 1 }), script: script() }]);
  server = await serveSite(site);
});
afterAll(async () => {
  await server?.close();
  await removeSite(site);
});

describe("smoke", () => {
  it("serves an episode by number", async () => {
    const res = await fetch(`${server.url}/v1/episodes/1`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { episodeNumber: number };
    expect(body.episodeNumber).toBe(1);
  });
});

describe("npm run serve", () => {
  /** Starts a serving script under the project's Node in the site's folder; its URL and how to stop it. */
  async function run(script: string): Promise<{ url: string | null; pid: number; out: () => string; stop: () => void }> {
    const node = path.join(ROOT, "node_modules/.bin/node");
    const child = spawn(node, [path.join(ROOT, script)], {
      cwd: path.dirname(site.distDir),
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr.on("data", (b: Buffer) => (out += b.toString()));
    const exited = once(child, "exit").then(() => null);
    const url = await Promise.race([
      exited,
      (async () => {
        while (!/on (http:\/\/\S+)/.test(out)) await new Promise((r) => setTimeout(r, 50));
        return /on (http:\/\/\S+)/.exec(out)![1]!;
      })(),
    ]);
    return { url, pid: child.pid!, out: () => out, stop: () => child.kill("SIGTERM") };
  }

  // The suites import the server through Vitest's transform; these run the scripts under the
  // project's Node itself, whose type stripping refuses what is not erasable TypeScript.
  it.skipIf(process.env.SHIM_TARGET === "edge")("runs scripts/serve.ts under Node's own TypeScript support and serves the built site", async () => {
    const server = await run("scripts/serve.ts");
    try {
      expect(server.url, server.out()).not.toBeNull();
      expect((await fetch(`${server.url}/v1/episodes/1`)).status).toBe(200);
    } finally {
      server.stop();
    }
  });

  it.skipIf(process.env.SHIM_TARGET === "edge")("runs the command's launcher (scripts/serve.mjs): the same site from the bundled server, leaving no bundle behind, with a floor under the young generation", async () => {
    const server = await run("scripts/serve.mjs");
    try {
      expect(server.url, server.out()).not.toBeNull();
      const res = await fetch(`${server.url}/v1/episodes/1`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { episodeNumber: number }).episodeNumber).toBe(1);
      expect((await fetch(`${server.url}/v1/episodes/2`)).status).toBe(404);
      // Its bundle is named by its pid (scripts/serve.mjs) and removed once imported.
      const bundles = await readdir(path.join(ROOT, "node_modules/.cache/node-server"));
      expect(bundles).not.toContain(`serve-${server.pid}.mjs`);
      // Started without it, it restarted itself in place with the floor under the young
      // generation that functions/node/main.ts grows it to.
      const argv = (await readFile(`/proc/${server.pid}/cmdline`, "utf8")).split("\0");
      expect(argv).toContain(`--min-semi-space-size=${YOUNG_GENERATION_BYTES / 2 ** 20}`);
    } finally {
      server.stop();
    }
  });
});
