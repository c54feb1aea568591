// Audio in an R2 bucket binding: head for the size, explicit ranged reads (the shim resolves suffix
// and open ranges first). Never `range: request.headers`: that asks for a range even without one.
import type { AudioObject, AudioStorage } from "../ports.ts";
import type { R2Bucket } from "./bindings.ts";

export class R2AudioStorage implements AudioStorage {
  private readonly bucket: R2Bucket;

  constructor(bucket: R2Bucket) {
    this.bucket = bucket;
  }

  async head(key: string): Promise<AudioObject | null> {
    const object = await this.bucket.head(key);
    return object === null ? null : { size: object.size, etag: object.httpEtag };
  }

  async read(key: string, first: number, last: number, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    const object = await this.bucket.get(key, { range: { offset: first, length: last - first + 1 } });
    if (object === null) throw new Error("audio object vanished");
    // The client hung up: stop reading from R2.
    signal.addEventListener("abort", () => void object.body.cancel().catch(() => {}), { once: true });
    return object.body;
  }
}
