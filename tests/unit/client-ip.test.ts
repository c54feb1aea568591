import { describe, expect, it } from "vitest";
import { clientIpFrom } from "../../functions/client-ip.ts";

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
