// The show as podcast.json gave it (validated): the shim composes the feed's channel and llms.txt
// from it at request time (functions/routes/surfaces.ts). Served by no URL of its own.
import type { APIRoute, GetStaticPaths } from "astro";
import { loadSite } from "../../generate/prepare-build.ts";
import { BUILD_FILES, paramsOf, PAGE_ROUTES } from "../../shared/layout.ts";

export const getStaticPaths = (() => [{ params: paramsOf(PAGE_ROUTES.show, BUILD_FILES.show) }]) satisfies GetStaticPaths;

export const GET: APIRoute = async () => new Response(JSON.stringify((await loadSite()).podcast));
