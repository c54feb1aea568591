// The client address a rate limit counts (docs/api.md#rate-limits). X-Forwarded-For is trusted only for
// the configured number of proxy hops, counted from the right (the entries our proxies appended).

export function clientIpFrom(socketAddress: string, forwardedFor: string | null, trustedHops: number): string {
  if (trustedHops === 0 || forwardedFor === null) return socketAddress;
  const hops = forwardedFor.split(",").map((s) => s.trim()).filter((s) => s.length > 0);
  if (hops.length === 0) return socketAddress;
  return hops[Math.max(0, hops.length - trustedHops)]!;
}
