// The XML writer of the feed and the sitemap (src/shared/xml.ts): markup characters escaped in text
// and attributes, characters XML 1.0 forbids dropped, never CDATA; read back by a strict parser.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { element, escapeAttribute, escapeText, textElement, xmlDocument } from "../../src/shared/xml.ts";

const HOSTILE = `<b>Tom & "Jerry"</b> it's ]]> <![CDATA[x]]> &amp;`;

/** Parses strictly, with entities decoded, and returns the root object. */
function parse(doc: string): Record<string, any> {
  expect(XMLValidator.validate(doc)).toBe(true);
  return new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", parseTagValue: false, trimValues: false }).parse(doc);
}

describe("XML writer", () => {
  it("escapes &, <, >, \" and ' in text and attributes", () => {
    expect(escapeText(`a&b<c>d"e'f`)).toBe("a&amp;b&lt;c&gt;d&quot;e&apos;f");
    expect(escapeAttribute(`a&b<c>d"e'f`)).toBe("a&amp;b&lt;c&gt;d&quot;e&apos;f");
  });

  it("round-trips hostile text and attribute values through a strict parser, without CDATA", () => {
    const doc = xmlDocument(element("root", { title: HOSTILE }, [textElement("t", HOSTILE)]));
    expect(doc).not.toContain("<![CDATA[x");
    expect(doc.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    const root = parse(doc).root;
    expect(root.t).toBe(HOSTILE);
    expect(root["@title"]).toBe(HOSTILE);
  });

  it("drops the characters XML 1.0 forbids and keeps tab, line feed, astral characters", () => {
    const raw = "a\u0000b\u0001c\u0008d\u000Be\u000Cf\u001Fg\uFFFEh\uFFFFi\uD800j\uDFFFk\tl\nm🎙n";
    expect(escapeText(raw)).toBe("abcdefghijk\tl\nm🎙n");
    const root = parse(xmlDocument(textElement("t", raw))).t;
    expect(root).toBe("abcdefghijk\tl\nm🎙n");
  });

  it("keeps line breaks and tabs of attribute values through attribute normalization", () => {
    const value = "one\ntwo\tthree\r\nfour";
    expect(escapeAttribute(value)).toBe("one&#xA;two&#x9;three&#xD;&#xA;four");
  });

  it("leaves out null and undefined attributes and empty child lists make an empty element", () => {
    expect(element("e", { a: "1", b: null, c: undefined, d: 0 }).xml).toBe('<e a="1" d="0"/>');
    expect(element("e", {}, [null, textElement("x", 1), null]).xml).toBe("<e><x>1</x></e>");
  });
});
