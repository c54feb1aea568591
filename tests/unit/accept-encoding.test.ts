// Accept-Encoding negotiation (RFC 9110 §12.5.3; docs/api.md#compression): functions/http/accept-encoding.ts.
import { describe, expect, it } from "vitest";
import { negotiateEncoding } from "../../functions/http/accept-encoding.ts";

describe("negotiateEncoding", () => {
  it("no Accept-Encoding field: the plain body (the service sends a coding only when asked)", () => {
    expect(negotiateEncoding(null)).toBeNull();
  });

  it("an empty field value asks for no coding (§12.5.3)", () => {
    expect(negotiateEncoding("")).toBeNull();
    expect(negotiateEncoding("  ")).toBeNull();
  });

  it("identity alone gets the plain body", () => {
    expect(negotiateEncoding("identity")).toBeNull();
  });

  it("br is preferred over gzip at equal weight, whatever the listed order", () => {
    expect(negotiateEncoding("gzip, deflate, br")).toBe("br");
    expect(negotiateEncoding("br, gzip")).toBe("br");
    expect(negotiateEncoding("deflate, gzip, br, zstd")).toBe("br");
  });

  it("a coding the service does not offer is never chosen", () => {
    expect(negotiateEncoding("deflate")).toBeNull();
    expect(negotiateEncoding("zstd, deflate")).toBeNull();
    expect(negotiateEncoding("gzip", ["br"])).toBeNull();
  });

  it("q=0 refuses a coding", () => {
    expect(negotiateEncoding("br;q=0, gzip")).toBe("gzip");
    expect(negotiateEncoding("br;q=0, gzip;q=0")).toBeNull();
  });

  it("the higher weight wins over the preference order", () => {
    expect(negotiateEncoding("gzip, br;q=0.5")).toBe("gzip");
    expect(negotiateEncoding("gzip;q=0.5, br")).toBe("br");
    expect(negotiateEncoding("br;q=0.001, gzip;q=0.002")).toBe("gzip");
  });

  it("* gives its weight to the codings not named, and only to them", () => {
    expect(negotiateEncoding("*")).toBe("br");
    expect(negotiateEncoding("br;q=0, *")).toBe("gzip");
    expect(negotiateEncoding("*;q=0")).toBeNull();
    expect(negotiateEncoding("*;q=0, gzip")).toBe("gzip");
  });

  it("identity with a greater weight than every acceptable coding gets the plain body", () => {
    expect(negotiateEncoding("gzip;q=0.5, identity")).toBeNull();
    expect(negotiateEncoding("br;q=0.5, identity;q=0.5")).toBe("br");
    expect(negotiateEncoding("br;q=0.5")).toBe("br");
  });

  it("identity;q=0 without an acceptable coding still gets the plain body: never 406", () => {
    expect(negotiateEncoding("identity;q=0")).toBeNull();
    expect(negotiateEncoding("identity;q=0, deflate")).toBeNull();
    expect(negotiateEncoding("*;q=0, identity;q=0")).toBeNull();
    expect(negotiateEncoding("identity;q=0, gzip")).toBe("gzip");
  });

  it("coding names are case-insensitive, and x-gzip is gzip (§8.4.1.3)", () => {
    expect(negotiateEncoding("BR")).toBe("br");
    expect(negotiateEncoding("GZip")).toBe("gzip");
    expect(negotiateEncoding("x-gzip")).toBe("gzip");
    expect(negotiateEncoding("br;q=0, x-gzip")).toBe("gzip");
  });

  it("whitespace around elements, parameters and = is allowed", () => {
    expect(negotiateEncoding("  br ; q = 0 ,  gzip ; Q=1 ")).toBe("gzip");
  });

  it("an element with an invalid qvalue is ignored, not guessed at", () => {
    expect(negotiateEncoding("br;q=2, gzip")).toBe("gzip");
    expect(negotiateEncoding("br;q=0.0001, gzip;q=0.5")).toBe("gzip");
    expect(negotiateEncoding("br;q=abc")).toBeNull();
    expect(negotiateEncoding("br;q=")).toBeNull();
  });

  it("empty list elements are skipped (§5.6.1)", () => {
    expect(negotiateEncoding(",, gzip ,")).toBe("gzip");
  });

  it("a coding listed twice keeps its first weight", () => {
    expect(negotiateEncoding("br;q=0, br, gzip")).toBe("gzip");
  });
});
