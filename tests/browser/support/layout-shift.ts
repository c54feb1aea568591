// Cumulative layout shift as Lighthouse counts it (layout-shift entries without recent input,
// summed) for a page loaded with its scripts held back until it has painted: the worst case, where
// the reader sees the server-rendered page before any script runs.
import type { BrowserContext, Page } from "playwright";

/** Records layout shifts in the context's main frames from the start of every load. */
export async function watchShifts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const w = window as unknown as { __shift: number };
    w.__shift = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!e.hadRecentInput) w.__shift += e.value;
    }).observe({ type: "layout-shift", buffered: true });
  });
}

/**
 * Opens `url` with every script of the site held until the first contentful paint, runs `painted`
 * then (the page as the reader first sees it), waits for `settled` (the scripts have done their
 * work, in the page or in a frame of it), and returns the page's summed shift two frames later.
 */
export async function shiftWithScriptsLate(page: Page, url: string, settled: (page: Page) => Promise<void>, painted?: (page: Page) => Promise<void>): Promise<number> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.context().route(/\/_astro\/.*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(url, { waitUntil: "commit" });
  await page.waitForFunction(() => performance.getEntriesByType("paint").some((e) => e.name === "first-contentful-paint"));
  await painted?.(page);
  release();
  await settled(page);
  // Two frames after the scripts ran: every shift they caused has been laid out and reported.
  return page.evaluate(
    () => new Promise<number>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => resolve((window as unknown as { __shift: number }).__shift))))),
  );
}
