import { describe, expect, it } from "vitest";
import { parseListQuery } from "../../functions/routes/list-query.ts";
import { encodeCursor } from "../../src/shared/cursor.ts";

const q = (text: string) => parseListQuery(new URLSearchParams(text));
const AFTER = { p: Date.UTC(2026, 9, 1), n: 12, id: "8d9c1151-071d-428b-a81a-f51f72aedac7" };
const JAN_1 = Date.UTC(2026, 0, 1);
const cursorWith = (domain: string | null, since: number | null) => encodeURIComponent(encodeCursor({ after: AFTER, domain, since }));

describe("list query parameters (docs/api.md#get-v1episodes)", () => {
  it("no parameters: limit 20, no filters, first page", () => {
    expect(q("")).toEqual({ ok: true, query: { limit: 20, domain: null, since: null, after: null } });
  });

  it.each([["1", 1], ["20", 20], ["50", 50]])("limit=%s is accepted", (text, n) => {
    expect(q(`limit=${text}`)).toMatchObject({ ok: true, query: { limit: n } });
  });

  it.each([["0"], ["51"], ["abc"], ["1.5"], [""], ["-1"], ["+5"], [" 5"], ["5 "], ["1e1"], ["0x10"], ["1000"], ["99999999999"], ["５"]])(
    "limit=%j is 400 invalid_limit naming limit",
    (text) => {
      expect(q(`limit=${encodeURIComponent(text)}`)).toEqual({ ok: false, code: "invalid_limit", parameter: "limit" });
    },
  );

  it("a repeated limit is 400 invalid_limit, even when both values agree", () => {
    expect(q("limit=5&limit=5")).toEqual({ ok: false, code: "invalid_limit", parameter: "limit" });
    expect(q("limit=5&limit=6")).toEqual({ ok: false, code: "invalid_limit", parameter: "limit" });
  });

  it("a well-formed domain filters the list", () => {
    expect(q("domain=ai")).toMatchObject({ ok: true, query: { domain: "ai" } });
    expect(q("domain=open-source")).toMatchObject({ ok: true, query: { domain: "open-source" } });
    expect(q(`domain=${"a".repeat(64)}`)).toMatchObject({ ok: true, query: { domain: "a".repeat(64) } });
  });

  it.each([["AI"], ["-ai"], [""], ["a_b"], ["a b"], ["a".repeat(65)], ["ai/"], ["é"]])("domain=%j is 400 invalid_domain naming domain", (text) => {
    expect(q(`domain=${encodeURIComponent(text)}`)).toEqual({ ok: false, code: "invalid_domain", parameter: "domain" });
  });

  it("a repeated domain is 400 invalid_domain", () => {
    expect(q("domain=ai&domain=security")).toEqual({ ok: false, code: "invalid_domain", parameter: "domain" });
  });

  it("since accepts a date and an RFC 3339 date-time, as epoch milliseconds", () => {
    expect(q("since=2026-01-01")).toMatchObject({ ok: true, query: { since: JAN_1 } });
    expect(q(`since=${encodeURIComponent("2026-01-01T02:00:00+02:00")}`)).toMatchObject({ ok: true, query: { since: JAN_1 } });
  });

  it.each([["2026-02-30"], [""], ["2026-01-01T00:00:00"], ["yesterday"]])("since=%j is 400 invalid_since naming since", (text) => {
    expect(q(`since=${encodeURIComponent(text)}`)).toEqual({ ok: false, code: "invalid_since", parameter: "since" });
  });

  it("a repeated since is 400 invalid_since", () => {
    expect(q("since=2026-01-01&since=2026-01-01")).toEqual({ ok: false, code: "invalid_since", parameter: "since" });
  });

  it.each([["garbage"], [""], ["AAAA"]])("cursor=%j is 400 invalid_cursor naming cursor", (text) => {
    expect(q(`cursor=${text}`)).toEqual({ ok: false, code: "invalid_cursor", parameter: "cursor" });
  });

  it("a repeated cursor is 400 invalid_cursor", () => {
    const c = cursorWith(null, null);
    expect(q(`cursor=${c}&cursor=${c}`)).toEqual({ ok: false, code: "invalid_cursor", parameter: "cursor" });
  });

  it("a cursor alone carries its position and the filters of its first page", () => {
    expect(q(`cursor=${cursorWith("ai", JAN_1)}`)).toEqual({ ok: true, query: { limit: 20, domain: "ai", since: JAN_1, after: AFTER } });
  });

  it("a cursor with the same filters repeated is accepted", () => {
    expect(q(`cursor=${cursorWith("ai", JAN_1)}&domain=ai&since=2026-01-01`)).toMatchObject({ ok: true, query: { domain: "ai", since: JAN_1 } });
  });

  it("the same since instant written another way counts as the same filter", () => {
    const since = encodeURIComponent("2025-12-31T19:00:00-05:00");
    expect(q(`cursor=${cursorWith(null, JAN_1)}&since=${since}`)).toMatchObject({ ok: true, query: { since: JAN_1 } });
  });

  it("the limit may change from page to page", () => {
    expect(q(`cursor=${cursorWith("ai", null)}&limit=7`)).toMatchObject({ ok: true, query: { limit: 7, domain: "ai", after: AFTER } });
  });

  it.each([
    ["a different domain", cursorWith("ai", null), "domain=security"],
    ["a domain the cursor did not have", cursorWith(null, null), "domain=ai"],
    ["a different since", cursorWith(null, JAN_1), "since=2026-01-02"],
    ["a since the cursor did not have", cursorWith("ai", null), "since=2026-01-01"],
  ])("a cursor with %s is 400 invalid_cursor", (_, cursor, filter) => {
    expect(q(`cursor=${cursor}&${filter}`)).toEqual({ ok: false, code: "invalid_cursor", parameter: "cursor" });
  });

  it("a malformed filter beside a cursor is reported as that filter", () => {
    expect(q(`cursor=${cursorWith("ai", null)}&domain=AI`)).toEqual({ ok: false, code: "invalid_domain", parameter: "domain" });
  });

  it("unknown parameters are ignored", () => {
    expect(q("foo=bar&limit=3&LIMIT=abc&page=2")).toEqual({ ok: true, query: { limit: 3, domain: null, since: null, after: null } });
  });
});
