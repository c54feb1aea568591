// The Node server of `npm run fuzz`, `npm run soak` and the fuzz smoke test, in a child process of
// its own, so that what is measured (RSS, open handles) is the server's alone and not the traffic
// generator's. Run as a script (`node tests/support/fuzz-server.ts <distDir>`), it serves the build
// and answers samples on its IPC channel; `startFuzzServer` spawns and drives it.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** Limits high enough that the traffic meets none (429s would hide every other answer). */
const NO_LIMITS = { RATE_LIMIT_METADATA_PER_MIN: "100000000", RATE_LIMIT_AUDIO_PER_MIN: "100000000" };

export interface ServerSample {
  rss: number;
  heapUsed: number;
  external: number;
  /** process.getActiveResourcesInfo().length: open sockets, timers, file handles… */
  handles: number;
  resources: Record<string, number>;
}

export interface FuzzServer {
  url: string;
  pid: number;
  sample(): Promise<ServerSample>;
  close(): Promise<void>;
}

type Message = { type: "ready"; url: string } | { type: "sample"; id: number; sample: ServerSample } | { type: "error"; message: string };

export async function startFuzzServer(distDir: string, env: Record<string, string> = {}): Promise<FuzzServer> {
  const node = path.join(ROOT, "node_modules/.bin/node");
  const child: ChildProcess = spawn(node, [path.join(ROOT, "tests/support/fuzz-server.ts"), distDir], {
    cwd: ROOT,
    env: { ...process.env, ...NO_LIMITS, ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let nextId = 0;
  const waiting = new Map<number, (s: ServerSample) => void>();
  const url = await new Promise<string>((resolve, reject) => {
    child.on("message", (m: Message) => {
      if (m.type === "ready") resolve(m.url);
      else if (m.type === "error") reject(new Error(m.message));
      else if (m.type === "sample") waiting.get(m.id)?.(m.sample), waiting.delete(m.id);
    });
    child.once("exit", (code) => reject(new Error(`fuzz server exited with ${code}`)));
  });
  return {
    url,
    pid: child.pid!,
    sample: () =>
      new Promise<ServerSample>((resolve, reject) => {
        if (!child.connected) return reject(new Error("fuzz server is gone"));
        const id = nextId++;
        waiting.set(id, resolve);
        child.send({ type: "sample", id });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

async function main(distDir: string): Promise<void> {
  // A process of its own, as npm run serve's: its memory is the one the smoke bounds.
  const { startOwnServer } = await import("../../functions/node/own-process.ts");
  const server = await startOwnServer({ distDir, env: { ...NO_LIMITS } });
  process.on("message", (m: { type: string; id: number }) => {
    if (m.type !== "sample") return;
    const mem = process.memoryUsage();
    const resources: Record<string, number> = {};
    for (const r of process.getActiveResourcesInfo()) resources[r] = (resources[r] ?? 0) + 1;
    const sample: ServerSample = { rss: mem.rss, heapUsed: mem.heapUsed, external: mem.external, handles: process.getActiveResourcesInfo().length, resources };
    process.send!({ type: "sample", id: m.id, sample });
  });
  process.once("SIGTERM", () => void server.close().then(() => process.exit(0)));
  process.once("disconnect", () => void server.close().then(() => process.exit(0)));
  process.send!({ type: "ready", url: server.url });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv[2] ?? path.join(ROOT, "dist")).catch((e: Error) => {
    process.send?.({ type: "error", message: e.message });
    process.exit(1);
  });
}
