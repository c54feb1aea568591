// Two builds of one site to switch a pointer between, as `npm run build` switches `dist`
// (src/node/builds.ts pointTo): for the tests of what a running Node server does when the
// pointer names another build (functions/node/live-build.ts), without an Astro build per switch.
import { cp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { pointTo } from "../../src/node/builds.ts";
import { fixtureBuild, makeSite, writeContent, type EpisodeSpec, type Site } from "./fixture.ts";

export interface TwoBuilds {
  site: Site;
  /** The pointer the tests switch; it names `a` at first. */
  pointer: string;
  /** Copies of the build of `first` and of the build of `second`. */
  a: string;
  b: string;
  /** Makes the pointer name `folder`. */
  switchTo(folder: string): void;
}

export async function twoBuilds(name: string, first: EpisodeSpec[], second: EpisodeSpec[]): Promise<TwoBuilds> {
  const site = await makeSite(name, first);
  const a = path.join(site.dir, "build-a");
  const b = path.join(site.dir, "build-b");
  await cp(site.distDir, a, { recursive: true, dereference: true });
  await rm(path.join(site.contentDir, "episodes"), { recursive: true });
  await writeContent(site.contentDir, second);
  await fixtureBuild(site.contentDir, site.distDir);
  await cp(site.distDir, b, { recursive: true, dereference: true });
  const pointer = path.join(site.dir, "live");
  pointTo(pointer, a);
  return { site, pointer, a, b, switchTo: (folder) => pointTo(pointer, folder) };
}

/** A copy of `folder` whose `file` is not JSON: a build a server must refuse to take up. */
export async function brokenCopy(folder: string, to: string, file: string): Promise<string> {
  await cp(folder, to, { recursive: true });
  await writeFile(path.join(to, file), "{ not json");
  return to;
}

/** Resolves once `log` holds `n` lines of a build taken up (or refused); fails after `ms`. */
export async function swapsLogged(log: string[], n: number, ms = 30_000): Promise<string[]> {
  const start = performance.now();
  const taken = () => log.filter((l) => / is live: |could not take up build /.test(l));
  while (taken().length < n) {
    if (performance.now() - start > ms) throw new Error(`${taken().length} of ${n} builds taken up after ${ms} ms; log: ${log.join(" | ")}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return taken();
}
