// Hostile content for the browser suite: payloads for every text field the pages, the player and
// oEmbed show, and the instruments that tell whether any of it ran. Every payload either opens a
// dialog (alert) or calls window.__trap, which sets window.__pwned; an init script, run in every
// frame before any content, defines __trap and records each `securitypolicyviolation` event.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright";

/** Markup that runs script if it reaches the DOM unescaped, plus quotes and backslashes. */
export function markup(field: string): string {
  return [
    `${field}:`,
    `<script>alert(1);__trap("${field} script")</script>`,
    `<img src=x onerror="alert(1);__trap('${field} img')">`,
    `"><svg onload=alert(1)>`,
    `'><svg onload=__trap('${field} svg')>`,
    `</title><script>alert(1)</script>`,
    `</textarea></style></noscript></template></script><script>__trap("${field} end")</script>`,
    `<a href="javascript:__trap('${field} href')">link</a>`,
    `<iframe srcdoc="<script>parent.__trap('${field} srcdoc')</script>"></iframe>`,
    `<!-- --!> ]]> <![CDATA[ x ]]> {{constructor.constructor('__trap()')()}} \${__trap()}`,
    `"double" 'single' \`back\` “curly” \\ \\\\ \\" \\' \\n \\u0022 &amp; &lt;b&gt; &#x3C;script&#62; &quot;`,
  ].join(" ");
}

/** Right-to-left text (Arabic, Hebrew, the RIGHT-TO-LEFT OVERRIDE), emoji and combining marks. */
export function world(field: string): string {
  return [
    `مرحبا بالعالم ${field}`,
    "שלום עולם",
    "\u202Egnp.exe\u202C", // U+202E RIGHT-TO-LEFT OVERRIDE … U+202C POP DIRECTIONAL FORMATTING
    "\u202B<b>embedded</b>\u202C \u200F\u200E",
    "🎧👩🏽‍💻🏳️‍🌈👨‍👩‍👧‍👦🇸🇦",
    "Z̴̡̢̛a̷̧l̸g̵o̶ e\u0301 n\u0303 \u0915\u094D\u0937 ﷽ 𝕳𝖊𝖑𝖑𝖔",
    `<svg onload=__trap('${field} rtl')>`,
  ].join(" ");
}

/** All of U+0000–U+001F (JSON carries them escaped), DEL, NEL, U+2028, U+2029, BOM, ZWSP. */
export const CONTROLS = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join("") + "\u007F\u0085\u2028\u2029\uFEFF\u200B";

export function controls(field: string): string {
  return `${field}${CONTROLS}|"q"\\'q'\u2028<script>alert(1)</script>\u2029end`;
}

/** A string of `length` UTF-16 code units without a space, cut on a code point boundary. */
export function long(seed: string, length = 10_240): string {
  const s = seed.replace(/\s/g, "").repeat(Math.ceil(length / seed.length) + 1);
  const points = [...s];
  let out = "";
  for (const p of points) {
    if (out.length + p.length > length) break;
    out += p;
  }
  return out;
}

/**
 * Text as Chromium's HTML parser hands it to the DOM after input preprocessing: CR and CRLF become
 * LF, and U+0000 is dropped in element text (`text`) or replaced by U+FFFD in attribute values and
 * in <title> (`attr`).
 */
export function parsedAs(s: string, where: "text" | "attr"): string {
  const lf = s.replace(/\r\n?/g, "\n");
  return where === "text" ? lf.replace(/\0/g, "") : lf.replace(/\0/g, "\uFFFD");
}

/** Runs in every frame before any of its scripts. */
function instrument(): void {
  const w = window as unknown as { __csp: string[]; __trap: (where?: unknown) => void; __pwned?: string };
  w.__csp = [];
  w.__trap = (where) => {
    w.__pwned = String(where ?? true);
  };
  document.addEventListener(
    "securitypolicyviolation",
    (e) => w.__csp.push(`${e.effectiveDirective} blocked=${e.blockedURI} sample=${e.sample}`),
    true,
  );
}

export interface Watch {
  dialogs: string[];
  consoleErrors: string[];
  pageErrors: string[];
}

/** A context whose every frame is instrumented, and whose dialogs, console errors and uncaught errors are recorded. */
export async function watchedContext(browser: Browser, options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; watch: Watch }> {
  const context = await browser.newContext(options);
  const watch: Watch = { dialogs: [], consoleErrors: [], pageErrors: [] };
  await context.addInitScript(instrument);
  context.on("dialog", (d) => {
    watch.dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss().catch(() => {});
  });
  context.on("console", (m) => {
    if (m.type() === "error") watch.consoleErrors.push(`${m.text()} @ ${m.location().url}`);
  });
  context.on("weberror", (e) => watch.pageErrors.push(String(e.error())));
  return { context, watch };
}

export interface FrameReport {
  url: string;
  instrumented: boolean;
  pwned: string | null;
  csp: string[];
}

/** What each frame of the page recorded (after a moment for queued violation events). */
export async function frameReports(page: Page): Promise<FrameReport[]> {
  await page.waitForTimeout(150);
  const out: FrameReport[] = [];
  for (const frame of page.frames()) {
    if (frame.url() === "about:blank" || frame.url() === "") continue;
    const r = await frame.evaluate(() => {
      const w = window as unknown as { __csp?: string[]; __pwned?: string };
      return { instrumented: Array.isArray(w.__csp), pwned: w.__pwned ?? null, csp: w.__csp ?? [] };
    });
    out.push({ url: frame.url(), ...r });
  }
  return out;
}

/** Raw pages on another origin (localhost), for markup such as oEmbed's `html`, served verbatim. */
export interface RawHost {
  origin: string;
  /** URL of a page whose body is `body` as given, with an optional CSP header. */
  put(body: string, csp?: string): string;
  close(): Promise<void>;
}

export async function rawHost(): Promise<RawHost> {
  const pages = new Map<string, { body: string; csp?: string }>();
  const server: Server = createServer((req, res) => {
    const found = pages.get(new URL(req.url ?? "/", "http://localhost").pathname);
    if (!found) {
      res.writeHead(404).end();
      return;
    }
    const headers: Record<string, string> = { "content-type": "text/html; charset=utf-8" };
    if (found.csp) headers["content-security-policy"] = found.csp;
    res.writeHead(200, headers);
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title></head><body style="margin:0"><main>${found.body}</main></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://localhost:${port}`;
  return {
    origin,
    put(body, csp) {
      const path = `/raw/${pages.size}`;
      pages.set(path, csp === undefined ? { body } : { body, csp });
      return `${origin}${path}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
