// Cloudflare's front line on the local workerd (scripts/serve-edge.ts serves it on the clients'
// port, in place of Miniflare's own emulation): what stands between a client and the Worker, as
// docs/deploy.md#the-local-front-line describes. The Worker sees `Accept-Encoding: br, gzip` and the
// client's own header in `request.cf.clientAcceptEncoding`, and its answer goes back as it is: the
// coding the Worker chose from the client's header reaches the client under the strong ETag the
// Worker gave it, as Cloudflare keeps a br answer for a client that accepts br. Miniflare's
// emulation re-picks instead the first of gzip and br the client lists, and re-encodes the body
// under the Worker's ETag. Runs in workerd: no Node imports.

interface FrontLineEnv {
  /** The Worker, behind the asset router that applies run_worker_first as on Cloudflare. */
  WORKER: { fetch(req: Request): Promise<Response> };
  /**
   * The client's address when the socket only takes loopback clients; workerd tells a Worker no
   * peer address, and Cloudflare sets CF-Connecting-IP from the connection.
   */
  CLIENT_ADDRESS?: string;
}

export default {
  fetch(req: Request & { cf?: Record<string, unknown> }, env: FrontLineEnv): Promise<Response> {
    const headers = new Headers(req.headers);
    headers.set("Accept-Encoding", "br, gzip");
    // A client-sent CF-Connecting-IP passes, as Miniflare lets it, so tests can speak as several clients.
    if (env.CLIENT_ADDRESS !== undefined && !headers.has("CF-Connecting-IP")) headers.set("CF-Connecting-IP", env.CLIENT_ADDRESS);
    const cf = { ...req.cf, clientAcceptEncoding: req.headers.get("Accept-Encoding") ?? "" };
    return env.WORKER.fetch(new Request(req, { headers, cf } as RequestInit));
  },
};
