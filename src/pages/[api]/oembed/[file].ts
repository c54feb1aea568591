// The default oEmbed response of every episode (dist/_api/oembed/<ref>.json). The shim serves it
// as is, or derives the maxwidth/maxheight variant from it (src/lib/oembed.ts).
import type { APIRoute, GetStaticPaths } from "astro";
import { loadSite } from "../../../generate/site.ts";
import { API_PREFIX, json } from "../../../generate/render.ts";
import { oembedOf } from "../../../shared/oembed.ts";

export const getStaticPaths = (async () => {
  const site = await loadSite();
  const home = `${site.config.siteUrl}/`;
  return site.episodes.map((e) => {
    const r = e.resource;
    const body = oembedOf({
      title: r.title,
      embedUrl: r.links.embed,
      providerName: site.podcast.title,
      providerUrl: home,
      authorName: site.podcast.author,
      authorUrl: home,
      coverUrl: r.coverImageUrl ?? site.podcast.coverImageUrl ?? null,
    });
    return { params: { api: API_PREFIX, file: `${e.ref}.json` }, props: { body: json(body) } };
  });
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => new Response(props.body as string);
