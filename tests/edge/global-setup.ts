// The edge project bundles the Workers entry once per run; every suite's workerd loads that file.
import { bundleWorker } from "../../scripts/bundle-worker.ts";

export default async function setup(): Promise<void> {
  process.env.WRANGLER_SEND_METRICS = "false";
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  await bundleWorker();
}
