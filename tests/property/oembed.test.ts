// Property tests of the oEmbed query and page URLs (docs/api.md#get-oembed; src/shared/oembed.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pageRefOf, parseOembedQuery } from "../../src/shared/oembed.ts";
import { binaryString } from "../support/any-text.ts";

const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/);
const host = fc.array(label, { minLength: 1, maxLength: 3 }).map((l) => l.join("."));
const scheme = fc.constantFrom("http", "https");
const port = fc.option(fc.integer({ min: 1, max: 65535 }), { nil: null });
const basePath = fc.array(label, { maxLength: 2 }).map((l) => (l.length === 0 ? "" : `/${l.join("/")}`));
const site = fc.record({ scheme, host, port, base: basePath, slash: fc.boolean() });
type SiteSpec = { scheme: string; host: string; port: number | null; base: string; slash: boolean };
const originOf = (s: SiteSpec) => `${s.scheme}://${s.host}${s.port === null ? "" : `:${s.port}`}`;
const siteUrl = (s: SiteSpec) => `${originOf(s)}${s.base}${s.slash ? "/" : ""}`;
/** A reference as it appears in a path: safe characters (anything else is percent-encoded by URL). */
const ref = fc.stringMatching(/^[A-Za-z0-9._~-]{1,40}$/).filter((r) => r !== "." && r !== "..");
const tail = fc.constantFrom("", "/", "?x=1", "#t=10", "/?a=b#c", "?url=http://evil.example/episodes/9");

describe("property: oEmbed URLs", () => {
  it("an episode page URL of the configured site gives its reference (trailing slash, query and fragment tolerated)", () => {
    fc.assert(
      fc.property(site, ref, tail, fc.boolean(), (s, r, t, upperHost) => {
        const origin = upperHost ? originOf(s).toUpperCase().replace("HTTP", "http") : originOf(s);
        expect(pageRefOf(`${origin}${s.base}/episodes/${r}${t}`, siteUrl(s))).toBe(r);
      }),
      { numRuns: 3000 },
    );
  });

  it("a page URL of another origin (scheme, host or port) is null", () => {
    fc.assert(
      fc.property(site, site, ref, (s, other, r) => {
        fc.pre(new URL(originOf(other)).origin !== new URL(originOf(s)).origin);
        expect(pageRefOf(`${originOf(other)}${s.base}/episodes/${r}`, siteUrl(s))).toBeNull();
      }),
      { numRuns: 3000 },
    );
  });

  it("a URL with credentials, another path, a nested path or no reference is null", () => {
    fc.assert(
      fc.property(site, ref, label, (s, r, word) => {
        const o = originOf(s);
        const at = o.replace("://", "://user:pw@");
        const site = siteUrl(s);
        expect(pageRefOf(`${at}${s.base}/episodes/${r}`, site)).toBeNull();
        expect(pageRefOf(`${o}${s.base}/episodes/${r}/${word}`, site)).toBeNull();
        expect(pageRefOf(`${o}${s.base}/episodes/`, site)).toBeNull();
        expect(pageRefOf(`${o}${s.base}/episodes`, site)).toBeNull();
        expect(pageRefOf(`${o}${s.base}/embed/${r}`, site)).toBeNull();
        fc.pre(word !== "episodes");
        expect(pageRefOf(`${o}${s.base}/${word}/${r}`, site)).toBeNull();
        if (s.base !== "") expect(pageRefOf(`${o}/episodes/${r}`, site)).toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it("whatever it returns is a non-empty path segment of a URL of the site's origin", () => {
    fc.assert(
      fc.property(binaryString(), site, (junk, s) => {
        for (const u of [junk, `${originOf(s)}/episodes/${junk}`, `${originOf(s)}${s.base}/episodes/${junk}`]) {
          const r = pageRefOf(u, siteUrl(s));
          if (r === null) continue;
          expect(r.length).toBeGreaterThan(0);
          expect(r).not.toContain("/");
          expect(new URL(u).origin).toBe(new URL(siteUrl(s)).origin);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("parseOembedQuery: url required (blank is missing), format only json, maxwidth/maxheight read as 1–6 digits or ignored", () => {
    const val = fc.option(fc.oneof(binaryString({ maxLength: 12 }), fc.constantFrom("json", "xml", "", " ", "600", " 300 ", "1e3", "-5", "1234567")), { nil: null });
    fc.assert(
      fc.property(val, val, val, val, (url, format, maxwidth, maxheight) => {
        const p = new URLSearchParams();
        for (const [k, v] of [["url", url], ["format", format], ["maxwidth", maxwidth], ["maxheight", maxheight]] as const) if (v !== null) p.append(k, v);
        const r = parseOembedQuery(p);
        if (url === null || url.trim() === "") return void expect(r).toEqual({ ok: false, problem: "missing_url" });
        if (format !== null && format !== "json") return void expect(r).toEqual({ ok: false, problem: "unsupported_format" });
        const px = (v: string | null) => (v !== null && /^[0-9]{1,6}$/.test(v.trim()) ? Number(v.trim()) : null);
        expect(r).toEqual({ ok: true, url: url.trim(), size: { maxwidth: px(maxwidth), maxheight: px(maxheight) } });
      }),
      { numRuns: 3000 },
    );
  });

  it("arbitrary strings never throw: pageRefOf of any text against any text, parseOembedQuery of any query string", () => {
    fc.assert(
      fc.property(binaryString(), fc.oneof(binaryString(), site.map(siteUrl)), (a, b) => {
        pageRefOf(a, b);
        parseOembedQuery(new URLSearchParams(a));
      }),
      { numRuns: 5000 },
    );
  });
});
