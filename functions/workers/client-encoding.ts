// The Accept-Encoding the client sent. Cloudflare's front line (and scripts/front-line.worker.ts,
// its local stand-in) replaces the header a Worker sees with "br, gzip" and keeps the client's own
// in `request.cf.clientAcceptEncoding` ("" when the client sent none); the shim negotiates with the
// client's (functions/http/accept-encoding.ts), so a gzip-only client is never promised br.
import { HEADER } from "../../src/shared/headers.ts";
import type { ShimRequest } from "../http/response.ts";

/** The request as the shim reads it, its Accept-Encoding the client's. */
export function withClientEncoding(req: Request): ShimRequest {
  const client = (req as Request & { cf?: { clientAcceptEncoding?: string } }).cf?.clientAcceptEncoding;
  if (client === undefined) return req;
  return {
    method: req.method,
    url: req.url,
    signal: req.signal,
    body: req.body,
    headers: { get: (name) => (name.toLowerCase() === HEADER.acceptEncoding ? client : req.headers.get(name)) },
  };
}
