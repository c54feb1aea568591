// The Node adapter: node:http in front of the portable handler, with no Fetch objects in between.
// It hands the handler a light request object (request.ts; its body is read only by POST /mcp), writes the
// handler's status, headers and bytes directly (streams with backpressure), and aborts the
// handler's upstream reads when the client hangs up.
//
// Every answer it gives is the shim's: a request it cannot hand over (a target that is not a URL,
// bytes Node's parser rejects, a handler that throws after all) is answered by `shim.refuse`, so
// even those carry the error envelope, CORS and, on API paths, the license Link. Nothing here
// builds a body.
import { HEADER } from "../../src/shared/headers.ts";
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { once } from "node:events";
import type { Socket } from "node:net";
import { clientKeyFrom, rateLimitKey } from "../limits/client-ip.ts";
import type { RequestInfo, Shim, ShimResponse } from "../handler.ts";
import { isPending } from "../pending.ts";
import { NodeRequest, requestLineOf, targetPath } from "./request.ts";

/**
 * The header budget: request line and header fields together. A request past it is answered 431.
 * Browsers and HTTP clients send well under 8 KiB; 32 KiB leaves room for long cookies and tracing
 * headers a proxy adds, while bounding what one connection can make the server hold before the
 * handler runs (Node's default is 16 KiB).
 */
export const MAX_HEADER_BYTES = 32 * 1024;
/**
 * A client has this long to send its headers: slow senders (slowloris) do not hold sockets for long.
 * Node checks both request timeouts every 30 s (connectionsCheckingInterval), so a stalled client is
 * cut within this plus up to 30 s, without an answer (the error table has no 408).
 */
export const HEADERS_TIMEOUT_MS = 10_000;
/**
 * The whole request: its headers, and for POST /mcp a body of at most 1 MiB (functions/routes/mcp.ts
 * refuses more with 413). Must not be below HEADERS_TIMEOUT_MS.
 */
export const REQUEST_TIMEOUT_MS = 15_000;
/** An idle keep-alive connection closes after this; behind a proxy it must outlast the proxy's own idle timeout. */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** After answering a request Node could not parse, the socket waits this long for the client to close it. */
const LINGER_MS = 2_000;

/** Writes the handler's answer: bytes in one `end`, a stream with backpressure. */
export async function writeResponse(res: ServerResponse, response: ShimResponse): Promise<void> {
  await send(res, response);
}

/**
 * writeResponse without a promise for an answer of bytes (all but audio): written at once, where
 * an async function and its await cost every request a promise and a microtask.
 */
function send(res: ServerResponse, response: ShimResponse): Promise<void> | undefined {
  res.writeHead(response.status, response.headers);
  const body = response.body;
  // `end`'s callback runs once the bytes are handed to the system: a pooled body may then be reused.
  const release = response.release;
  if (body === null) return void (release ? res.end(release) : res.end());
  if (body instanceof Uint8Array) return void (release ? res.end(body, release) : res.end(body));
  return stream(res, body);
}

