// The list's bodies in one file: the build's writer (src/generate/list-bodies.ts), the format
// (src/node/list-bodies.ts) and the Node server's reader (functions/node/list-bodies.ts),
// which uses a file only when it holds exactly the bodies of the index and manifest it loaded.
import { mkdir, mkdtemp, readFile, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EpisodeIndex } from "../../functions/data/episode-index.ts";
import { ListBodiesFile } from "../../functions/node/list-bodies.ts";
import { writeListBodies } from "../../src/generate/list-bodies.ts";
import { BUILD_FILES, episodeFile } from "../../src/shared/layout.ts";
import { nodeEtag } from "../../src/node/etag.ts";
import { bodiesDigest, FOOTER_BYTES } from "../../src/node/list-bodies.ts";
import type { IndexEntry } from "../../src/shared/schema/build-index.ts";

const T0 = Date.UTC(2026, 0, 1);

/** An index of `refs` in this order (newest first, as the build sorts them). */
function indexOf(refs: string[]): EpisodeIndex {
  const episodes: IndexEntry[] = refs.map((ref, i) => {
    const p = T0 - i * 86_400_000;
    return { id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, n: Number(ref), p, s: p, ref, title: ref, domains: ["general"], script: "missing", transcript: false, audio: null };
  });
  return new EpisodeIndex({ version: 1, show: { slug: "s", title: "S" }, termsUrl: "http://x/terms", baseUrl: "http://x", siteUrl: "http://x", episodes });
}

let dist: string;
let manifest: Record<string, string>;
const lookup = () => ({ etagOf: (rel: string) => manifest[rel] });
const refs = ["5", "4", "3", "2", "1"];
const bodyOf = (ref: string) => JSON.stringify({ id: ref, title: `Episode ${ref}`, text: "é".repeat(Number(ref)) });
const file = () => path.join(dist, BUILD_FILES.listBodies);

beforeEach(async () => {
  dist = await mkdtemp(path.join(tmpdir(), "list-bodies-"));
  await mkdir(path.join(dist, "_api/episodes"), { recursive: true });
  manifest = {};
  for (const ref of refs) {
    await writeFile(path.join(dist, episodeFile(ref, "json")), bodyOf(ref));
    manifest[episodeFile(ref, "json")] = nodeEtag(bodyOf(ref));
  }
  writeListBodies(dist, refs, (rel) => manifest[rel]!);
});
afterEach(() => rm(dist, { recursive: true, force: true }));

describe("the file the build writes", () => {
  it("is the bodies in list order joined by commas, their lengths, then the footer with the ETags' digest", async () => {
    const bytes = new Uint8Array(await readFile(file()));
    const joined = Buffer.from(refs.map(bodyOf).join(","));
    expect(Buffer.from(bytes.subarray(0, joined.byteLength))).toEqual(joined);
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    expect(refs.map((_, i) => view.getUint32(joined.byteLength + i * 4, true))).toEqual(refs.map((r) => Buffer.byteLength(bodyOf(r))));
    const footer = bytes.subarray(joined.byteLength + refs.length * 4);
    expect(footer.byteLength).toBe(FOOTER_BYTES);
    expect(new TextDecoder().decode(footer.subarray(0, 8))).toBe("LISTBODY");
    expect(view.getUint32(joined.byteLength + refs.length * 4 + 8, true)).toBe(refs.length);
    expect(Buffer.from(footer.subarray(12))).toEqual(Buffer.from(bodiesDigest(refs.map((r) => manifest[episodeFile(r, "json")]!))));
  });

  it("is written anew when written again: the same bytes", async () => {
    const first = await readFile(file());
    writeListBodies(dist, refs, (rel) => manifest[rel]!);
    expect(await readFile(file())).toEqual(first);
  });

  it("holds only the footer for an empty list", async () => {
    writeListBodies(dist, [], (rel) => manifest[rel]!);
    expect((await readFile(file())).byteLength).toBe(FOOTER_BYTES);
    const opened = ListBodiesFile.open(dist, indexOf([]), lookup());
    expect(opened).not.toBeNull();
    expect(opened!.span(0, 0)).toBeNull();
    opened!.close();
  });
});

describe("the Node server's reader", () => {
  it("reads any run of consecutive entries as one range, with the manifest's ETags", () => {
    const opened = ListBodiesFile.open(dist, indexOf(refs), lookup())!;
    expect(opened).not.toBeNull();
    for (const [from, count] of [[0, 5], [0, 1], [1, 3], [4, 1]] as const) {
      const span = opened.span(from, count)!;
      const want = Buffer.from(refs.slice(from, from + count).map(bodyOf).join(","));
      expect(span.length).toBe(want.byteLength);
      expect(span.etags).toEqual(refs.slice(from, from + count).map((r) => manifest[episodeFile(r, "json")]));
      const out = new Uint8Array(span.length + 4).fill(0x20);
      expect(span.read(out, 2)).toBe(true);
      expect(Buffer.from(out.subarray(2, 2 + span.length))).toEqual(want);
      expect([out[0], out[1], out[out.length - 2], out[out.length - 1]]).toEqual([0x20, 0x20, 0x20, 0x20]);
    }
    expect(opened.span(3, 3)).toBeNull();
    expect(opened.span(5, 1)).toBeNull();
    expect(opened.span(0, 0)).toBeNull();
    opened.close();
  });

  it("answers false when the file was cut short after it was opened", async () => {
    const opened = ListBodiesFile.open(dist, indexOf(refs), lookup())!;
    await truncate(file(), 10);
    const span = opened.span(2, 3)!;
    expect(span.read(new Uint8Array(span.length), 0)).toBe(false);
    opened.close();
  });

  it.each([
    ["missing", async () => rm(file())],
    ["cut short", async () => truncate(file(), (await readFile(file())).byteLength - 1)],
    ["empty", async () => truncate(file(), 0)],
    ["with a body of another length", async () => writeFile(file(), Buffer.concat([Buffer.from(" "), await readFile(file())]))],
  ])("is not used when the file is %s", async (_, change) => {
    await change();
    expect(ListBodiesFile.open(dist, indexOf(refs), lookup())).toBeNull();
  });

  it("is not used for another index or another manifest", () => {
    expect(ListBodiesFile.open(dist, indexOf(refs.slice(1)), lookup())).toBeNull();
    expect(ListBodiesFile.open(dist, indexOf(["4", "5", "3", "2", "1"]), lookup())).toBeNull();
    manifest[episodeFile("3", "json")] = nodeEtag("an edited body");
    expect(ListBodiesFile.open(dist, indexOf(refs), lookup())).toBeNull();
    delete manifest[episodeFile("3", "json")];
    expect(ListBodiesFile.open(dist, indexOf(refs), lookup())).toBeNull();
  });
});
