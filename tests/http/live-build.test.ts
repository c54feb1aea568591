// A build beside a running Node server (docs/architecture.md#the-build, functions/node/live-build.ts):
// the server takes every build up by itself, never mixes two, and never labels a body with
// another's ETag. Under load: clients ask every route family (PAUSE_MS apart) while the content is
// changed and built again and again (an episode added, one edited with new audio, one deleted).
// Each build is copied aside while it is live; afterwards a server started fresh on each copy
// answers every request again, and each answer of the running server must equal, status, headers
// and bytes, the fresh answer of a build that was live while it was asked. A download started on
// the first build and held open across the rounds must get that build's bytes whole. The builds are
// the run's fixture builds (the command's build byte for byte: tests/build/build-service.test.ts).
//
// LIVE_BUILD_ROUNDS (default 1; `npm run test:rebuilds` runs more) rounds of three builds each.
// Node only: at the edge a deploy switches versions itself.
import { createHash } from "node:crypto";
import { request, Agent, type IncomingMessage } from "node:http";
import { cp, readdir, readlink, rm } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../functions/node/main.ts";
import { BUILD_ID, buildsFolderOf, liveFolderOf, serverRecords } from "../../src/node/builds.ts";
import { episode, fixtureBuild, makeSite, removeSite, script, serveSite, writeContent, type EpisodeSpec, type Site } from "../support/fixture.ts";
import { call, expectError, longTone, NO_LIMITS, TONE } from "../support/http.ts";
import { brokenCopy, swapsLogged, twoBuilds, type TwoBuilds } from "../support/live-builds.ts";
import { openFilesUnder } from "../support/open-files.ts";
import { LONG } from "../support/tiers.ts";

const ROUNDS = Number(process.env.LIVE_BUILD_ROUNDS ?? 1);
const NOW = Date.UTC(2026, 11, 31);
const CLIENTS = 4;
/**
 * Each client's pause between requests in npm test's single round, so the load does not take a
 * core from the rest of the suite for as long as the builds wait in its build service; the rounds
 * of `npm run test:rebuilds` ask without pause.
 */
const PAUSE_MS = ROUNDS === 1 ? 2 : 0;
const DAY = 86_400_000;

const topics = { domains: ["ai"], concepts: [], entities: [] };
const held = episode({ episodeNumber: 1, title: "Held", topics, publishedAt: new Date(NOW - 30 * DAY).toISOString() });
const base: EpisodeSpec[] = [
  // Its audio is downloaded slowly across every build, and replaced by each edit.
  { folder: "held", episode: held, script: script(), audio: longTone(300) },
  ...Array.from({ length: 5 }, (_, i) => ({
    folder: `ep-${i + 2}`,
    episode: episode({ episodeNumber: i + 2, topics, publishedAt: new Date(NOW - (20 - i) * DAY).toISOString() }),
    script: script([["a", `Line of ${i + 2}.`], ["b", "Another."]]),
    ...(i < 2 ? { audio: TONE } : {}),
  })),
];

/** Content of round `r`, step `step`: an episode added, then episode 2 (and the held one's audio) edited, then the added one deleted. */
function contentAt(r: number, step: "add" | "edit" | "delete"): EpisodeSpec[] {
  const edited = r + (step === "add" ? 0 : 1);
  const specs = base.map((s) => {
    if (edited === 0) return s;
    if (s.folder === "held") return { ...s, audio: longTone(300 + edited) };
    if (s.folder === "ep-2") return { ...s, episode: { ...s.episode, title: `Edited ${edited}` }, script: script([["b", `Edited line ${edited}.`]]) };
    return s;
  });
  if (step === "delete") return specs;
  return [...specs, { folder: `added-${r}`, episode: episode({ episodeNumber: 100 + r, topics, publishedAt: new Date(NOW - DAY).toISOString() }), script: script() }];
}

const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS * 2 });

