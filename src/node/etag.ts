// NODE-ONLY, shared by the build and the Node adapter: the synchronous ETag function of the build's
// manifest and audio tags (src/generate/) and of the Node entry (functions/node/main.ts passes it to
// the handler as its `etag` port). It imports node:crypto, so the portable request-time code
// (functions/*.ts, the rest of src/shared/) must never import it: it gets etagOf or its runtime's port.
// Same tags as etagOf (src/shared/etag.ts, both built on strongEtag; tests/unit/etag.test.ts holds
// them equal). crypto.subtle costs far more CPU for a list page (a thread-pool job per digest:
// docs/performance.md#caches-and-etags) and cannot hash a build's thousands of files synchronously.
import { createHash } from "node:crypto";
import { strongEtag } from "../shared/etag.ts";

/** The ETag of a body (a string counts as its UTF-8 bytes), synchronously. */
export function nodeEtag(body: Uint8Array | string): string {
  return strongEtag(createHash("sha256").update(body).digest());
}
