// s3 mode of `npm run publish`: the MP3 goes to the store under the key the build will write into
// the index (audio.key, else audio/<uuid>.mp3: defaultObjectKey in src/generate/episode-writer.ts), in a
// multipart upload (@aws-sdk/lib-storage: parts of 8 MiB, four in flight; a file smaller than one
// part goes up in one PutObject). The object carries its SHA-256 as user metadata, so a second
// publish of the same file (a retry after a failed build, the same MP3 in another content folder)
// sees an object of the same size and hash with one HeadObject and skips the upload.
import { MEDIA } from "../shared/media-types.ts";
import { createReadStream } from "node:fs";
import { HeadObjectCommand, S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { shimConfig, type AudioBackendConfig } from "../shared/config.ts";
import type { Env } from "../shared/env.ts";
import type { Mp3Facts } from "./mp3-facts.ts";
import { progressBar, type ProgressOutput } from "./progress.ts";

export type S3Target = Extract<AudioBackendConfig, { kind: "s3" }>;

/** The store as the server reads it (S3_* variables, checked by src/shared/config.ts); null in local mode. */
export function s3Target(env: Env): S3Target | null {
  const backend = shimConfig(env).audioBackend;
  return backend.kind === "s3" ? backend : null;
}

/** A store that refused or could not be reached; the message names the object and the cause. */
export class UploadError extends Error {}

const PART_BYTES = 8 * 1024 * 1024;

function client(target: S3Target): S3Client {
  return new S3Client({
    region: target.region,
    ...(target.endpoint !== null ? { endpoint: target.endpoint } : {}),
    forcePathStyle: target.forcePathStyle,
    // As in functions/node/s3-storage.ts: the SDK's default checksums are not understood by every
    // S3-compatible store.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // Some stores (workerd's local R2 among them) never answer `100 Continue`: a part that waited
    // for it would hang.
    expectContinueHeader: false,
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000, throwOnRequestTimeout: true },
  });
}

/** `HTTP 403 (AccessDenied)`, `ECONNREFUSED`, …: what went wrong, in a few words. */
function causeOf(e: unknown): string {
  const err = e as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = err.$metadata?.httpStatusCode;
  if (status !== undefined) {
    const hint = status === 401 || status === 403 ? ": check the credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY) and their access to the bucket" : "";
    // An answer without a body (HeadObject's) has no error code: the SDK calls it Unknown.
    const name = err.name === undefined || /^Unknown/.test(err.name) ? "" : ` (${err.name})`;
    return `HTTP ${status}${name}${hint}`;
  }
  // A refused connection can come as an AggregateError without a message: its code says it.
  const first = (err.message ?? "").split("\n")[0] || err.code || err.name || String(e);
  return err.code !== undefined && !first.includes(err.code) ? `${err.code}: ${first}` : first;
}

/** Is the object there with these bytes? A missing object is `false`; any other failure throws. */
async function alreadyThere(s3: S3Client, target: S3Target, key: string, facts: Mp3Facts): Promise<boolean> {
  try {
    const head = await s3.send(new HeadObjectCommand({ Bucket: target.bucket, Key: key }));
    return head.ContentLength === facts.bytes && head.Metadata?.sha256 === facts.sha256;
  } catch (e) {
    if (e instanceof S3ServiceException && e.$metadata.httpStatusCode === 404) return false;
    throw e;
  }
}

export interface UploadOptions {
  progress: ProgressOutput;
  signal?: AbortSignal;
}

/** Uploads `file` under `key` unless the same bytes are there; says which. */
export async function uploadAudio(target: S3Target, key: string, file: string, facts: Mp3Facts, opts: UploadOptions): Promise<"uploaded" | "already uploaded"> {
  const where = `s3://${target.bucket}/${key}`;
  const s3 = client(target);
  const bar = progressBar(opts.progress, "upload", facts.bytes);
  try {
    if (await alreadyThere(s3, target, key, facts)) return "already uploaded";
    const upload = new Upload({
      client: s3,
      params: { Bucket: target.bucket, Key: key, Body: createReadStream(file), ContentType: MEDIA.mp3, Metadata: { sha256: facts.sha256 } },
      partSize: PART_BYTES,
      queueSize: 4,
      // A failed multipart upload is aborted, so no orphaned parts are billed.
      leavePartsOnError: false,
    });
    upload.on("httpUploadProgress", (p) => bar.update(p.loaded ?? 0));
    const abort = () => void upload.abort();
    opts.signal?.addEventListener("abort", abort, { once: true });
    try {
      await upload.done();
    } finally {
      opts.signal?.removeEventListener("abort", abort);
    }
    bar.done();
    return "uploaded";
  } catch (e) {
    bar.abandon();
    if (opts.signal?.aborted) throw new UploadError(`upload of ${where} interrupted`);
    throw new UploadError(`upload to ${where} failed: ${causeOf(e)}`);
  } finally {
    s3.destroy();
  }
}