interface Ask {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

interface Answer {
  status: number;
  /** The headers a build decides (not Date, the connection's or the rate limit's). */
  headers: Record<string, string>;
  sha: string;
}

const COMPARED = ["etag", "content-type", "content-encoding", "content-length", "content-range", "link", "cache-control", "vary", "location", "content-disposition"];

/** One request over a plain socket: the bytes as sent (no decoding). */
function ask(url: string, a: Ask): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${a.path}`, { method: a.method, headers: a.headers, agent }, (res: IncomingMessage) => {
      const hash = createHash("sha256");
      res.on("data", (chunk: Buffer) => hash.update(chunk));
      res.on("end", () => {
        const headers: Record<string, string> = {};
        for (const name of COMPARED) if (res.headers[name] !== undefined) headers[name] = String(res.headers[name]);
        resolve({ status: res.statusCode!, headers, sha: hash.digest("base64url") });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(a.body);
  });
}

const keyOf = (a: Ask) => JSON.stringify([a.method, a.path, Object.entries(a.headers).sort(), a.body ?? null]);

/** A request of one of the route families, for an episode number picked by `pick`. */
function randomAsk(pick: <T>(items: readonly T[]) => T, refs: readonly number[], etags: Map<string, string[]>): Ask {
  const ref = pick(refs);
  const page = `http://localhost:4321/episodes/${ref}`;
  const families: (() => Ask)[] = [
    () => ({ method: "GET", path: pick(["/v1/episodes", "/v1/episodes?limit=2", "/v1/episodes?domain=ai&limit=3", "/v1"]), headers: {} }),
    () => ({ method: "GET", path: `/v1/episodes/${ref}`, headers: {} }),
    () => ({ method: "GET", path: `/v1/episodes/${ref}/script`, headers: {} }),
    () => ({ method: "GET", path: `/v1/episodes/${ref}/transcript`, headers: {} }),
    () => ({ method: "GET", path: `/v1/episodes/${ref}/audio`, headers: { Range: pick(["bytes=0-99", "bytes=1000-1999", "bytes=-500"]) } }),
    () => ({ method: "GET", path: pick([`/episodes/${ref}`, "/", "/episodes"]), headers: {} }),
    () => ({ method: "GET", path: pick([`/embed/${ref}`, "/embed/latest"]), headers: {} }),
    () => ({ method: "GET", path: `/oembed?url=${encodeURIComponent(page)}`, headers: {} }),
    () => ({ method: "GET", path: "/feed.xml", headers: {} }),
    () => ({
      method: "POST",
      path: "/mcp",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: pick(["get_episode", "get_script", "list_episodes"]), arguments: { ref: String(ref) } } }),
    }),
  ];
  const a = pick(families)();
  if (a.method === "GET") {
    a.headers["accept-encoding"] = pick(["identity", "br", "gzip"]);
    // A revalidation with an ETag this URL was answered with before, in this build or an earlier one.
    const seen = etags.get(a.path);
    if (seen !== undefined && pick([true, false])) a.headers["if-none-match"] = pick(seen);
  }
  return a;
}

interface Seen {
  ask: Ask;
  answer: Answer;
  started: number;
  ended: number;
}

/** A build and when it was made: possibly live from `started` until the next one's `ended`. */
interface Built {
  id: string;
  copy: string;
  started: number;
  ended: number;
}

let site: Site;
let server: RunningServer;
const log: string[] = [];

beforeAll(async () => {
  site = await makeSite("live-build", contentAt(0, "add").slice(0, base.length));
  server = await serveSite(site, { now: () => NOW, env: NO_LIMITS, log: (line) => void log.push(line) });
});
afterAll(async () => {
  agent.destroy();
  await server?.close();
  await removeSite(site);
});

