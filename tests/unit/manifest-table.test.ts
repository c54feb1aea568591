// The compact manifest of the Node entry (functions/data/manifest-table.ts) answers every path exactly
// as the parsed manifest object does: the build's tags, other tags, escapes, repeats, absent paths;
// read whole (parse) or in pieces cut anywhere (parseChunks).
import { describe, expect, it } from "vitest";
import { ManifestTable } from "../../functions/data/manifest-table.ts";
import { prng } from "../../scripts/synthetic-content.ts";

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** A tag as the build writes it: 16 bytes in 22 base64url characters, quoted. */
function buildTag(rand: () => number): string {
  const bytes = Uint8Array.from({ length: 16 }, () => Math.floor(rand() * 256));
  return `"${Buffer.from(bytes).toString("base64url")}"`;
}

function manifestOf(episodes: number, rand: () => number): Record<string, string> {
  const m: Record<string, string> = { "404.html": buildTag(rand), "_api/discovery.json": buildTag(rand), "_astro/app.Bx3.css": buildTag(rand), favicon: buildTag(rand) };
  for (let n = 1; n <= episodes; n++) {
    const ref = n % 50 === 0 ? `0000000${n}-9d37-4e27-bea5-fc6d6cdf3db3` : String(n);
    for (const p of [`_api/episodes/${ref}.json`, `_api/episodes/${ref}.script.json`, `_api/episodes/${ref}.transcript.txt`, `_api/oembed/${ref}.json`, `embed/${ref}.html`, `episodes/${ref}.html`]) m[p] = buildTag(rand);
  }
  return m;
}

describe("ManifestTable", () => {
  it("answers every path of a build's manifest with its tag, and nothing for other paths", () => {
    const m = manifestOf(300, prng(7));
    const table = ManifestTable.parse(JSON.stringify(m));
    for (const [path, tag] of Object.entries(m)) expect(table.etagOf(path)).toBe(tag);
    for (const path of ["", "nope", "_api/episodes/301.json", "_api/episodes/1", "_api/episodes/1.json.br", "episodes/1.json", "_astro/app.css", "/404.html", "favicon.svg"]) {
      expect(table.etagOf(path)).toBeUndefined();
    }
  });

  it("keeps tags of other forms as they are, including 22 characters that are not 16 bytes", () => {
    // The last of 22 base64url characters carries 2 bits of the 16th byte: "B" sets a bit beyond them.
    const m = { "a.json": 'W/"weak"', "b.json": '"AAAAAAAAAAAAAAAAAAAAAB"', "c.json": '"AAAAAAAAAAAAAAAAAAAAAA"', "d.json": `"${B64.slice(0, 21)}A"`, "e.json": '"short"' };
    const table = ManifestTable.parse(JSON.stringify(m));
    for (const [path, tag] of Object.entries(m)) expect(table.etagOf(path)).toBe(tag);
  });

  it("reads escaped paths, formatted JSON and repeated paths as JSON.parse does", () => {
    const text = '{\n  "a\\"b/c.json": "\\"AAAAAAAAAAAAAAAAAAAAAA\\"",\n  "x\\u00e9.html": "\\"BBBBBBBBBBBBBBBBBBBBBA\\"",\n  "x\\u00e9.html": "\\"CCCCCCCCCCCCCCCCCCCCCA\\""\n}\n';
    const table = ManifestTable.parse(text);
    const object = JSON.parse(text) as Record<string, string>;
    expect(Object.keys(object)).toHaveLength(2);
    for (const [path, tag] of Object.entries(object)) expect(table.etagOf(path)).toBe(tag);
    const compact = ManifestTable.parse('{"x\\u00e9.html":"\\"BBBBBBBBBBBBBBBBBBBBBA\\"","xé.html":"\\"CCCCCCCCCCCCCCCCCCCCCA\\""}');
    expect(compact.etagOf("xé.html")).toBe('"CCCCCCCCCCCCCCCCCCCCCA"');
  });

  it("refuses a manifest that is not a JSON object", () => {
    expect(() => ManifestTable.parse("[1,2]")).toThrow();
    expect(() => ManifestTable.parse('{"a":')).toThrow();
  });

  describe("parseChunks", () => {
    /** The text in pieces of `size` characters, as many times as asked. */
    const pieces = (text: string, size: number) =>
      async function* () {
        for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
      };

    it("answers as parse does, wherever the pieces cut the text", async () => {
      const m = manifestOf(60, prng(11));
      const texts = [JSON.stringify(m), '{\n  "a\\"b/c.json": "\\"AAAAAAAAAAAAAAAAAAAAAA\\"",\n  "x\\u00e9.html": "\\"BBBBBBBBBBBBBBBBBBBBBA\\"",\n  "x\\u00e9.html": "W/\\"w\\""\n}\n'];
      for (const text of texts) {
        const object = JSON.parse(text) as Record<string, string>;
        for (const size of [1, 7, 64, 1000, text.length]) {
          const table = await ManifestTable.parseChunks(pieces(text, size));
          for (const [path, tag] of Object.entries(object)) expect(table.etagOf(path)).toBe(tag);
          expect(table.etagOf("_api/episodes/61.json")).toBeUndefined();
        }
      }
    });

    it("refuses what parse refuses", async () => {
      for (const text of ["[1,2]", '{"a":', '{"a":"b"} x', ""]) {
        expect(() => ManifestTable.parse(text)).toThrow();
        await expect(ManifestTable.parseChunks(pieces(text, 3))).rejects.toThrow();
      }
    });
  });
});
