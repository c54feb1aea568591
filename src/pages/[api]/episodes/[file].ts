// Per-episode API bodies under the private prefix (src/shared/layout.ts, episodeFile): <ref>.json,
// <ref>.script.json, <ref>.transcript.txt. The shim maps public URLs to these files and sets headers
// from the manifest.
import type { APIRoute, GetStaticPaths } from "astro";
import { loadSite } from "../../../generate/site.ts";
import { episodeFile, paramsOf, PAGE_ROUTES, type EpisodePart } from "../../../shared/layout.ts";

export const getStaticPaths = (async () => {
  const site = await loadSite();
  const out = (ref: string, part: EpisodePart, body: string) => ({ params: paramsOf(PAGE_ROUTES.episodeFiles, episodeFile(ref, part)), props: { body } });
  return site.episodes.flatMap((e) => {
    const files = [out(e.ref, "json", JSON.stringify(e.resource))];
    if (e.script) files.push(out(e.ref, "script", JSON.stringify(e.script)));
    if (e.transcript) files.push(out(e.ref, "transcript", e.transcript));
    return files;
  });
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => new Response(props.body as string);
