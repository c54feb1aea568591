import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import LongFirst from "./tests/support/sequencer.ts";
import { EDGE_FULL } from "./tests/support/tiers.ts";

// Node's on-disk compile cache for every process of the run: the test workers and what they start
// (builds, the publish and other scripts, servers in child processes). Most of them load the same
// modules (Astro, Vite, Miniflare, Playwright, our scripts); from the second load on, V8 reads its
// compiled code instead of compiling again (docs/testing.md).
process.env.NODE_COMPILE_CACHE ??= fileURLToPath(new URL("node_modules/.cache/node-compile/", import.meta.url));

/**
 * The HTTP suites that run a second time against the edge target (SHIM_TARGET=edge: serveSite in
 * tests/support/fixture.ts starts the Workers entry on workerd instead of the Node server), on the
 * same builds as the Node run (`sharedSite`, docs/testing.md). Not here: tests/build/ (the build,
 * not a server) and the suites of the Node server's own parts (node-adapter, audio-hangups,
 * list-bodies, live-build).
 */
const SHARED_HTTP = [
  "tests/http/smoke.test.ts",
  "tests/http/episode.test.ts",
  "tests/http/audio.test.ts",
  "tests/http/conditional-cors-methods.test.ts",
  "tests/http/publication.test.ts",
  "tests/http/rate-limit.test.ts",
  "tests/http/rate-limit-keys.test.ts",
  "tests/http/real-clients.test.ts",
  "tests/http/compression.test.ts",
  "tests/http/discovery.test.ts",
  "tests/http/list.test.ts",
  "tests/http/script-transcript.test.ts",
  "tests/http/site-routes.test.ts",
  "tests/http/archive.test.ts",
  "tests/http/feed.test.ts",
  "tests/http/crawl-surfaces.test.ts",
  "tests/http/mcp.test.ts",
  "tests/http/timed.test.ts",
];

/**
 * The browser suite (Chromium) that runs a second time against the edge target: its fixture site
 * goes through serveSite (tests/browser/support/site.ts), so the player is served by the Workers
 * entry on workerd and plays and seeks audio from its R2 binding. player-network passes
 * there too (`EDGE_FULL=1 npx vitest run --project edge tests/browser/player-network.test.ts`) but
 * costs a minute; the edge HTTP suites already check the bytes and headers it checks.
 */
const SHARED_BROWSER = ["tests/browser/player-events.test.ts"];

/**
 * Tests of those suites skipped on the edge (substrings of their names; docs/deploy.md says more).
 * They fail there for a reason outside the shim, named beside each.
 */
const NODE_ONLY_TESTS: string[] = [
  // Counts the open .mp3 descriptors of the test process, where only the Node server runs.
  "stops reading the file when the client hangs up mid-download",
  // Writes the audio into dist/media after start; at the edge audio lives in R2, seeded at start.
  "answers 404 not_found on audio until the file exists",
];

/**
 * The edge project in `npm test`: a smoke of the Workers entry on workerd (tests/edge/smoke.test.ts:
 * every route family, audio from R2 with ranges, limits in the Durable Object, conditional requests,
 * the private outputs) and the unit test of its configuration. The project whole, every shared suite
 * above on workerd, is `npm run test:edge` (EDGE_FULL), which .ci/run runs after `npm test`.
 */
const EDGE_SMOKE = ["tests/edge/smoke.test.ts", "tests/edge/wrangler-config.test.ts"];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Once per run, for both projects: the build service and the shared sites (tests/support/global-setup.ts).
    globalSetup: ["tests/support/global-setup.ts"],
    // SUITE_CPU_LOG=<file>: each test file's CPU seconds; SUITE_GC_LOG=<file>: its worker's collections (docs/testing.md).
    setupFiles: ["tests/support/per-file.ts", ...(process.env.SUITE_CPU_LOG ? ["tests/support/cpu-probe.ts"] : []), ...(process.env.SUITE_GC_LOG ? ["tests/support/gc-probe.ts"] : [])],
    // Two files at a time on this 2-core machine: a third kept the cores no busier, and the same
    // work took more CPU with more processes taking turns on them (docs/testing.md).
    maxWorkers: 2,
    // The files known to be long start first, also in a fresh clone without Vitest's timings.
    sequence: { sequencer: LongFirst },
    // The files of a worker share one process and its loaded modules, instead of a new process each:
    // ~0.5 s of CPU per file (docs/testing.md). tests/support/per-file.ts resets what a file starts from.
    isolate: false,
    // `npm test` leaves out the tests tagged long; `npm run test:full` runs them (tests/support/tiers.ts).
    tags: [{ name: "long", description: "costly beside what the same file's other tests check: npm run test:full runs it, npm test does not" }],
    projects: [
      {
        extends: true,
        test: { name: "node", include: ["tests/**/*.test.ts"], exclude: [...configDefaults.exclude, "tests/edge/**"] },
      },
      {
        extends: true,
        test: {
          name: "edge",
          include: EDGE_FULL ? ["tests/edge/**/*.test.ts", "tests/fuzz/fuzz-smoke.test.ts", ...SHARED_HTTP, ...SHARED_BROWSER] : EDGE_SMOKE,
          env: { SHIM_TARGET: "edge", WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
          // Bundles the Workers entry once for every suite of the project.
          globalSetup: ["tests/support/global-setup.ts", "tests/edge/global-setup.ts"],
          ...(NODE_ONLY_TESTS.length > 0 ? { testNamePattern: new RegExp(`^(?!.*(?:${NODE_ONLY_TESTS.map(escape).join("|")}))`) } : {}),
        },
      },
    ],
  },
});
