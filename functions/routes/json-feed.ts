// The JSON Feed, {site_url}/feed.json (docs/api.md#json-feed): the RSS feed's items as JSON Feed 1.1,
// composed from the same index entries and built JSON bodies (./feed.ts), so both feeds hold the
// same episodes at the same time. Members without a value are left out, as JSON Feed asks.
// Portable: no Node or Workers imports.
import { MEDIA } from "../../src/shared/media-types.ts";
import type { Podcast } from "../../src/shared/schema/content.ts";
import { descriptionOf, type FeedEpisode } from "./feed.ts";

export const JSON_FEED_VERSION = "https://jsonfeed.org/version/1.1";

export interface JsonFeedChannel {
  show: Podcast;
  /** {site_url}/feed.json: feed_url. */
  feedUrl: string;
  /** The home page: home_page_url. */
  siteHome: string;
}

interface Author {
  name: string;
  url?: string;
}

interface Attachment {
  url: string;
  mime_type: string;
  size_in_bytes?: number;
  duration_in_seconds?: number;
}

interface Item {
  id: string;
  url: string;
  title: string;
  content_text: string;
  summary?: string;
  image?: string;
  date_published: string;
  authors: Author[];
  attachments?: Attachment[];
}

/** The episode's MP3 through the API, as the RSS enclosure gives it; none while it has no audio. */
function attachmentsOf({ entry, episode: ep }: FeedEpisode): Attachment[] | undefined {
  if (entry.audio === null) return undefined;
  const attachment: Attachment = { url: ep.links.audio, mime_type: MEDIA.mp3 };
  if (entry.audio.bytes !== null) attachment.size_in_bytes = entry.audio.bytes;
  if (ep.durationSeconds !== null) attachment.duration_in_seconds = ep.durationSeconds;
  return [attachment];
}

function item(e: FeedEpisode): Item {
  const ep = e.episode;
  const attachments = attachmentsOf(e);
  return {
    id: ep.id,
    url: ep.links.page,
    title: ep.title,
    content_text: descriptionOf(ep),
    ...(ep.summary === null ? {} : { summary: ep.summary }),
    ...(ep.coverImageUrl === null ? {} : { image: ep.coverImageUrl }),
    date_published: new Date(e.entry.p).toISOString(),
    authors: [{ name: ep.hosts.a }, { name: ep.hosts.b }],
    ...(attachments === undefined ? {} : { attachments }),
  };
}

/** The whole document; `episodes` newest first, already cut to FEED_LIMIT. */
export function feedJson(channel: JsonFeedChannel, episodes: readonly FeedEpisode[]): string {
  const { show } = channel;
  return JSON.stringify({
    version: JSON_FEED_VERSION,
    title: show.title,
    home_page_url: channel.siteHome,
    feed_url: channel.feedUrl,
    description: show.description,
    ...(show.coverImageUrl === undefined ? {} : { icon: show.coverImageUrl }),
    authors: [{ name: show.author, url: channel.siteHome }],
    language: show.language,
    items: episodes.map(item),
  });
}
