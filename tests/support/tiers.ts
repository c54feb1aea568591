// The suite's two tiers (docs/testing.md). `npm test` runs every test but those tagged `long`
// (`vitest run --tags-filter='!long'`); `npm run test:full` runs them all. A test is long when it
// costs a lot for what a cheaper test of the same file already checks: the other cases of a
// matrix, the second colour scheme, another hundred builds. A test that samples (every demo
// episode's audio) samples less in `npm test`: FULL (TEST_FULL=1, set by test:full) samples all.
import type { TestOptions } from "vitest";

export const FULL = process.env.TEST_FULL === "1";

/**
 * The edge project whole (EDGE_FULL=1, set by `npm run test:edge`; TEST_FULL implies it): every
 * shared suite, the fuzz smoke and tests/edge/ on workerd. `npm test` runs there a smoke of the
 * Workers entry (EDGE_SMOKE in vitest.config.ts).
 */
export const EDGE_FULL = FULL || process.env.EDGE_FULL === "1";

export const LONG: TestOptions = { tags: ["long"] };

/** For the cases of a matrix: `npm test` keeps the first, `npm run test:full` all of them. */
export const longUnlessFirst = (i: number): TestOptions => (i === 0 ? {} : LONG);
