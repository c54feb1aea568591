// npm run gallery: refreshes docs/gallery/ (the screenshots the README links) by running the browser
// tests that take them with GALLERY_DIR pointing there; without it (npm test) they are skipped.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { command, ROOT } from "./cli.ts";

const GALLERY = command({
  name: "gallery",
  usage: ["npm run gallery", "node scripts/gallery.ts"],
  about: `Refreshes docs/gallery/, the screenshots the README links, by running the browser tests that take
them (Chromium). Exits with the tests' code.`,
  options: {},
  examples: ["npm run gallery"],
});

GALLERY.parse();
const vitest = path.join(ROOT, "node_modules/vitest/vitest.mjs");
const result = spawnSync(
  process.execPath,
  [vitest, "run", "--project", "node", "tests/browser/player-layout.test.ts", "tests/browser/pages.test.ts", "tests/browser/archive.test.ts", "tests/browser/moments.test.ts", "-t", "screenshot|forced colours"],
  { cwd: ROOT, stdio: "inherit", env: { ...process.env, GALLERY_DIR: "docs/gallery" } },
);
process.exit(result.status ?? 1);
