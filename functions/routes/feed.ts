// The podcast feed, {site_url}/feed.xml (docs/api.md#feed): RSS 2.0 with the iTunes, Podcasting 2.0
// and Atom namespaces, composed at request time from the published episodes' built JSON bodies
// (what the API serves), so the feed and the API never disagree and a scheduled episode enters the
// feed at its time without a rebuild. Portable: no Node or Workers imports.
import { MEDIA } from "../../src/shared/media-types.ts";
import type { Podcast } from "../../src/shared/schema/content.ts";
import type { EpisodeResource } from "../../src/shared/schema/api.ts";
import type { IndexEntry } from "../../src/shared/schema/build-index.ts";
import { UPDATE_FREQUENCIES } from "../../src/shared/update-frequency.ts";
import { timedFormUrl } from "../../src/shared/links.ts";
import { formsOf, TIMED_FORMS } from "../../src/shared/timed.ts";
import type { TimedEtags } from "../../src/shared/timed-etags.ts";
import { element, textElement, xmlDocument, type Xml } from "../../src/shared/xml.ts";
import type { AnnounceConfig } from "../../src/shared/config.ts";
import { announcementElements } from "../announce/feed-hub.ts";

/** The channel's generator: what made the feed. */
export const GENERATOR = "episode-service";

const NAMESPACES = {
  "xmlns:itunes": "http://www.itunes.com/dtds/podcast-1.0.dtd",
  "xmlns:podcast": "https://podcastindex.org/namespace/1.0",
  "xmlns:atom": "http://www.w3.org/2005/Atom",
};

export interface FeedChannel {
  show: Podcast;
  /** {site_url}/feed.xml: atom:link rel="self". */
  feedUrl: string;
  /** The home page: the channel's link. */
  siteHome: string;
  /** podcast:guid, the UUIDv5 of the feed URL (src/shared/uuid-v5.ts). */
  guid: string;
  /** Where new versions are announced: the hub and Podping the channel declares (./feed-hub.ts). */
  announce: AnnounceConfig;
}

export interface FeedEpisode {
  entry: IndexEntry;
  /** The episode's API body. */
  episode: EpisodeResource;
  /** Which of its parts are timed (non-null tags): the forms its item links. */
  timed: TimedEtags;
}

/** RFC 822 date-time (RFC 1123's four-digit year, in GMT), as RSS 2.0 asks. */
export function rfc822(ms: number): string {
  return new Date(ms).toUTCString();
}

/** A description is never empty: the description, else the summary, else the title. */
export function descriptionOf(ep: EpisodeResource): string {
  return ep.description ?? ep.summary ?? ep.title;
}

/**
 * podcast:transcript once per form the episode has, the timed ones first (WebVTT is what Apple
 * Podcasts reads), and podcast:chapters when its chapters are timed.
 */
function transcriptTags(entry: IndexEntry, ep: EpisodeResource, timed: TimedEtags): Xml[] {
  const tags: Xml[] = [];
  if (timed.segments !== null) {
    for (const form of formsOf("segments")) tags.push(element("podcast:transcript", { url: timedFormUrl(ep.links.self, form), type: TIMED_FORMS[form].feedType }));
  }
  if (entry.transcript) tags.push(element("podcast:transcript", { url: ep.links.transcript, type: MEDIA.text }));
  if (timed.chapters !== null) tags.push(element("podcast:chapters", { url: timedFormUrl(ep.links.self, "chapters"), type: TIMED_FORMS.chapters.feedType }));
  return tags;
}

/** "true" or "false", the only values Apple reads for itunes:explicit. */
function explicitTag(show: Podcast): Xml {
  return textElement("itunes:explicit", show.explicit ? "true" : "false");
}

/** itunes:season and podcast:season, when the episode belongs to one. */
function seasonTags(season: number | null): Xml[] {
  return season === null ? [] : [textElement("itunes:season", season), textElement("podcast:season", season)];
}

