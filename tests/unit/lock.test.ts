// The lock installs one workerd: the one `npm run serve:edge` and the edge suites run (through
// miniflare) is the one `npm run deploy` installs with wrangler. Wrangler pins its miniflare
// exactly, so the two packages move together (package.json pins wrangler to the release whose
// miniflare is ours).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const lock = JSON.parse(readFileSync(new URL("../../package-lock.json", import.meta.url), "utf8")) as {
  packages: Record<string, { version?: string; dependencies?: Record<string, string> }>;
};
const installed = (name: string) => Object.keys(lock.packages).filter((p) => p === `node_modules/${name}` || p.endsWith(`/node_modules/${name}`));

describe("package-lock.json", () => {
  it.each(["workerd", "miniflare"])("installs one %s", (name) => {
    expect(installed(name)).toEqual([`node_modules/${name}`]);
  });

  it("pins wrangler to the miniflare the project uses", () => {
    expect(lock.packages["node_modules/wrangler"]?.dependencies?.miniflare).toBe(lock.packages["node_modules/miniflare"]?.version);
  });
});
