// axe-core run inside the page: its source evaluated once in every frame (iframes of other origins
// included), then axe.run in the top frame, which gathers each frame's part by postMessage: axe's
// own frame handling, as @axe-core/playwright runs it in its legacy mode, but across origins too.
// AxeBuilder's default re-evaluates the source on every analysis and merges frames in a blank page
// it opens for the purpose, which costs the browser several times more for the same rules.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Result } from "axe-core";
import type { Page } from "playwright";

const SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
// Frames answer the top frame whatever their origin: the player is embedded across origins.
const INJECT = `${SOURCE};axe.configure({ allowedOrigins: ["<unsafe_all_origins>"] });`;

declare const axe: typeof import("axe-core");

/** The WCAG violations axe-core finds in the page as it is now, frames included. */
export async function axeViolations(page: Page): Promise<Result[]> {
  for (const frame of page.frames()) {
    if (frame.isDetached()) continue;
    if (await frame.evaluate(() => typeof axe === "undefined")) await frame.evaluate(INJECT);
  }
  return page.evaluate(() => axe.run({ resultTypes: ["violations"] }).then((r) => r.violations));
}
