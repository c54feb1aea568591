// A thousand clients (`npm test`: a hundred) hanging up mid-audio leave nothing behind (docs/architecture.md, "one request",
// step 5: the body stops when the client hangs up): no socket, file handle or pending file read of
// the Node server stays open once the clients are gone. The server runs in this process, so its
// handles are visible to process.getActiveResourcesInfo() and its open files in /proc/self/fd.
// Node only: on the edge the audio streams from R2 in another process.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { openFilesUnder } from "../support/open-files.ts";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../functions/node/main.ts";
import { episode, makeSite, removeSite, serveSite, type Site } from "../support/fixture.ts";
import { call, json, NO_LIMITS } from "../support/http.ts";
import { longUnlessFirst } from "../support/tiers.ts";

/** Connections opened together; all of a storm's downloads are open at once before any hangs up. */
const CONNECT_BATCH = 100;
/** Audio is bytes to the server: 16 MiB, far more than a paused loopback connection absorbs, so every download is mid-file when its client leaves. */
const AUDIO = new Uint8Array(randomBytes(16 * 1024 * 1024));
const ep = episode({ episodeNumber: 1, publishedAt: "2026-01-01T00:00:00Z" });
/** Handle types that belong to a download: sockets, file handles, pending fs requests, pending writes. */
const WATCHED = ["TCPSocketWrap", "TCPWrap", "FileHandle", "FSReqCallback", "FSReqPromise", "WriteWrap", "ShutdownWrap", "PipeWrap"];

let site: Site;
let server: RunningServer;

beforeAll(async () => {
  site = await makeSite("hangups", [{ episode: ep, audio: AUDIO }]);
  server = await serveSite(site, { env: NO_LIMITS });
});
afterAll(async () => {
  await server?.close();
  await removeSite(site);
});

/** Active resources of this process by type. */
function resources(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) out[type] = (out[type] ?? 0) + 1;
  return out;
}

function watched(r: Record<string, number>): Record<string, number> {
  return Object.fromEntries(WATCHED.map((t) => [t, r[t] ?? 0]));
}

/** Open descriptors of this process that point at this site's .mp3 files. */
function openAudio(): number {
  return openFilesUnder(site.distDir, ".mp3");
}

/** Starts one download on a raw socket and resolves once its first bytes arrived; the socket then stops reading. */
function startDownload(port: number, target: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("error", reject);
    socket.once("data", (chunk: Buffer) => {
      socket.pause();
      if (!chunk.toString("latin1").startsWith("HTTP/1.1 200")) reject(new Error(`unexpected answer: ${chunk.toString("latin1", 0, 40)}`));
      else resolve(socket);
    });
    socket.write(`GET ${target} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
  });
}

/** One request with `Connection: close`: the answer's bytes once the server closed the connection. */
function closedRequest(port: number, target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.once("error", reject);
    socket.once("close", () => resolve(Buffer.concat(chunks).toString("latin1")));
    socket.write(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nRange: bytes=0-0\r\nConnection: close\r\n\r\n`);
  });
}

async function settle(check: () => boolean, ms = 10_000): Promise<void> {
  for (let waited = 0; waited < ms && !check(); waited += 50) await new Promise((r) => setTimeout(r, 50));
}

describe("clients hanging up mid-audio", () => {
  for (const [i, CLIENTS] of [100, 1_000].entries()) {
    it.skipIf(!existsSync("/proc/self/fd"))(
      `${CLIENTS.toLocaleString("en")} downloads cut after their first chunk leave no sockets, file handles or file reads open`,
      { timeout: 120_000, ...longUnlessFirst(i) },
      async () => {
        const port = Number(new URL(server.url).port);
        const audioUrl = new URL(json(await call(server.url, "/v1/episodes/1")).audioUrl).pathname;
        // Warm up both routes on connections that close, so lazily created handles are in the baseline
        // and no keep-alive socket is.
        for (const target of [audioUrl, "/v1/episodes/1/audio"]) expect(await closedRequest(port, target)).toMatch(/^HTTP\/1\.1 206 /);
        await settle(() => (resources().TCPSocketWrap ?? 0) === 0);
        const before = resources();
        expect(openAudio()).toBe(0);

        // All downloads open at once, connected a hundred at a time (within the listen backlog).
        const t0 = performance.now();
        const sockets: Socket[] = [];
        for (let started = 0; started < CLIENTS; started += CONNECT_BATCH) {
          const batch = Array.from({ length: CONNECT_BATCH }, (_, i) => startDownload(port, (started + i) % 2 ? audioUrl : "/v1/episodes/1/audio"));
          sockets.push(...(await Promise.all(batch)));
        }
        const peakAudio = openAudio();
        const peakSockets = resources().TCPSocketWrap ?? 0;
        const t1 = performance.now();
        for (const s of sockets) s.destroy();
        // While they were open, every download held its file: the server was mid-read when each client left.
        expect(peakAudio).toBe(CLIENTS);

        await settle(() => openAudio() === 0 && JSON.stringify(watched(resources())) === JSON.stringify(watched(before)));
        const after = resources();
        const t2 = performance.now();
        console.log(
          `abort storm: ${CLIENTS} downloads open at once; opened in ${Math.round(t1 - t0)} ms, released in ${Math.round(t2 - t1)} ms; peak ${peakSockets} TCP sockets and ${peakAudio} open .mp3 files; ` +
            `watched handles before ${JSON.stringify(watched(before))}, after ${JSON.stringify(watched(after))}; ` +
            `all handles before ${JSON.stringify(before)}, after ${JSON.stringify(after)}`,
        );
        expect(openAudio()).toBe(0);
        expect(watched(after)).toEqual(watched(before));
        // Nothing else piles up either (timers included): at most what the process had before.
        const total = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
        expect(total(after)).toBeLessThanOrEqual(total(before));
        // And the server still answers a whole download byte for byte.
        const whole = await call(server.url, "/v1/episodes/1/audio");
        expect(whole.status).toBe(200);
        expect(Buffer.from(whole.bytes).equals(Buffer.from(AUDIO))).toBe(true);
      },
    );
  }
});
