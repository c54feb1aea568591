// What the player costs and what it never does, measured in Chromium: requests and compressed bytes
// before play, no audio before play, Range requests answered 206 when seeking, seeks coalesced
// under the audio rate limit, the download's Content-Disposition, no cookies, no storage, no
// third-party requests, the no-JavaScript fallback, and errors (429, missing audio) with retry.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Frame, Page, Request, Response } from "playwright";
import { clock, episode, ROOT } from "../support/fixture.ts";
import { closeContexts, sharedChromium } from "./support/browser.ts";
import { silentMp3 } from "./support/mp3.ts";
import { browserSite, hostServer, type BrowserSite, type HostServer } from "./support/site.ts";
import { LONG, longUnlessFirst } from "../support/tiers.ts";

/** The player's own bytes before play (HTML, CSS, JS), each gzipped: docs/player.md. */
const BUDGET_BYTES = 6 * 1024;
/** Eight timed chapters with titles of a usual length: what a chaptered player carries in its page. */
const CHAPTERED = {
  chapters: Array.from({ length: 8 }, (_, i) => ({ title: `Chapter ${i + 1}: ${["Why the signing key leaked", "What keyless signing changes", "Transparency logs in practice", "Who verifies a release"][i % 4]}`, summary: "A summary.", start: i * 140 })),
  segments: [{ speaker: "a", text: "Hello.", start: 0, end: 2 }],
};
const NOW0 = Date.UTC(2026, 5, 1, 12);

let browser: Browser;
let fx: BrowserSite;
let limited: BrowserSite;
let host: HostServer;
const limitedClock = clock(NOW0);

beforeAll(async () => {
  const short = new Uint8Array(await readFile(path.join(ROOT, "tests/fixtures/short.mp3")));
  const publishedAt = new Date(NOW0 - 86_400_000).toISOString();
  fx = await browserSite("player-network", [
    { episode: episode({ episodeNumber: 1, title: "Short one", durationSeconds: 4 }), audio: short },
    { episode: episode({ episodeNumber: 2, title: "Long one", durationSeconds: 1200 }), audio: silentMp3(1200) },
    { episode: episode({ episodeNumber: 3, title: "Audio not there yet", durationSeconds: 60, audio: { key: "later.mp3" } }) },
    { episode: episode({ episodeNumber: 4, title: "Long one with chapters", durationSeconds: 1200 }), audio: silentMp3(1200), script: CHAPTERED },
  ]);
  limited = await browserSite(
    "player-limited",
    [{ episode: episode({ episodeNumber: 1, title: "Limited", durationSeconds: 4, publishedAt }), audio: short }],
    { env: { RATE_LIMIT_AUDIO_PER_MIN: "1" }, now: limitedClock.now },
  );
  host = await hostServer();
  browser = await sharedChromium();
});

afterAll(async () => {
  await closeContexts(browser);
  await host?.close();
  await fx?.close();
  await limited?.close();
});

/** Records every request of the page that is not the host page's own. */
function recorder(context: BrowserContext) {
  const requests: Request[] = [];
  context.on("request", (r) => {
    if (!r.url().startsWith(host.origin)) requests.push(r);
  });
  return requests;
}

async function embedded(context: BrowserContext, src: string, opts: { sandbox?: string; width?: number } = {}): Promise<{ page: Page; frame: Frame }> {
  const page = await context.newPage();
  await page.goto(host.page([src], opts));
  const frame = (await (await page.locator("#f0").elementHandle())!.contentFrame())!;
  await page.waitForFunction(() => (window as unknown as { __messages: { data: { event: string } }[] }).__messages.some((m) => m.data?.event === "ready"));
  return { page, frame };
}

const isAudio = (url: string) => /\/v1\/episodes\/[^/]+\/audio|\/media\//.test(url);

async function playing(frame: Frame): Promise<void> {
  await frame.locator(".play").click();
  await frame.waitForFunction(() => document.querySelector("audio")!.currentTime > 0.2);
}

describe("before play", () => {
  for (const [i, [ref, what]] of ([["2", "without chapters"], ["4", "with eight timed chapters"]] as const).entries()) {
    it(`costs at most 3 requests and ${BUDGET_BYTES / 1024} KB gzip for HTML, CSS, JS and icons, and loads no audio (${what})`, longUnlessFirst(i), async () => {
      const context = await browser.newContext();
      const requests = recorder(context);
      const { page, frame } = await embedded(context, `${fx.origin}/embed/${ref}`);
      await page.waitForLoadState("networkidle");
      await frame.locator(".play").waitFor();
      const urls = requests.map((r) => r.url());
      expect(urls.filter(isAudio)).toEqual([]);
      expect(requests.length).toBeLessThanOrEqual(3);
      let raw = 0;
      let gzip = 0;
      let brotli = 0;
      for (const r of requests) {
        const body = await (await r.response())!.body();
        raw += body.byteLength;
        gzip += gzipSync(body, { level: 9 }).byteLength;
        brotli += brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).byteLength;
      }
      expect(gzip).toBeLessThanOrEqual(BUDGET_BYTES);
      console.log(`player before play (${what}): ${requests.length} requests, ${raw} B raw, ${gzip} B gzip, ${brotli} B brotli`);
      await context.close();
    });
  }
});

