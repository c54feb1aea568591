// The client a rate limit counts: Cloudflare's edge sets CF-Connecting-IP on every request
// (docs/api.md#rate-limits); X-Forwarded-For is never read here. The address is reduced to its
// rate-limit key (an IPv6 client counts by its /64) by the same rule as the Node entry.
import { HEADER } from "../../src/shared/headers.ts";
import { rateLimitKey } from "../limits/client-ip.ts";

export function clientIp(req: Request): string {
  return rateLimitKey(req.headers.get(HEADER.cfConnectingIp) ?? "unknown");
}
