// One thread of the build's compression pool (src/generate/precompress.ts): each message is a batch,
// compressed synchronously (./compress-batch.ts). The synchronous calls skip the stream machinery and
// event-loop hops of node:zlib's asynchronous API, which kept the build's main thread busy
// (docs/performance.md).
import { parentPort } from "node:worker_threads";
import { compressBatch } from "./compress-batch.ts";
import type { PrecompressJob } from "./precompress.ts";

parentPort!.on("message", (jobs: PrecompressJob[]) => parentPort!.postMessage(compressBatch(jobs)));
