// wrangler.jsonc against the route table and the entry: every path the shim answers runs the
// Worker first (else static assets would answer it, or bypass the shim's rules), the private build
// outputs included; the bindings name what the entry exports; the vars state the default limits.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RATE_LIMIT_AUDIO_DEFAULT, RATE_LIMIT_METADATA_DEFAULT } from "../../src/shared/limits.ts";
import { ROUTES } from "../../src/shared/routes.ts";
import { WORKER_FILE } from "../../scripts/bundle-worker.ts";
import { parseJsonc, readWranglerConfig } from "../../scripts/wrangler-config.ts";

const config = readWranglerConfig();
const patterns = config.assets.run_worker_first;

/** A run_worker_first pattern as Cloudflare reads it: `*` matches any run of characters, `/` included. */
function matches(pattern: string, path: string): boolean {
  const re = new RegExp(`^${pattern.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);
  return re.test(path);
}

/** Concrete paths a template stands for: one segment for {name}, one and several for {name+}. */
function samples(template: string): string[] {
  const one = template.replace(/\{[a-z]+\}/gi, "42");
  return one.includes("+}") ? [one.replace(/\{[a-z]+\+\}/gi, "x"), one.replace(/\{[a-z]+\+\}/gi, "x/y/z.json")] : [one];
}

describe("parseJsonc", () => {
  it("drops comments and trailing commas but never changes a string", () => {
    const text = `{\n  // a comment\n  "a": "/v1/*", /* block */ "b": ["//x", "/*y*/",],\n  "c": "x, }", "d": "y,]", "e": "q\\" // z",\n}`;
    expect(parseJsonc(text)).toEqual({ a: "/v1/*", b: ["//x", "/*y*/"], c: "x, }", d: "y,]", e: 'q" // z' });
  });

  it("names the line and column of a syntax error", () => {
    expect(() => parseJsonc(`{\n  "a": 1,\n  "b": }`, "wrangler.jsonc")).toThrow("wrangler.jsonc:3:8: ValueExpected");
  });
});

describe("wrangler.jsonc", () => {
  const templates = Object.values(ROUTES).flatMap((r) => r.paths);

  it.each(templates)("runs the Worker first for %s", (template) => {
    for (const path of samples(template)) expect(patterns.some((p) => matches(p, path)), `${path} reaches the static assets directly`).toBe(true);
  });

  it("runs the Worker first for the private build outputs, so they are never served", () => {
    for (const path of ["/_api/index.json", "/_api/manifest.json", "/_api/episodes/1.json", "/_api/oembed/1.json"]) {
      expect(patterns.some((p) => matches(p, path)), path).toBe(true);
    }
  });

  it("maps paths to exactly one file in the assets (no HTML redirects) and leaves misses to the Worker", () => {
    expect(config.assets.html_handling).toBe("none");
    expect(config.assets.not_found_handling).toBe("none");
    expect(config.assets.binding).toBe("ASSETS");
    expect(config.assets.directory).toBe("./dist");
  });

  it("binds audio in R2 and the Durable Object classes the entry exports, each with its migration", () => {
    expect(config.r2_buckets.map((b) => b.binding)).toEqual(["AUDIO"]);
    expect(config.durable_objects.bindings).toEqual([
      { name: "RATE_LIMITER", class_name: "RateLimitCounter" },
      { name: "ANNOUNCED_SET", class_name: "AnnouncedSet" },
    ]);
    const raw = parseJsonc(readFileSync(new URL("../../wrangler.jsonc", import.meta.url), "utf8")) as { migrations: { tag: string; new_sqlite_classes?: string[] }[] };
    // One migration per class, in order: an applied migration is never edited.
    expect(raw.migrations).toEqual([
      { tag: "v1", new_sqlite_classes: ["RateLimitCounter"] },
      { tag: "v2", new_sqlite_classes: ["AnnouncedSet"] },
    ]);
    // The bundle (built by the project's global setup) exports the classes by those names.
    const bundle = readFileSync(WORKER_FILE, "utf8");
    for (const name of ["RateLimitCounter", "AnnouncedSet"]) expect(bundle).toMatch(new RegExp(`export\\s*\\{[^}]*\\b${name}\\b[^}]*\\}`));
  });

  it("runs the Cron Trigger every minute, and the entry has its scheduled handler", () => {
    expect(config.triggers).toEqual({ crons: ["* * * * *"] });
    expect(readFileSync(WORKER_FILE, "utf8")).toMatch(/async scheduled\(/);
  });

  it("needs no Node compatibility: the bundle imports only the Workers runtime module", () => {
    expect(config.compatibility_flags ?? []).not.toContain("nodejs_compat");
    const imports = [...readFileSync(WORKER_FILE, "utf8").matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
    // Once per module that imports it (each Durable Object's).
    expect(new Set(imports)).toEqual(new Set(["cloudflare:workers"]));
  });

  it("states the default limits in vars and never declares the test-only clock", () => {
    expect(config.vars).toEqual({ RATE_LIMIT_METADATA_PER_MIN: String(RATE_LIMIT_METADATA_DEFAULT), RATE_LIMIT_AUDIO_PER_MIN: String(RATE_LIMIT_AUDIO_DEFAULT) });
    expect(readFileSync(new URL("../../wrangler.jsonc", import.meta.url), "utf8")).not.toContain("TEST_CLOCK");
  });
});
