// What Cloudflare's edge does in front of a Worker, for suites that run the Node target behind a
// trusted proxy (TRUST_PROXY=<hops>, client addresses in X-Forwarded-For): the edge is that proxy,
// and it tells the Worker the client address in CF-Connecting-IP. This loopback proxy sets
// CF-Connecting-IP by the same rule (functions/limits/client-ip.ts) and passes everything else through,
// so the Worker's own code path (CF-Connecting-IP, never X-Forwarded-For) is what is tested.
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { clientIpFrom } from "../../functions/limits/client-ip.ts";

export interface Front {
  url: string;
  close(): Promise<void>;
}

export async function edgeFront(target: string, trustedHops: number, port = 0, host = "127.0.0.1"): Promise<Front> {
  const to = new URL(target);
  const server: Server = createServer((req, res) => {
    const headers = { ...req.headers };
    const xff = req.headers["x-forwarded-for"];
    headers["cf-connecting-ip"] = clientIpFrom(req.socket.remoteAddress ?? "127.0.0.1", Array.isArray(xff) ? xff.join(",") : (xff ?? null), trustedHops);
    const upstream = httpRequest({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.rawHeaders);
      up.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
