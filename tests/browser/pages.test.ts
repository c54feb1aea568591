// The site's pages in Chromium: the episode page (with its player iframe allowed by its own CSP),
// the home page, the terms and the 404 page, with zero axe-core violations in light and dark, no
// CSP violations, the oEmbed link inside the first 150 KB even with a long transcript, and the
// gallery's screenshot of an episode page.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext } from "playwright";
import { episode } from "../support/fixture.ts";
import { closeContexts, sharedChromium } from "./support/browser.ts";
import { GALLERY, galleryPath } from "./support/gallery.ts";
import { silentMp3 } from "./support/mp3.ts";
import { visitPage } from "./support/visit.ts";
import { browserSite, type BrowserSite } from "./support/site.ts";
import { axeViolations } from "./support/axe.ts";
import { longUnlessFirst } from "../support/tiers.ts";

let browser: Browser;
let fx: BrowserSite;

const longScript = {
  chapters: Array.from({ length: 12 }, (_, i) => ({ title: `Chapter ${i + 1}`, summary: `What chapter ${i + 1} covers.`, takeaways: [`Takeaway ${i + 1}a`, `Takeaway ${i + 1}b`] })),
  segments: Array.from({ length: 3000 }, (_, i) => ({ speaker: i % 2 ? "b" : "a", text: `Line ${i}: ${"a fairly long spoken sentence about keys and logs ".repeat(2)}` })),
};

beforeAll(async () => {
  fx = await browserSite("pages", [
    {
      episode: episode({
        episodeNumber: 3,
        title: "A Leaked Signing Key, and Why Nothing Broke",
        summary: "An old release key leaked in a build log. Keyless signing and transparency logs turned it into a non-event.",
        description: "A popular open source project found an old release signing key in a public build log.",
        durationSeconds: 1445,
        sourceUrl: "https://example.org/blog/post-mortem",
        topics: { domains: ["security", "open-source"], concepts: [], entities: [] },
      }),
      audio: silentMp3(10),
      script: {
        chapters: [
          { title: "What happened", summary: "An old signing key shows up in a build log.", takeaways: ["Leaked keys let attackers ship official-looking malware."] },
          { title: "Why it did not matter", summary: "Keyless signing and transparency logs.", takeaways: ["Short-lived certificates.", "Anyone can verify a release."] },
        ],
        segments: [
          { speaker: "a", text: "A popular open source project discovered that an old release signing key had been published in a build log." },
          { speaker: "b", text: "That's the nightmare scenario. [sighs] Anyone with that key could ship malware that looks official." },
          { speaker: "a", text: "Except the project had already moved to keyless signing." },
        ],
      },
    },
    { episode: episode({ episodeNumber: 4, title: "A very long transcript" }), script: longScript },
  ]);
  browser = await sharedChromium();
});

afterAll(async () => {
  await closeContexts(browser);
  await fx?.close();
});

const visit = (context: BrowserContext, path: string) => visitPage(context, `${fx.origin}${path}`);

describe("pages in the browser", () => {
  for (const [n, scheme] of (["light", "dark"] as const).entries()) {
    it(`axe-core finds no violations on the episode, home, terms and not-found pages (${scheme})`, longUnlessFirst(n), async () => {
      const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1000, height: 900 } });
      for (const path of ["/episodes/3", "/", "/terms", "/episodes/404"]) {
        const { page, cspErrors } = await visit(context, path);
        expect(await axeViolations(page), path).toEqual([]);
        expect(cspErrors, path).toEqual([]);
        await page.close();
      }
      await context.close();
    });
  }

  it("the episode page's player loads inside it, allowed by the page's CSP, and plays", async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    const { page, cspErrors } = await visit(context, "/episodes/3");
    const player = page.frameLocator(".player iframe");
    await player.locator(".play").click();
    await expect.poll(() => player.locator(".play").getAttribute("aria-label")).toBe("Pause");
    expect(cspErrors).toEqual([]);
    await context.close();
  });

  it("the oEmbed link sits inside the first 150 KB even when the transcript makes the page far longer", async () => {
    const html = await (await fetch(`${fx.origin}/episodes/4`)).text();
    expect(Buffer.byteLength(html)).toBeGreaterThan(300 * 1024);
    const at = Buffer.byteLength(html.slice(0, html.indexOf('type="application/json+oembed"')));
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(1024);
  });

  it.runIf(GALLERY)("screenshots of an episode page for the gallery", async () => {
    for (const scheme of ["light", "dark"] as const) {
      const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 900, height: 1400 } });
      const { page } = await visit(context, "/episodes/3");
      await page.frameLocator(".player iframe").locator(".play").waitFor();
      await page.screenshot({ path: await galleryPath(`episode-page-${scheme}.png`), fullPage: true });
      await context.close();
    }
  });
});
