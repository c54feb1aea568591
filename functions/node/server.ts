// The Node adapter: node:http in front of the portable handler, with no Fetch objects in between.
// It hands the handler a light request object (request.ts; no body: the API takes none), writes the
// handler's status, headers and bytes directly (streams with backpressure), and aborts the
// handler's upstream reads when the client hangs up.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { once } from "node:events";
import { apiError } from "../../src/shared/errors.ts";
import { clientIpFrom } from "../client-ip.ts";
import type { Shim, ShimResponse } from "../handler.ts";
import { NodeRequest } from "./request.ts";

function socketAddress(req: IncomingMessage): string {
  const a = req.socket.remoteAddress ?? "unknown";
  return a.startsWith("::ffff:") ? a.slice(7) : a;
}

/** Writes the handler's answer: bytes in one `end`, a stream with backpressure. */
export async function writeResponse(res: ServerResponse, response: ShimResponse): Promise<void> {
  res.writeHead(response.status, response.headers);
  const body = response.body;
  if (body === null) return void res.end();
  if (body instanceof Uint8Array) return void res.end(body);
  const reader = body.getReader();
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

export function createNodeServer(shim: Shim, trustProxy: number): Server {
  return createServer(async (req, res) => {
    try {
      const request = new NodeRequest(req, res);
      const clientIp = clientIpFrom(socketAddress(req), request.headers.get("x-forwarded-for"), trustProxy);
      await writeResponse(res, await shim.handle(request, { clientIp }));
    } catch {
      if (!res.headersSent) {
        res.writeHead(400, { "content-type": "application/json; charset=utf-8", "access-control-allow-origin": "*" });
        res.end(JSON.stringify(apiError("bad_request")));
      } else res.destroy();
    }
  });
}
