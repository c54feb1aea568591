// How the player looks and reads in Chromium: exactly 180 px tall and fluid from 250 to 1200 px
// with no scrollbars, long and right-to-left titles clamped, the dark theme, readable whatever the
// accent, targets of at least 24 px, reduced motion and forced colours, zero axe-core violations
// in both themes, and the gallery's screenshots.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Frame, Page } from "playwright";
import { episode } from "../support/fixture.ts";
import { BROWSER_FULL, closeContexts, sharedChromium } from "./support/browser.ts";
import { contrastRatio } from "./support/contrast.ts";
import { GALLERY, galleryPath } from "./support/gallery.ts";
import { silentMp3 } from "./support/mp3.ts";
import { browserSite, hostServer, type BrowserSite, type HostServer } from "./support/site.ts";
import { axeViolations } from "./support/axe.ts";
import { LONG, longUnlessFirst } from "../support/tiers.ts";

const codePoints = (s: string, n: number) => [...s].slice(0, n).join("");
const LONG_TITLE = codePoints(
  `“Curly” "straight" 'single' 🎧🎙️👩🏽‍💻 שלום עולם مرحبا بالعالم Supercalifragilisticexpialidocious_without_any_break_at_all `.repeat(4),
  200,
);
const RTL_TITLE = "פרק על מפתחות הצפנה שדלפו ולמה שום דבר לא נשבר, עם הסבר ארוך מאוד על יומני שקיפות";
/**
 * `npm test` checks a cross-section of the matrices below (every episode and theme at the narrowest
 * and widest sizes, three of the hostile accents); `npm run test:browser-full` sets BROWSER_FULL=1
 * and checks all of them.
 */
const WIDTHS = BROWSER_FULL ? [250, 320, 400, 600, 800, 1200] : [250, 1200];

let browser: Browser;
let fx: BrowserSite;
let host: HostServer;

beforeAll(async () => {
  const audio = silentMp3(30);
  fx = await browserSite("player-layout", [
    { episode: episode({ episodeNumber: 1, title: "A Leaked Signing Key, and Why Nothing Broke", durationSeconds: 1445 }), audio },
    { episode: episode({ episodeNumber: 2, title: LONG_TITLE, durationSeconds: 3725 }), audio },
    { episode: episode({ episodeNumber: 3, title: RTL_TITLE, durationSeconds: 30 }), audio },
  ]);
  host = await hostServer();
  browser = await sharedChromium();
});

afterAll(async () => {
  await closeContexts(browser);
  await host?.close();
  await fx?.close();
});

/** The page every embed loads its host page into, resized to fit: one page for the whole file. */
let hostPage: Page | undefined;

async function embed(src: string, width: number): Promise<{ frame: Frame }> {
  const page = (hostPage ??= await browser.newPage());
  await page.setViewportSize({ width: width + 40, height: 400 });
  await page.goto(host.page([src], { width }));
  const frame = (await (await page.locator("#f0").elementHandle())!.contentFrame())!;
  await page.waitForFunction(() => (window as unknown as { __messages: unknown[] }).__messages.length > 0);
  return { frame };
}

interface Geometry {
  scroll: [number, number, number, number];
  player: [number, number];
  outside: string[];
  titleHeight: number;
  titleLineHeight: number;
  targets: [string, number, number][];
}

function geometry(frame: Frame): Promise<Geometry> {
  return frame.evaluate(() => {
    const de = document.documentElement;
    const player = document.querySelector(".player")!.getBoundingClientRect();
    const W = window.innerWidth;
    const H = window.innerHeight;
    const outside: string[] = [];
    const targets: [string, number, number][] = [];
    for (const el of document.querySelectorAll<HTMLElement>(".player button, .player input, .player a, .player .time, .player .eyebrow")) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue; // hidden
      if (r.left < 0 || r.top < 0 || r.right > W + 0.5 || r.bottom > H + 0.5) outside.push(`${el.className} ${JSON.stringify(r)}`);
      if (el.matches("button, input, .action")) targets.push([el.className, r.width, r.height]);
    }
    const title = document.querySelector(".title a")!;
    return {
      scroll: [de.scrollWidth, de.clientWidth, de.scrollHeight, de.clientHeight],
      player: [player.width, player.height],
      outside,
      titleHeight: title.getBoundingClientRect().height,
      titleLineHeight: parseFloat(getComputedStyle(title).lineHeight),
      targets,
    };
  });
}

