// The `s3` audio backend (AUDIO_BACKEND=s3): objects in any S3-compatible store (R2, AWS S3,
// MinIO…) through @aws-sdk/client-s3, behind the AudioStorage port of functions/ports.ts.
//
// What the shim relies on, and why each choice below:
// - Storage is asked for explicit byte ranges only: functions/routes/audio.ts resolves suffix and open
//   ranges from the size head() reports, because some S3 servers answer suffix ranges wrongly.
// - A read returns exactly the bytes asked for or errors: a short or mismatched answer must abort
//   the response (functions/node/server.ts destroys it), never end a 200/206 silently short.
// - A storage that cannot be reached fails fast (short connect and response-header budgets, one
//   retry), so the audio route answers 502 upstream_unavailable instead of hanging.
import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import type { Readable } from "node:stream";
import { GetObjectCommand, HeadObjectCommand, S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { TYPES } from "../../src/shared/media-types.ts";
import type { AudioObject, AudioStorage } from "../ports.ts";

export interface S3StorageOptions {
  bucket: string;
  /** Null: AWS S3 itself, addressed by region. */
  endpoint: string | null;
  region: string;
  forcePathStyle: boolean;
  /** Lifetime of presigned URLs (redirect delivery). */
  presignSeconds: number;
  /** Explicit credentials; without them the SDK's usual chain (AWS_* variables, profiles, roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Budget for the TCP connection, ms. */
  connectionTimeoutMs?: number;
  /** Budget for the response headers of one attempt, ms. */
  requestTimeoutMs?: number;
  /** Attempts per request, first included (the SDK retries transient failures with backoff). */
  maxAttempts?: number;
}

/**
 * Each listener holds one storage connection for as long as it streams; the SDK's default pool of
 * 50 sockets per host would queue the 51st listener until its connect budget ran out.
 */
const MAX_SOCKETS = 1024;

export class S3AudioStorage implements AudioStorage {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly presignSeconds: number;

  constructor(opts: S3StorageOptions) {
    this.bucket = opts.bucket;
    this.presignSeconds = opts.presignSeconds;
    this.client = new S3Client({
      region: opts.region,
      ...(opts.endpoint !== null ? { endpoint: opts.endpoint } : {}),
      forcePathStyle: opts.forcePathStyle,
      ...(opts.credentials ? { credentials: opts.credentials } : {}),
      // Checksums the SDK adds by default are not understood by every S3-compatible server and
      // can corrupt or fail requests there; S3 itself needs none for ranged GETs.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      maxAttempts: opts.maxAttempts ?? 2,
      // Options of the SDK's Node handler (@smithy/node-http-handler), which the client builds
      // itself: no import of a package this project does not declare.
      requestHandler: {
        connectionTimeout: opts.connectionTimeoutMs ?? 500,
        requestTimeout: opts.requestTimeoutMs ?? 2000,
        // Without it a request past requestTimeout only logs a warning and keeps waiting.
        throwOnRequestTimeout: true,
        httpAgent: new HttpAgent({ keepAlive: true, maxSockets: MAX_SOCKETS }),
        httpsAgent: new HttpsAgent({ keepAlive: true, maxSockets: MAX_SOCKETS }),
      },
    });
  }

  async head(key: string): Promise<AudioObject | null> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      if (out.ContentLength === undefined) throw new Error("storage answered HEAD without Content-Length");
      return { size: out.ContentLength, etag: strongEtag(out.ETag) };
    } catch (e) {
      // A HEAD answer has no body, so a missing bucket also reads as NotFound here; any other
      // failure (403, 5xx, timeouts, refused connections) is storage being unavailable.
      if (e instanceof S3ServiceException && e.$metadata.httpStatusCode === 404) return null;
      throw e;
    }
  }

  async read(key: string, first: number, last: number, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=${first}-${last}` }), { abortSignal: signal });
    const body = out.Body as Readable | undefined;
    if (body === undefined) throw new Error("storage answered GET without a body");
    const length = last - first + 1;
    // A store that ignored the Range, or an object replaced since head(), would send other bytes.
    const exact = out.ContentRange === undefined ? first === 0 && out.ContentLength === length : out.ContentRange.startsWith(`bytes ${first}-${last}/`);
    if (!exact) {
      body.destroy();
      throw new Error(`storage answered bytes=${first}-${last} with ${out.ContentRange ?? `${out.ContentLength} bytes`}`);
    }
    return exactStream(body, length, signal);
  }

  async presign(key: string, contentDisposition: string): Promise<string> {
    // The response-* parameters are signed: the URL serves audio/mpeg with this file name only.
    const get = new GetObjectCommand({ Bucket: this.bucket, Key: key, ResponseContentType: TYPES.mp3, ResponseContentDisposition: contentDisposition });
    return getSignedUrl(this.client, get, { expiresIn: this.presignSeconds });
  }

  /** Closes pooled connections (tests, shutdown). */
  close(): void {
    this.client.destroy();
  }
}

/** The storage's ETag when it is a strong validator (If-Range needs one), else null. */
function strongEtag(etag: string | undefined): string | null {
  return etag !== undefined && /^"[\x21\x23-\x7e]*"$/.test(etag) ? etag : null;
}

/**
 * The body as a web stream of exactly `length` bytes: a connection lost mid-body errors it (so
 * does an early or late end), and `signal` (the client hanging up) destroys the storage read.
 */
function exactStream(body: Readable, length: number, signal: AbortSignal): ReadableStream<Uint8Array> {
  const chunks: AsyncIterator<Buffer> = body[Symbol.asyncIterator]();
  const stop = () => body.destroy(new Error("client hung up"));
  if (signal.aborted) stop();
  else signal.addEventListener("abort", stop, { once: true });
  const release = () => signal.removeEventListener("abort", stop);
  let seen = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: IteratorResult<Buffer>;
      try {
        next = await chunks.next();
      } catch (e) {
        release();
        throw e;
      }
      if (next.done) {
        release();
        if (seen === length) controller.close();
        else controller.error(new Error(`storage ended after ${seen} of ${length} bytes`));
        return;
      }
      seen += next.value.byteLength;
      if (seen > length) {
        release();
        body.destroy();
        throw new Error(`storage sent more than the ${length} bytes asked for`);
      }
      controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
    },
    cancel() {
      release();
      body.destroy();
    },
  });
}
