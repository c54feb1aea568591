// Static build: every API body, page and player is rendered to dist/ (see docs/architecture.md).
import { finishBuild } from "./src/generate/integration.ts";

// A plain object, not `defineConfig` from "astro/config" (which only returns its argument): that
// module loads Astro's SVG optimizer and its CSS toolchain, hundreds of modules every build
// starts with and none uses (docs/performance.md).
/** @type {import("astro").AstroUserConfig} */
export default {
  output: "static",
  // Tests build several fixture sites at once; each gets its own cache so builds never collide.
  ...(process.env.ASTRO_CACHE_DIR ? { cacheDir: process.env.ASTRO_CACHE_DIR } : {}),
  trailingSlash: "never",
  // Pages send a CSP without 'unsafe-inline': every script and stylesheet must be a file.
  // Route generation is mostly waiting on file writes: rendering 4 at a time took the 10,000-episode
  // build from 75.7 s to 45.8 s (docs/performance.md).
  build: { format: "file", inlineStylesheets: "never", concurrency: 4 },
  // dist/ is not emptied by Astro: the build empties it for a clean build and otherwise rewrites only
  // what changed (src/generate/integration.ts, docs/architecture.md#the-build).
  vite: { build: { assetsInlineLimit: 0, emptyOutDir: false } },
  integrations: [finishBuild()],
  devToolbar: { enabled: false },
};
