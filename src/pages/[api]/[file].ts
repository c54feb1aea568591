// Site-wide build outputs under the private prefix: the index the shim loads and the discovery body.
import type { APIRoute, GetStaticPaths } from "astro";
import { loadSite } from "../../generate/site.ts";
import { BUILD_FILES, paramsOf, PAGE_ROUTES } from "../../shared/layout.ts";

export const getStaticPaths = (async () => {
  const site = await loadSite();
  return [
    { params: paramsOf(PAGE_ROUTES.api, BUILD_FILES.index), props: { body: JSON.stringify(site.index) } },
    { params: paramsOf(PAGE_ROUTES.api, BUILD_FILES.discovery), props: { body: JSON.stringify(site.discovery) } },
  ];
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => new Response(props.body as string);
