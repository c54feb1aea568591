// What the feed says about its announcements (docs/api.md#feed): the WebSub hub it is published to,
// in the channel (`atom:link rel="hub"`) and in the Link header of /feed.xml with the feed's own URL
// (`rel="self"`), as WebSub discovery asks; and `podcast:podping` when Podping is told of each new
// version. Taken from the same configuration as the announcements themselves
// (functions/announce/announce.ts), so the feed never names a hub that is not told. Portable.
import type { AnnounceConfig } from "../../src/shared/config.ts";
import { element, type Xml } from "../../src/shared/xml.ts";

/** The channel's elements that declare the hub and Podping (none when neither is configured). */
export function announcementElements(config: AnnounceConfig): Xml[] {
  const out: Xml[] = [];
  if (config.websubHub !== null) out.push(element("atom:link", { href: config.websubHub, rel: "hub" }));
  if (config.podping !== null) out.push(element("podcast:podping", { usesPodping: "true" }));
  return out;
}

/** The feed's Link header entries for WebSub discovery, or null without a hub. */
export function hubLinks(config: AnnounceConfig, feedUrl: string): string | null {
  return config.websubHub === null ? null : `<${config.websubHub}>; rel="hub", <${feedUrl}>; rel="self"`;
}
