// A real redis-server for the tests, on a free loopback port, with nothing persisted
// (`--save '' --appendonly no`). Debian's package starts no daemon; each suite runs its own, and can
// kill it and start it again on the same port to test what the service does meanwhile.
// Absent redis-server is a failure, not a skip: .ci/run installs it.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { findExecutable } from "./executables.ts";
import { freePort } from "./tcp-proxy.ts";

/** redis-server from PATH, else Debian's location; throws with what to install when absent. */
export function redisServerPath(): string {
  const found = findExecutable("redis-server", ["/usr/bin", "/usr/sbin"]);
  if (found !== null) return found;
  throw new Error("redis-server is not installed: the Redis rate-limit tests need it (apt-get install redis-server; .ci/run installs it)");
}

export interface RedisServer {
  port: number;
  url: string;
  /** SIGKILL, as a crash would: no goodbye to connected clients. */
  kill(): Promise<void>;
  /** SIGSTOP: the port still accepts connections, but nothing answers (a hung Redis). */
  pause(): void;
  /** SIGCONT after pause(). */
  resume(): void;
  /** Starts it again on the same port (empty: nothing is persisted). */
  restart(): Promise<void>;
  /** Stops it for good. */
  stop(): Promise<void>;
}

async function launch(bin: string, port: number): Promise<ChildProcess> {
  const child = spawn(bin, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`redis-server did not start on port ${port} within 5 s:\n${output}`)), 5000);
    const fail = (e: Error) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(e);
    };
    const exited = (code: number | null) => fail(new Error(`redis-server exited (${code}) on port ${port}:\n${output}`));
    child.once("error", fail);
    child.once("exit", exited);
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        // Only this listener: removing all of them loses the 'exit' that stop() waits for.
        child.off("exit", exited);
        resolve();
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => void (output += chunk.toString()));
  });
  return child;
}

async function terminate(child: ChildProcess | null, signal: NodeJS.Signals): Promise<void> {
  if (child === null || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill(signal);
  await exited;
}

/** Starts redis-server on `port`, or on a free one. */
export async function startRedis(port?: number): Promise<RedisServer> {
  const bin = redisServerPath();
  port ??= await freePort();
  let child: ChildProcess | null = await launch(bin, port);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async kill() {
      await terminate(child, "SIGKILL");
      child = null;
    },
    pause() {
      child?.kill("SIGSTOP");
    },
    resume() {
      child?.kill("SIGCONT");
    },
    async restart() {
      await terminate(child, "SIGKILL");
      child = await launch(bin, port);
    },
    async stop() {
      child?.kill("SIGCONT");
      await terminate(child, "SIGTERM");
      child = null;
    },
  };
}
