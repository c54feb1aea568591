// The lock installs one workerd: the one `npm run serve:edge` and the edge suites run (through
// miniflare) is the one `npm run deploy` installs with wrangler. Wrangler pins its miniflare
// exactly, so the two packages move together (package.json pins wrangler to the release whose
// miniflare is ours). Node itself comes as the registry's platform packages (optional, one per
// os and cpu): npm installs the one for the machine and links its `node` first on every script's PATH.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const lock = JSON.parse(readFileSync(new URL("../../package-lock.json", import.meta.url), "utf8")) as {
  packages: Record<string, { version?: string; resolved?: string; integrity?: string; dependencies?: Record<string, string>; optionalDependencies?: Record<string, string>; os?: string; cpu?: string; hasInstallScript?: boolean }>;
};
const installed = (name: string) => Object.keys(lock.packages).filter((p) => p === `node_modules/${name}` || p.endsWith(`/node_modules/${name}`));

describe("package-lock.json", () => {
  it.each(["workerd", "miniflare"])("installs one %s", (name) => {
    expect(installed(name)).toEqual([`node_modules/${name}`]);
  });

  // Without its address a package costs `npm ci` a request for its metadata first (.npmrc keeps them).
  it("records every package's tarball address and digest", () => {
    const missing = Object.entries(lock.packages).filter(([p, e]) => p !== "" && !(e.resolved?.startsWith("https://") && e.integrity?.startsWith("sha512-")));
    expect(missing.map(([p]) => p)).toEqual([]);
  });

  it("pins wrangler to the miniflare the project uses", () => {
    expect(lock.packages["node_modules/wrangler"]?.dependencies?.miniflare).toBe(lock.packages["node_modules/miniflare"]?.version);
  });

  it("pins Node as platform packages without install scripts, and the tests run on the one for this machine", () => {
    const pinned = Object.keys(lock.packages[""]?.optionalDependencies ?? {}).filter((name) => /^node-(bin-)?[a-z]+-[a-z0-9]+$/.test(name));
    expect(pinned.length).toBeGreaterThan(0);
    const entries = pinned.map((name) => lock.packages[`node_modules/${name}`]);
    for (const entry of entries) expect(entry).toMatchObject({ version: entries[0]!.version, os: expect.any(String), cpu: expect.any(String) });
    expect(entries.some((e) => e!.hasInstallScript)).toBe(false);
    // A machine the registry has no build for (macOS) runs the scripts on the host's Node.
    const here = entries.find((e) => e!.os === process.platform && e!.cpu === process.arch);
    if (here !== undefined) expect(process.version).toBe(`v${here.version}`);
  });
});
