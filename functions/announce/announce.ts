// Announcing that the feed changed (docs/deploy.md#announcing-a-publication): to a WebSub hub
// (WEBSUB_HUB), to ping URLs such as Podcast Index's pubnotify (PING_URLS) and to Podping
// (PODPING_TOKEN). Every target is tried at once, each with its own timeout and at most two
// attempts, and its outcome is one line of the log. Nothing here throws: a failed announcement is
// logged and left there, never failing the deploy, the timer or the Cron Trigger that asked for it.
// Portable (fetch and AbortSignal.timeout): the deploy command, the Node server's timer
// (functions/node/announce-timer.ts) and the Worker's Cron Trigger (functions/workers/scheduled.ts) share it.
import { MEDIA } from "../../src/shared/media-types.ts";
import type { AnnounceConfig } from "../../src/shared/config.ts";

/** One announcement's wait for each target's answer, per attempt. */
export const ANNOUNCE_TIMEOUT_MS = 5_000;
/** Attempts per target: a second one after a failure that may pass (no answer, 5xx, 429). */
export const ANNOUNCE_ATTEMPTS = 2;
/** The pause before the second attempt. */
const RETRY_PAUSE_MS = 1_000;

export type AnnounceKind = "websub" | "ping" | "podping";

/** One request of an announcement. */
export interface AnnounceTarget {
  kind: AnnounceKind;
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  /** The form body of a WebSub publish. */
  body: string | null;
}

export interface AnnounceOptions {
  log: (line: string) => void;
  /** Defaults to the runtime's fetch. */
  fetch?: typeof fetch;
  /** Test hooks; ANNOUNCE_TIMEOUT_MS and a second's pause otherwise. */
  timeoutMs?: number;
  retryPauseMs?: number;
}

export interface AnnounceOutcome {
  target: AnnounceTarget;
  ok: boolean;
  /** `HTTP 204`, `no answer within 5 s`, or the network error. */
  detail: string;
  attempts: number;
}

/** Whether the configuration names anywhere to announce to. */
export function announces(config: AnnounceConfig): boolean {
  return config.websubHub !== null || config.pingUrls.length > 0 || config.podping !== null;
}

/** The requests that announce a new version of the feed at `feedUrl`. */
export function announceTargets(config: AnnounceConfig, feedUrl: string): AnnounceTarget[] {
  // Podping's front end refuses a request without one; the others log it.
  const agent = { "user-agent": `episode-service (+${feedUrl})` };
  const targets: AnnounceTarget[] = [];
  if (config.websubHub !== null) {
    const body = new URLSearchParams({ "hub.mode": "publish", "hub.url": feedUrl }).toString();
    targets.push({ kind: "websub", url: config.websubHub, method: "POST", headers: { ...agent, "content-type": MEDIA.form }, body });
  }
  for (const template of config.pingUrls) {
    targets.push({ kind: "ping", url: template.replaceAll("{feed}", encodeURIComponent(feedUrl)), method: "GET", headers: agent, body: null });
  }
  if (config.podping !== null) {
    const url = new URL(config.podping.url);
    url.search = new URLSearchParams({ url: feedUrl, reason: "update", medium: "podcast" }).toString();
    // Podping takes the token as the whole Authorization value, with no scheme.
    targets.push({ kind: "podping", url: url.href, method: "GET", headers: { ...agent, authorization: config.podping.token }, body: null });
  }
  return targets;
}

/** A target as the log shows it: no query string, which may carry a key. */
function shown(target: AnnounceTarget): string {
  const url = new URL(target.url);
  return `${target.kind} ${url.origin}${url.pathname}`;
}

/** Whether a failed attempt is worth a second one: the target may answer next time. */
const mayPass = (status: number | null) => status === null || status === 429 || status >= 500;

async function attempt(target: AnnounceTarget, doFetch: typeof fetch, timeoutMs: number): Promise<{ status: number | null; detail: string }> {
  try {
    const res = await doFetch(target.url, { method: target.method, headers: target.headers, body: target.body, signal: AbortSignal.timeout(timeoutMs) });
    // The answer's body says nothing we act on; cancelled, so the connection is let go.
    await res.body?.cancel().catch(() => {});
    return { status: res.status, detail: `HTTP ${res.status}` };
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } };
    if (err.name === "TimeoutError") return { status: null, detail: `no answer within ${timeoutMs / 1000} s` };
    return { status: null, detail: [err.message, err.cause?.code].filter(Boolean).join(": ") };
  }
}

async function announceTo(target: AnnounceTarget, opts: AnnounceOptions): Promise<AnnounceOutcome> {
  const doFetch = opts.fetch ?? fetch;
  for (let attempts = 1; ; attempts++) {
    const { status, detail } = await attempt(target, doFetch, opts.timeoutMs ?? ANNOUNCE_TIMEOUT_MS);
    const ok = status !== null && status >= 200 && status < 300;
    if (ok || attempts === ANNOUNCE_ATTEMPTS || !mayPass(status)) return { target, ok, detail, attempts };
    await new Promise((resolve) => setTimeout(resolve, opts.retryPauseMs ?? RETRY_PAUSE_MS));
  }
}

/**
 * Announces to every target at once; one log line per target, `why` naming what is announced
 * (the published set, and what made it new). Never throws.
 */
export async function announce(targets: readonly AnnounceTarget[], why: string, opts: AnnounceOptions): Promise<AnnounceOutcome[]> {
  return Promise.all(
    targets.map(async (target) => {
      const outcome = await announceTo(target, opts);
      const tries = `${outcome.attempts} attempt${outcome.attempts === 1 ? "" : "s"}`;
      opts.log(`announce ${why}: ${shown(target)} ${outcome.ok ? "ok" : "FAILED"} (${outcome.detail}, ${tries})`);
      return outcome;
    }),
  );
}
