// The gallery's screenshots, which the README links: taken by the browser suites' screenshot tests
// only when scripts/gallery.ts (npm run gallery) runs them with GALLERY_DIR=docs/gallery. They
// assert nothing, so `npm test` skips them.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { ROOT } from "../../support/fixture.ts";

/** True under `npm run gallery`: the screenshot tests run. */
export const GALLERY = Boolean(process.env.GALLERY_DIR);

export async function galleryPath(name: string): Promise<string> {
  const dir = path.resolve(ROOT, process.env.GALLERY_DIR ?? "tests/.tmp/gallery");
  await mkdir(dir, { recursive: true });
  return path.join(dir, name);
}
