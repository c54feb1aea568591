import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Suites build their own sites; two at a time keeps a 2-core machine responsive.
    maxWorkers: 2,
  },
});
