// The publication clock at the edge: the runtime's Date.now, unless the TEST-ONLY binding
// TEST_CLOCK is present (tests/support/edge.ts binds it in Miniflare; wrangler.jsonc never declares
// it), in which case every request first asks it for the time the test has set.
import type { Fetcher } from "./bindings.ts";

let testNow: number | null = null;

/** The clock the shim reads (synchronously). */
export function now(): number {
  return testNow ?? Date.now();
}

/** Before each request: read the test's clock when the test-only binding is there. */
export async function syncTestClock(binding: Fetcher | undefined): Promise<void> {
  if (binding === undefined) return;
  const text = await (await binding.fetch("http://test-clock/")).text();
  testNow = text === "" ? null : Number(text);
}