describe("seeking", () => {
  it("seeking after play issues Range requests that the server answers with 206", async () => {
    const context = await browser.newContext();
    const responses: Response[] = [];
    context.on("response", (r) => {
      if (isAudio(r.url())) responses.push(r);
    });
    const { frame } = await embedded(context, `${fx.origin}/embed/2`);
    await playing(frame);
    const first = responses.length;
    await frame.locator(".seek").fill("1100");
    await frame.waitForFunction(() => document.querySelector("audio")!.currentTime >= 1100);
    await expect.poll(() => responses.length).toBeGreaterThan(first);
    const seeks = responses.slice(first);
    for (const r of seeks) {
      const range = await r.request().headerValue("range");
      expect(range).toMatch(/^bytes=[1-9][0-9]*-/);
      expect(r.status()).toBe(206);
      expect(await r.headerValue("content-range")).toMatch(/^bytes [1-9][0-9]*-[0-9]+\/[0-9]+$/);
    }
    await context.close();
  });

  it("holding an arrow key down for 3 seconds (and 30 presses at least) costs at most 3 audio requests", LONG, async () => {
    const context = await browser.newContext();
    const requests = recorder(context);
    const { page, frame } = await embedded(context, `${fx.origin}/embed/2`);
    await playing(frame);
    const before = requests.filter((r) => isAudio(r.url())).length;
    const from = await frame.evaluate(() => document.querySelector("audio")!.currentTime);
    await frame.locator(".play").focus();
    await page.keyboard.down("ArrowRight");
    const end = Date.now() + 3000;
    let presses = 1;
    // On a loaded machine a round of the loop can take ~120 ms: the key is held until it has repeated
    // at least 30 times, as it does in 3 s at the usual rate.
    while (Date.now() < end || presses <= 30) {
      await page.waitForTimeout(33); // the keyboard's auto-repeat rate
      await page.keyboard.down("ArrowRight");
      presses++;
    }
    await page.keyboard.up("ArrowRight");
    const target = Math.min(1200, from + 5 * presses);
    await frame.waitForFunction((t) => document.querySelector("audio")!.currentTime >= t - 1, target - 5);
    const audio = requests.filter((r) => isAudio(r.url())).length - before;
    expect(audio).toBeLessThanOrEqual(3);
    await context.close();
  });

  it("dragging the slider for 3 seconds costs at most 3 audio requests", LONG, async () => {
    const context = await browser.newContext();
    const requests = recorder(context);
    const { page, frame } = await embedded(context, `${fx.origin}/embed/2`, { width: 600 });
    await playing(frame);
    const before = requests.filter((r) => isAudio(r.url())).length;
    const box = (await frame.locator(".seek").boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + 8, y);
    await page.mouse.down();
    const end = Date.now() + 3000;
    let x = box.x + 8;
    while (Date.now() < end) {
      x = x + 4 > box.x + box.width * 0.9 ? box.x + box.width * 0.3 : x + 4;
      await page.mouse.move(x, y);
      await page.waitForTimeout(16);
    }
    await page.mouse.up();
    const released = Number(await frame.locator(".seek").inputValue());
    expect(released).toBeGreaterThan(100);
    await frame.waitForFunction((t) => Math.abs(document.querySelector("audio")!.currentTime - t) < 2, released);
    expect(requests.filter((r) => isAudio(r.url())).length - before).toBeLessThanOrEqual(3);
    await context.close();
  });
});

describe("download", () => {
  it("the download link gets Content-Disposition: attachment with a descriptive file name", LONG, async () => {
    const context = await browser.newContext({ acceptDownloads: true });
    const { page, frame } = await embedded(context, `${fx.origin}/embed/1`);
    const link = frame.locator("a.download");
    const href = (await link.getAttribute("href"))!;
    expect(href).toBe(`${fx.origin}/v1/episodes/1/audio?download=1`);
    const res = await fetch(href);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="fixture-show-001-short-one\.mp3"/);
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toBe("fixture-show-001-short-one.mp3");
    await context.close();
  });
});