/** A streamed body (audio), with backpressure. */
async function stream(res: ServerResponse, body: ReadableStream<Uint8Array>): Promise<void> {
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

/**
 * A whole HTTP/1.1 response in bytes, for a socket Node's parser gave up on (there is no
 * ServerResponse then): the shim's status and headers, its own Content-Length, `Connection: close`.
 */
export function serializeResponse(response: ShimResponse, date = new Date()): Buffer {
  const body = response.body instanceof Uint8Array ? response.body : null;
  let head = `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ""}\r\ndate: ${date.toUTCString()}\r\n`;
  for (const [name, value] of Object.entries(response.headers)) {
    if (name !== "content-length" && name !== "connection") head += `${name}: ${value}\r\n`;
  }
  // A HEAD refusal has no body but states the length a GET would have had.
  const length = body !== null ? String(body.byteLength) : (response.headers["content-length"] ?? "0");
  head += `content-length: ${length}\r\nconnection: close\r\n\r\n`;
  return body === null ? Buffer.from(head, "latin1") : Buffer.concat([Buffer.from(head, "latin1"), body]);
}

/**
 * What the handler is told of each connection's client while no X-Forwarded-For entry is trusted:
 * its address never changes, so it is reduced to its rate-limit key (rateLimitKey: regular
 * expressions, arrays) once, and the requests of a keep-alive connection share one RequestInfo.
 */
const CLIENT = Symbol("client");
type ClientSocket = Socket & { [CLIENT]?: RequestInfo };

/** The client of a request on `socket`, its key as clientKeyFrom gives it. */
function clientOf(socket: Socket, request: NodeRequest, trustedHops: number): RequestInfo {
  const forwardedFor = trustedHops === 0 ? null : request.headers.get(HEADER.xForwardedFor);
  if (forwardedFor !== null) return { clientIp: clientKeyFrom(socket.remoteAddress ?? "unknown", forwardedFor, trustedHops) };
  // Kept on the socket: a property every socket gets alike is a cheaper read than a WeakMap's lookup.
  return ((socket as ClientSocket)[CLIENT] ??= { clientIp: rateLimitKey(socket.remoteAddress ?? "unknown") });
}

/** Sockets already answered after a parse error: the parser reports every further read as one. */
const answered = new WeakSet<Socket>();

/**
 * Requests Node's parser rejects ('clientError': a malformed request line, bad header syntax,
 * headers past MAX_HEADER_BYTES) get the shim's refusal, written onto the raw socket.
 */
function onClientError(shim: Shim, err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (answered.has(socket)) {
    // Further bytes of the same broken request are read and dropped until the client closes; only
    // the server's own timeout cuts that short.
    if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") socket.destroy();
    return;
  }
  // Never write over a response this socket has started sending (the same rule as Node's default).
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (err.code === "ECONNRESET" || err.code === "ERR_HTTP_REQUEST_TIMEOUT" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const { method, path } = requestLineOf(err.rawPacket);
  const code = err.code === "HPE_HEADER_OVERFLOW" ? "request_header_fields_too_large" : "bad_request";
  let bytes: Buffer;
  try {
    bytes = serializeResponse(shim.refuse(code, method, path));
  } catch {
    socket.destroy();
    return;
  }
  answered.add(socket);
  // End, not destroy: closing with the rest of the request unread would reset the connection and
  // could discard the answer at the client. The client closes after reading it, or the linger ends.
  socket.end(bytes);
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

export function createNodeServer(shim: Shim, trustProxy: number): Server {
  /** A failure once the handler was called: a 500 envelope while nothing is sent, else a cut connection. */
  function fail(res: ServerResponse, method: string, path: string | null): void {
    if (res.headersSent || res.destroyed) return void res.destroy();
    try {
      writeResponse(res, shim.refuse("internal_error", method, path)).catch(() => res.destroy());
    } catch {
      res.destroy();
    }
  }

  /** Answers one request; a promise only while the answer or its stream is pending. */
  function answer(req: IncomingMessage, res: ServerResponse): Promise<void> | undefined {
    const method = req.method ?? "GET";
    const target = req.url ?? "/";
    let request: NodeRequest;
    try {
      request = new NodeRequest(req, res);
    } catch {
      return writeResponse(res, shim.refuse("bad_request", method, targetPath(target)));
    }
    // RFC 9112 §3.2: an HTTP/1.1 request without Host is answered 400 (Node's own check would
    // answer it without the envelope, so it is turned off on the server and made here).
    if (req.httpVersion === "1.1" && req.headers.host === undefined) {
      return writeResponse(res, shim.refuse("bad_request", method, targetPath(target)));
    }
    // The handler answers its own failures (502); throwing is a bug, answered 500.
    try {
      const answered = shim.handle(request, clientOf(req.socket, request, trustProxy));
      // An answer from memory is written at once: no promise, no microtask.
      const pending = isPending(answered) ? Promise.resolve(answered).then((r) => send(res, r)) : send(res, answered);
      return pending?.catch(() => fail(res, method, targetPath(target)));
    } catch {
      fail(res, method, targetPath(target));
    }
  }

  const server = createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      requireHostHeader: false,
    },
    (req, res) => {
      try {
        answer(req, res)?.catch(() => fail(res, req.method ?? "GET", targetPath(req.url ?? "/")));
      } catch {
        fail(res, req.method ?? "GET", targetPath(req.url ?? "/"));
      }
    },
  );
  server.on("clientError", (err: Error & { code?: string; rawPacket?: unknown }, socket: Socket) => onClientError(shim, err, socket));
  // node:http hands CONNECT to this event instead of the request listener (and without a listener
  // closes the socket unanswered): it is a method like any other, answered 405 from the table.
  server.on("connect", (req: IncomingMessage, socket: Socket) => {
    socket.on("error", () => socket.destroy());
    const target = req.url ?? "";
    const path = target.startsWith("/") ? targetPath(target) : null; // the authority form names no path
    socket.end(serializeResponse(shim.refuse("method_not_allowed", "CONNECT", path)));
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });
  return server;
}
