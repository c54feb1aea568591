// Debian's Chromium for the browser suite, driven by the playwright library (never a downloaded
// browser): its headless shell, Debian's package chromium-headless-shell, built from the same
// source as the chromium package. It is Chromium without the desktop browser's layers, what
// Playwright itself runs headless, and it took a third of the CPU full Chromium in headless mode
// took for the same suites (docs/testing.md). When missing and running as root, installed with apt-get.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright";

export const CHROMIUM = "/usr/bin/chromium-headless-shell";
const PACKAGE = "chromium-headless-shell";

/**
 * `npm run test:browser-full` (BROWSER_FULL=1): the browser suites check every case of their
 * matrices; `npm test` checks a cross-section of each (docs/testing.md).
 */
export const BROWSER_FULL = process.env.BROWSER_FULL === "1";

/** Under `npm test`, the items at `offset`, `offset + step`, …; with BROWSER_FULL, all of them. */
export function crossSection<T>(items: T[], step: number, offset: number): T[] {
  return BROWSER_FULL ? items : items.filter((_, i) => i % step === offset);
}

export function ensureChromium(): string {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  if (process.getuid?.() === 0) {
    const opts = { stdio: "inherit" as const, env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } };
    execFileSync("apt-get", ["update"], opts);
    execFileSync("apt-get", ["install", "-y", PACKAGE], opts);
  }
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium's headless shell not found at ${CHROMIUM}: install Debian's package (apt-get install -y ${PACKAGE})`);
  return CHROMIUM;
}

/** A fresh headless Chromium (Playwright gives each launch its own new user-data-dir). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: ensureChromium(),
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-background-networking",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

let shared: Promise<Browser> | null = null;

/**
 * The test worker's Chromium: launched by the first file that asks and used by the files after it
 * in the same process (vitest.config.ts: files share their worker), which saves a launch per file.
 * A file isolates itself in contexts and closes them at its end (closeContexts); Playwright closes
 * the browser when the process exits.
 */
export function sharedChromium(): Promise<Browser> {
  if (shared === null) {
    const launched = launchChromium();
    shared = launched;
    // A browser that failed to launch or went away is launched again by the next file that asks.
    const forget = () => {
      if (shared === launched) shared = null;
    };
    launched.then((browser) => browser.on("disconnected", forget), forget);
  }
  return shared;
}

/** Closes every context and page a file opened in the shared Chromium, so the next file finds none. */
export async function closeContexts(browser: Browser | undefined): Promise<void> {
  await Promise.all(browser?.contexts().map((context) => context.close()) ?? []);
}
