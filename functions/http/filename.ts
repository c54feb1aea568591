// Download file names (docs/api.md#get-v1episodesrefaudio) and Content-Disposition (RFC 6266 with RFC 8187 filename*).

/** ASCII slug: accents folded, anything else dropped, words joined by hyphens. */
export function slugify(text: string, max = 60): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug.slice(0, max).replace(/-+$/, "");
}

type Named = { id: string; episodeNumber: number | null; title: string };

/** `<show>-<042 or id prefix>-<title>.mp3`, with the title already made safe for a file name. */
function fileName(showSlug: string, ep: Named, title: string): string {
  const ref = ep.episodeNumber === null ? ep.id.slice(0, 8) : String(ep.episodeNumber).padStart(3, "0");
  return `${[showSlug, ref, title].filter((s) => s.length > 0).join("-")}.mp3`;
}

/** `<show-slug>-042-<title-slug>.mp3`, or the episode id when it has no number. */
export function audioFileName(showSlug: string, ep: Named): string {
  return fileName(showSlug, ep, slugify(ep.title));
}

/** The same name with the title's letters kept as written (for filename*, RFC 8187). */
function unicodeFileName(showSlug: string, ep: Named): string {
  const title = ep.title.normalize("NFC").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "").slice(0, 60);
  return fileName(showSlug, ep, title);
}

function encodeRfc8187(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function contentDisposition(
  type: "attachment" | "inline",
  showSlug: string,
  ep: Named,
): string {
  const ascii = audioFileName(showSlug, ep);
  const unicode = unicodeFileName(showSlug, ep);
  // Non-ASCII titles get filename* too; plain ASCII keeps the simple form every client reads.
  const extended = /^[\x20-\x7e]*$/.test(ep.title) ? "" : `; filename*=UTF-8''${encodeRfc8187(unicode)}`;
  return `${type}; filename="${ascii}"${extended}`;
}
