// Name-based UUIDs (src/shared/uuid-v5.ts) against published vectors: RFC 9562's DNS example and the
// Podcasting 2.0 namespace's own example of a podcast:guid.
import { describe, expect, it } from "vitest";
import { PODCAST_GUID_NAMESPACE, podcastGuid, uuidV5 } from "../../src/shared/uuid-v5.ts";

const DNS_NAMESPACE = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";

describe("UUIDv5", () => {
  it("matches RFC 9562's vector: www.example.com in the DNS namespace", async () => {
    expect(await uuidV5("www.example.com", DNS_NAMESPACE)).toBe("2ed6657d-e927-568b-95e1-2665a8aea6a2");
  });

  it("is version 5, RFC variant, lower case, and depends on the namespace", async () => {
    const a = await uuidV5("x", PODCAST_GUID_NAMESPACE);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await uuidV5("x", DNS_NAMESPACE)).not.toBe(a);
    expect(await uuidV5("x", PODCAST_GUID_NAMESPACE.toUpperCase())).toBe(a);
  });

  it("gives the Podcasting 2.0 example's podcast:guid, with the scheme and trailing slashes ignored", async () => {
    const want = "917393e3-1b1e-5cef-ace4-edaa54e1f810";
    expect(await podcastGuid("https://mp3s.nashownotes.com/pc20rss.xml")).toBe(want);
    expect(await podcastGuid("http://mp3s.nashownotes.com/pc20rss.xml/")).toBe(want);
    expect(await podcastGuid("mp3s.nashownotes.com/pc20rss.xml//")).toBe(want);
  });

  it("refuses a namespace that is not a UUID", async () => {
    await expect(uuidV5("x", "not-a-uuid")).rejects.toThrow(/not a UUID/);
  });
});
