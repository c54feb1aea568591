// Serve an existing dist/ through the shim on PORT/HOST (README.md#configuration). `npm run serve`
// and `npm start` run it bundled, through scripts/serve.mjs; `node scripts/serve.ts` runs it as it is.
import path from "node:path";
import { argPath, command, isMain } from "./cli.ts";

export const SERVE = command({
  name: "serve",
  usage: ["npm run serve -- [options]", "node scripts/serve.ts [options]"],
  about: `Serves a build through the Node server on PORT (default 4321) and HOST (default 127.0.0.1), with
the variables of README.md#configuration. Build first (npm run build); npm start does both.`,
  options: {
    dist: { type: "string", value: "DIR", help: "the build to serve (default dist/ of the current folder)" },
  },
  examples: ["npm run serve", "PORT=8080 HOST=0.0.0.0 npm run serve -- --dist /srv/site"],
});

/** Reads the options (`--help` and usage errors end the process) and serves until SIGINT or SIGTERM. */
export async function serve(argv: readonly string[]): Promise<void> {
  const { values } = SERVE.parse(argv);
  const distDir = argPath(values.dist, path.resolve("dist"));
  const port = Number(process.env.PORT?.trim() || 4321);
  const host = process.env.HOST?.trim() || "127.0.0.1";
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be 0–65535, got '${process.env.PORT}'`);
  // This process exists to serve: its V8 settings come first, before the server's modules load.
  const { startOwnServer } = await import("../functions/node/own-process.ts");
  const server = await startOwnServer({ distDir, port, host });
  console.log(`Serving ${path.relative(process.cwd(), distDir) || "."} on ${server.url}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (isMain(import.meta)) {
  serve(process.argv.slice(2)).catch((e: Error) => {
    console.error(`serve: ${e.message}`);
    process.exit(1);
  });
}
