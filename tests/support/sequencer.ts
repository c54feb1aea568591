// The order test files start in. Vitest starts first the files that took longest in the last run,
// from its cache in node_modules/.vite/vitest; a fresh clone has none, and Vitest then starts the
// largest files first, which left long ones (the build service's test, the typed client) to run
// alone at the end. Within each project, the files known to be long (docs/testing.md, "Where the
// CPU goes") start first, in this order; the others follow in Vitest's own order.
import { BaseSequencer, type TestSpecification } from "vitest/node";

const LONG_FIRST = [
  "tests/storage/publish.test.ts",
  "tests/browser/hostile-content.test.ts",
  "tests/http/live-build.test.ts",
  "tests/build/build-incremental.test.ts",
  "tests/browser/archive.test.ts",
  "tests/browser/player-layout.test.ts",
  "tests/browser/player-events.test.ts",
  "tests/http/rate-limit-keys.test.ts",
  "tests/browser/moments.test.ts",
  "tests/fuzz/fuzz-smoke.test.ts",
  "tests/browser/player-network.test.ts",
  "tests/http/rate-limit.test.ts",
  "tests/browser/pages.test.ts",
  "tests/build/build-service.test.ts",
  "tests/contract/typed-client.test.ts",
  "tests/http/audio-hangups.test.ts",
  "tests/edge/deploy.test.ts",
];

function rank(spec: TestSpecification): number {
  const i = LONG_FIRST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
  return i === -1 ? LONG_FIRST.length : i;
}

export default class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const position = new Map(sorted.map((spec, i) => [spec, i]));
    // Vitest's order keeps each project's files together: the projects stay in that order.
    const project = new Map(sorted.map((spec) => [spec, sorted.findIndex((s) => s.project.name === spec.project.name)]));
    return sorted.sort((a, b) => project.get(a)! - project.get(b)! || rank(a) - rank(b) || position.get(a)! - position.get(b)!);
  }
}
