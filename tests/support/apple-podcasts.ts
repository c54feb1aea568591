// The rules of Apple's podcast RSS guide ("A Podcaster's Guide to RSS", Apple Podcasts for Creators)
// that a feed's text can be held to, as a checker independent of the code that writes the feed: it
// parses with fast-xml-parser and takes Apple's categories from podcast-partytime's copy of the
// list, not from src/shared/apple-categories.ts. Each rule gives a problem naming where it broke;
// an empty list is a pass. What the text cannot tell (the enclosure's bytes are the file's, the
// cover's pixels) the HTTP tests check against the served files.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { itunesCategoriesSourceOfTruth } from "podcast-partytime/dist/parser/itunes-categories.js";

const ITUNES_NAMESPACE = "http://www.itunes.com/dtds/podcast-1.0.dtd";
/** The enclosure types Apple Podcasts accepts. */
const ENCLOSURE_TYPES = ["audio/x-m4a", "audio/mpeg", "video/quicktime", "video/mp4", "video/x-m4v", "application/pdf"];
/** ISO 639 two-letter codes, optionally with a region ("en", "en-us"). */
const LANGUAGE = /^[a-z]{2}(?:-[a-z]{2})?$/i;
const DESCRIPTION_MAX_BYTES = 4000;
const POSITIVE_INTEGER = /^[1-9][0-9]*$/;

type Node = Record<string, any>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => name === "item" || name === "itunes:category",
});

/** An element's text, whether the parser gave a bare string or a node with attributes. */
function text(node: unknown): string | undefined {
  if (node === undefined || node === null) return undefined;
  if (typeof node === "string") return node;
  const t = (node as Node)["#text"];
  return t === undefined ? "" : String(t);
}

function categoryProblems(channel: Node): string[] {
  const categories: Node[] = channel["itunes:category"] ?? [];
  if (categories.length === 0) return ["channel: no itunes:category"];
  const problems: string[] = [];
  categories.forEach((c, i) => {
    const name = c["@text"];
    const known = itunesCategoriesSourceOfTruth.find((k) => k.name === name);
    if (known === undefined) return void problems.push(`channel: itunes:category[${i}] "${name}" is not an Apple Podcasts category`);
    const subs: Node[] = c["itunes:category"] ?? [];
    if (subs.length > 1) problems.push(`channel: itunes:category[${i}] has more than one subcategory`);
    for (const s of subs) {
      if (!known.subCategories.includes(s["@text"])) problems.push(`channel: itunes:category[${i}] "${s["@text"]}" is not a subcategory of ${name}`);
    }
  });
  return problems;
}

function channelProblems(channel: Node): string[] {
  const problems: string[] = [];
  if (!text(channel.title)) problems.push("channel: no title");
  const description = text(channel.description);
  if (!description) problems.push("channel: no description");
  else if (new TextEncoder().encode(description).byteLength > DESCRIPTION_MAX_BYTES) problems.push("channel: description over 4000 bytes");
  if (!LANGUAGE.test(text(channel.language) ?? "")) problems.push(`channel: language "${text(channel.language)}" is not an ISO 639 code`);
  const image = channel["itunes:image"]?.["@href"];
  if (typeof image !== "string") problems.push("channel: no itunes:image href");
  else if (!/^https?:\/\/[^?#]+\.(?:jpe?g|png)(?:[?#].*)?$/i.test(image)) problems.push(`channel: itunes:image "${image}" is not an http(s) .jpg or .png URL`);
  problems.push(...categoryProblems(channel));
  const explicit = text(channel["itunes:explicit"]);
  if (explicit !== "true" && explicit !== "false") problems.push(`channel: itunes:explicit is "${explicit}", not true or false`);
  const type = text(channel["itunes:type"]);
  if (type !== undefined && type !== "episodic" && type !== "serial") problems.push(`channel: itunes:type "${type}"`);
  return problems;
}

function itemProblems(item: Node, i: number, serial: boolean): string[] {
  const at = `item[${i}]`;
  const problems: string[] = [];
  if (!text(item.title)) problems.push(`${at}: no title`);
  // An item without an enclosure is no episode to Apple or to podcast apps (they skip it, as
  // podcast-partytime does); every one that has one is held to the rules.
  const enclosure: Node | undefined = item.enclosure;
  if (enclosure !== undefined) {
    if (!/^https?:\/\//.test(enclosure["@url"] ?? "")) problems.push(`${at}: enclosure url "${enclosure["@url"]}" is not http(s)`);
    if (!POSITIVE_INTEGER.test(enclosure["@length"] ?? "")) problems.push(`${at}: enclosure length "${enclosure["@length"]}" is not a size in bytes`);
    if (!ENCLOSURE_TYPES.includes(enclosure["@type"])) problems.push(`${at}: enclosure type "${enclosure["@type"]}" is not one Apple accepts`);
  }
  if (!text(item.guid)) problems.push(`${at}: no guid`);
  const pubDate = text(item.pubDate);
  if (pubDate !== undefined && Number.isNaN(Date.parse(pubDate))) problems.push(`${at}: pubDate "${pubDate}" is not an RFC 2822 date`);
  const explicit = text(item["itunes:explicit"]);
  if (explicit !== undefined && explicit !== "true" && explicit !== "false") problems.push(`${at}: itunes:explicit "${explicit}"`);
  const episodeType = text(item["itunes:episodeType"]);
  if (episodeType !== undefined && !["full", "trailer", "bonus"].includes(episodeType)) problems.push(`${at}: itunes:episodeType "${episodeType}"`);
  for (const tag of ["itunes:episode", "itunes:season"]) {
    const v = text(item[tag]);
    if (v !== undefined && !POSITIVE_INTEGER.test(v)) problems.push(`${at}: ${tag} "${v}" is not a non-zero integer`);
  }
  if (serial && text(item["itunes:episode"]) === undefined) problems.push(`${at}: a serial show needs itunes:episode on every episode`);
  return problems;
}

/** The broken rules of Apple's guide in a feed's text; [] when it passes. */
export function appleFeedProblems(xml: string): string[] {
  if (XMLValidator.validate(xml) !== true) return ["not well-formed XML"];
  const doc = parser.parse(xml) as Node;
  const rss: Node | undefined = doc.rss;
  if (rss === undefined) return ["no rss root"];
  const problems: string[] = [];
  if (rss["@version"] !== "2.0") problems.push(`rss version "${rss["@version"]}"`);
  if (rss["@xmlns:itunes"] !== ITUNES_NAMESPACE) problems.push("rss: the itunes namespace is not declared as Apple spells it");
  const channel: Node = rss.channel ?? {};
  problems.push(...channelProblems(channel));
  const items: Node[] = channel.item ?? [];
  const serial = text(channel["itunes:type"]) === "serial";
  if (!items.some((item) => item.enclosure !== undefined)) problems.push("channel: no item with an enclosure");
  items.forEach((item, i) => problems.push(...itemProblems(item, i, serial)));
  const guids = items.map((item) => text(item.guid));
  guids.forEach((g, i) => {
    if (g !== undefined && guids.indexOf(g) !== i) problems.push(`item[${i}]: guid "${g}" repeats item[${guids.indexOf(g)}]`);
  });
  return problems;
}
