// The Content-Security-Policy values the shim sends with the player and the pages.
import { describe, expect, it } from "vitest";
import { contentSecurityPolicies } from "../../functions/routes/site.ts";

describe("content security policies", () => {
  it("the player is frameable anywhere, runs scripts from its own origin only and plays audio from the site and the API", () => {
    const { player } = contentSecurityPolicies("https://pod.example", "https://api.pod.example");
    expect(player).toBe(
      "default-src 'none'; style-src 'self'; img-src 'self' data:; media-src 'self' https://pod.example https://api.pod.example; base-uri 'none'; form-action 'none'; script-src 'self'; frame-ancestors *",
    );
  });

  it("pages run scripts from their own origin only, frame only the site's own player and are framed only by the site", () => {
    const { page } = contentSecurityPolicies("https://pod.example", "https://pod.example");
    expect(page).toContain("frame-src 'self' https://pod.example;");
    expect(page).toContain("frame-ancestors 'self'");
    expect(page).toContain("script-src 'self';");
  });

  it("redirect delivery adds the storage's sources to media-src only", () => {
    const { player, page } = contentSecurityPolicies("https://pod.example", "https://pod.example", ["https:"]);
    expect(player).toContain("media-src 'self' https://pod.example https:;");
    expect(page).toContain("frame-src 'self' https://pod.example;");
  });
});
