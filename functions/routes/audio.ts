// Audio responses (docs/api.md#get-v1episodesrefaudio): whole file, single range (206), several ranges
// (multipart/byteranges), 416, If-Range with the strong comparison, If-None-Match, HEAD, and
// Content-Disposition. Bytes stream from storage; nothing holds a whole file in memory.
import { HEADER } from "../../src/shared/headers.ts";
import { ifRangeMatches } from "../http/conditional.ts";
import { parseRange, type ByteRange } from "../http/range.ts";
import { baseHeaders, CACHE, errorResponse, notModified, type HeaderRecord, type ResponseContext, type ShimRequest, type ShimResponse } from "../http/response.ts";
import { TYPES } from "../../src/shared/media-types.ts";
import type { AudioStorage } from "../ports.ts";

export interface AudioTarget {
  key: string;
  /** Strong validator from the build (the index entry's audio.etag). */
  etag: string;
  /** Content-Disposition for this request, or null (the direct /media/ URL sends none). */
  disposition: string | null;
}

const encoder = new TextEncoder();

/** Redirect delivery: 302 to a short-lived presigned storage URL carrying the Content-Disposition. */
export async function audioRedirect(ctx: ResponseContext, storage: AudioStorage, target: AudioTarget): Promise<ShimResponse> {
  // createHandler refuses redirect delivery with a storage that cannot presign.
  const presign = storage.presign!.bind(storage);
  try {
    if ((await storage.head(target.key)) === null) return errorResponse(ctx, "not_found");
    const h = baseHeaders(ctx);
    h[HEADER.location] = await presign(target.key, target.disposition ?? "inline");
    h[HEADER.cacheControl] = CACHE.noStore;
    return { status: 302, headers: h, body: null };
  } catch {
    return errorResponse(ctx, "upstream_unavailable");
  }
}

export async function audioResponse(req: ShimRequest, ctx: ResponseContext, storage: AudioStorage, target: AudioTarget): Promise<ShimResponse> {
  let object;
  try {
    object = await storage.head(target.key);
  } catch {
    return errorResponse(ctx, "upstream_unavailable");
  }
  if (object === null) return errorResponse(ctx, "not_found");
  const size = object.size;
  // Browsers seek with If-Range: the validator must be strong and stable for the same bytes.
  const etag = target.etag;

  const h = baseHeaders(ctx);
  h[HEADER.etag] = etag;
  h[HEADER.cacheControl] = CACHE.audio;
  h[HEADER.acceptRanges] = "bytes";
  if (target.disposition !== null) h[HEADER.contentDisposition] = target.disposition;

  // A conditional GET that matches answers 304 without touching the bytes.
  if (notModified(req, etag)) return { status: 304, headers: h, body: null };

  let rangeHeader = req.method === "HEAD" ? null : req.headers.get(HEADER.range);
  const ifRange = req.headers.get(HEADER.ifRange);
  if (rangeHeader !== null && ifRange !== null && !ifRangeMatches(ifRange, etag)) rangeHeader = null;
  const range = parseRange(rangeHeader, size);

  if (range.kind === "unsatisfiable") {
    return errorResponse(ctx, "range_not_satisfiable", undefined, {
      [HEADER.contentRange]: `bytes */${size}`,
      [HEADER.acceptRanges]: "bytes",
      ETag: etag,
    });
  }
  const read = (r: ByteRange) => storage.read(target.key, r.start, r.end, req.signal);
  try {
    if (range.kind === "none") {
      h[HEADER.contentType] = TYPES.mp3;
      h[HEADER.contentLength] = String(size);
      const body = req.method === "HEAD" || size === 0 ? null : await read({ start: 0, end: size - 1 });
      return { status: 200, headers: h, body };
    }
    if (range.ranges.length === 1) {
      const r = range.ranges[0]!;
      h[HEADER.contentType] = TYPES.mp3;
      h[HEADER.contentRange] = `bytes ${r.start}-${r.end}/${size}`;
      h[HEADER.contentLength] = String(r.end - r.start + 1);
      return { status: 206, headers: h, body: await read(r) };
    }
    return multipart(h, range.ranges, size, read);
  } catch {
    return errorResponse(ctx, "upstream_unavailable");
  }
}

/** multipart/byteranges (RFC 9110 §14.6): each part read from storage only when it is reached. */
function multipart(
  h: HeaderRecord,
  ranges: ByteRange[],
  size: number,
  read: (r: ByteRange) => Promise<ReadableStream<Uint8Array>>,
): ShimResponse {
  const boundary = `episode-bytes-${crypto.randomUUID().replace(/-/g, "")}`;
  const heads = ranges.map((r, i) =>
    encoder.encode(`${i === 0 ? "" : "\r\n"}--${boundary}\r\nContent-Type: ${TYPES.mp3}\r\nContent-Range: bytes ${r.start}-${r.end}/${size}\r\n\r\n`),
  );
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  const length = heads.reduce((n, b, i) => n + b.byteLength + ranges[i]!.end - ranges[i]!.start + 1, tail.byteLength);
  let part = 0;
  let current: ReadableStreamDefaultReader<Uint8Array> | null = null;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      while (true) {
        if (current === null) {
          if (part === ranges.length) {
            controller.enqueue(tail);
            controller.close();
            return;
          }
          controller.enqueue(heads[part]!);
          current = (await read(ranges[part]!)).getReader();
          return;
        }
        const { done, value } = await current.read();
        if (!done) {
          controller.enqueue(value);
          return;
        }
        current = null;
        part++;
      }
    },
    async cancel(reason) {
      await current?.cancel(reason);
    },
  });
  h[HEADER.contentType] = `multipart/byteranges; boundary=${boundary}`;
  h[HEADER.contentLength] = String(length);
  return { status: 206, headers: h, body };
}
