// Astro's middleware: at build time every page Astro renders passes through here before it is
// written. The episode pages and players, all but a handful of the build's pages, are handed to the
// build (src/generate/prepare-build.ts `takePage`), which writes them itself, takes their ETags and
// compresses them from the bytes in hand while Astro renders the next ones (docs/architecture.md#the-build).
import type { MiddlewareHandler } from "astro";
import { takePage } from "./generate/prepare-build.ts";

export const onRequest: MiddlewareHandler = async (context, next) => takePage(context.url.pathname, await next());