describe("privacy", () => {
  const INSTRUMENT = () => {
    const touched: string[] = [];
    (window as unknown as { __touched: string[] }).__touched = touched;
    const spy = (proto: object, name: string) => {
      const d = Object.getOwnPropertyDescriptor(proto, name);
      if (!d) return;
      Object.defineProperty(proto, name, {
        configurable: true,
        get() {
          touched.push(`get ${name}`);
          return d.get?.call(this);
        },
        set(v: unknown) {
          touched.push(`set ${name}`);
          d.set?.call(this, v);
        },
      });
    };
    spy(Document.prototype, "cookie");
    for (const name of ["localStorage", "sessionStorage", "indexedDB", "caches"]) spy(Window.prototype, name);
    spy(Navigator.prototype, "storage");
    spy(Navigator.prototype, "serviceWorker");
  };

  for (const [i, sandbox] of [undefined, "allow-scripts"].entries()) {
    it(`sets no cookie, touches no storage and requests nothing outside the site's origin${sandbox ? ` (sandbox="${sandbox}")` : ""}`, longUnlessFirst(i), async () => {
      const context = await browser.newContext();
      await context.addInitScript(INSTRUMENT);
      const requests = recorder(context);
      const setCookies: string[] = [];
      context.on("response", async (r) => {
        const c = await r.headerValue("set-cookie");
        if (c !== null) setCookies.push(c);
      });
      const { page, frame } = await embedded(context, `${fx.origin}/embed/2?accent=ff0000&theme=dark`, sandbox ? { sandbox } : {});
      await playing(frame);
      await frame.locator(".speed").click();
      // Near the end: the Range request that follows reads the last seconds whole, and the network
      // goes idle once it has; from the middle, Chromium holds the rest of the download open for
      // long after filling its media buffer.
      await frame.locator(".seek").fill("1190");
      await frame.waitForFunction(() => document.querySelector("audio")!.currentTime >= 1190);
      await frame.locator(".play").click();
      await page.waitForLoadState("networkidle");
      expect(await frame.evaluate(() => (window as unknown as { __touched: string[] }).__touched)).toEqual([]);
      expect(await context.cookies()).toEqual([]);
      expect(setCookies).toEqual([]);
      expect(requests.length).toBeGreaterThan(3);
      for (const r of requests) expect(new URL(r.url()).origin, r.url()).toBe(fx.origin);
      await context.close();
    });
  }
});

describe("without JavaScript", () => {
  it("shows a native audio control, a download link and the episode link, and they work", LONG, async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 400, height: 180 } });
    const page = await context.newPage();
    await page.goto(`${fx.origin}/embed/1`);
    const audio = page.locator("audio");
    expect(await audio.isVisible()).toBe(true);
    expect(await audio.getAttribute("controls")).not.toBeNull();
    expect(await page.locator(".controls").isVisible()).toBe(false);
    const download = page.locator("a.download");
    const episodeLink = page.locator("a.page");
    expect(await download.isVisible()).toBe(true);
    expect(await episodeLink.isVisible()).toBe(true);
    for (const el of [audio, download, episodeLink]) {
      const b = (await el.boundingBox())!;
      expect(b.y + b.height).toBeLessThanOrEqual(180);
    }
    expect((await fetch((await download.getAttribute("href"))!)).headers.get("content-disposition")).toMatch(/^attachment/);
    expect((await fetch((await episodeLink.getAttribute("href"))!)).status).toBe(200);
    const src = (await audio.getAttribute("src"))!;
    const ranged = await fetch(src, { headers: { Range: "bytes=0-99" } });
    expect(ranged.status).toBe(206);
    await context.close();
  });
});

describe("errors", () => {
  it("a 429 from the audio route shows a visible message with a retry button, and retry plays once the window has passed", async () => {
    const context = await browser.newContext();
    const { page, frame } = await embedded(context, `${limited.origin}/embed/1`);
    // Spend the one audio request this IP has in the window.
    expect((await fetch(`${limited.origin}/v1/episodes/1/audio`, { headers: { Range: "bytes=0-1" } })).status).toBe(206);
    await frame.locator(".play").click();
    const error = frame.locator(".error");
    await error.waitFor({ state: "visible" });
    expect(await error.getAttribute("role")).toBe("alert");
    expect(await error.innerText()).toMatch(/could not be loaded/);
    const retry = frame.getByRole("button", { name: "Retry" });
    expect(await retry.isVisible()).toBe(true);
    const box = (await retry.boundingBox())!;
    const iframe = (await page.locator("#f0").boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(iframe.y + 180);
    limitedClock.advance(61_000);
    await retry.click();
    await frame.waitForFunction(() => document.querySelector("audio")!.currentTime > 0.2);
    expect(await error.isVisible()).toBe(false);
    const events = await page.evaluate(() => (window as unknown as { __messages: { data: { event: string } }[] }).__messages.map((m) => m.data.event));
    expect(events).toEqual(["ready", "play", "pause", "play"]);
    await context.close();
  });

  it("audio that is not there yet (404) shows the message, never a silent hang", LONG, async () => {
    const context = await browser.newContext();
    const { frame } = await embedded(context, `${fx.origin}/embed/3`);
    await frame.locator(".play").click();
    await frame.locator(".error").waitFor({ state: "visible" });
    expect(await frame.locator(".play").getAttribute("aria-label")).toBe("Play");
    await context.close();
  });
});
