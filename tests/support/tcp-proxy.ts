// A TCP proxy on a fixed loopback port in front of a server, to take that server away and give it
// back on the same address (stop/start), to hang (accept connections, forward nothing), or to cut
// connections after some bytes of answer, as a storage failing mid-stream would.
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer, connect, type Server, type Socket } from "node:net";

/** The lowest port OWN_PORTS holds. */
const FIRST_PORT = 10_000;

/**
 * The ports `listenOnOwnPort` draws from, or null: those outside the kernel's range of local ports
 * for outgoing connections (Linux; its default elsewhere). A port the kernel gives a listener on
 * port 0 lies in that range, and once the listener closes, any client of the run may get it as its
 * own end: a server listening on it later then fails with EADDRINUSE. Read once per process.
 */
const OWN_PORTS = ((): { from: number; to: number } | null => {
  let low = 32768;
  let high = 60999;
  try {
    const [l, h] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    if (Number.isInteger(l) && Number.isInteger(h)) [low, high] = [l!, h!];
  } catch {
    // not Linux: its default
  }
  return low > FIRST_PORT ? { from: FIRST_PORT, to: low - 1 } : high < 65_000 ? { from: high + 1, to: 65_535 } : null;
})();

/** Listens on `port` of the loopback; false when something else has it. */
async function tryListen(server: Server, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const failed = (e: NodeJS.ErrnoException) => (e.code === "EADDRINUSE" ? resolve(false) : reject(e));
    server.once("error", failed);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", failed);
      resolve(true);
    });
  });
}

/**
 * Listens on a free loopback port of OWN_PORTS, so that no client of the run takes it while the
 * server behind it is away; where there is no such room, on the port the kernel picks.
 */
async function listenOnOwnPort(server: Server): Promise<number> {
  for (let attempt = 0; OWN_PORTS !== null && attempt < 100; attempt++) {
    const port = OWN_PORTS.from + Math.floor(Math.random() * (OWN_PORTS.to - OWN_PORTS.from + 1));
    if (await tryListen(server, port)) return port;
  }
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return (server.address() as { port: number }).port;
}

/** A loopback port nothing listens on right now, which no client of the run will take meanwhile. */
export async function freePort(): Promise<number> {
  const reserved = await reservePort();
  await reserved.release();
  return reserved.port;
}

/**
 * A loopback port held until `release`, for a server that must know its port long before it
 * listens (a site built with its own origin): another process of the run cannot take it meanwhile,
 * and once released no client does (`listenOnOwnPort`).
 */
export async function reservePort(): Promise<{ port: number; release(): Promise<void> }> {
  const probe = createServer();
  const port = await listenOnOwnPort(probe);
  return { port, release: () => new Promise<void>((resolve) => probe.close(() => resolve())) };
}

export interface TcpProxy {
  port: number;
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Closes the port and every connection through it: connections are refused from now on. */
  stop(): Promise<void>;
  /** Listens on the same port again. */
  start(): Promise<void>;
  /** true: accept connections but forward nothing (a hung server). */
  hang(on: boolean): void;
  /** Connections made from now on are destroyed after carrying this many bytes of answer; null: never. */
  cutAfter(bytes: number | null): void;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let hung = false;
  let cut: number | null = null;

  const onConnection = (client: Socket) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => {});
    if (hung) return;
    const upstream = connect(targetPort, "127.0.0.1");
    sockets.add(upstream);
    upstream.on("close", () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    client.pipe(upstream);
    let carried = 0;
    const limit = cut;
    upstream.on("data", (chunk: Buffer) => {
      if (limit !== null && carried + chunk.byteLength >= limit) {
        client.write(chunk.subarray(0, Math.max(0, limit - carried)), () => {
          client.destroy();
          upstream.destroy();
        });
        carried = limit;
        upstream.pause();
        return;
      }
      carried += chunk.byteLength;
      if (!client.write(chunk)) {
        upstream.pause();
        client.once("drain", () => upstream.resume());
      }
    });
  };

  let server: Server = createServer(onConnection);
  // A port no client takes while the proxy is stopped, so that start() finds it free.
  const port = await listenOnOwnPort(server);

  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    async stop() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const s of sockets) s.destroy();
      await closed;
    },
    async start() {
      server = createServer(onConnection);
      server.listen(port, "127.0.0.1");
      await once(server, "listening");
    },
    hang(on) {
      hung = on;
    },
    cutAfter(bytes) {
      cut = bytes;
    },
  };
}