describe("a build beside a running server", () => {
  it(`is taken up whole, under load, through ${ROUNDS * 3} builds: every answer is a fresh server's on a build live while it was asked`, { timeout: 300_000 + ROUNDS * 180_000 }, async () => {
    const builds: Built[] = [];
    /** The live build, copied aside before the next build can reuse its folder. */
    const keep = async (started: number, ended: number) => {
      const folder = liveFolderOf(site.distDir)!;
      const copy = path.join(site.dir, `copy-${builds.length}`);
      await cp(folder, copy, { recursive: true });
      builds.push({ id: path.basename(folder), copy, started, ended });
    };
    await keep(0, 0);

    // A download of the held episode's audio, started on the first build and paused after its first bytes.
    let paused!: IncomingMessage;
    const { download } = await new Promise<{ download: Promise<{ status: number; etag: string; sha: string }> }>((started, reject) => {
      const req = request(`${server.url}/v1/episodes/1/audio`, { agent: false }, (res) => {
        const hash = createHash("sha256");
        const done = new Promise<{ status: number; etag: string; sha: string }>((resolve, fail) => {
          res.on("end", () => resolve({ status: res.statusCode!, etag: String(res.headers.etag), sha: hash.digest("base64url") }));
          res.on("error", fail);
        });
        res.once("data", () => {
          res.pause();
          paused = res;
          started({ download: done });
        });
        res.on("data", (chunk: Buffer) => hash.update(chunk));
      });
      req.on("error", reject);
      req.end();
    });

    const refs = [1, 2, 3, 4, 5, 6, 999, ...Array.from({ length: ROUNDS }, (_, r) => 100 + r)];
    const seen: Seen[] = [];
    const etags = new Map<string, string[]>();
    let stop = false;
    let seed = 7;
    // A linear congruential generator's high bits (its low bits repeat with short periods).
    const pick = <T,>(items: readonly T[]): T => items[((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) % items.length]!;
    const clients = Array.from({ length: CLIENTS }, async () => {
      while (!stop) {
        const a = randomAsk(pick, refs, etags);
        const t = performance.now();
        const answer = await ask(server.url, a);
        seen.push({ ask: a, answer, started: t, ended: performance.now() });
        const etag = answer.headers.etag;
        if (etag !== undefined && !(etags.get(a.path) ?? []).includes(etag)) etags.set(a.path, [...(etags.get(a.path) ?? []), etag]);
        if (PAUSE_MS > 0) await sleep(PAUSE_MS);
      }
    });

    for (let r = 0; r < ROUNDS; r++) {
      for (const step of ["add", "edit", "delete"] as const) {
        await rm(path.join(site.contentDir, "episodes"), { recursive: true });
        await writeContent(site.contentDir, contentAt(r, step));
        const t = performance.now();
        const out = await fixtureBuild(site.contentDir, site.distDir);
        // The build exits once the server took it up, and says so.
        expect(out.stdout).toMatch(/build \S+ is live: 1 running server took it up/);
        await keep(t, performance.now());
        // The live build and the one before it, no more.
        expect((await readdir(buildsFolderOf(site.distDir))).filter((n) => BUILD_ID.test(n)).length).toBeLessThanOrEqual(2);
      }
    }
    stop = true;
    await Promise.all(clients);
    paused.resume();
    const downloaded = await download.catch((e: Error) => ({ failed: e.message }));

    // One line per swap, naming the build.
    const swaps = log.filter((l) => / is live: /.test(l));
    expect(swaps.map((l) => /^build (\S+) is live: \d+ episodes \(was build (\S+);/.exec(l)?.slice(1))).toEqual(builds.slice(1).map((b, i) => [b.id, builds[i]!.id]));
    expect(path.basename(await readlink(site.distDir))).toBe(builds.at(-1)!.id);

    // Fresh servers, one per build, answer every request again.
    const fresh = await Promise.all(builds.map((b) => startServer({ distDir: b.copy, env: NO_LIMITS, now: () => NOW, log: () => {} })));
    try {
      const answers = new Map<string, Promise<Answer>>();
      const freshAnswer = (i: number, a: Ask) => {
        const key = `${i} ${keyOf(a)}`;
        if (!answers.has(key)) answers.set(key, ask(fresh[i]!.url, a));
        return answers.get(key)!;
      };
      const mismatches: string[] = [];
      const bodies = new Map<string, Set<string>>();
      for (const s of seen) {
        // Builds possibly live at some moment of the request.
        const candidates = builds.map((b, i) => ({ b, i })).filter(({ b, i }) => b.started <= s.ended && (i + 1 === builds.length || builds[i + 1]!.ended >= s.started));
        const want = await Promise.all(candidates.map(({ i }) => freshAnswer(i, s.ask)));
        if (!want.some((w) => JSON.stringify(w) === JSON.stringify(s.answer))) {
          mismatches.push(`${s.ask.method} ${s.ask.path} ${JSON.stringify(s.ask.headers)} → ${JSON.stringify(s.answer)}; builds ${candidates.map((c) => c.b.id)} give ${JSON.stringify(want)}`);
        }
        if (s.answer.status === 200 && s.answer.headers.etag !== undefined) {
          const set = bodies.get(s.answer.headers.etag) ?? new Set();
          bodies.set(s.answer.headers.etag, set.add(s.answer.sha));
        }
      }
      expect(seen.length).toBeGreaterThan(200);
      expect(mismatches.slice(0, 5)).toEqual([]);
      // No ETag ever labels two bodies.
      expect([...bodies].filter(([, shas]) => shas.size > 1)).toEqual([]);
      // Revalidations were made, and answered 304 only where the build asked gave 304 (above).
      expect(seen.filter((s) => s.answer.status === 304).length).toBeGreaterThan(0);
      expect(seen.filter((s) => s.ask.headers["if-none-match"] !== undefined && s.answer.status === 200).length).toBeGreaterThan(0);
      // Every route answered for an added episode once, and a 404 for it once deleted.
      expect(seen.some((s) => s.ask.path === "/v1/episodes/100" && s.answer.status === 200)).toBe(true);

      // The download started on the first build got that build's audio, whole, under its ETag.
      const first = await freshAnswer(0, { method: "GET", path: "/v1/episodes/1/audio", headers: {} });
      expect(downloaded).toEqual({ status: 200, etag: first.headers.etag, sha: first.sha });
      expect(first.sha).not.toBe((await freshAnswer(builds.length - 1, { method: "GET", path: "/v1/episodes/1/audio", headers: {} })).sha);
    } finally {
      await Promise.all(fresh.map((f) => f.close()));
    }
  });
});

describe("taking a build up", () => {
  const one = episode({ episodeNumber: 1, title: "Before", publishedAt: new Date(NOW - DAY).toISOString() });
  const two = episode({ episodeNumber: 2, publishedAt: new Date(NOW - 2 * DAY).toISOString() });
  let t: TwoBuilds;
  beforeAll(async () => {
    t = await twoBuilds("take-up", [{ episode: one, script: script() }, { episode: two }], [{ episode: { ...one, title: "After" }, script: script() }, { episode: two }]);
  });
  afterAll(() => removeSite(t?.site));

  async function serve(env: Record<string, string> = NO_LIMITS) {
    const log: string[] = [];
    t.switchTo(t.a);
    const running = await startServer({ distDir: t.pointer, env, now: () => NOW, log: (line) => void log.push(line) });
    return { running, log };
  }
  const title = async (url: string) => JSON.parse((await call(url, "/v1/episodes/1")).text).title as string;

  it("keeps every client's rate-limit count across a swap", async () => {
    const { running, log } = await serve({ RATE_LIMIT_METADATA_PER_MIN: "4" });
    try {
      for (let i = 0; i < 3; i++) expect((await call(running.url, "/v1/episodes/1")).status).toBe(200);
      t.switchTo(t.b);
      await swapsLogged(log, 1);
      expect(await title(running.url)).toBe("After"); // the 4th
      expectError(await call(running.url, "/v1/episodes/1"), 429, "rate_limited");
    } finally {
      await running.close();
    }
  });

  it("answers a request that arrived before the swap from the build it arrived on, and later ones from the new build", async () => {
    const { running, log } = await serve();
    try {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_episode", arguments: { ref: "1" } } });
      const answer = new Promise<string>((resolve, reject) => {
        const req = request(`${running.url}/mcp`, { method: "POST", agent: false, headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "content-length": String(body.length) } }, (res) => {
          let text = "";
          res.on("data", (c: Buffer) => (text += c));
          res.on("end", () => resolve(text));
        });
        req.on("error", reject);
        // Half of the body: the request has arrived, its handler waits for the rest.
        req.write(body.slice(0, 20));
        setTimeout(() => {
          t.switchTo(t.b);
          void swapsLogged(log, 1)
            .then(async () => expect(await title(running.url)).toBe("After"))
            .then(() => req.end(body.slice(20)), reject);
        }, 200);
      });
      const text = await answer;
      expect(text).toContain('\\"title\\":\\"Before\\"');
      expect(await title(running.url)).toBe("After");
    } finally {
      await running.close();
    }
  });

  it("refuses a build it cannot load, says so in one line, and serves on the one it has; takes up the next", async () => {
    const { running, log } = await serve();
    try {
      const broken = await brokenCopy(t.b, path.join(t.site.dir, "build-broken"), "_api/manifest.json");
      t.switchTo(broken);
      const [line] = await swapsLogged(log, 1);
      expect(line).toMatch(/^could not take up build build-broken: \S+manifest\.json is missing or unreadable: run 'npm run build' first; still serving build build-a$/);
      expect(await title(running.url)).toBe("Before");
      expect(serverRecords(t.pointer).map((r) => [path.basename(r.serving), path.basename(r.failed?.folder ?? "")])).toEqual([["build-a", "build-broken"]]);
      t.switchTo(t.b);
      expect((await swapsLogged(log, 2))[1]).toMatch(/^build build-b is live: 2 episodes \(was build build-a; loaded in \d+ ms\)$/);
      expect(await title(running.url)).toBe("After");
    } finally {
      await running.close();
    }
  });

  it("holds no more memory or open files after 20 swaps than after a few", { timeout: 120_000, ...LONG }, async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const { running, log } = await serve();
    try {
      const measure = async () => {
        gc();
        return { heap: process.memoryUsage().heapUsed, files: openFilesUnder(t.site.dir, "") };
      };
      let at5 = { heap: 0, files: 0 };
      for (let n = 1; n <= 20; n++) {
        t.switchTo(n % 2 === 1 ? t.b : t.a);
        await swapsLogged(log, n);
        // Traffic on each build: its caches fill, its list file is read.
        for (const p of ["/v1/episodes", "/v1/episodes/1", "/episodes/1", "/feed.xml"]) expect((await call(running.url, p)).status).toBe(200);
        if (n === 5) at5 = await measure();
      }
      const at20 = await measure();
      // One open file: the served build's list of bodies.
      expect(at20.files).toBe(at5.files);
      expect(at20.files).toBe(1);
      expect(at20.heap - at5.heap).toBeLessThan(4 * 1024 * 1024);
    } finally {
      await running.close();
    }
  });
});
