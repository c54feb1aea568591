// The default oEmbed response of every episode (SITE_FILES.oembed in src/shared/layout.ts). The shim serves it
// as is, or derives the maxwidth/maxheight variant from it (src/shared/oembed.ts).
import type { APIRoute, GetStaticPaths } from "astro";
import { loadSite } from "../../../generate/site.ts";
import { paramsOf, PAGE_ROUTES, SITE_FILES } from "../../../shared/layout.ts";
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
    return { params: paramsOf(PAGE_ROUTES.oembed, SITE_FILES.oembed(e.ref)), props: { body: JSON.stringify(body) } };
  });
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => new Response(props.body as string);
