// The archive and the site's look in Chromium: the archive's pages list every published episode
// exactly once, newest first, and their previous/next links walk them; a page past the last is the
// styled 404; the home page names the show once with room under the header; the episode page has
// one download link; axe-core finds nothing on home, archive, episode page and player in light and
// dark; the player's layout does not move when its script upgrades it (CLS < 0.02 at 400×180);
// the unplayed part of its track stands out from the background; and the gallery's screenshots.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext } from "playwright";
import { episode, PODCAST, type EpisodeSpec } from "../support/fixture.ts";
import { ARCHIVE_PAGE_SIZE } from "../../src/shared/archive.ts";
import { closeContexts, sharedChromium } from "./support/browser.ts";
import { contrastRatio } from "./support/contrast.ts";
import { GALLERY, galleryPath } from "./support/gallery.ts";
import { shiftWithScriptsLate, watchShifts } from "./support/layout-shift.ts";
import { silentMp3 } from "./support/mp3.ts";
import { visitPage } from "./support/visit.ts";
import { browserSite, type BrowserSite } from "./support/site.ts";
import { axeViolations } from "./support/axe.ts";
import { LONG, longUnlessFirst } from "../support/tiers.ts";

const DAY = 86_400_000;
const FIRST = Date.UTC(2025, 0, 1, 9);
const PUBLISHED = 120;
const UNNUMBERED = new Set([40, 95]);

/** 120 published episodes (two without a number), one a day, plus drafts and scheduled ones. */
function specs(): EpisodeSpec[] {
  const list: EpisodeSpec[] = [];
  for (let i = 1; i <= PUBLISHED; i++) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
    const at = FIRST + i * DAY;
    list.push({
      episode: episode({
        id,
        episodeNumber: UNNUMBERED.has(i) ? null : i,
        title: `Archive episode ${i}`,
        summary: `What happens in archive episode ${i}.`,
        publishedAt: new Date(at).toISOString(),
        durationSeconds: 600 + i,
      }),
      ...(i === PUBLISHED ? { audio: silentMp3(20) } : {}),
    });
  }
  list.push({ episode: episode({ episodeNumber: 500, title: "Draft secret title", status: "draft", publishedAt: new Date(FIRST).toISOString() }) });
  list.push({ episode: episode({ episodeNumber: 501, title: "Scheduled secret title", publishedAt: "2099-01-01T00:00:00.000Z" }) });
  return list;
}

let browser: Browser;
let fx: BrowserSite;
/** The canonical page URL of episode `i` (1-based, as created above). */
const pageUrl = (i: number) => `${fx.origin}/episodes/${UNNUMBERED.has(i) ? `00000000-0000-4000-8000-${String(i).padStart(12, "0")}` : i}`;

beforeAll(async () => {
  fx = await browserSite("archive", specs());
  browser = await sharedChromium();
});

afterAll(async () => {
  await closeContexts(browser);
  await fx?.close();
});

const visit = (context: BrowserContext, path: string) => visitPage(context, `${fx.origin}${path}`);

