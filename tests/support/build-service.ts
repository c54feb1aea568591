// The test run's fixture builds (docs/testing.md): started once per run by ./global-setup.ts in the
// vitest process, it runs the builds of every suite in a few long-lived build processes
// (./build-worker.ts), one build at a time each, and answers suites over HTTP on the loopback
// (`buildInService`). A build there makes what `astro build` makes, byte for byte
// (tests/build/build-service.test.ts), for a fraction of its CPU: Astro and Vite are loaded once per
// process, not once per build.
import { fork, type ChildProcess } from "node:child_process";
import { createServer, request as httpRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { BuildReply, BuildRequest } from "./build-worker.ts";

/** Build processes: one per core of the machine the suite is sized for. */
const PROCESSES = 2;
const WORKER = path.join(import.meta.dirname, "build-worker.ts");

interface Job {
  request: Omit<BuildRequest, "id">;
  resolve(reply: BuildReply): void;
  reject(error: Error): void;
}

interface Builder {
  child: ChildProcess;
  job: (Job & { id: number }) | null;
}

export interface BuildService {
  url: string;
  close(): Promise<void>;
}

export async function startBuildService(): Promise<BuildService> {
  const queue: Job[] = [];
  const builders: Builder[] = [];
  let nextId = 1;
  let closing = false;

  function spawnBuilder(): Builder {
    // The project's Node, as the command runs under; the child's own output is only what escapes a build's capture.
    const child = fork(WORKER, [], { cwd: path.resolve(import.meta.dirname, "../.."), execPath: process.execPath, stdio: ["ignore", "inherit", "inherit", "ipc"] });
    const builder: Builder = { child, job: null };
    child.on("message", (reply: BuildReply) => {
      const job = builder.job;
      builder.job = null;
      if (job !== null && reply.id === job.id) job.resolve(reply);
      next();
    });
    child.on("exit", (code, signal) => {
      builders.splice(builders.indexOf(builder), 1);
      builder.job?.reject(new Error(`the build process exited (${signal ?? code}) during the build of ${builder.job.request.outDir}`));
      if (!closing) next();
    });
    builders.push(builder);
    return builder;
  }

  function next(): void {
    while (queue.length > 0) {
      const idle = builders.find((b) => b.job === null) ?? (builders.length < PROCESSES ? spawnBuilder() : null);
      if (idle === null) return;
      const job = queue.shift()!;
      const id = nextId++;
      idle.job = { ...job, id };
      idle.child.send({ id, ...job.request } satisfies BuildRequest);
    }
  }

  const server = createServer(async (req, res) => {
    try {
      const request = JSON.parse(await bodyOf(req)) as Omit<BuildRequest, "id">;
      const reply = await new Promise<BuildReply>((resolve, reject) => {
        queue.push({ request, resolve, reject });
        next();
      });
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
    } catch (e) {
      res.writeHead(500, { "content-type": "text/plain" }).end(String(e));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      closing = true;
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all(
        builders.map((b) => new Promise<void>((resolve) => (b.child.exitCode !== null ? resolve() : (b.child.once("exit", () => resolve()), b.child.kill())))),
      );
    },
  };
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** One build through the run's service at `url`: its output, or a rejection shaped as a failed child process's. */
export function buildInService(url: string, outDir: string, env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/build`, { method: "POST", headers: { "content-type": "application/json" } }, async (res) => {
      const text = await bodyOf(res);
      if (res.statusCode !== 200) return reject(new Error(`the build service failed: ${text}`));
      const reply = JSON.parse(text) as BuildReply;
      if (reply.ok) resolve({ stdout: reply.stdout, stderr: reply.stderr });
      else reject(Object.assign(new Error(`build of ${outDir} failed:\n${reply.stderr}`), { code: 1, stdout: reply.stdout, stderr: reply.stderr }));
    });
    req.on("error", reject);
    req.end(JSON.stringify({ outDir, env }));
  });
}
