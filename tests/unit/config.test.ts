import { describe, expect, it } from "vitest";
import { announceConfig, PODPING_URL_DEFAULT, shimConfig } from "../../src/shared/config.ts";

describe("shim configuration (README.md#configuration)", () => {
  it("defaults to the specification's limits, no trusted proxy, streamed local audio and limits counted in memory", () => {
    expect(shimConfig({})).toEqual({
      rateLimits: { metadataPerMinute: 120, audioPerMinute: 30 },
      trustProxy: 0,
      audioDelivery: "stream",
      audioBackend: { kind: "local" },
      presignSeconds: 300,
      rateLimitStore: { kind: "memory" },
      feedLimit: 300,
      announce: { websubHub: null, pingUrls: [], podping: null, deployedSet: null },
    });
  });

  it("reads the limits and TRUST_PROXY as whole numbers", () => {
    const c = shimConfig({ RATE_LIMIT_METADATA_PER_MIN: "10", RATE_LIMIT_AUDIO_PER_MIN: "3", TRUST_PROXY: "2" });
    expect(c.rateLimits).toEqual({ metadataPerMinute: 10, audioPerMinute: 3 });
    expect(c.trustProxy).toBe(2);
  });

  it("treats empty values as unset", () => {
    expect(shimConfig({ AUDIO_BACKEND: "", RATE_LIMIT_STORE: " ", AUDIO_PRESIGN_SECONDS: "" })).toEqual(shimConfig({}));
  });

  it.each([
    ["RATE_LIMIT_METADATA_PER_MIN", "0"],
    ["RATE_LIMIT_AUDIO_PER_MIN", "1.5"],
    ["TRUST_PROXY", "-1"],
    ["AUDIO_DELIVERY", "teleport"],
    ["AUDIO_BACKEND", "ftp"],
    ["AUDIO_PRESIGN_SECONDS", "0"],
    ["AUDIO_PRESIGN_SECONDS", "604801"],
    ["RATE_LIMIT_STORE", "memcached"],
    ["FEED_LIMIT", "0"],
    ["WEBSUB_HUB", "hub.example"],
    ["WEBSUB_HUB", "ftp://hub.example/"],
    ["PING_URLS", "https://ok.example/?url={feed} not-a-url"],
    ["PODPING_URL", "podping.cloud"],
  ])("refuses %s=%s with a message naming the variable", (name, value) => {
    expect(() => shimConfig({ [name]: value })).toThrow(name);
  });
});

describe("AUDIO_BACKEND=s3", () => {
  const R2 = { AUDIO_BACKEND: "s3", S3_BUCKET: "audio", S3_ENDPOINT: "https://acct.r2.cloudflarestorage.com" };

  it("reads the bucket and endpoint; region auto and path-style by default with an endpoint", () => {
    expect(shimConfig(R2).audioBackend).toEqual({ kind: "s3", bucket: "audio", endpoint: R2.S3_ENDPOINT, region: "auto", forcePathStyle: true });
  });

  it("reads S3_REGION, S3_FORCE_PATH_STYLE and AUDIO_PRESIGN_SECONDS", () => {
    const c = shimConfig({ ...R2, S3_REGION: "eu-west-1", S3_FORCE_PATH_STYLE: "false", AUDIO_PRESIGN_SECONDS: "60" });
    expect(c.audioBackend).toMatchObject({ region: "eu-west-1", forcePathStyle: false });
    expect(c.presignSeconds).toBe(60);
  });

  it("addresses AWS S3 itself without an endpoint: virtual-hosted, by S3_REGION or AWS_REGION", () => {
    expect(shimConfig({ AUDIO_BACKEND: "s3", S3_BUCKET: "b", S3_REGION: "us-east-2" }).audioBackend).toEqual({
      kind: "s3",
      bucket: "b",
      endpoint: null,
      region: "us-east-2",
      forcePathStyle: false,
    });
    expect(shimConfig({ AUDIO_BACKEND: "s3", S3_BUCKET: "b", AWS_REGION: "ap-south-1" }).audioBackend).toMatchObject({ region: "ap-south-1" });
  });

  it("refuses s3 without S3_BUCKET, saying what it is for", () => {
    expect(() => shimConfig({ AUDIO_BACKEND: "s3", S3_ENDPOINT: R2.S3_ENDPOINT })).toThrow(/AUDIO_BACKEND=s3 needs S3_BUCKET/);
  });

  it("refuses AWS S3 without a region rather than use R2's 'auto'", () => {
    expect(() => shimConfig({ AUDIO_BACKEND: "s3", S3_BUCKET: "b" })).toThrow(/S3_REGION/);
  });

  it.each([
    ["S3_ENDPOINT", "not a url"],
    ["S3_ENDPOINT", "ftp://storage.example"],
    ["S3_FORCE_PATH_STYLE", "maybe"],
  ])("refuses %s=%s with a message naming the variable", (name, value) => {
    expect(() => shimConfig({ ...R2, [name]: value })).toThrow(name);
  });

  it("leaves the redirect check to the entry that builds the storage (tests/storage/s3-audio-route.test.ts)", () => {
    expect(shimConfig({ ...R2, AUDIO_DELIVERY: "redirect" }).audioDelivery).toBe("redirect");
  });
});