describe("the archive", () => {
  it("lists every published episode exactly once across its pages, newest first, walked by its next and previous links", async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    const { page } = await visit(context, "/episodes");
    const seen: string[] = [];
    const pages: { url: string; count: number; of: string; headNext: string | null }[] = [];
    for (;;) {
      const links = await page.locator("main .episodes h2 a").evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
      seen.push(...links);
      pages.push({
        url: page.url(),
        count: links.length,
        of: (await page.locator(".pager .page-of").textContent())!.trim(),
        headNext: (await page.locator('head link[rel="next"]').count()) === 0 ? null : await page.locator('head link[rel="next"]').getAttribute("href"),
      });
      const next = page.locator('main a[rel="next"]');
      if ((await next.count()) === 0) break;
      expect(pages.at(-1)!.headNext).toBe(await next.getAttribute("href"));
      await Promise.all([page.waitForURL((u) => u.href !== pages.at(-1)!.url), next.click()]);
    }
    expect(pages.map((p) => p.url)).toEqual([`${fx.origin}/episodes`, `${fx.origin}/episodes?page=2`, `${fx.origin}/episodes?page=3`]);
    expect(pages.map((p) => p.count)).toEqual([ARCHIVE_PAGE_SIZE, ARCHIVE_PAGE_SIZE, PUBLISHED - 2 * ARCHIVE_PAGE_SIZE]);
    expect(pages.map((p) => p.of)).toEqual(["Page 1 of 3", "Page 2 of 3", "Page 3 of 3"]);
    expect(pages.at(-1)!.headNext).toBeNull();
    // Every published episode once, in list order; drafts and scheduled episodes nowhere.
    const expected = Array.from({ length: PUBLISHED }, (_, k) => pageUrl(PUBLISHED - k));
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(PUBLISHED);
    const text = await page.content();
    expect(text).not.toContain("secret title");

    // Back again with the previous links, to the first page (which has none).
    await Promise.all([page.waitForURL(`${fx.origin}/episodes?page=2`), page.locator('main a[rel="prev"]').click()]);
    expect(await page.locator('head link[rel="prev"]').getAttribute("href")).toBe(`${fx.origin}/episodes`);
    await Promise.all([page.waitForURL(`${fx.origin}/episodes`), page.locator('main a[rel="prev"]').click()]);
    expect(await page.locator('main a[rel="prev"]').count()).toBe(0);
    expect(await page.locator('head link[rel="prev"]').count()).toBe(0);
    await context.close();
  });

  it("is where the home page's All episodes link leads", LONG, async () => {
    const context = await browser.newContext();
    const { page } = await visit(context, "/");
    await Promise.all([page.waitForURL(`${fx.origin}/episodes`), page.getByRole("link", { name: "All episodes" }).first().click()]);
    expect(await page.locator("h1").textContent()).toBe("All episodes");
    await context.close();
  });

  it("answers a page past the last, page=0 and page=abc with the styled 404 page", LONG, async () => {
    const context = await browser.newContext();
    for (const q of ["?page=4", "?page=0", "?page=abc", "?page=-1", "?page=2.5", "?page=02"]) {
      const page = await context.newPage();
      const res = await page.goto(`${fx.origin}/episodes${q}`);
      expect(res!.status(), q).toBe(404);
      expect(await page.locator("h1").textContent(), q).toBe("Not found");
      await page.close();
    }
    await context.close();
  });
});

describe("the site's look", () => {
  it("the home page names the show once at the top, with room between the header and the heading", LONG, async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    const { page } = await visit(context, "/");
    const top = await page.evaluate((title) => {
      const named = [...document.querySelectorAll("header, header *, main h1, main h1 *, main .hero *")].filter(
        (el) => el.children.length === 0 && el.textContent?.trim() === title,
      );
      const header = document.querySelector("header")!.getBoundingClientRect();
      const h1 = document.querySelector("main h1")!.getBoundingClientRect();
      return { named: named.length, gap: h1.top - header.bottom };
    }, PODCAST.title);
    expect(top.named).toBe(1);
    expect(top.gap).toBeGreaterThanOrEqual(16);
    await context.close();
  });

  it("the episode page has one download link, the player's", LONG, async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    const { page } = await visit(context, `/episodes/${PUBLISHED}`);
    const player = page.frameLocator(".player iframe");
    await player.locator(".play").waitFor();
    expect(await page.locator('a[href*="download=1"]').count()).toBe(0);
    // The audio element's fallback link is never rendered where the audio element is supported.
    expect(await player.locator('a[href*="download=1"]:visible').count()).toBe(1);
    await context.close();
  });

  for (const [n, scheme] of (["light", "dark"] as const).entries()) {
    it(`axe-core finds no violations on the home, archive, episode and player pages, and no CSP violation (${scheme})`, longUnlessFirst(n), async () => {
      const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1000, height: 900 } });
      const theme = scheme === "dark" ? "?theme=dark" : "";
      for (const path of ["/", "/episodes", "/episodes?page=3", `/episodes/${PUBLISHED}`, `/embed/${PUBLISHED}${theme}`]) {
        const { page, cspErrors } = await visit(context, path);
        expect(await axeViolations(page), path).toEqual([]);
        expect(cspErrors, path).toEqual([]);
        await page.close();
      }
      await context.close();
    });
  }
});

