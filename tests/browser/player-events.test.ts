// The player in a real Chromium, embedded by a host page on another origin: the postMessage
// contract (docs/api.md#get-embedref-and-embedlatest), keyboard, speed, one-at-a-time playback, and errors with retry.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Frame, Page } from "playwright";
import { episode, ROOT } from "../support/fixture.ts";
import { closeContexts, sharedChromium } from "./support/browser.ts";
import { silentMp3 } from "./support/mp3.ts";
import { browserSite, hostServer, type BrowserSite, type HostServer } from "./support/site.ts";
import { LONG, longUnlessFirst } from "../support/tiers.ts";

interface Recorded {
  frame: number;
  origin: string;
  data: { source: string; event: string; id: string; episodeNumber: number | null };
}

const SHORT_ID = "6f1c2b9e-4d3a-4c8b-9e7f-0a1b2c3d4e5f";
const LONG_ID = "0d5e7a3c-1b2f-4e6d-8c9a-7b6a5f4e3d2c";
const UNNUMBERED_ID = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";

let browser: Browser;
let fx: BrowserSite;
let host: HostServer;

beforeAll(async () => {
  const short = new Uint8Array(await readFile(path.join(ROOT, "tests/fixtures/short.mp3")));
  const long = silentMp3(1200);
  fx = await browserSite("player-events", [
    { episode: episode({ id: SHORT_ID, episodeNumber: 1, title: "Short one", durationSeconds: 4 }), audio: short },
    { episode: episode({ id: LONG_ID, episodeNumber: 2, title: "Long one", durationSeconds: 1200 }), audio: long },
    { episode: episode({ id: UNNUMBERED_ID, episodeNumber: null, title: "No number" }), audio: short },
  ]);
  host = await hostServer();
  browser = await sharedChromium();
});

afterAll(async () => {
  await closeContexts(browser);
  await host?.close();
  await fx?.close();
});

async function open(embeds: string[], opts: { sandbox?: string } = {}): Promise<{ page: Page; frames: Frame[] }> {
  const page = await browser.newPage();
  await page.goto(host.page(embeds, opts));
  const frames: Frame[] = [];
  for (let i = 0; i < embeds.length; i++) {
    const handle = await page.locator(`#f${i}`).elementHandle();
    const frame = await handle!.contentFrame();
    frames.push(frame!);
  }
  await page.waitForFunction((n) => (window as unknown as { __messages: Recorded[] }).__messages.filter((m) => m.data?.event === "ready").length >= n, embeds.length);
  return { page, frames };
}

function messages(page: Page): Promise<Recorded[]> {
  return page.evaluate(() => (window as unknown as { __messages: Recorded[] }).__messages);
}

async function events(page: Page, frame = 0): Promise<string[]> {
  return (await messages(page)).filter((m) => m.frame === frame).map((m) => m.data.event);
}

async function waitForEvents(page: Page, count: number, frame = 0): Promise<string[]> {
  await page.waitForFunction(
    ([n, f]) => (window as unknown as { __messages: Recorded[] }).__messages.filter((m) => m.frame === f).length >= n,
    [count, frame] as const,
    { timeout: 20_000 },
  );
  return events(page, frame);
}

const paused = (frame: Frame) => frame.evaluate(() => document.querySelector("audio")!.paused);

describe("postMessage events", () => {
  for (const [i, sandbox] of [undefined, "allow-scripts"].entries()) {
    it(`posts ready, play, pause, play, ended exactly, with no pause at the natural end${sandbox ? ` (sandbox="${sandbox}")` : ""}`, longUnlessFirst(i), async () => {
      const { page, frames } = await open([`${fx.origin}/embed/1?utm_source=x&theme=light#?secret=abc123`], sandbox ? { sandbox } : {});
      const f = frames[0]!;
      await f.locator(".play").click();
      await waitForEvents(page, 2);
      await f.locator(".play").click();
      await waitForEvents(page, 3);
      await f.locator(".play").click();
      expect(await waitForEvents(page, 5)).toEqual(["ready", "play", "pause", "play", "ended"]);
      const all = await messages(page);
      for (const m of all) {
        expect(Object.keys(m.data).sort()).toEqual(["episodeNumber", "event", "id", "source"]);
        expect(m.data).toMatchObject({ source: "service-embed", id: SHORT_ID, episodeNumber: 1 });
      }
      expect(all[0]!.origin).toBe(sandbox ? "null" : fx.origin);
      await page.close();
    });
  }

  it("posts episodeNumber null for an episode without a number", LONG, async () => {
    const { page } = await open([`${fx.origin}/embed/${UNNUMBERED_ID.toUpperCase()}`]);
    const [ready] = await messages(page);
    expect(ready!.data).toEqual({ source: "service-embed", event: "ready", id: UNNUMBERED_ID, episodeNumber: null });
    await page.close();
  });

  it("starting one embed pauses the other embeds of the site on the page, which post pause", async () => {
    const { page, frames } = await open([`${fx.origin}/embed/2`, `${fx.origin}/embed/2`]);
    await frames[0]!.locator(".play").click();
    await waitForEvents(page, 2, 0);
    await frames[1]!.locator(".play").click();
    expect(await waitForEvents(page, 2, 1)).toEqual(["ready", "play"]);
    expect(await waitForEvents(page, 3, 0)).toEqual(["ready", "play", "pause"]);
    expect(await paused(frames[0]!)).toBe(true);
    expect(await paused(frames[1]!)).toBe(false);
    await page.close();
  });
});

