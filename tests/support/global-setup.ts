// Once per test run, for both vitest projects: the build service that makes every fixture site
// (./build-service.ts) and the folder of the sites suites share (./shared-site.ts). Each project
// runs its global setup, so the first starts them and the last teardown stops them: a site built
// for a suite on Node is then served as is by the same suite on workerd.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startBuildService, type BuildService } from "./build-service.ts";

interface Run {
  users: number;
  sharedSites: string;
  builds: BuildService;
}

// The vitest process's own global: every project's setup runs in it, each through its own module runner.
const RUN = Symbol.for("episode-service.test-run");
const holder = globalThis as { [RUN]?: Promise<Run> };

async function start(): Promise<Run> {
  const tmp = path.resolve(import.meta.dirname, "../.tmp");
  await mkdir(tmp, { recursive: true });
  const sharedSites = await mkdtemp(path.join(tmp, "shared-"));
  return { users: 0, sharedSites, builds: await startBuildService() };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const run = await (holder[RUN] ??= start());
  run.users++;
  project.provide("sharedSites", run.sharedSites);
  project.provide("buildService", run.builds.url);
  return async () => {
    if (--run.users > 0) return;
    delete holder[RUN];
    await run.builds.close();
    await rm(run.sharedSites, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The folder of this run's shared sites (tests/support/fixture.ts `sharedSite`). */
    sharedSites: string;
    /** The URL of this run's build service (./build-service.ts). */
    buildService: string;
  }
}