/**
 * The player's cumulative layout shift at 400×180 (layout-shift entries without recent input,
 * summed), with its script held back until the page has painted: the worst case, where the
 * listener sees the server-rendered player before the script upgrades it.
 */
async function playerShift(theme: "light" | "dark"): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 400, height: 180 } });
  await watchShifts(context);
  const page = await context.newPage();
  const shift = await shiftWithScriptsLate(page, `${fx.origin}/embed/${PUBLISHED}${theme === "dark" ? "?theme=dark" : ""}`, (p) => p.locator(".player.upgraded").waitFor(), async (p) => {
    expect(await p.locator(".player.upgraded").count()).toBe(0);
  });
  await context.close();
  return shift;
}

describe("the player", () => {
  for (const [n, theme] of (["light", "dark"] as const).entries()) {
    // One retry: in one full run of the suite on a loaded machine (2026-11-25) the light player
    // measured 0.0611 once and 0.0000 in six runs of this test before and after, alone and beside a
    // CPU load; a layout that shifts on every load still fails both tries.
    it(`does not move when its script upgrades it: CLS below 0.02 at 400×180 (${theme})`, { retry: 1, ...longUnlessFirst(n) }, async () => {
      const shift = await playerShift(theme);
      console.log(`player CLS at 400x180 (${theme}): ${shift.toFixed(4)}`);
      expect(shift).toBeLessThan(0.02);
    });
  }

  for (const theme of ["light", "dark"] as const) {
    it(`draws the unplayed part of the track at 3:1 or more against the background (${theme})`, LONG, async () => {
      const page = await browser.newPage({ viewport: { width: 400, height: 180 } });
      await page.goto(`${fx.origin}/embed/${PUBLISHED}${theme === "dark" ? "?theme=dark" : ""}`);
      const slider = page.locator(".seek");
      await slider.waitFor({ state: "visible" });
      const background = await page.locator(".player").evaluate((el) => getComputedStyle(el).backgroundColor);
      const box = (await slider.boundingBox())!;
      const png = await page.screenshot({ clip: { x: box.x + box.width * 0.8, y: box.y + box.height / 2 - 0.5, width: 1, height: 1 } });
      // Decoded by the browser itself: the pixel at the middle of the track, right of the thumb at 0.
      const blank = await browser.newPage();
      const track = await blank.evaluate(async (b64) => {
        const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const g = canvas.getContext("2d")!;
        g.drawImage(bitmap, 0, 0);
        const [r, gr, b] = g.getImageData(0, 0, 1, 1).data;
        return `rgb(${r}, ${gr}, ${b})`;
      }, png.toString("base64"));
      await blank.close();
      await page.close();
      expect(contrastRatio(track, background), `${track} on ${background}`).toBeGreaterThanOrEqual(3);
    });
  }
});

describe.runIf(GALLERY)("gallery", () => {
  it("screenshots of the home and archive pages for the gallery", async () => {
    for (const scheme of ["light", "dark"] as const) {
      const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 900, height: 1200 } });
      for (const [name, path] of [["home", "/"], ["archive", "/episodes?page=2"]] as const) {
        const { page } = await visit(context, path);
        await page.screenshot({ path: await galleryPath(`${name}-${scheme}.png`) });
        await page.close();
      }
      await context.close();
    }
  });
});
