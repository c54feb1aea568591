// The Node adapter: node:http in front of the portable handler. It turns an IncomingMessage into a
// Request (no body: the API takes none), writes the Response with backpressure, and aborts the
// handler's upstream reads when the client hangs up.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { once } from "node:events";
import { apiError } from "../../src/lib/errors.ts";
import { clientIpFrom } from "../client-ip.ts";
import type { Handler } from "../handler.ts";

/** Methods the Fetch API refuses to construct; they are answered 405 like any other non-GET. */
const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);
const SMALL_BODY = 256 * 1024;

function socketAddress(req: IncomingMessage): string {
  const a = req.socket.remoteAddress ?? "unknown";
  return a.startsWith("::ffff:") ? a.slice(7) : a;
}

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // A header value the Fetch API cannot hold is dropped, never a crash.
    }
  }
  const method = FORBIDDEN_METHODS.has(req.method ?? "") ? "PATCH" : (req.method ?? "GET");
  // An origin-form target is a path: "//v1" must not be read as a scheme-relative URL with host "v1".
  const target = req.url ?? "/";
  const url = target.startsWith("/") ? new URL(`http://localhost${target}`) : new URL(target, "http://localhost");
  return new Request(url, { method, headers, signal });
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
    const abort = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) abort.abort();
    });
    try {
      const request = toRequest(req, abort.signal);
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
