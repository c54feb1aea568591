// Miniflare's local R2 bucket served as an S3 endpoint (`<origin>/cdn-cgi/local/r2/s3`, path-style,
// credentials on the bucket): exact byte ranges and presigned URLs with checked signatures, offline.
// The suites under tests/storage test the S3 audio backend against it.
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { Miniflare } from "miniflare";
import { disposeMiniflare } from "../../scripts/serve-edge.ts";

export const R2_BUCKET = "audio";
export const R2_CREDENTIALS = { accessKeyId: "test", secretAccessKey: "testsecret" };

export interface LocalR2 {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** The S3 endpoint (S3_ENDPOINT) on `origin`. */
  endpoint: string;
  /** Uploads an object with the S3 API. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  dispose(): Promise<void>;
}

/** The S3 endpoint of a local R2 reached through another origin (a proxy in front of it). */
export function s3EndpointOf(origin: string): string {
  return `${origin}/cdn-cgi/local/r2/s3`;
}

export async function startLocalR2(): Promise<LocalR2> {
  const mf = new Miniflare({
    modules: true,
    script: "export default { fetch: () => new Response('') }",
    cf: false,
    port: 0,
    r2Buckets: { AUDIO: { id: R2_BUCKET, s3Credentials: R2_CREDENTIALS } },
  } as ConstructorParameters<typeof Miniflare>[0]);
  const url = await mf.ready;
  const endpoint = s3EndpointOf(url.origin);
  const client = new S3Client({
    endpoint,
    region: "auto",
    forcePathStyle: true,
    credentials: R2_CREDENTIALS,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // workerd never answers `100 Continue`: an upload that waits for it would hang.
    expectContinueHeader: false,
  });
  return {
    origin: url.origin,
    endpoint,
    async put(key, bytes) {
      await client.send(new PutObjectCommand({ Bucket: R2_BUCKET, Key: key, Body: bytes }));
    },
    async dispose() {
      client.destroy();
      await disposeMiniflare(mf);
    },
  };
}
