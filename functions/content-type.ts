// Content-Type of a static build output, by extension.
import { TYPES } from "./http.ts";

const BY_EXTENSION: Record<string, string> = {
  html: TYPES.html,
  json: TYPES.json,
  txt: TYPES.text,
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  ico: "image/x-icon",
  xml: "application/xml; charset=utf-8",
  webmanifest: "application/manifest+json",
  woff2: "font/woff2",
  mp3: TYPES.mp3,
};

export function contentTypeOf(path: string): string {
  const dot = path.lastIndexOf(".");
  return (dot >= 0 && BY_EXTENSION[path.slice(dot + 1).toLowerCase()]) || "application/octet-stream";
}
