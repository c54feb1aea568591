// Serve an existing dist/ through the shim on PORT/HOST (README.md#configuration). `npm run serve`
// and `npm start` run it bundled, through scripts/serve.mjs; `node scripts/serve.ts` runs it as it is.
import path from "node:path";
import { startServer } from "../functions/node/main.ts";

export async function serve(distDir = path.resolve("dist")): Promise<void> {
  const port = Number(process.env.PORT?.trim() || 4321);
  const host = process.env.HOST?.trim() || "127.0.0.1";
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be 0–65535, got '${process.env.PORT}'`);
  const server = await startServer({ distDir, port, host });
  console.log(`Serving ${path.relative(process.cwd(), distDir) || "."} on ${server.url}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  serve().catch((e: Error) => {
    console.error(`serve: ${e.message}`);
    process.exit(1);
  });
}
