// Moments for listeners in Chromium (docs/player.md#start-at-a-moment): the player starts at ?t= and
// #t= in every form, showing the start before play with no audio request, and pauses at the end of
// #t=a,b; invalid times start at 0; the current chapter's title follows the position, marks sit on
// the track and Shift+arrows move between chapters; the parent page's commands move it and malformed
// ones are ignored. The episode page: every chapter and turn without script, headed by chapter, with
// ?t= time links that play the embedded player in place; ?t= and #t= start its player; "Link to this
// moment"; axe, vnu and layout shift, and the gallery's screenshots (with GALLERY_DIR: npm run gallery).
//
// `npm test` runs a cross-section (a few forms of each kind, one width, the themes that differ);
// `npm run test:moments` sets MOMENTS_FULL=1 and runs every form, width and theme. The forms
// themselves are read by tests/unit/moment.test.ts and tests/property/moment.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Frame, Page } from "playwright";
import { episode } from "../support/fixture.ts";
import { closeContexts, sharedChromium } from "./support/browser.ts";
import { galleryPath } from "./support/gallery.ts";
import { shiftWithScriptsLate, watchShifts } from "./support/layout-shift.ts";
import { silentMp3 } from "./support/mp3.ts";
import { browserSite, hostServer, type BrowserSite, type HostServer } from "./support/site.ts";
import { vnuMessages } from "./support/vnu.ts";
import { axeViolations } from "./support/axe.ts";
import { LONG } from "../support/tiers.ts";

const ID = "3c1e9a52-7d44-4f0b-9b1e-5a6c7d8e9f01";
const DURATION = 600;
const CHAPTERS = [
  { title: "What happened", summary: "An old signing key shows up in a build log.", takeaways: ["Leaked keys let attackers ship official-looking malware."], start: 0 },
  { title: "Why it did not matter", summary: "Keyless signing and transparency logs.", takeaways: ["Short-lived certificates.", "Anyone can verify a release."], start: 150 },
  { title: "What to do next", summary: "Check what your project signs with.", takeaways: ["Rotate, then log."], start: 420 },
];
/** Forty turns of 15 s: turn i starts at 15 i. */
const TURNS = Array.from({ length: 40 }, (_, i) => ({
  speaker: i % 2 ? "b" : "a",
  text: `Turn ${i}: ${i % 3 ? "keyless signing means a leaked key cannot sign a release anyone would accept" : "the transparency log shows every signature, so a forged one stands out"}.`,
  start: 15 * i,
  end: 15 * i + 15,
}));
const SOURCE = "service-embed";
const FULL = process.env.MOMENTS_FULL === "1";
/** `all` under MOMENTS_FULL=1, else the cross-section `some`. */
const pick = <T>(all: T[], some: T[]): T[] => (FULL ? all : some);
/** The documents the Nu Html Checker reads. */
const VNU_PATHS = ["/episodes/1", "/episodes/1?t=93", "/embed/1", "/embed/1?theme=dark&accent=c00000", "/", "/episodes", "/terms", "/episodes/404", "/embed/404"];

let browser: Browser;
let fx: BrowserSite;
let host: HostServer;
/** The Nu Html Checker's messages, started as soon as the site is up: the JVM's start overlaps the browser's work. */
let vnu: Promise<Awaited<ReturnType<typeof vnuMessages>>>;

beforeAll(async () => {
  fx = await browserSite("moments", [
    {
      episode: episode({ id: ID, episodeNumber: 1, title: "A Leaked Signing Key, and Why Nothing Broke", summary: "An old release key leaked in a build log; nothing broke.", durationSeconds: DURATION }),
      audio: silentMp3(DURATION),
      script: { chapters: CHAPTERS, segments: TURNS },
    },
  ]);
  const docs = Promise.all(VNU_PATHS.map(async (path) => [path, await (await fetch(`${fx.origin}${path}`)).text()] as const));
  vnu = docs.then((pairs) => vnuMessages(Object.fromEntries(pairs)));
  vnu.catch(() => {}); // awaited, and its failure reported, by its test
  host = await hostServer();
  browser = await sharedChromium();
});

afterAll(async () => {
  await vnu?.catch(() => {}); // the checker's Java is done before its test's files go, even when the test is skipped
  await closeContexts(browser);
  await host?.close();
  await fx?.close();
});

