// The Node adapter: node:http in front of the portable handler. It hands the handler a light
// request object (request.ts; no body: the API takes none), writes the Response with backpressure,
// and aborts the handler's upstream reads when the client hangs up.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { once } from "node:events";
import { apiError } from "../../src/lib/errors.ts";
import { clientIpFrom } from "../client-ip.ts";
import type { Handler } from "../handler.ts";
import { NodeRequest } from "./request.ts";

const SMALL_BODY = 256 * 1024;

function socketAddress(req: IncomingMessage): string {
  const a = req.socket.remoteAddress ?? "unknown";
  return a.startsWith("::ffff:") ? a.slice(7) : a;
}

export async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => (headers[k] = v));
  res.writeHead(response.status, headers);
  if (response.body === null) return void res.end();
  const length = Number(response.headers.get("content-length") ?? NaN);
  if (length <= SMALL_BODY) return void res.end(new Uint8Array(await response.arrayBuffer()));
  const reader = response.body.getReader();
  // A hang-up cancels the upstream read and releases a write waiting for "drain", which never
  // fires once the socket is closed.
  const hangUp = new AbortController();
  res.on("close", () => {
    hangUp.abort();
    void reader.cancel().catch(() => {});
  });
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await once(res, "drain", { signal: hangUp.signal });
    }
    res.end();
  } catch {
    res.destroy();
  }
}

export function createNodeServer(handler: Handler, trustProxy: number): Server {
  return createServer(async (req, res) => {
    try {
      const request = new NodeRequest(req, res);
      const clientIp = clientIpFrom(socketAddress(req), request.headers.get("x-forwarded-for"), trustProxy);
      await writeResponse(res, await handler(request, { clientIp }));
    } catch {
      if (!res.headersSent) {
        res.writeHead(400, { "content-type": "application/json; charset=utf-8", "access-control-allow-origin": "*" });
        res.end(JSON.stringify(apiError("bad_request")));
      } else res.destroy();
    }
  });
}
