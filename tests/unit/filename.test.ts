import { describe, expect, it } from "vitest";
import { audioFileName, contentDisposition, slugify } from "../../functions/http/filename.ts";

const ID = "8d9c1151-071d-428b-a81a-f51f72aedac7";
const ep = (title: string, episodeNumber: number | null = 42) => ({ id: ID, episodeNumber, title });

/** RFC 8187 attr-char, plus % for pct-encoded octets. */
const ATTR_CHARS = /^[A-Za-z0-9!#$&+\-.^_`|~%]+$/;

function extendedName(header: string): string | null {
  const m = /; filename\*=UTF-8''([^;]+)$/.exec(header);
  return m ? decodeURIComponent(m[1]!) : null;
}

describe("download file names (docs/api.md#get-v1episodesrefaudio)", () => {
  it("the name is <show-slug>-<three-digit number>-<title-slug>.mp3", () => {
    expect(audioFileName("signal-and-noise", ep("Rust in the Kernel", 10))).toBe("signal-and-noise-010-rust-in-the-kernel.mp3");
    expect(audioFileName("signal-and-noise", ep("Rust in the Kernel", 1234))).toBe("signal-and-noise-1234-rust-in-the-kernel.mp3");
  });

  it("an episode without a number is named by the start of its UUID", () => {
    expect(audioFileName("show", ep("Bonus", null))).toBe("show-8d9c1151-bonus.mp3");
  });

  it("accents are folded and other characters dropped in the ASCII slug", () => {
    expect(slugify("Café Wi-Fi & Passkeys!")).toBe("cafe-wi-fi-passkeys");
    expect(slugify("  --Hello,   World--  ")).toBe("hello-world");
  });

  it("a long title is cut to 60 characters without a trailing hyphen", () => {
    const slug = slugify("word ".repeat(40));
    expect(slug.length).toBeLessThanOrEqual(60);
    expect(slug).not.toMatch(/-$/);
    expect(slug.startsWith("word-word")).toBe(true);
  });

  it("a title with no ASCII letters leaves just the show and number", () => {
    expect(audioFileName("show", ep("日本語のタイトル"))).toBe("show-042.mp3");
  });
});

describe("Content-Disposition (RFC 6266, RFC 8187)", () => {
  it("an ASCII title gives a plain quoted filename and no filename*", () => {
    expect(contentDisposition("attachment", "signal-and-noise", ep("Rust in the Kernel"))).toBe(
      'attachment; filename="signal-and-noise-042-rust-in-the-kernel.mp3"',
    );
  });

  it("the inline type is written as inline", () => {
    expect(contentDisposition("inline", "show", ep("Hello"))).toBe('inline; filename="show-042-hello.mp3"');
  });

  it("quotes, slashes and backslashes in a title never reach the file name", () => {
    const header = contentDisposition("attachment", "show", ep('Say "hi" / bye \\ ../../etc/passwd'));
    expect(header).toBe('attachment; filename="show-042-say-hi-bye-etc-passwd.mp3"');
    const quoted = /filename="([^"]*)"/.exec(header)![1]!;
    expect(quoted).not.toMatch(/["\\/]/);
  });

  it("a non-ASCII title adds filename* with the letters kept, percent-encoded in UTF-8", () => {
    const header = contentDisposition("attachment", "show", ep("Café über Zürich"));
    expect(header).toMatch(/^attachment; filename="show-042-cafe-uber-zurich\.mp3"; filename\*=UTF-8''/);
    expect(extendedName(header)).toBe("show-042-café-über-zürich.mp3");
    expect(/filename\*=UTF-8''(.+)$/.exec(header)![1]).toMatch(ATTR_CHARS);
  });

  it("a non-Latin title is readable through filename* while filename stays ASCII", () => {
    const header = contentDisposition("attachment", "show", ep("Нейросети и «ключи»"));
    expect(/filename="([^"]*)"/.exec(header)![1]).toMatch(/^[\x20-\x7e]+$/);
    expect(extendedName(header)).toBe("show-042-нейросети-и-ключи.mp3");
  });

  it("apostrophes and parentheses in a non-ASCII title are never left raw in filename*", () => {
    const header = contentDisposition("attachment", "show", ep("L'été (encore) *chaud*"));
    const value = /filename\*=UTF-8''(.+)$/.exec(header)![1]!;
    expect(value).toMatch(ATTR_CHARS);
    expect(value).not.toMatch(/['()*]/);
  });

  it("an episode without a number uses the start of its UUID in both names", () => {
    const header = contentDisposition("attachment", "show", ep("Été", null));
    expect(header).toContain('filename="show-8d9c1151-ete.mp3"');
    expect(extendedName(header)).toBe("show-8d9c1151-été.mp3");
  });
});