const isAudio = (url: string) => /\/v1\/episodes\/[^/]+\/audio|\/media\//.test(url);

/** Counts the context's audio requests. */
function audioRequests(context: BrowserContext): { count: number } {
  const seen = { count: 0 };
  context.on("request", (r) => {
    if (isAudio(r.url())) seen.count++;
  });
  return seen;
}

interface Message {
  data: Record<string, unknown>;
}

/** A host page on another origin embedding the player at `src`, once the player has posted ready. */
async function embedded(context: BrowserContext, src: string): Promise<{ page: Page; frame: Frame }> {
  const page = await context.newPage();
  await page.goto(host.page([src], { width: 600 }));
  const frame = (await (await page.locator("#f0").elementHandle())!.contentFrame())!;
  await page.waitForFunction(() => (window as unknown as { __messages: Message[] }).__messages.some((m) => m.data?.event === "ready"));
  return { page, frame };
}

/** What the player shows: the time, the slider's value and text, and the chapter's title. */
function shown(frame: Frame) {
  return frame.evaluate(() => {
    const slider = document.querySelector<HTMLInputElement>(".seek")!;
    return {
      now: document.querySelector(".time .now")!.textContent,
      value: slider.value,
      chapter: document.querySelector(".chapters .on")?.textContent ?? null,
      valuetext: slider.getAttribute("aria-valuetext"),
    };
  });
}

const eventsOf = (page: Page) => page.evaluate(() => (window as unknown as { __messages: Message[] }).__messages.map((m) => m.data));

/**
 * A context whose frames record every time their audio reports (timeupdate), from the start: where
 * playback really began (Chromium's `played` ranges start at 0 even when it starts elsewhere).
 */
async function newContext(options: Parameters<Browser["newContext"]>[0] = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await context.addInitScript(() => {
    const w = window as unknown as { __times: number[] };
    w.__times = [];
    addEventListener("timeupdate", (e) => w.__times.push((e.target as HTMLAudioElement).currentTime), true);
  });
  return context;
}

/** Waits until the player has played past `t`, and returns the earliest time its audio reported. */
async function playedFrom(frame: Frame, t: number): Promise<number> {
  await frame.waitForFunction((t) => document.querySelector("audio")!.currentTime > t, t);
  return frame.evaluate(() => Math.min(...(window as unknown as { __times: number[] }).__times));
}

