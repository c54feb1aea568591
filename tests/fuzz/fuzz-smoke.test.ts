// The fuzz smoke: 2,500 seeded hostile requests (tests/support/fuzz-core.ts, the core of `npm run
// fuzz`) over raw sockets against a small fixture site, on each target (on the edge in `npm run
// test:edge`). Every invariant is its own test, so a failure names the rule it broke; the full run is
// `npm run fuzz` (100,000 requests).
// Node: the server runs in a child process (tests/support/fuzz-server.ts), so its RSS is its own.
// Edge: the site goes through serveSite (workerd), and RSS is workerd's, read from /proc.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ON_EDGE } from "../support/edge.ts";
import { episode, sharedSite, removeSite, script, serveSite, timedScript, type Site } from "../support/fixture.ts";
import { descendantsRss, formatReport, runFuzz, siteFacts, type FuzzReport, type Invariant } from "../support/fuzz-core.ts";
import { startFuzzServer } from "../support/fuzz-server.ts";
import { longTone, NO_LIMITS, TONE } from "../support/http.ts";

const REQUESTS = 2500;
const SEED = 20261123;
/**
 * A request with no complete answer by then counts as hung. The smoke runs beside the rest of the
 * suite on a shared 2-core machine, where workerd under load answered a dozen requests (a 400 among
 * them) just after 2 s (CI, 2026-11-23): the smoke looks for hangs; `npm run fuzz` keeps 2 s.
 */
const HANG_MS = 10_000;

let site: Site;
let close: (() => Promise<void>) | undefined;
let url: string;
let report: FuzzReport;

beforeAll(async () => {
  site = await sharedSite("fuzz", [
    { episode: episode({ episodeNumber: 1, topics: { domains: ["general", "ai"], concepts: [], entities: [] } }), script: timedScript(), audio: TONE },
    { episode: episode({ episodeNumber: 2 }), script: script([["a", "Long one."], ["b", "Yes."]]), audio: longTone(40) },
    { episode: episode({ episodeNumber: null, title: "No number, café" }), script: "{ not json", audio: TONE },
    { episode: episode({ episodeNumber: 4, topics: { domains: ["security"], concepts: [], entities: [] } }) },
    { episode: episode({ episodeNumber: 5, publishedAt: "2099-01-01T00:00:00Z" }), script: script() },
  ]);
  let sampleRss: () => Promise<number>;
  if (ON_EDGE) {
    const server = await serveSite(site, { env: NO_LIMITS });
    url = server.url;
    close = server.close;
    sampleRss = async () => descendantsRss(process.pid, /workerd/);
  } else {
    const server = await startFuzzServer(site.distDir);
    url = server.url;
    close = server.close;
    sampleRss = async () => (await server.sample()).rss;
  }
  report = await runFuzz({ url, site: siteFacts(site.distDir), requests: REQUESTS, seed: SEED, concurrency: 16, timeoutMs: HANG_MS, sampleRss, rssGrowthBytes: 128 * 1024 * 1024 });
  console.log(formatReport(report, ON_EDGE ? "edge" : "node"));
}, 240_000);

afterAll(async () => {
  await close?.();
  await removeSite(site);
});

/** Violations of one invariant, leaving out the kinds named (each is its own test below). */
function count(inv: Invariant, leaveOut: (signature: string) => boolean = () => false): number {
  const v = report.violations[inv];
  return Object.entries(v.bySignature).reduce((n, [sig, g]) => n + (leaveOut(sig) ? 0 : g.count), 0);
}
const examples = (inv: Invariant) => JSON.stringify(report.violations[inv].bySignature, null, 1).slice(0, 3000);

describe(`fuzz smoke (${REQUESTS} seeded requests, ${ON_EDGE ? "edge" : "node"})`, () => {
  it("sent every request and got answers", () => {
    expect(report.answered + report.hungUp).toBeGreaterThan(REQUESTS * 0.9);
    expect(report.hungUp).toBeGreaterThan(0);
  });

  it("answers every request: no silent close", () => {
    expect(count("answered"), examples("answered")).toBe(0);
  });

  it(`answers within ${HANG_MS / 1000} s: no request hangs`, () => {
    expect(count("within2s"), examples("within2s")).toBe(0);
  });

  it("answers no 5xx but 502 in the envelope (shim answers)", () => {
    expect(report.violations.no5xx.count - (ON_EDGE ? report.violations.no5xx.notShim : 0), examples("no5xx")).toBe(0);
  });

  it("answers every /v1 error in the JSON envelope with error.status = HTTP status and CORS (shim answers)", () => {
    expect(report.violations.envelope.count - (ON_EDGE ? report.violations.envelope.notShim : 0), examples("envelope")).toBe(0);
  });

  it("puts no stack trace or server path in any body", () => {
    expect(count("noLeak"), examples("noLeak")).toBe(0);
  });

  it("is alive at the end: GET /v1 answers 200", () => {
    expect(report.violations.alive.count, examples("alive")).toBe(0);
  });

  it("keeps its RSS within 128 MiB of the post-warm-up figure", () => {
    expect(report.rssEnd).not.toBeNull();
    expect(report.violations.rss.count, `${report.rssWarm} → ${report.rssEnd}`).toBe(0);
  });

  // The edge's local runtime (workerd) answers some hostile requests itself, before the Worker
  // runs: 501 for unknown methods, 500 for CONNECT, absolute-form and duplicate Content-Length, 400
  // for bad header bytes: no envelope, no CORS (docs/reliability.md, "At the edge"). On Cloudflare
  // its front line answers most of these before workerd. Marked as a known failure until the edge
  // entry can answer them; it turns red the day they pass, so the mark cannot outlive the gap.
  (ON_EDGE ? it.fails : it)("answers even the requests the runtime refuses before the handler in the envelope, without 5xx", () => {
    expect(report.violations.no5xx.count + report.violations.envelope.count, `${examples("no5xx")}\n${examples("envelope")}`).toBe(0);
  });

  // node:http hands CONNECT to a 'connect' event, not to the request listener (functions/node/server.ts).
  // workerd refuses CONNECT itself, before the Worker (docs/reliability.md).
  it.skipIf(ON_EDGE)("answers CONNECT with 405 in the envelope", async () => {
    const port = Number(new URL(url).port);
    const text = await new Promise<string>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => socket.write("CONNECT /v1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
      let out = "";
      socket.on("data", (d: Buffer) => (out += d.toString("latin1")));
      socket.on("close", () => resolve(out));
      socket.on("error", () => resolve(out));
    });
    expect(text).toMatch(/^HTTP\/1\.1 405 /);
    expect(text).toContain('"code":"method_not_allowed"');
  });
});