describe("RATE_LIMIT_STORE=redis", () => {
  it("reads REDIS_URL", () => {
    expect(shimConfig({ RATE_LIMIT_STORE: "redis", REDIS_URL: "redis://10.0.0.5:6379/2" }).rateLimitStore).toEqual({ kind: "redis", url: "redis://10.0.0.5:6379/2" });
    expect(shimConfig({ RATE_LIMIT_STORE: "redis", REDIS_URL: "rediss://cache.example:6380" }).rateLimitStore).toMatchObject({ kind: "redis" });
  });

  it("refuses redis without REDIS_URL, saying what to set", () => {
    expect(() => shimConfig({ RATE_LIMIT_STORE: "redis" })).toThrow(/RATE_LIMIT_STORE=redis needs REDIS_URL/);
  });

  it("refuses a REDIS_URL that is not a redis:// or rediss:// URL", () => {
    expect(() => shimConfig({ RATE_LIMIT_STORE: "redis", REDIS_URL: "http://cache.example" })).toThrow(/REDIS_URL/);
    expect(() => shimConfig({ RATE_LIMIT_STORE: "redis", REDIS_URL: "cache:6379x" })).toThrow(/REDIS_URL/);
  });

  it("ignores REDIS_URL when limits are counted in memory", () => {
    expect(shimConfig({ REDIS_URL: "redis://127.0.0.1:6379" }).rateLimitStore).toEqual({ kind: "memory" });
  });
});

describe("WEBSUB_HUB, PING_URLS, PODPING_TOKEN", () => {
  it("reads the hub (normalized, as a Link header carries it), the ping templates and Podping's token and endpoint", () => {
    const c = announceConfig({
      WEBSUB_HUB: "https://pubsubhubbub.appspot.com",
      PING_URLS: " https://api.podcastindex.org/api/1.0/hub/pubnotify?url={feed}\n https://ping.example/{feed} ",
      PODPING_TOKEN: " secret ",
      DEPLOYED_SET: "3-abc",
    });
    expect(c).toEqual({
      websubHub: "https://pubsubhubbub.appspot.com/",
      pingUrls: ["https://api.podcastindex.org/api/1.0/hub/pubnotify?url={feed}", "https://ping.example/{feed}"],
      podping: { token: "secret", url: PODPING_URL_DEFAULT },
      deployedSet: "3-abc",
    });
    expect(announceConfig({ PODPING_TOKEN: "t", PODPING_URL: "http://127.0.0.1:9/podping/" }).podping).toEqual({ token: "t", url: "http://127.0.0.1:9/podping/" });
    expect(shimConfig({ WEBSUB_HUB: "https://hub.example/<x>" }).announce.websubHub).toBe("https://hub.example/%3Cx%3E");
  });

  it("has Podping's endpoint mean nothing without a token", () => {
    expect(announceConfig({ PODPING_URL: "https://podping.example/" }).podping).toBeNull();
  });
});
