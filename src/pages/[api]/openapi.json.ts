// GET /v1/openapi.json: the OpenAPI 3.1 document, generated at build time from the zod schemas with
// examples from the built responses (src/openapi/). The shim serves it with its ETag from the manifest.
import type { APIRoute, GetStaticPaths } from "astro";
import { loadSite } from "../../generate/prepare-build.ts";
import { BUILD_FILES, paramsOf, PAGE_ROUTES } from "../../shared/layout.ts";
import { openApiDocumentOf } from "../../generate/openapi/build.ts";

export const getStaticPaths = (() => [{ params: paramsOf(PAGE_ROUTES.openapi, BUILD_FILES.openapi) }]) satisfies GetStaticPaths;

export const GET: APIRoute = async () => new Response(JSON.stringify(openApiDocumentOf(await loadSite())));
