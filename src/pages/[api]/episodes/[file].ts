// Per-episode API bodies under the private prefix: <ref>.json, <ref>.script.json, <ref>.transcript.txt.
// The shim maps public URLs to these files and sets headers from the manifest.
import type { APIRoute, GetStaticPaths } from "astro";
import { loadSite } from "../../../generate/site.ts";
import { API_PREFIX, json } from "../../../generate/render.ts";

export const getStaticPaths = (async () => {
  const site = await loadSite();
  return site.episodes.flatMap((e) => {
    const out = [{ params: { api: API_PREFIX, file: `${e.ref}.json` }, props: { body: json(e.resource) } }];
    if (e.script) out.push({ params: { api: API_PREFIX, file: `${e.ref}.script.json` }, props: { body: json(e.script) } });
    if (e.transcript) out.push({ params: { api: API_PREFIX, file: `${e.ref}.transcript.txt` }, props: { body: e.transcript } });
    return out;
  });
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => new Response(props.body as string);