describe("size", () => {
  for (const theme of ["light", "dark"]) {
    for (const ref of ["1", "2", "3"]) {
      it(`episode ${ref} (${theme}) is 180 px tall at every width from 250 to 1200 px, with no scrollbars and nothing cut off`, theme === "light" && ref === "1" ? {} : LONG, async () => {
        for (const width of WIDTHS) {
          const { frame } = await embed(`${fx.origin}/embed/${ref}?theme=${theme}`, width);
          const g = await geometry(frame);
          const at = `${width} px`;
          expect(g.player, at).toEqual([width, 180]);
          expect(g.scroll[0], at).toBeLessThanOrEqual(g.scroll[1]);
          expect(g.scroll[2], at).toBeLessThanOrEqual(g.scroll[3]);
          expect(g.outside, at).toEqual([]);
          expect(g.titleHeight, at).toBeLessThanOrEqual(2 * g.titleLineHeight + 0.5);
          if (width === 250) for (const [name, w, h] of g.targets) expect(w >= 24 && h >= 24, `${name} ${w}x${h}`).toBe(true);
        }
      });
    }
  }

  it("a title longer than two lines is clamped, and the full title stays available to assistive technology", LONG, async () => {
    const { frame } = await embed(`${fx.origin}/embed/2`, 250);
    const { clamped, text, dir } = await frame.evaluate(() => {
      const a = document.querySelector<HTMLElement>(".title a")!;
      return { clamped: a.scrollHeight > a.clientHeight, text: a.textContent, dir: document.querySelector(".title")!.getAttribute("dir") };
    });
    expect(clamped).toBe(true);
    expect(text).toBe(LONG_TITLE);
    expect(dir).toBe("auto");
  });

  it("a right-to-left title is laid out right to left", LONG, async () => {
    const { frame } = await embed(`${fx.origin}/embed/3`, 400);
    expect(await frame.evaluate(() => getComputedStyle(document.querySelector(".title")!).direction)).toBe("rtl");
  });
});

interface Colours {
  background: string;
  text: string;
  link: string;
  playFill: string;
  playIcon: string;
  speedText: string;
  slider: string;
  ring: string;
  ringIsVisible: boolean;
}

async function colours(frame: Frame): Promise<Colours> {
  await frame.locator(".speed").focus();
  return frame.evaluate(() => {
    const css = (sel: string) => getComputedStyle(document.querySelector(sel)!);
    const speed = document.querySelector(".speed")!;
    return {
      background: css(".player").backgroundColor,
      text: css(".title a").color,
      link: css("a.download").color,
      playFill: css(".play").backgroundColor,
      playIcon: css(".play").color,
      speedText: css(".speed").color,
      slider: css(".seek").accentColor,
      ring: getComputedStyle(speed).outlineColor,
      ringIsVisible: speed.matches(":focus-visible") && getComputedStyle(speed).outlineStyle !== "none",
    };
  });
}

describe("themes and accents", () => {
  it("theme=dark gives a dark background with light text", async () => {
    const { frame } = await embed(`${fx.origin}/embed/1?theme=dark`, 400);
    const c = await colours(frame);
    expect(c.background).toBe("rgb(22, 24, 28)");
    expect(contrastRatio(c.text, c.background)).toBeGreaterThanOrEqual(7);
  });

  const HOSTILE = BROWSER_FULL ? ["ffffff", "000000", "ffff00", "00ff00", "777777", "16181c", "0B57D0", "ff00ff"] : ["ffffff", "000000", "ffff00"];
  for (const [i, theme] of ["light", "dark"].entries()) {
    it(`(${theme}) any accent keeps text at 4.5:1 and controls and the focus ring at 3:1`, longUnlessFirst(i), async () => {
      for (const accent of HOSTILE) {
        const { frame } = await embed(`${fx.origin}/embed/1?theme=${theme}&accent=${accent}`, 400);
        const c = await colours(frame);
        const at = `accent ${accent}`;
        expect(contrastRatio(c.link, c.background), at).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(c.speedText, c.background), at).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(c.playFill, c.background), at).toBeGreaterThanOrEqual(3);
        expect(contrastRatio(c.playIcon, c.playFill), at).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(c.slider, c.background), at).toBeGreaterThanOrEqual(3);
        expect(c.ringIsVisible, at).toBe(true);
        expect(contrastRatio(c.ring, c.background), at).toBeGreaterThanOrEqual(3);
      }
    });
  }

  it("the accent is used as asked when it is readable, and a malformed accent is the default one", LONG, async () => {
    const base = await embed(`${fx.origin}/embed/1`, 400);
    const defaults = await colours(base.frame);
    const red = await embed(`${fx.origin}/embed/1?accent=c00000`, 400);
    expect((await colours(red.frame)).playFill).toBe("rgb(192, 0, 0)");
    for (const accent of ["fff", "12345g", "%23ff0000", "ff0000%22%3E", "ff0000ff", "red"]) {
      const { frame } = await embed(`${fx.origin}/embed/1?accent=${accent}`, 400);
      expect(await colours(frame), accent).toEqual(defaults);
    }
  });
});

