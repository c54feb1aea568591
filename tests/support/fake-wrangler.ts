// A stand-in for the wrangler CLI in tests of `npm run deploy` and `npm run publish -- --deploy`
// (scripts/deploy.ts runs the script WRANGLER_BIN names): it uploads nothing, appends its arguments
// as one JSON line to the file FAKE_WRANGLER_LOG names, and exits with FAKE_WRANGLER_EXIT (0).
import { appendFileSync } from "node:fs";

const log = process.env.FAKE_WRANGLER_LOG;
if (log) appendFileSync(log, `${JSON.stringify(process.argv.slice(2))}\n`);
const code = Number(process.env.FAKE_WRANGLER_EXIT ?? 0);
console.log(code === 0 ? "fake wrangler: deployed (nothing uploaded)" : "fake wrangler: deploy failed");
process.exit(code);
