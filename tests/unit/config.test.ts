import { describe, expect, it } from "vitest";
import { shimConfig } from "../../functions/config.ts";

describe("shim configuration (PRODUCT.md §5)", () => {
  it("defaults to the specification's limits, no trusted proxy and streamed audio", () => {
    expect(shimConfig({})).toEqual({ rateLimits: { metadataPerMinute: 120, audioPerMinute: 30 }, trustProxy: 0, audioDelivery: "stream" });
  });

  it("reads the limits and TRUST_PROXY as whole numbers", () => {
    const c = shimConfig({ RATE_LIMIT_METADATA_PER_MIN: "10", RATE_LIMIT_AUDIO_PER_MIN: "3", TRUST_PROXY: "2" });
    expect(c.rateLimits).toEqual({ metadataPerMinute: 10, audioPerMinute: 3 });
    expect(c.trustProxy).toBe(2);
  });

  it.each([
    ["RATE_LIMIT_METADATA_PER_MIN", "0"],
    ["RATE_LIMIT_AUDIO_PER_MIN", "1.5"],
    ["TRUST_PROXY", "-1"],
    ["AUDIO_DELIVERY", "teleport"],
    ["AUDIO_BACKEND", "s3"],
  ])("refuses %s=%s with a message naming the variable", (name, value) => {
    expect(() => shimConfig({ [name]: value })).toThrow(name);
  });
});