describe("motion and forced colours", () => {
  it("prefers-reduced-motion turns transitions off", LONG, async () => {
    const page = await browser.newPage({ viewport: { width: 400, height: 180 } });
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto(`${fx.origin}/embed/1`);
    expect(await page.evaluate(() => getComputedStyle(document.querySelector(".play")!).transitionDuration)).toBe("0s");
    await page.emulateMedia({ reducedMotion: "no-preference" });
    expect(await page.evaluate(() => getComputedStyle(document.querySelector(".play")!).transitionDuration)).not.toBe("0s");
    await page.close();
  });

  it("in forced colours the buttons keep a visible border and the icons follow the system colours", LONG, async () => {
    const page = await browser.newPage({ viewport: { width: 400, height: 180 } });
    await page.emulateMedia({ forcedColors: "active" });
    await page.goto(`${fx.origin}/embed/1`);
    const s = await page.evaluate(() => {
      const play = getComputedStyle(document.querySelector(".play")!);
      return { border: play.borderTopColor, width: play.borderTopWidth, icon: play.color, fill: play.backgroundColor };
    });
    expect(parseFloat(s.width)).toBeGreaterThanOrEqual(1);
    expect(contrastRatio(s.border, s.fill)).toBeGreaterThanOrEqual(3);
    expect(contrastRatio(s.icon, s.fill)).toBeGreaterThanOrEqual(4.5);
    if (GALLERY) await page.screenshot({ path: await galleryPath("player-forced-colors-400.png") });
    await page.close();
  });
});

describe("accessibility", () => {
  for (const [i, theme] of ["light", "dark"].entries()) {
    it(`axe-core finds no violations in the ${theme} player, before and while playing`, longUnlessFirst(i), async () => {
      const context = await browser.newContext({ viewport: { width: 400, height: 180 } });
      const page = await context.newPage();
      await page.goto(`${fx.origin}/embed/1?theme=${theme}`);
      expect(await axeViolations(page)).toEqual([]);
      await page.locator(".play").click();
      await page.waitForFunction(() => !document.querySelector("audio")!.paused);
      expect(await axeViolations(page)).toEqual([]);
      await page.goto(`${fx.origin}/embed/2?theme=${theme}&accent=ffff00`);
      expect(await axeViolations(page)).toEqual([]);
      await context.close();
    });
  }

  it("axe-core finds no violations in the player's not-found page, and in the player as an iframe on a host page", LONG, async () => {
    const context = await browser.newContext({ viewport: { width: 400, height: 180 } });
    const page = await context.newPage();
    await page.goto(`${fx.origin}/embed/404404`);
    expect(await axeViolations(page)).toEqual([]);
    await page.goto(host.page([`${fx.origin}/embed/1`], { width: 300 }));
    await page.frameLocator("#f0").locator(".play").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  it("the controls have names that say what they do, and the slider speaks its position", async () => {
    const page = await browser.newPage({ viewport: { width: 400, height: 180 } });
    await page.goto(`${fx.origin}/embed/1`);
    expect(await page.getByRole("button", { name: "Play", exact: true }).count()).toBe(1);
    expect(await page.getByRole("button", { name: "Playback speed 1×", exact: true }).count()).toBe(1);
    expect(await page.getByRole("link", { name: "Download", exact: true }).count()).toBe(1);
    expect(await page.getByRole("link", { name: "Episode page", exact: true }).count()).toBe(1);
    const slider = page.getByRole("slider", { name: "Seek" });
    expect(await slider.getAttribute("aria-valuetext")).toBe("0 seconds of 24 minutes 5 seconds");
    await page.close();
  });
});

describe.runIf(GALLERY)("gallery", () => {
  it("screenshots of the player in light and dark at 250 and 600 px", async () => {
    for (const theme of ["light", "dark"]) {
      for (const width of [250, 600]) {
        const page = await browser.newPage({ viewport: { width, height: 180 } });
        await page.goto(`${fx.origin}/embed/1?theme=${theme}`);
        await page.locator(".play").waitFor();
        await page.screenshot({ path: await galleryPath(`player-${theme}-${width}.png`) });
        await page.close();
      }
    }
    const page = await browser.newPage({ viewport: { width: 400, height: 180 } });
    await page.goto(`${fx.origin}/embed/2?accent=ffff00`);
    await page.locator(".play").waitFor();
    await page.screenshot({ path: await galleryPath("player-long-title-yellow-accent-400.png") });
    await page.close();
  });
});