describe("keyboard", () => {
  it("Space and K toggle play/pause exactly once, also when the play button has focus", LONG, async () => {
    const { page, frames } = await open([`${fx.origin}/embed/2`]);
    const f = frames[0]!;
    await f.locator(".play").focus();
    await page.keyboard.press("Space");
    expect(await paused(f)).toBe(false);
    expect(await waitForEvents(page, 2)).toEqual(["ready", "play"]);
    await page.keyboard.press("Space");
    expect(await paused(f)).toBe(true);
    expect(await waitForEvents(page, 3)).toEqual(["ready", "play", "pause"]);
    await f.locator(".seek").focus();
    await page.keyboard.press("k");
    expect(await paused(f)).toBe(false);
    await page.keyboard.press("K");
    expect(await paused(f)).toBe(true);
    expect(await waitForEvents(page, 5)).toEqual(["ready", "play", "pause", "play", "pause"]);
    expect(await f.locator(".play").getAttribute("aria-label")).toBe("Play");
    await page.close();
  });

  it("the arrow keys seek by 5 seconds, clamped to the episode, and the slider says where", async () => {
    const { page, frames } = await open([`${fx.origin}/embed/2`]);
    const f = frames[0]!;
    const slider = f.locator(".seek");
    await slider.focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    expect(await slider.inputValue()).toBe("10");
    expect(await slider.getAttribute("aria-valuetext")).toBe("10 seconds of 20 minutes");
    await page.keyboard.press("ArrowLeft");
    expect(await slider.inputValue()).toBe("5");
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowLeft");
    expect(await slider.inputValue()).toBe("0");
    await page.keyboard.press("End");
    await page.keyboard.press("ArrowRight");
    expect(await slider.inputValue()).toBe("1200");
    expect(await slider.getAttribute("aria-valuetext")).toBe("20 minutes of 20 minutes");
    for (let i = 0; i < 37; i++) await page.keyboard.press("ArrowLeft");
    expect(await slider.getAttribute("aria-valuetext")).toBe("16 minutes 55 seconds of 20 minutes");
    // Nothing was loaded by seeking before play; the first play starts where the slider is.
    expect(await f.evaluate(() => document.querySelector("audio")!.readyState)).toBe(0); // HAVE_NOTHING
    await f.locator(".play").click();
    await f.waitForFunction(() => document.querySelector("audio")!.currentTime >= 1015);
    await page.close();
  });
});

describe("speed", () => {
  it("cycles 1×, 1.25×, 1.5×, 1.75×, 2×, 0.75× and back, with a name that says so", LONG, async () => {
    const { page, frames } = await open([`${fx.origin}/embed/2`]);
    const f = frames[0]!;
    const speed = f.locator(".speed");
    expect(await speed.getAttribute("aria-label")).toBe("Playback speed 1×");
    const seen: [string | null, number][] = [];
    for (let i = 0; i < 6; i++) {
      await speed.click();
      seen.push([await speed.getAttribute("aria-label"), await f.evaluate(() => document.querySelector("audio")!.playbackRate)]);
    }
    expect(seen).toEqual([
      ["Playback speed 1.25×", 1.25],
      ["Playback speed 1.5×", 1.5],
      ["Playback speed 1.75×", 1.75],
      ["Playback speed 2×", 2],
      ["Playback speed 0.75×", 0.75],
      ["Playback speed 1×", 1],
    ]);
    await page.close();
  });
});

describe("Media Session", () => {
  it("sets the episode's metadata on play and handles play, pause, seek back/forward 5 s and seek to", LONG, async () => {
    const context = await browser.newContext();
    // Record the handlers the player registers, so the test can invoke them as the OS would.
    await context.addInitScript(() => {
      const handlers: Record<string, (d: object) => void> = {};
      (window as unknown as { __handlers: typeof handlers }).__handlers = handlers;
      const original = MediaSession.prototype.setActionHandler;
      MediaSession.prototype.setActionHandler = function (action, handler) {
        if (handler) handlers[action] = handler as (d: object) => void;
        return original.call(this, action, handler);
      };
    });
    const page = await context.newPage();
    await page.goto(host.page([`${fx.origin}/embed/2`]));
    const f = (await (await page.locator("#f0").elementHandle())!.contentFrame())!;
    await f.locator(".play").waitFor();
    expect(await f.evaluate(() => Object.keys((window as unknown as { __handlers: object }).__handlers).sort())).toEqual(["pause", "play", "seekbackward", "seekforward", "seekto"]);
    await f.locator(".play").click();
    await f.waitForFunction(() => document.querySelector("audio")!.currentTime > 0.2);
    const metadata = await f.evaluate(() => {
      const m = navigator.mediaSession.metadata!;
      return { title: m.title, artist: m.artist };
    });
    expect(metadata).toEqual({ title: "Long one", artist: "Fixture Show" });
    const call = (action: string, details: object = {}) =>
      f.evaluate(([a, d]) => (window as unknown as { __handlers: Record<string, (d: object) => void> }).__handlers[a as string]!({ action: a, ...(d as object) }), [action, details] as const);
    await call("seekto", { seekTime: 600 });
    await f.waitForFunction(() => Math.abs(document.querySelector("audio")!.currentTime - 600) < 2);
    await call("seekforward");
    await f.waitForFunction(() => document.querySelector("audio")!.currentTime >= 604);
    await call("seekbackward");
    await call("seekbackward");
    await f.waitForFunction(() => document.querySelector("audio")!.currentTime < 600);
    await call("pause");
    expect(await paused(f)).toBe(true);
    await call("play");
    expect(await paused(f)).toBe(false);
    expect(await waitForEvents(page, 4)).toEqual(["ready", "play", "pause", "play"]);
    await context.close();
  });
});