describe("the player at a moment", () => {
  /** Loads the player at `url` directly in `page`, and waits for its script to have run. */
  async function opened(page: Page, url: string): Promise<void> {
    await page.goto(url);
    await page.locator(".player.upgraded").waitFor();
  }

  /** Sets the loaded player's fragment (a hashchange, as when its parent changes the iframe's src) and reads what it shows. */
  async function atFragment(page: Page, fragment: string) {
    await page.evaluate((f) => {
      location.hash = f;
    }, fragment);
    await page.waitForFunction((f) => location.hash === f, `#${fragment}`);
    return shown(page.mainFrame());
  }

  it("?t= and #t= in every form show the start before play, with no audio request, and play starts there", { timeout: 120_000 }, async () => {
    const context = await newContext();
    const audio = audioRequests(context);
    const loads = pick<[string, string, string]>(
      [
        ["?t=93.5", "1:33", "What happened"],
        ["?theme=dark&t=2m30s", "2:30", "Why it did not matter"],
        ["#t=npt:0:07:05", "7:05", "What to do next"],
        ["?t=5#t=7m", "7:00", "What to do next"], // the fragment wins
      ],
      [
        ["?theme=dark&t=2m30s", "2:30", "Why it did not matter"],
        ["?t=5#t=7m", "7:00", "What to do next"],
      ],
    );
    const page = await context.newPage();
    for (const [suffix, now, chapter] of loads) {
      await opened(page, `${fx.origin}/embed/1${suffix}`);
      expect(await shown(page.mainFrame()), suffix).toMatchObject({ now, chapter });
    }
    // Forms as a fragment the loaded player is given.
    await opened(page, `${fx.origin}/embed/1`);
    const forms = pick<[string, string]>(
      [
        ["t=93", "1:33"],
        ["t=1:33", "1:33"],
        ["t=0:01:33", "1:33"],
        ["t=1m33s", "1:33"],
        ["t=npt:1:34", "1:34"],
        ["t=95.5", "1:35"],
        ["t=2m", "2:00"],
        ["t=1:02:03,1:02:04", "2:00"], // past the end: ignored
        ["?secret=abc&t=150", "2:30"],
      ],
      [
        ["t=npt:0:01:33", "1:33"],
        ["t=1:02:03,1:02:04", "1:33"], // past the end: ignored
      ],
    );
    for (const [fragment, now] of forms) expect((await atFragment(page, fragment)).now, fragment).toBe(now);
    expect(audio.count).toBe(0);
    await page.close();
    for (const [suffix, from] of pick<[string, number]>([["?t=1m33s", 93], ["#t=2:30", 150]], [["?t=1m33s", 93]])) {
      const { page, frame } = await embedded(context, `${fx.origin}/embed/1${suffix}`);
      await frame.locator(".play").click();
      expect(await playedFrom(frame, from + 0.3), suffix).toBeGreaterThanOrEqual(from - 0.1);
      await page.close();
    }
    expect(audio.count).toBeGreaterThan(0);
    await context.close();
  });

  it("#t=start,end plays from start and pauses at end, posting pause", LONG, async () => {
    const context = await newContext();
    const { page, frame } = await embedded(context, `${fx.origin}/embed/1#t=10,12`);
    expect((await shown(frame)).now).toBe("0:10");
    await frame.locator(".play").click();
    await page.waitForFunction(() => (window as unknown as { __messages: Message[] }).__messages.some((m) => m.data?.event === "pause"));
    const at = await frame.evaluate(() => ({ paused: document.querySelector("audio")!.paused, t: document.querySelector("audio")!.currentTime }));
    expect(at.paused).toBe(true);
    expect(at.t).toBeGreaterThanOrEqual(12);
    expect(at.t).toBeLessThan(12.75);
    expect((await eventsOf(page)).map((m) => m.event)).toEqual(["ready", "play", "pause"]);
    // Played on, it does not stop there again.
    await frame.locator(".play").click();
    await frame.waitForFunction(() => document.querySelector("audio")!.currentTime > 13);
    await context.close();
  });

  it("an invalid time, or one at or past the end, starts at 0", { timeout: 120_000, ...LONG }, async () => {
    const context = await newContext();
    const audio = audioRequests(context);
    const zero = { now: "0:00", value: "0", chapter: "What happened" };
    const page = await context.newPage();
    for (const suffix of pick(["?t=abc", "?t=600", "#t=20,10"], ["?t=600", "#t=20,10"])) {
      await opened(page, `${fx.origin}/embed/1${suffix}`);
      expect(await shown(page.mainFrame()), suffix).toMatchObject(zero);
    }
    for (const fragment of pick(["t=-5", "t=99:00", "t=1:75", "t=,", "t=1e3", "t=%20", "t=10,5", "t=1:2:3", "t=later"], ["t=1:75", "t=later"])) {
      expect(await atFragment(page, fragment), fragment).toMatchObject(zero);
    }
    expect(audio.count).toBe(0);
    await context.close();
  });

  it.runIf(FULL)("one past the end plays from 0", async () => {
    const context = await newContext();
    const { frame } = await embedded(context, `${fx.origin}/embed/1?t=600`);
    await frame.locator(".play").click();
    expect(await playedFrom(frame, 0.3)).toBeLessThan(5); // from 0, not from 600
    await context.close();
  });
});

