// The client a rate limit counts (docs/api.md#rate-limits). X-Forwarded-For is trusted only for the
// configured number of proxy hops, counted from the right (the entries our proxies appended); the
// address found is then reduced to its rate-limit key (rateLimitKey), the one form both runtime
// entries pass to the handler.

/** The client address: the socket's, or the entry `trustedHops` from the right of X-Forwarded-For. */
export function clientIpFrom(socketAddress: string, forwardedFor: string | null, trustedHops: number): string {
  if (trustedHops === 0 || forwardedFor === null) return socketAddress;
  const hops = forwardedFor.split(",").map((s) => s.trim()).filter((s) => s.length > 0);
  if (hops.length === 0) return socketAddress;
  return hops[Math.max(0, hops.length - trustedHops)]!;
}

/** The Node entry's rate-limit key: the client address (clientIpFrom) reduced by rateLimitKey. */
export function clientKeyFrom(socketAddress: string, forwardedFor: string | null, trustedHops: number): string {
  return rateLimitKey(clientIpFrom(socketAddress, forwardedFor, trustedHops));
}

/**
 * The rate-limit key of a client address.
 *
 * - IPv4: the address itself, in dotted decimal (`203.0.113.9`).
 * - IPv6: its /64, in the RFC 5952 text form with the prefix length (`2001:db8:0:1::/64`). A /64 is
 *   the smallest block a network hands one subscriber (one LAN; SLAAC and privacy extensions pick
 *   the low 64 bits freely), so a client that owns any IPv6 address owns 2^64 of them: keyed by the
 *   full address, it could rotate to a fresh bucket on every request.
 * - IPv4-mapped IPv6 (`::ffff:192.0.2.1`, what a dual-stack socket reports for an IPv4 peer): the
 *   IPv4 address, so one client has one key whichever way it reaches the server.
 *
 * Every text form of the same /64 gives the same key: upper or lower case, leading zeros, `::`
 * anywhere, a dotted IPv4 tail (`64:ff9b::192.0.2.1`), a zone id (`fe80::1%eth0`), brackets and a
 * port (`[2001:db8::1]:443`, `192.0.2.1:8080`, as some proxies write X-Forwarded-For). Anything that
 * is not an IP address (`unknown`) is its own key, trimmed and lower-cased.
 */
export function rateLimitKey(address: string): string {
  let text = address.trim();
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else {
    const v4Port = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(text);
    if (v4Port) text = v4Port[1]!;
  }
  const v4 = ipv4Octets(text);
  if (v4 !== null) return v4.join(".");
  const zone = text.indexOf("%");
  const groups = ipv6Groups(zone === -1 ? text : text.slice(0, zone));
  if (groups === null) return address.trim().toLowerCase();
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  }
  return `${formatIpv6([groups[0]!, groups[1]!, groups[2]!, groups[3]!, 0, 0, 0, 0])}/64`;
}

/** Four decimal octets, each 0–255 (leading zeros read as decimal), or null. */
function ipv4Octets(text: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (m === null) return null;
  const octets = m.slice(1).map(Number);
  return octets.every((o) => o <= 255) ? octets : null;
}

/** The eight 16-bit groups of an IPv6 address in text form (RFC 4291 §2.2), or null. */
function ipv6Groups(text: string): number[] | null {
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = groupsOf(halves[0]!, halves.length === 1);
  const tail = halves.length === 2 ? groupsOf(halves[1]!, true) : [];
  if (head === null || tail === null) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  // "::" stands for one or more zero groups.
  const zeros = 8 - head.length - tail.length;
  return zeros >= 1 ? [...head, ...new Array<number>(zeros).fill(0), ...tail] : null;
}

/** The groups of one side of "::"; the last may be a dotted IPv4 address (two groups). */
function groupsOf(part: string, ipv4Tail: boolean): number[] | null {
  if (part === "") return [];
  const out: number[] = [];
  const fields = part.split(":");
  for (const [i, field] of fields.entries()) {
    if (ipv4Tail && i === fields.length - 1 && field.includes(".")) {
      const v4 = ipv4Octets(field);
      if (v4 === null) return null;
      out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
    } else if (/^[0-9A-Fa-f]{1,4}$/.test(field)) out.push(parseInt(field, 16));
    else return null;
  }
  return out;
}

/** RFC 5952: lower case, no leading zeros, the longest run (the first of equals) of two or more zero groups as "::". */
function formatIpv6(groups: number[]): string {
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [best, bestLength] = [i, j - i];
    i = j;
  }
  const hex = (gs: number[]) => gs.map((g) => g.toString(16)).join(":");
  if (best === -1) return hex(groups);
  return `${hex(groups.slice(0, best))}::${hex(groups.slice(best + bestLength))}`;
}
