// Where the browser tests write their screenshots: tests/.tmp/gallery by default, docs/gallery when
// scripts/gallery.ts (npm run gallery) refreshes the gallery the README links.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { ROOT } from "../../support/fixture.ts";

export async function galleryPath(name: string): Promise<string> {
  const dir = process.env.GALLERY_DIR ? path.resolve(ROOT, process.env.GALLERY_DIR) : path.join(ROOT, "tests/.tmp/gallery");
  await mkdir(dir, { recursive: true });
  return path.join(dir, name);
}