describe("chapters in the player", () => {
  it("the title follows the position, marks sit where chapters start, and Shift+arrows move between chapters", LONG, async () => {
    const context = await newContext();
    const audio = audioRequests(context);
    const { page, frame } = await embedded(context, `${fx.origin}/embed/1`);
    const marks = await frame.locator(".seek").evaluate((el) => (el as HTMLElement).style.getPropertyValue("--marks"));
    expect(marks).toContain(`${(150 / DURATION) * 100}%`);
    expect(marks).toContain(`${(420 / DURATION) * 100}%`);
    await frame.locator(".play").focus();
    const press = async (key: string) => {
      await page.keyboard.press(key);
      return shown(frame);
    };
    expect(await press("Shift+ArrowRight")).toMatchObject({ now: "2:30", chapter: "Why it did not matter", valuetext: "2 minutes 30 seconds of 10 minutes, Why it did not matter" });
    expect(await press("Shift+ArrowRight")).toMatchObject({ now: "7:00", chapter: "What to do next" });
    expect(await press("Shift+ArrowRight")).toMatchObject({ now: "7:00", chapter: "What to do next" }); // no next chapter
    expect(await press("Shift+ArrowLeft")).toMatchObject({ now: "2:30", chapter: "Why it did not matter" }); // at a start: the previous one
    await press("ArrowRight");
    expect(await press("ArrowRight")).toMatchObject({ now: "2:40", chapter: "Why it did not matter" });
    expect(await press("Shift+ArrowLeft")).toMatchObject({ now: "2:30" }); // well into it: its start
    expect(await press("Shift+ArrowLeft")).toMatchObject({ now: "0:00", chapter: "What happened" });
    expect(await press("ArrowLeft")).toMatchObject({ now: "0:00" });
    expect(audio.count).toBe(0);
    // Playing across a chapter's start changes the title.
    await frame.locator(".seek").fill("419");
    await frame.locator(".play").click();
    await frame.waitForFunction(() => document.querySelector("audio")!.currentTime > 420.3);
    await frame.waitForFunction(() => document.querySelector(".chapters .on")?.textContent === "What to do next");
    await context.close();
  });

  it("with its chapter line, stays 180 px tall from 250 to 1200 px, with no scrollbar and the title inside", LONG, async () => {
    const context = await newContext();
    const page = await context.newPage();
    for (const width of pick([250, 400, 1200], [250])) {
      await page.setViewportSize({ width, height: 180 });
      await page.goto(`${fx.origin}/embed/1?t=200`);
      await page.locator(".player.upgraded").waitFor();
      const g = await page.evaluate(() => {
        const de = document.documentElement;
        const on = document.querySelector(".chapters .on")!.getBoundingClientRect();
        const seek = document.querySelector(".seek")!.getBoundingClientRect();
        return {
          height: document.querySelector(".player")!.getBoundingClientRect().height,
          scroll: de.scrollWidth <= de.clientWidth && de.scrollHeight <= de.clientHeight,
          chapter: [on.top >= 0, on.bottom <= seek.top + 0.5, on.right <= innerWidth, on.height > 0],
        };
      });
      expect(g, `${width} px`).toEqual({ height: 180, scroll: true, chapter: [true, true, true, true] });
    }
    await context.close();
  });
});

describe("commands from the parent page", () => {
  it("seek, play and pause move it; malformed messages are ignored; position is answered to the asker alone", LONG, async () => {
    const context = await newContext();
    const audio = audioRequests(context);
    const { page, frame } = await embedded(context, `${fx.origin}/embed/1`);
    const post = (message: unknown) => page.evaluate((m) => document.querySelector<HTMLIFrameElement>("#f0")!.contentWindow!.postMessage(m, "*"), message);
    /** Asks the player where it is and waits for the answer: every message posted before it has been handled. */
    const ask = async () => {
      const before = (await eventsOf(page)).length;
      await post({ source: SOURCE, command: "position" });
      await page.waitForFunction((n) => (window as unknown as { __messages: Message[] }).__messages.length > n, before);
      return (await eventsOf(page)).at(-1)!;
    };
    for (const bad of [
      { source: "other", command: "seek", time: 300 },
      { source: SOURCE, command: "seek", time: "300" },
      { source: SOURCE, command: "seek", time: -1 },
      { source: SOURCE, command: "seek", time: Infinity },
      { source: SOURCE, command: "seek", time: Number.NaN },
      { source: SOURCE, command: "seek" },
      { source: SOURCE, command: "SEEK", time: 300 },
      { source: SOURCE, command: "stop" },
      { command: "seek", time: 300 },
      "seek",
      null,
      [SOURCE, "seek", 300],
    ]) {
      await post(bad);
    }
    expect(await ask()).toEqual({ source: SOURCE, answer: "position", time: 0, id: ID, episodeNumber: 1 });
    expect((await shown(frame)).now).toBe("0:00");
    await post({ source: SOURCE, command: "seek", time: 300 });
    expect((await ask()).time).toBe(300);
    expect(await shown(frame)).toMatchObject({ now: "5:00", chapter: "Why it did not matter" });
    expect(audio.count).toBe(0);
    await post({ source: SOURCE, command: "play" });
    expect(await playedFrom(frame, 300.3)).toBeGreaterThanOrEqual(299.9);
    await post({ source: SOURCE, command: "pause" });
    await frame.waitForFunction(() => document.querySelector("audio")!.paused);
    // Clamped to the end (the audio's own, a little short of durationSeconds here).
    await post({ source: SOURCE, command: "seek", time: 5000 });
    expect((await ask()).time).toBeGreaterThan(DURATION - 2);
    // The events of the specification are exactly as they were: ready, play, pause.
    const events = (await eventsOf(page)).filter((m) => "event" in m);
    expect(events.map((m) => m.event)).toEqual(["ready", "play", "pause"]);
    for (const m of events) expect(Object.keys(m).sort()).toEqual(["episodeNumber", "event", "id", "source"]);
    expect((await eventsOf(page)).filter((m) => !("event" in m)).every((m) => m.answer === "position")).toBe(true);
    await context.close();
  });
});

