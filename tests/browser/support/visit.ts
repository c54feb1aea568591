// Opens a page in a browser context and collects the Content-Security-Policy violations Chromium
// reports on its console, so a test can require there are none.
import type { BrowserContext, Page } from "playwright";

export async function visitPage(context: BrowserContext, url: string): Promise<{ page: Page; cspErrors: string[] }> {
  const page = await context.newPage();
  const cspErrors: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
  });
  await page.goto(url);
  return { page, cspErrors };
}
