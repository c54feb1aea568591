// Entity tags (RFC 9110 §8.8.3): one form for every tag of the service (strongEtag), computed by the
// portable etagOf (crypto.subtle) and by the Node-only nodeEtag (node:crypto) of the build's
// manifest and the Node entry; the two must give the same tag for the same bytes, always. The
// audio's tag is made at build time from the file's SHA-256, and is the same tag again.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { encodedEtag, etagOf, strongEtag } from "../../src/shared/etag.ts";
import { nodeEtag } from "../../src/node/etag.ts";
import { audioEtag } from "../../src/generate/episode-writer.ts";
import { prng } from "../../scripts/synthetic-content.ts";

const TAG_FORM = /^"[A-Za-z0-9_-]{22}"$/;
const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest();

const random = prng(20260601);
const bytesOf = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(random() * 256));

const samples: [name: string, body: Uint8Array][] = [
  ["no bytes", new Uint8Array()],
  ...Array.from({ length: 256 }, (_, b): [string, Uint8Array] => [`the byte ${b}`, new Uint8Array([b])]),
  // Around SHA-256's 64-byte blocks and its padding boundary (55/56 bytes).
  ...[55, 56, 63, 64, 65, 127, 128, 129].map((n): [string, Uint8Array] => [`${n} bytes`, bytesOf(n)]),
  ...Array.from({ length: 60 }, (): [string, Uint8Array] => {
    const n = Math.floor(random() * 100 * 1024);
    return [`${n} random bytes`, bytesOf(n)];
  }),
  ["100 KB", bytesOf(100 * 1024)],
];

const texts = ["", "hello", '{"title":"Café über naïve — 東京"}', "emoji 🎙️ and a combining é", "\u0000\n\r\t", "ß".repeat(5000)];

describe("the one ETag form (strongEtag)", () => {
  it("is the first 16 bytes of a SHA-256 digest in base64url, quoted: strong", () => {
    const digest = sha256("hello");
    expect(strongEtag(digest)).toBe(`"${digest.subarray(0, 16).toString("base64url")}"`);
    expect(strongEtag(digest)).toMatch(TAG_FORM);
  });

  it("refuses anything that is not a SHA-256 digest", () => {
    expect(() => strongEtag(new Uint8Array(16))).toThrow();
    expect(() => strongEtag(new Uint8Array(33))).toThrow();
  });

  it("pins known vectors, for etagOf and nodeEtag alike", async () => {
    const vectors: [string, string][] = [
      ["", '"47DEQpj8HBSa-_TImW-5JA"'],
      ["hello", '"LPJNul-wow4m6Dsqxbning"'],
    ];
    for (const [text, tag] of vectors) {
      expect(await etagOf(text)).toBe(tag);
      expect(nodeEtag(text)).toBe(tag);
    }
  });
});

describe("etagOf (portable, crypto.subtle) and nodeEtag (Node, node:crypto) give identical tags", () => {
  it.each(samples.map(([name, body]) => [name, body] as const))("%s", async (_name, body) => {
    const tag = nodeEtag(body);
    expect(tag).toMatch(TAG_FORM);
    expect(await etagOf(body)).toBe(tag);
    expect(tag).toBe(strongEtag(sha256(body)));
  });

  it.each(texts)("UTF-8 text %j: as a string or as its bytes", async (text) => {
    const bytes = new TextEncoder().encode(text);
    const tag = await etagOf(bytes);
    expect(await etagOf(text)).toBe(tag);
    expect(nodeEtag(text)).toBe(tag);
    expect(nodeEtag(bytes)).toBe(tag);
  });

  it("a view into a larger buffer is tagged by its own bytes only", async () => {
    const whole = bytesOf(1000);
    const view = whole.subarray(100, 200);
    expect(nodeEtag(view)).toBe(nodeEtag(whole.slice(100, 200)));
    expect(await etagOf(view)).toBe(nodeEtag(view));
  });

  it("different bodies give different tags", async () => {
    expect(await etagOf('{"a":1}')).not.toBe(await etagOf('{"a":2}'));
    expect(new Set(samples.map(([, b]) => nodeEtag(b))).size).toBe(samples.length);
  });
});

describe("the audio's ETag (audioEtag, at build time)", () => {
  it("is strongEtag of the file's SHA-256: the tag of its bytes, the same in every build", async () => {
    for (const [, body] of samples.slice(0, 20)) {
      const tag = audioEtag({ key: "x.mp3", bytes: body.byteLength, sha256: sha256(body).toString("hex") });
      expect(tag).toBe(strongEtag(sha256(body)));
      expect(tag).toBe(await etagOf(body));
    }
  });

  it("depends on the bytes only, not on the key or the size given", () => {
    const hex = sha256("audio").toString("hex");
    expect(audioEtag({ key: "a.mp3", bytes: 5, sha256: hex })).toBe(audioEtag({ key: "b.mp3", bytes: null, sha256: hex }));
  });

  it("without a SHA-256 (an object known by key and size) is the tag of `<key>\\n<bytes>`", async () => {
    const tag = audioEtag({ key: "shows/ep-1.mp3", bytes: 1234, sha256: null });
    expect(tag).toBe(await etagOf("shows/ep-1.mp3\n1234"));
    expect(tag).toMatch(TAG_FORM);
    expect(audioEtag({ key: "shows/ep-1.mp3", bytes: 1235, sha256: null })).not.toBe(tag);
    expect(audioEtag({ key: "shows/ep-2.mp3", bytes: 1234, sha256: null })).not.toBe(tag);
    expect(audioEtag({ key: "shows/ep-1.mp3", bytes: null, sha256: null })).toBe(await etagOf("shows/ep-1.mp3\n"));
  });
});

describe("encodedEtag (docs/api.md#compression)", () => {
  it("gives each coding its own strong tag: the plain tag with the coding's suffix inside the quotes", async () => {
    const plain = await etagOf("body");
    expect(encodedEtag(plain, "br")).toBe(`${plain.slice(0, -1)}.br"`);
    expect(encodedEtag(plain, "gzip")).toBe(`${plain.slice(0, -1)}.gz"`);
    for (const c of ["br", "gzip"] as const) expect(encodedEtag(plain, c)).toMatch(/^"[A-Za-z0-9_.-]+"$/);
    expect(new Set([plain, encodedEtag(plain, "br"), encodedEtag(plain, "gzip")]).size).toBe(3);
  });
});
