// Stand-ins for the services a publication is announced to (a WebSub hub, Podcast Index's
// pubnotify, Podping): one loopback HTTP server that records every request it receives (method,
// path and query, headers, body) and answers as the test says: 204/200, 500, or never (a hang).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import { episode, sharedSite, type Site } from "./fixture.ts";

export interface Received {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  at: number;
}

export type Behaviour = "ok" | "fail" | "hang";

export interface AnnounceTargets {
  /** http://127.0.0.1:<port> */
  base: string;
  /** Requests received under a path prefix (`/hub`, `/pubnotify`, `/podping`), in order. */
  received(prefix: string): Received[];
  /** Every request received. */
  all(): Received[];
  /** How requests under `prefix` are answered from now on (default "ok"). */
  behave(prefix: string, behaviour: Behaviour): void;
  /** Forgets what was received. */
  clear(): void;
  close(): Promise<void>;
}

export async function startAnnounceTargets(): Promise<AnnounceTargets> {
  const log: Received[] = [];
  const behaviours = new Map<string, Behaviour>();
  const hanging = new Set<ServerResponse>();
  const prefixOf = (url: string) => `/${url.split(/[/?]/)[1] ?? ""}`;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = req.url ?? "/";
      log.push({ method: req.method ?? "", url, headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      const behaviour = behaviours.get(prefixOf(url)) ?? "ok";
      if (behaviour === "hang") return void hanging.add(res);
      if (behaviour === "fail") return void res.writeHead(500, { "content-type": "text/plain" }).end("hub failure");
      // A WebSub hub accepts a publish with 204; the GET services answer 200 with a body.
      if (req.method === "POST") res.writeHead(204).end();
      else res.writeHead(200, { "content-type": "application/json" }).end('{"status":"true"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    received: (prefix) => log.filter((r) => prefixOf(r.url) === prefix),
    all: () => [...log],
    behave: (prefix, behaviour) => void behaviours.set(prefix, behaviour),
    clear: () => void (log.length = 0),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The announcement variables pointing at the stand-ins. */
export function announceEnv(targets: AnnounceTargets, token = "podping-test-token"): Record<string, string> {
  return {
    WEBSUB_HUB: `${targets.base}/hub`,
    PING_URLS: `${targets.base}/pubnotify?url={feed}`,
    PODPING_TOKEN: token,
    PODPING_URL: `${targets.base}/podping/`,
  };
}

/**
 * A settable clock that counts how often it is read. A server's announcement timer reads it once a
 * look (and nothing else does while no request is made), so a test can wait for looks to have
 * happened instead of waiting a guessed duration.
 */
export function countedClock(start: number) {
  let t = start;
  let reads = 0;
  return {
    now: () => (reads++, t),
    set: (v: number) => void (t = v),
    get reads() {
      return reads;
    },
  };
}

/** Resolves once `done()` holds, checking every 20 ms; rejects naming `what` after `timeoutMs`. */
export async function until(done: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The clock's start in the suites of scheduled announcements, and when their scheduled episode goes live. */
export const NOW0 = Date.UTC(2026, 5, 1, 12);
export const SCHEDULED_AT = NOW0 + 30_000;
export const SITE_URL = "https://show.example";
export const FEED_URL = `${SITE_URL}/feed.xml`;

/**
 * A built site with one episode published an hour before NOW0 and one scheduled for SCHEDULED_AT:
 * built once per run for the suites of scheduled announcements (Node, Redis, workerd), which only read it.
 */
export function scheduledSite(): Promise<Site> {
  const at = (ms: number) => new Date(ms).toISOString();
  return sharedSite(
    "scheduled",
    [
      { episode: episode({ episodeNumber: 1, publishedAt: at(NOW0 - 3_600_000) }) },
      { episode: episode({ episodeNumber: 2, publishedAt: at(SCHEDULED_AT) }) },
    ],
    { SITE_URL },
  );
}

/**
 * Each stand-in received exactly one announcement of `feedUrl`, as its service expects it: the hub
 * a form-encoded WebSub publish, the ping a GET with the feed URL percent-encoded, Podping a GET
 * with url, reason and medium and the token as the whole Authorization.
 */
export function expectAnnouncedOnce(targets: AnnounceTargets, feedUrl: string, token = "podping-test-token"): void {
  const hub = targets.received("/hub");
  expect(hub.map((r) => [r.method, r.headers["content-type"]])).toEqual([["POST", "application/x-www-form-urlencoded"]]);
  expect(Object.fromEntries(new URLSearchParams(hub[0]!.body))).toEqual({ "hub.mode": "publish", "hub.url": feedUrl });
  expect(targets.received("/pubnotify").map((r) => [r.method, r.url])).toEqual([["GET", `/pubnotify?url=${encodeURIComponent(feedUrl)}`]]);
  const podping = targets.received("/podping");
  expect(podping.map((r) => [r.method, r.headers.authorization])).toEqual([["GET", token]]);
  expect(Object.fromEntries(new URL(podping[0]!.url, targets.base).searchParams)).toEqual({ url: feedUrl, reason: "update", medium: "podcast" });
  expect(podping[0]!.headers["user-agent"]).toBeTruthy();
}