function item(show: Podcast, { entry, episode: ep, timed }: FeedEpisode): Xml {
  return element("item", {}, [
    textElement("title", ep.title),
    textElement("link", ep.links.page),
    textElement("guid", ep.id, { isPermaLink: "false" }),
    textElement("pubDate", rfc822(entry.p)),
    textElement("description", descriptionOf(ep)),
    // bytes may be unknown (an object known by its key only): RSS asks for 0 then.
    entry.audio === null ? null : element("enclosure", { url: ep.links.audio, length: entry.audio.bytes ?? 0, type: MEDIA.mp3 }),
    ep.durationSeconds === null ? null : textElement("itunes:duration", ep.durationSeconds),
    ep.episodeNumber === null ? null : textElement("itunes:episode", ep.episodeNumber),
    textElement("itunes:episodeType", "full"),
    ...seasonTags(ep.season),
    ep.coverImageUrl === null ? null : element("itunes:image", { href: ep.coverImageUrl }),
    explicitTag(show),
    ...transcriptTags(entry, ep, timed),
    textElement("podcast:person", ep.hosts.a, { role: "host" }),
    textElement("podcast:person", ep.hosts.b, { role: "host" }),
  ]);
}

/** itunes:category per category of the show, its subcategory nested, in podcast.json's order. */
function categoryTags(show: Podcast): Xml[] {
  return (show.categories ?? []).map(({ category, subcategory }) =>
    element("itunes:category", { text: category }, subcategory === undefined ? [] : [element("itunes:category", { text: subcategory })]),
  );
}

/** The show's cover as Apple reads it (itunes:image) and as RSS 2.0 readers do (image), when it has one. */
function coverTags(show: Podcast, siteHome: string): Xml[] {
  if (show.coverImageUrl === undefined) return [];
  return [
    element("itunes:image", { href: show.coverImageUrl }),
    element("image", {}, [textElement("url", show.coverImageUrl), textElement("title", show.title), textElement("link", siteHome)]),
  ];
}

/** itunes:owner, where directories send the ownership check, when podcast.json gives an address. */
function ownerTag(show: Podcast): Xml | null {
  if (show.ownerEmail === undefined) return null;
  return element("itunes:owner", {}, [textElement("itunes:name", show.author), textElement("itunes:email", show.ownerEmail)]);
}

/** podcast:locked (yes: other hosting platforms must not import the feed), when podcast.json says. */
function lockedTag(show: Podcast): Xml | null {
  if (show.locked === undefined) return null;
  return textElement("podcast:locked", show.locked ? "yes" : "no", { owner: show.ownerEmail });
}

/** podcast:updateFrequency: the release schedule as a recurrence rule and a label, when podcast.json names one. */
function updateFrequencyTag(show: Podcast): Xml | null {
  if (show.updateFrequency === undefined) return null;
  const { rrule, label } = UPDATE_FREQUENCIES[show.updateFrequency];
  return textElement("podcast:updateFrequency", label, { rrule });
}

/** The channel's own tags, before its items. */
function channelTags(channel: FeedChannel, newest: FeedEpisode | undefined): (Xml | null)[] {
  const { show } = channel;
  return [
    textElement("title", show.title),
    textElement("link", channel.siteHome),
    textElement("description", show.description),
    textElement("language", show.language),
    element("atom:link", { href: channel.feedUrl, rel: "self", type: MEDIA.rss }),
    ...announcementElements(channel.announce),
    newest === undefined ? null : textElement("lastBuildDate", rfc822(newest.entry.p)),
    textElement("generator", GENERATOR),
    textElement("itunes:author", show.author),
    ...coverTags(show, channel.siteHome),
    ...categoryTags(show),
    textElement("itunes:type", show.type),
    explicitTag(show),
    ownerTag(show),
    textElement("podcast:guid", channel.guid),
    textElement("podcast:medium", "podcast"),
    lockedTag(show),
    updateFrequencyTag(show),
  ];
}

/** The whole feed document; `episodes` newest first, already cut to FEED_LIMIT. */
export function feedXml(channel: FeedChannel, episodes: readonly FeedEpisode[]): string {
  const items = episodes.map((e) => item(channel.show, e));
  return xmlDocument(element("rss", { version: "2.0", ...NAMESPACES }, [element("channel", {}, [...channelTags(channel, episodes[0]), ...items])]));
}
