// Stream details of the Fetch boundary that workerd needs spelled out.

/** Bodies past this are not drained but dropped (the connection then closes). */
const DRAIN_MAX_BYTES = 1024 * 1024;

declare class FixedLengthStream extends TransformStream<Uint8Array, Uint8Array> {
  constructor(length: number);
}

/**
 * A streamed body with a known length (audio, multipart/byteranges) through workerd's
 * FixedLengthStream, so the response carries Content-Length instead of chunked encoding.
 */
export function withLength(res: Response): Response {
  const length = Number(res.headers.get("content-length"));
  if (res.body === null || !Number.isSafeInteger(length) || length <= 0) return res;
  return new Response(res.body.pipeThrough(new FixedLengthStream(length)), res);
}

/**
 * Reads and drops a request body the shim never reads (a POST answered 405), so workerd can keep
 * the client's connection open for its next request instead of resetting it.
 */
export async function drain(req: Request): Promise<void> {
  if (req.body === null) return;
  const reader = req.body.getReader();
  let read = 0;
  try {
    while (read <= DRAIN_MAX_BYTES) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away: nothing to keep open.
  }
}
