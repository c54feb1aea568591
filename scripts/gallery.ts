// npm run gallery: refreshes docs/gallery/ (the screenshots the README links) by running the browser
// tests that take them, with GALLERY_DIR pointing there instead of tests/.tmp/gallery.
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const vitest = path.join(root, "node_modules/vitest/vitest.mjs");
const result = spawnSync(
  process.execPath,
  [vitest, "run", "tests/browser/player-layout.test.ts", "tests/browser/pages.test.ts", "tests/browser/archive.test.ts", "-t", "screenshot|forced colours"],
  { cwd: root, stdio: "inherit", env: { ...process.env, GALLERY_DIR: "docs/gallery" } },
);
process.exit(result.status ?? 1);
