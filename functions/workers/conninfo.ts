// The client address a rate limit counts: Cloudflare's edge sets CF-Connecting-IP on every request
// (docs/api.md#rate-limits); X-Forwarded-For is never read here.
export function clientIp(req: Request): string {
  return req.headers.get("CF-Connecting-IP") ?? "unknown";
}
