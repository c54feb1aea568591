// A TCP proxy on a fixed loopback port in front of a server, to take that server away and give it
// back on the same address (stop/start), to hang (accept connections, forward nothing), or to cut
// connections after some bytes of answer, as a storage failing mid-stream would.
import { once } from "node:events";
import { createServer, connect, type Server, type Socket } from "node:net";

/** A loopback port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const reserved = await reservePort();
  await reserved.release();
  return reserved.port;
}

/**
 * A loopback port held until `release`, for a server that must know its port long before it
 * listens (a site built with its own origin): another process of the run cannot take it meanwhile.
 */
export async function reservePort(): Promise<{ port: number; release(): Promise<void> }> {
  const probe = createServer();
  probe.listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as { port: number };
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
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };

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
