// A fixture site for the browser suite: built with SITE_URL and API_BASE_URL equal to the origin
// it is then served on (so every link in pages, player and oEmbed is real), plus a separate host
// page server on another origin that embeds the player the way other sites do.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { reservePort } from "../../support/tcp-proxy.ts";
import { makeSite, serveSite, removeSite, type EpisodeSpec, type Site } from "../../support/fixture.ts";
import type { RunningServer, ServeOptions } from "../../../functions/node/main.ts";

export interface BrowserSite {
  site: Site;
  server: RunningServer;
  origin: string;
  close(): Promise<void>;
}

export async function browserSite(
  name: string,
  episodes: EpisodeSpec[],
  opts: { env?: Record<string, string>; now?: () => number; podcast?: Record<string, unknown> } = {},
): Promise<BrowserSite> {
  const reserved = await reservePort();
  const { port } = reserved;
  const origin = `http://127.0.0.1:${port}`;
  const site = await makeSite(name, episodes, { SITE_URL: origin, API_BASE_URL: origin }, opts.podcast).finally(() => reserved.release());
  // The audio limit is the subject of its own tests; elsewhere the suite must not trip it.
  const serve: Omit<ServeOptions, "distDir"> = { port, env: { RATE_LIMIT_AUDIO_PER_MIN: "100000", ...opts.env } };
  if (opts.now) serve.now = opts.now;
  const server = await serveSite(site, serve);
  return {
    site,
    server,
    origin,
    async close() {
      await server.close();
      await removeSite(site);
    },
  };
}

export interface HostServer {
  origin: string;
  /** URL of a host page embedding the given player URLs. */
  page(embeds: string[], opts?: { sandbox?: string; width?: number; height?: number }): string;
  close(): Promise<void>;
}

/**
 * Host pages on another origin (localhost, where the site is 127.0.0.1): each embeds players in
 * iframes and records every message from them in window.__messages, in arrival order, with the
 * index of the iframe that sent it.
 */
export async function hostServer(): Promise<HostServer> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== "/host") {
      res.writeHead(404).end();
      return;
    }
    const embeds = url.searchParams.getAll("src");
    const sandbox = url.searchParams.get("sandbox");
    const width = url.searchParams.get("width") ?? "400";
    const height = url.searchParams.get("height") ?? "180";
    const frames = embeds
      .map((src, i) => `<iframe id="f${i}" src="${src.replace(/"/g, "&quot;")}" width="${width}" height="${height}" frameborder="0" title="player ${i}"${sandbox === null ? "" : ` sandbox="${sandbox}"`}></iframe>`)
      .join("\n");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title>
<script>
window.__messages = [];
addEventListener("message", (e) => {
  const frames = [...document.querySelectorAll("iframe")];
  const frame = frames.findIndex((f) => f.contentWindow === e.source);
  window.__messages.push({ frame, origin: e.origin, data: e.data });
});
</script></head><body style="margin:0"><main><h1 style="font-size:12px;margin:0">Host page</h1>${frames}</main></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://localhost:${port}`;
  return {
    origin,
    page(embeds, opts = {}) {
      const q = new URLSearchParams();
      for (const e of embeds) q.append("src", e);
      if (opts.sandbox !== undefined) q.set("sandbox", opts.sandbox);
      if (opts.width !== undefined) q.set("width", String(opts.width));
      if (opts.height !== undefined) q.set("height", String(opts.height));
      return `${origin}/host?${q}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