/** The episode page and its player frame, once the player is ready. */
async function episodePage(context: BrowserContext, path: string): Promise<{ page: Page; player: Frame }> {
  const page = await context.newPage();
  await page.goto(`${fx.origin}${path}`);
  const player = (await (await page.locator(".player iframe").elementHandle())!.contentFrame())!;
  await player.locator(".player.upgraded").waitFor();
  return { page, player };
}

describe("the episode page", () => {
  it("a time link plays the embedded player from its moment without a navigation, and Link to this moment gives the page there", async () => {
    const context = await newContext({ viewport: { width: 1000, height: 900 } });
    const { page, player } = await episodePage(context, "/episodes/1");
    let navigations = 0;
    page.on("framenavigated", (f) => {
      if (f === page.mainFrame()) navigations++;
    });
    const link = page.locator('.transcript a.t[href="?t=165"]');
    expect(await link.textContent()).toBe("2:45");
    await link.click();
    expect(await playedFrom(player, 165.3)).toBeGreaterThanOrEqual(164.9);
    expect(await player.evaluate(() => document.querySelector("audio")!.paused)).toBe(false);
    expect(page.url()).toBe(`${fx.origin}/episodes/1`);
    expect(navigations).toBe(0);
    await page.getByRole("button", { name: "Link to this moment" }).click();
    const href = await page.locator(".moment output a").getAttribute("href");
    const m = new RegExp(`^${fx.origin}/episodes/1\\?t=(\\d+)$`).exec(href!);
    expect(m, href!).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThanOrEqual(165);
    // A chapter's time link too.
    await page.locator('.chapters a.t[href="?t=420"]').click();
    await player.waitForFunction(() => document.querySelector("audio")!.currentTime > 420.3);
    await player.waitForFunction(() => document.querySelector(".chapters .on")?.textContent === "What to do next");
    expect(navigations).toBe(0);
    await context.close();
  });

  it("?t= and #t= on the page start its player there, loading no audio", LONG, async () => {
    const context = await newContext({ viewport: { width: 1000, height: 900 } });
    const audio = audioRequests(context);
    const query = await episodePage(context, "/episodes/1?t=7m");
    expect(await query.page.locator(".player iframe").getAttribute("src")).toBe(`${fx.origin}/embed/1?t=420`);
    expect(await shown(query.player)).toMatchObject({ now: "7:00", chapter: "What to do next" });
    const fragment = await episodePage(context, "/episodes/1#t=2:30");
    await fragment.player.waitForFunction(() => document.querySelector(".time .now")!.textContent === "2:30");
    expect(audio.count).toBe(0);
    await context.close();
  });

  it("without script, every chapter and turn is in the page, turns under their chapter's heading, and a time link opens the page with its player there", async () => {
    const context = await newContext({ javaScriptEnabled: false, viewport: { width: 1000, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${fx.origin}/episodes/1`);
    const read = await page.evaluate(() => ({
      chapters: [...document.querySelectorAll(".chapters > li h3")].map((h) => h.textContent),
      parts: [...document.querySelectorAll(".transcript > h3, .transcript > p")].map((e) => (e.tagName === "H3" ? `# ${e.textContent}` : e.querySelector("a.t")!.getAttribute("href"))),
      turns: [...document.querySelectorAll(".transcript p")].map((p) => p.textContent),
      moment: getComputedStyle(document.querySelector(".moment")!).display,
    }));
    expect(read.chapters).toEqual(["0:00 What happened", "2:30 Why it did not matter", "7:00 What to do next"]);
    const hrefs = TURNS.map((t) => `?t=${t.start}`);
    expect(read.parts).toEqual(["# What happened", ...hrefs.slice(0, 10), "# Why it did not matter", ...hrefs.slice(10, 28), "# What to do next", ...hrefs.slice(28)]);
    const clock = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
    expect(read.turns).toEqual(TURNS.map((t) => `${clock(t.start)} ${t.speaker === "a" ? "Ada Optimist" : "Bo Skeptic"}: ${t.text}`));
    expect(read.moment).toBe("none");
    await Promise.all([page.waitForURL(`${fx.origin}/episodes/1?t=165`), page.locator('a.t[href="?t=165"]').click()]);
    expect(await page.locator(".player iframe").getAttribute("src")).toBe(`${fx.origin}/embed/1?t=165`);
    await context.close();
  });

  // The page's analysis takes in its player's frame (light); the cross-section adds the dark player alone.
  for (const scheme of pick<"light" | "dark">(["light", "dark"], ["light"])) {
    it(`axe-core finds no violations on the timed page and the chaptered player (${scheme}${FULL ? "" : "; the player also dark"})`, async () => {
      const context = await newContext({ colorScheme: scheme, viewport: { width: 1000, height: 900 } });
      const { page } = await episodePage(context, "/episodes/1?t=200");
      expect(await axeViolations(page)).toEqual([]);
      await page.goto(`${fx.origin}/embed/1?t=200${scheme === "dark" || !FULL ? "&theme=dark" : ""}`);
      expect(await axeViolations(page)).toEqual([]);
      await context.close();
    });
  }

  it("the Nu Html Checker finds nothing in the timed page, the page at a moment, the chaptered player and the site's other pages", async () => {
    expect(await vnu).toEqual([]);
  });

  for (const scheme of pick<"light" | "dark">(["light", "dark"], ["light"])) {
    it(`nothing moves as the page, its script and its player load: CLS below 0.02 (${scheme})`, LONG, async () => {
      const context = await newContext({ colorScheme: scheme, viewport: { width: 1000, height: 900 } });
      await watchShifts(context);
      const page = await context.newPage();
      const shift = await shiftWithScriptsLate(page, `${fx.origin}/episodes/1?t=200`, async (p) => {
        await p.frameLocator(".player iframe").locator(".player.upgraded").waitFor();
      });
      console.log(`episode page CLS at 1000x900 (${scheme}): ${shift.toFixed(4)}`);
      expect(shift).toBeLessThan(0.02);
      await context.close();
    });
  }

  it("the chaptered player does not move when its script shows the start's chapter: CLS below 0.02 at 400×180", LONG, async () => {
    const context = await newContext({ viewport: { width: 400, height: 180 } });
    await watchShifts(context);
    const page = await context.newPage();
    const shift = await shiftWithScriptsLate(page, `${fx.origin}/embed/1?t=200`, (p) => p.locator(".player.upgraded").waitFor());
    console.log(`chaptered player CLS at 400x180: ${shift.toFixed(4)}`);
    expect(await page.locator(".chapters .on").textContent()).toBe("Why it did not matter");
    expect(shift).toBeLessThan(0.02);
    await context.close();
  });
});

describe.runIf(process.env.GALLERY_DIR !== undefined)("gallery", () => {
  it("screenshots of the page with its transcript and of the player showing a chapter, light and dark", async () => {
    for (const scheme of ["light", "dark"] as const) {
      const context = await newContext({ colorScheme: scheme, viewport: { width: 900, height: 1300 } });
      const { page } = await episodePage(context, "/episodes/1?t=200");
      // Scrolled to the transcript's second chapter: the player stays in view above it.
      await page.locator("#transcript-2").scrollIntoViewIfNeeded();
      await page.evaluate(() => document.querySelector("#transcript-2")!.scrollIntoView({ block: "start" }));
      await page.screenshot({ path: await galleryPath(`episode-transcript-${scheme}.png`) });
      const player = await context.newPage();
      await player.setViewportSize({ width: 600, height: 180 });
      await player.goto(`${fx.origin}/embed/1?t=200${scheme === "dark" ? "&theme=dark" : ""}`);
      await player.locator(".player.upgraded").waitFor();
      await player.screenshot({ path: await galleryPath(`player-chapter-${scheme}-600.png`) });
      await context.close();
    }
  });
});
