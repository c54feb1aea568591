import { describe, expect, it } from "vitest";
import { clientIpFrom, clientKeyFrom, rateLimitKey } from "../../functions/limits/client-ip.ts";

describe("client address behind proxies (TRUST_PROXY, docs/api.md#rate-limits)", () => {
  it("X-Forwarded-For is never trusted by default (0 hops)", () => {
    expect(clientIpFrom("10.0.0.1", "203.0.113.9", 0)).toBe("10.0.0.1");
  });

  it("without X-Forwarded-For the socket address is used", () => {
    expect(clientIpFrom("10.0.0.1", null, 1)).toBe("10.0.0.1");
    expect(clientIpFrom("10.0.0.1", "", 1)).toBe("10.0.0.1");
    expect(clientIpFrom("10.0.0.1", " , ", 1)).toBe("10.0.0.1");
  });

  it("one trusted hop takes the right-most entry (what our proxy appended)", () => {
    expect(clientIpFrom("10.0.0.1", "198.51.100.7, 203.0.113.9", 1)).toBe("203.0.113.9");
  });

  it("two trusted hops take the second entry from the right, ignoring what the client wrote before", () => {
    expect(clientIpFrom("10.0.0.1", "1.1.1.1, 198.51.100.7, 203.0.113.9", 2)).toBe("198.51.100.7");
  });

  it("a spoofed left-most entry cannot change the address counted", () => {
    const honest = clientIpFrom("10.0.0.1", "203.0.113.9", 1);
    const spoofed = clientIpFrom("10.0.0.1", "6.6.6.6, 7.7.7.7, 203.0.113.9", 1);
    expect(spoofed).toBe(honest);
  });

  it("more trusted hops than entries takes the left-most entry", () => {
    expect(clientIpFrom("10.0.0.1", "203.0.113.9", 3)).toBe("203.0.113.9");
  });

  it("white space and empty list elements around entries are ignored", () => {
    expect(clientIpFrom("10.0.0.1", " 198.51.100.7 ,, 203.0.113.9 ", 2)).toBe("198.51.100.7");
  });

  it("IPv6 entries are returned as written", () => {
    expect(clientIpFrom("::1", "2001:db8::1", 1)).toBe("2001:db8::1");
  });
});

describe("rate-limit keys: an IPv6 client counts by its /64, an IPv4 client by its address", () => {
  it("IPv4 is the full address, in dotted decimal", () => {
    expect(rateLimitKey("203.0.113.9")).toBe("203.0.113.9");
    expect(rateLimitKey(" 203.0.113.9 ")).toBe("203.0.113.9");
    expect(rateLimitKey("203.000.113.009")).toBe("203.0.113.9");
    expect(rateLimitKey("203.0.113.10")).not.toBe(rateLimitKey("203.0.113.9"));
  });

  it("every text form of addresses of one /64 gives one key", () => {
    const forms = [
      "2001:db8:0:1::",
      "2001:db8:0:1::1",
      "2001:db8:0:1:ffff:ffff:ffff:ffff",
      "2001:0DB8:0000:0001:0000:0000:0000:0001",
      "2001:DB8:0:1:A:B:C:D",
      "2001:db8::1:0:0:0:1",
      "2001:db8:0:1:abcd::",
      "2001:db8:0:1::192.0.2.1",
      "2001:db8:0:1:0:0:192.0.2.1",
      "2001:db8:0:1:1:2:203.0.113.255",
      "2001:db8:0:1::7%eth0",
      "2001:db8:0:1::7%25eth0",
      "[2001:db8:0:1::8]",
      "[2001:db8:0:1::8]:443",
      " 2001:db8:0:1::9 ",
    ];
    const keys = new Set(forms.map(rateLimitKey));
    expect([...keys]).toEqual(["2001:db8:0:1::/64"]);
  });

  it("the key is the /64 in RFC 5952 form: lower case, no leading zeros, the longest zero run as ::", () => {
    expect(rateLimitKey("2001:0db8:0000:0000:1234:5678:9abc:def0")).toBe("2001:db8::/64");
    expect(rateLimitKey("2001:DB8:AAAA:BBBB::1")).toBe("2001:db8:aaaa:bbbb::/64");
    expect(rateLimitKey("::1")).toBe("::/64");
    expect(rateLimitKey("::")).toBe("::/64");
    expect(rateLimitKey("fe80::1%eth0")).toBe("fe80::/64");
    expect(rateLimitKey("FE80::abcd:1%lo")).toBe("fe80::/64");
    expect(rateLimitKey("0:1:0:1::")).toBe("0:1:0:1::/64");
  });

  it("different /64s give different keys, however close", () => {
    const addresses = ["2001:db8:0:1::1", "2001:db8:0:2::1", "2001:db8:1:1::1", "2001:db9:0:1::1", "2001:db8::1", "::1", "fe80::1"];
    expect(new Set(addresses.map(rateLimitKey)).size).toBe(addresses.length);
    expect(rateLimitKey("2001:db8:0:ffff::1")).not.toBe(rateLimitKey("2001:db8:0:fffe::1"));
  });

  it("an IPv4-mapped IPv6 address is the IPv4 address", () => {
    for (const form of ["::ffff:192.0.2.1", "::FFFF:192.0.2.1", "0:0:0:0:0:ffff:192.0.2.1", "::ffff:c000:201", "[::ffff:192.0.2.1]:80"]) {
      expect(rateLimitKey(form), form).toBe("192.0.2.1");
    }
    expect(rateLimitKey("192.0.2.1:8080")).toBe("192.0.2.1");
    // Other embedded IPv4 forms (NAT64, the deprecated IPv4-compatible form) are IPv6 addresses.
    expect(rateLimitKey("64:ff9b::192.0.2.1")).toBe("64:ff9b::/64");
    expect(rateLimitKey("::192.0.2.1")).toBe("::/64");
  });

  it("what is not an IP address is its own key, trimmed and lower-cased", () => {
    expect(rateLimitKey("unknown")).toBe("unknown");
    expect(rateLimitKey(" Unknown ")).toBe("unknown");
    for (const bad of ["2001:db8::1::2", "2001:db8:0:1:2:3:4:5:6", "2001:db8:0:1:2:3:4", "12345::", "g::1", "1.2.3.256", "::ffff:1.2.3", "1:2:3:4:5:6:7::8"]) {
      expect(rateLimitKey(bad), bad).toBe(bad);
    }
  });

  it("clientKeyFrom applies the rule to the socket address and to trusted X-Forwarded-For entries", () => {
    expect(clientKeyFrom("::ffff:10.0.0.1", null, 0)).toBe("10.0.0.1");
    expect(clientKeyFrom("2001:db8:0:1::5", "2001:db8:9::1", 0)).toBe("2001:db8:0:1::/64");
    expect(clientKeyFrom("10.0.0.1", "6.6.6.6, 2001:DB8:0:1:aaaa::1", 1)).toBe("2001:db8:0:1::/64");
    expect(clientKeyFrom("10.0.0.1", "2001:db8:0:1::1, 203.0.113.9", 1)).toBe("203.0.113.9");
  });
});
