// Site-wide build outputs under the private prefix: the index the shim loads and the discovery body.
import type { APIRoute, GetStaticPaths } from "astro";
import { loadSite } from "../../generate/site.ts";
import { API_PREFIX, json } from "../../generate/render.ts";

export const getStaticPaths = (async () => {
  const site = await loadSite();
  return [
    { params: { api: API_PREFIX, file: "index.json" }, props: { body: JSON.stringify(site.index) } },
    { params: { api: API_PREFIX, file: "discovery.json" }, props: { body: json(site.discovery) } },
  ];
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => new Response(props.body as string);
