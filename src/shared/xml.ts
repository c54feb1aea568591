// A small XML writer for the feed and the sitemap (docs/api.md#feed). Text only reaches the output
// through `text`/attribute values, escaped here; characters XML 1.0 forbids are dropped; nothing is
// ever wrapped in CDATA (a `]]>` in a title cannot end a section that does not exist). Portable.

/** Serialized XML. Only this module makes one, so unescaped text cannot be passed off as markup. */
export interface Xml {
  readonly xml: string;
}

/** An element's attributes; null and undefined values are left out. */
export type Attributes = Record<string, string | number | null | undefined>;

/** Characters outside XML 1.0's Char production (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF). */
const ILLEGAL = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const TEXT_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;", "\r": "&#xD;" };
/** In attributes, tab and line feed too: a parser would otherwise normalize them to spaces. */
const ATTRIBUTE_ENTITIES: Record<string, string> = { ...TEXT_ENTITIES, "\t": "&#x9;", "\n": "&#xA;" };

/** Text content: the five markup characters escaped (CR kept as a reference), illegal characters dropped. */
export function escapeText(value: string): string {
  return value.replace(ILLEGAL, "").replace(/[&<>"'\r]/g, (c) => TEXT_ENTITIES[c]!);
}

/** An attribute value, for double quotes. */
export function escapeAttribute(value: string): string {
  return value.replace(ILLEGAL, "").replace(/[&<>"'\r\n\t]/g, (c) => ATTRIBUTE_ENTITIES[c]!);
}

function open(name: string, attributes: Attributes): string {
  let out = `<${name}`;
  for (const key in attributes) {
    const v = attributes[key];
    if (v !== null && v !== undefined) out += ` ${key}="${escapeAttribute(String(v))}"`;
  }
  return out;
}

/** `<name attrs>children</name>`, or `<name attrs/>` without children; null children are skipped. */
export function element(name: string, attributes: Attributes = {}, children: readonly (Xml | null)[] = []): Xml {
  const inner = children.map((c) => (c === null ? "" : c.xml)).join("");
  return { xml: inner === "" ? `${open(name, attributes)}/>` : `${open(name, attributes)}>${inner}</${name}>` };
}

/** `<name attrs>text</name>`, the text escaped. */
export function textElement(name: string, value: string | number, attributes: Attributes = {}): Xml {
  return { xml: `${open(name, attributes)}>${escapeText(String(value))}</${name}>` };
}

/** A whole document: the UTF-8 declaration, the root element, a final newline. */
export function xmlDocument(root: Xml): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root.xml}\n`;
}
