// Timed scripts, transcripts and chapters (docs/api.md#timed-transcripts-and-chapters,
// README.md#content-format), on both targets: the script route's times, /transcript.vtt, .srt,
// .json and /chapters.json for timed, untimed, partly timed and past-the-end content, stage
// directions dropped with their times, no script, an invalid one, drafts, scheduled and numberless
// episodes; every HTTP rule of a body (HEAD, 304, CORS, Link, compression, the metadata bucket);
// the feed's item tags; the build's warnings. The forms are read back by independent readers:
// Chromium's WebVTT parser, ffmpeg's SubRip demuxer, podcast-partytime and rss-parser.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { parseFeed, type FeedObject } from "podcast-partytime";
import Parser from "rss-parser";
import type { Browser } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../functions/node/main.ts";
import { etagOf } from "../../src/shared/etag.ts";
import { jsonChapters, jsonTranscript, scriptResource } from "../../src/shared/schema/api.ts";
import { closeContexts, sharedChromium } from "../browser/support/browser.ts";
import { clock, episode, HOSTS, sharedSite, removeSite, script, serveSite, type Site } from "../support/fixture.ts";
import { call, expectCors, expectError, expectLicense, json, NO_LIMITS, rawRequest, stableHeaders, TONE, type Reply } from "../support/http.ts";
import { expectLimited, field } from "../support/rate-limit.ts";

const run = promisify(execFile);
const BASE = "http://localhost:4321";
const TERMS = `${BASE}/terms`;

const LONG = `So the question, ${"and it is a long one that runs on and on, ".repeat(12)}is who owns the key.`;
/** Segments as authored: the second is only stage directions, with times that break every rule. */
const TIMED_SCRIPT = {
  chapters: [
    { title: "Opening & <hello>", summary: "Hello.", start: 0 },
    { title: "The key", start: 12.5 },
    { title: "Goodbye", start: 35.25 },
  ],
  segments: [
    { speaker: "a", text: "Welcome [laughs] to the show: 3 < 4 & 5 > 2 --> arrows.", start: 0, end: 4.2 },
    { speaker: "b", text: "*sighs* [long pause]", start: 50, end: 1 },
    { speaker: "Guest <&> Voice", text: "Thanks for having me.", start: 4.2, end: 7.9004 },
    { speaker: "b", text: LONG, start: 8, end: 35.5 },
    { speaker: "a", text: "Bye.", start: 35.5, end: 40.6 },
  ],
};
/** What the API says of them: directions removed, the empty one dropped with its times, milliseconds. */
const WANT_SEGMENTS = [
  { speaker: HOSTS.a, text: "Welcome to the show: 3 < 4 & 5 > 2 --> arrows.", start: 0, end: 4.2 },
  { speaker: "Guest <&> Voice", text: "Thanks for having me.", start: 4.2, end: 7.9 },
  { speaker: HOSTS.b, text: LONG, start: 8, end: 35.5 },
  { speaker: HOSTS.a, text: "Bye.", start: 35.5, end: 40.6 },
];
const WANT_CHAPTERS = [
  { startTime: 0, title: "Opening & <hello>", endTime: 12.5 },
  { startTime: 12.5, title: "The key", endTime: 35.25 },
  { startTime: 35.25, title: "Goodbye", endTime: 40 },
];

const timed = episode({ episodeNumber: 1, title: "Timed", durationSeconds: 40 });
const untimed = episode({ episodeNumber: 2, title: "Untimed", durationSeconds: 40 });
const partly = episode({ episodeNumber: 3, title: "Partly timed" });
const past = episode({ episodeNumber: 4, title: "Past the end", durationSeconds: 10 });
const noScript = episode({ episodeNumber: 5, title: "No script" });
const notJson = episode({ episodeNumber: 6, title: "Not JSON" });
const negative = episode({ episodeNumber: 7, title: "Negative time" });
const draft = episode({ episodeNumber: 8, status: "draft" });
const SCHEDULED_AT = Date.UTC(2099, 0, 1);
const scheduled = episode({ episodeNumber: 9, publishedAt: new Date(SCHEDULED_AT).toISOString(), durationSeconds: 40 });
const numberless = episode({ episodeNumber: null, title: "No number" });

const NUMBERLESS_SCRIPT = {
  chapters: [{ title: "Only", start: 0 }],
  segments: [
    { speaker: "a", text: "This is <b>not bold</b> &amp; not a reference --> nor a cue.", start: 1, end: 2.5 },
    { speaker: "b", text: "Fine.", start: 2.5, end: 3 },
  ],
};

let site: Site;
let server: RunningServer;

beforeAll(async () => {
  site = await sharedSite("timed", [
    { folder: "timed", episode: timed, script: TIMED_SCRIPT, audio: TONE },
    { folder: "untimed", episode: untimed, script: script([["a", "No times."], ["b", "None."]]), audio: TONE },
    {
      folder: "partly",
      episode: partly,
      audio: TONE,
      script: {
        chapters: [{ title: "A", start: 0 }, { title: "B", start: 3 }],
        segments: [
          { speaker: "a", text: "Timed.", start: 0, end: 2 },
          { speaker: "b", text: "Not quite.", start: 2 },
        ],
      },
    },
    {
      folder: "past",
      episode: past,
      script: {
        chapters: [{ title: "A", start: 0 }, { title: "B", start: 10 }],
        segments: [
          { speaker: "a", text: "In time.", start: 0, end: 5 },
          { speaker: "b", text: "Too late.", start: 5, end: 11.5 },
        ],
      },
    },
    { folder: "no-script", episode: noScript },
    { folder: "not-json", episode: notJson, script: "{ not json" },
    { folder: "negative", episode: negative, script: { chapters: [], segments: [{ speaker: "a", text: "x", start: -1, end: 2 }] } },
    { folder: "draft", episode: draft, script: TIMED_SCRIPT },
    { folder: "scheduled", episode: scheduled, script: TIMED_SCRIPT },
    { folder: "numberless", episode: numberless, script: NUMBERLESS_SCRIPT },
  ]);
  server = await serveSite(site, { env: NO_LIMITS });
});
afterAll(async () => {
  await server?.close();
  await removeSite(site);
});

const get = (p: string, headers: Record<string, string> = {}, method = "GET") => call(server.url, p, { method, headers });
/** The bytes on the wire, still encoded. */
const raw = (p: string, headers: Record<string, string>) => rawRequest(server.url, p, headers);
/** A client that takes no content coding: fetch would otherwise ask for one and decode it. */
const PLAIN = { "Accept-Encoding": "identity" };

const FORMS = [
  ["transcript.vtt", "text/vtt; charset=utf-8", "transcript_unavailable"],
  ["transcript.srt", "application/x-subrip; charset=utf-8", "transcript_unavailable"],
  ["transcript.json", "application/json; charset=utf-8", "transcript_unavailable"],
  ["chapters.json", "application/json; charset=utf-8", "chapters_unavailable"],
] as const;
const TRANSCRIPTS = FORMS.slice(0, 3).map(([form]) => form);

describe("the build", () => {
  const log = () => `${site.build.stdout}\n${site.build.stderr}`;

  it("warns about timings that break a rule, naming the file and the field, and does not fail", () => {
    expect(log()).toContain("episodes/partly/script.json: field 'segments.1.end': missing");
    expect(log()).toContain("episodes/past/script.json: field 'segments.1.end': 11.5 is more than 1 s past the audio's end (durationSeconds 10) (its segments are served untimed)");
    expect(log()).toContain("episodes/past/script.json: field 'chapters.1.start': 10 is not before the audio's end (durationSeconds 10) (its chapters are served untimed)");
  });

  it("says nothing of a stage direction's times, nor of content within the rules", () => {
    expect(log()).not.toMatch(/episodes\/(timed|untimed|numberless)\/script\.json/);
  });
});

describe("GET /v1/episodes/<ref>/script", () => {
  it("carries start and end on timed segments and start on timed chapters, to the millisecond; a dropped segment's times go with it", async () => {
    const body = json(await get("/v1/episodes/1/script"));
    scriptResource.parse(body);
    expect(body.segments).toEqual(WANT_SEGMENTS);
    expect(body.chapters).toEqual([
      { title: "Opening & <hello>", summary: "Hello.", start: 0 },
      { title: "The key", start: 12.5 },
      { title: "Goodbye", start: 35.25 },
    ]);
  });

  it.each([
    ["untimed", 2, false, false],
    ["partly timed segments (its chapters timed)", 3, false, true],
    ["past the end of the audio", 4, false, false],
  ])("an episode %s carries neither member on the untimed part", async (_, n, segmentsTimed, chaptersTimed) => {
    const body = json(await get(`/v1/episodes/${n}/script`));
    for (const s of body.segments) expect(Object.keys(s).sort()).toEqual(segmentsTimed ? ["end", "speaker", "start", "text"] : ["speaker", "text"]);
    for (const c of body.chapters) expect("start" in c).toBe(chaptersTimed);
  });

  it("the plain transcript is unchanged by times", async () => {
    const r = await get("/v1/episodes/1/transcript");
    expect(r.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(r.text).toBe(WANT_SEGMENTS.map((s) => `${s.speaker}: ${s.text}\n`).join(""));
  });
});

describe("the timed forms of a timed episode", () => {
  it("/transcript.json is the Podcasting 2.0 JSON transcript, one segment per turn in order", async () => {
    const r = await get("/v1/episodes/1/transcript.json");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const body = jsonTranscript.parse(json(r));
    expect(body).toEqual({ version: "1.0.0", segments: WANT_SEGMENTS.map((s) => ({ speaker: s.speaker, startTime: s.start, endTime: s.end, body: s.text })) });
  });

  it("/chapters.json is Podcasting 2.0 JSON chapters, each ending at the next start, the last at durationSeconds", async () => {
    const r = await get("/v1/episodes/1/chapters.json");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(jsonChapters.parse(json(r))).toEqual({ version: "1.2.0", chapters: WANT_CHAPTERS });
  });

  it("/transcript.vtt and /transcript.srt have their media types and one cue per kept segment", async () => {
    const vtt = await get("/v1/episodes/1/transcript.vtt");
    expect(vtt.headers.get("content-type")).toBe("text/vtt; charset=utf-8");
    expect(vtt.text.startsWith("WEBVTT\n\n")).toBe(true);
    expect(vtt.text.match(/ --> \d/g)).toHaveLength(WANT_SEGMENTS.length);
    const srt = await get("/v1/episodes/1/transcript.srt");
    expect(srt.headers.get("content-type")).toBe("application/x-subrip; charset=utf-8");
    expect(srt.text.startsWith("1\n00:00:00,000 --> 00:00:04,200\n")).toBe(true);
  });

  it("the last chapter has no endTime when the duration is not known", async () => {
    expect(json(await get("/v1/episodes/3/chapters.json")).chapters).toEqual([{ startTime: 0, title: "A", endTime: 3 }, { startTime: 3, title: "B" }]);
  });

  it.each(FORMS)("%s of an episode without a number is served by its UUID in any case, the same bytes and ETag", async (form) => {
    const lower = await get(`/v1/episodes/${numberless.id}/${form}`);
    const upper = await get(`/v1/episodes/${String(numberless.id).toUpperCase()}/${form}`);
    expect(lower.status).toBe(200);
    expect(upper.text).toBe(lower.text);
    expect(upper.headers.get("etag")).toBe(lower.headers.get("etag"));
  });

  it("each transcript's strong ETag is the hash of the three, named for its form; the chapters' is the hash of its bytes", async () => {
    const plain = await Promise.all(TRANSCRIPTS.map((f) => get(`/v1/episodes/1/${f}`, PLAIN)));
    const tags = await Promise.all(plain.map((r) => etagOf(r.bytes)));
    const shared = await etagOf(tags.join(""));
    const forms = ["vtt", "srt", "json"];
    plain.forEach((r, i) => expect(r.headers.get("etag")).toBe(`${shared.slice(0, -1)}.${forms[i]}"`));
    expect(new Set(plain.map((r) => r.headers.get("etag"))).size).toBe(3);
    const chapters = await get("/v1/episodes/1/chapters.json", PLAIN);
    expect(chapters.headers.get("etag")).toBe(await etagOf(chapters.bytes));
    expect(chapters.headers.get("etag")).not.toBe(plain[0]!.headers.get("etag"));
  });
});

describe("where there is nothing timed to serve", () => {
  const cases: [string, string, Record<string, number | string>][] = [
    ["untimed segments and chapters", "2", { transcripts: "transcript_unavailable", chapters: "chapters_unavailable" }],
    ["partly timed segments, timed chapters", "3", { transcripts: "transcript_unavailable", chapters: 200 }],
    ["times past the end of the audio", "4", { transcripts: "transcript_unavailable", chapters: "chapters_unavailable" }],
    ["no script", "5", { transcripts: "transcript_unavailable", chapters: "chapters_unavailable" }],
    ["a script that is not JSON", "6", { transcripts: "transcript_unavailable", chapters: "chapters_unavailable" }],
    ["a script with a negative time (invalid)", "7", { transcripts: "transcript_unavailable", chapters: "chapters_unavailable" }],
  ];

  it.each(cases)("%s: each form answers as the rules say", async (_, ref, want) => {
    for (const [form, , ] of FORMS) {
      const expected = form === "chapters.json" ? want.chapters! : want.transcripts!;
      const r = await get(`/v1/episodes/${ref}/${form}`);
      if (expected === 200) expect(r.status, form).toBe(200);
      else expectError(r, 404, expected as string);
    }
  });

  it("an invalid script answers 422 on the script route and 404 on the forms", async () => {
    expectError(await get("/v1/episodes/7/script"), 422, "script_unparseable");
    expectError(await get("/v1/episodes/6/script"), 422, "script_unparseable");
  });

  it.each(FORMS)("%s: a draft, a scheduled episode and an unknown one answer 404 not_found; a bad reference 400", async (form) => {
    for (const ref of ["8", draft.id, "9", scheduled.id, "999", "00000000-0000-4000-8000-000000000000"]) {
      expectError(await get(`/v1/episodes/${ref}/${form}`), 404, "not_found");
    }
    for (const ref of ["abc", "0x1", "1234567890"]) {
      const e = expectError(await get(`/v1/episodes/${ref}/${form}`), 400, "invalid_episode_ref");
      expect(e.parameter).toBe("ref");
    }
  });

  it("a scheduled episode's forms appear at its time, without a rebuild", async () => {
    const later = clock(SCHEDULED_AT - 1000);
    const s = await serveSite(site, { env: NO_LIMITS, now: later.now });
    try {
      expectError(await call(s.url, "/v1/episodes/9/transcript.vtt"), 404, "not_found");
      later.set(SCHEDULED_AT);
      for (const [form] of FORMS) expect((await call(s.url, `/v1/episodes/9/${form}`)).status, form).toBe(200);
      expect((await call(s.url, "/v1/episodes/9/transcript.json")).text).toBe((await get("/v1/episodes/1/transcript.json")).text);
    } finally {
      await s.close();
    }
  });
});

describe.each(FORMS)("HTTP behaviour of %s", (form, type) => {
  const target = `/v1/episodes/1/${form}`;

  it("HEAD has GET's status and headers, without a body", async () => {
    const g = await get(target, PLAIN);
    const h = await get(target, PLAIN, "HEAD");
    expect(h.status).toBe(200);
    expect(h.bytes.byteLength).toBe(0);
    expect(stableHeaders(h.headers)).toEqual(stableHeaders(g.headers));
    expect(h.headers.get("content-length")).toBe(String(g.bytes.byteLength));
  });

  it("answers 304 to its strong ETag (alone, in a list, weak), with CORS and Link, and no body", async () => {
    const g = await get(target, PLAIN);
    const tag = g.headers.get("etag")!;
    // The service's strong form; a transcript's is named for its form (formEtag, src/shared/timed.ts).
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{22}(\.(vtt|srt|json))?"$/);
    for (const inm of [tag, `"nope", ${tag}`, `W/${tag}`, "*"]) {
      const r = await get(target, { ...PLAIN, "If-None-Match": inm });
      expect(r.status, inm).toBe(304);
      expect(r.bytes.byteLength).toBe(0);
      expect(r.headers.get("etag")).toBe(tag);
      expect(r.headers.get("cache-control")).toBe("public, max-age=300");
      expectCors(r.headers);
      expectLicense(r.headers, TERMS);
    }
    expect((await get(target, { ...PLAIN, "If-None-Match": '"other"' })).status).toBe(200);
  });

  it("carries CORS, the license Link, its media type, revalidating Cache-Control and the metadata bucket's headers", async () => {
    const r = await get(target, PLAIN);
    expect(r.headers.get("content-type")).toBe(type);
    expect(r.headers.get("cache-control")).toBe("public, max-age=300");
    expectCors(r.headers);
    expectLicense(r.headers, TERMS);
    expect(r.headers.get("ratelimit-policy")).toMatch(/^"metadata";q=\d+;w=60$/);
  });

  it("is sent as br or gzip when asked, under the representation's own ETag, decoding to the plain body; 304 to that tag", async () => {
    const plain = await raw(target, {});
    expect(plain.headers.vary).toBe("Accept-Encoding");
    for (const [coding, suffix] of [["br", ".br"], ["gzip", ".gz"]] as const) {
      const r = await raw(target, { "Accept-Encoding": coding });
      expect(r.headers["content-encoding"]).toBe(coding);
      expect(r.headers.vary).toBe("Accept-Encoding");
      expect(r.headers.etag).toBe(`${plain.headers.etag!.slice(0, -1)}${suffix}"`);
      expect((coding === "br" ? brotliDecompressSync(r.body) : gunzipSync(r.body)).equals(plain.body)).toBe(true);
      expect((await raw(target, { "Accept-Encoding": coding, "If-None-Match": r.headers.etag! })).status).toBe(304);
    }
  });

  it("OPTIONS is a preflight (204) and POST is refused 405 with Allow", async () => {
    const pre = await get(target, { Origin: "https://elsewhere.example", "Access-Control-Request-Method": "GET" }, "OPTIONS");
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-methods")).toBe("GET, HEAD");
    const post = await get(target, {}, "POST");
    expectError(post, 405, "method_not_allowed");
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });
});

describe("the metadata bucket", () => {
  it("counts every form, errors and 304s included, and answers 429 past the limit", async () => {
    const s = await serveSite(site, { env: { RATE_LIMIT_METADATA_PER_MIN: "6", RATE_LIMIT_AUDIO_PER_MIN: "100" } });
    try {
      const replies: Reply[] = [];
      for (const [form] of FORMS) replies.push(await call(s.url, `/v1/episodes/1/${form}`));
      replies.push(await call(s.url, "/v1/episodes/2/transcript.vtt"));
      replies.push(await call(s.url, "/v1/episodes/1/chapters.json", { headers: { "If-None-Match": replies[3]!.headers.get("etag")! } }));
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 404, 304]);
      expect(replies.map((r) => field(r.headers.get("ratelimit"), "r"))).toEqual([5, 4, 3, 2, 1, 0]);
      for (const [form] of FORMS) expectLimited(await call(s.url, `/v1/episodes/1/${form}`), { terms: TERMS });
    } finally {
      await s.close();
    }
  });
});

describe("discovery and llms.txt", () => {
  it("the discovery document names each form's URI template", async () => {
    const { links } = json(await get("/v1"));
    expect(links).toMatchObject({
      transcriptVtt: `${BASE}/v1/episodes/{ref}/transcript.vtt`,
      transcriptSrt: `${BASE}/v1/episodes/{ref}/transcript.srt`,
      transcriptJson: `${BASE}/v1/episodes/{ref}/transcript.json`,
      chapters: `${BASE}/v1/episodes/{ref}/chapters.json`,
    });
  });

  it("llms.txt links the timed transcripts and the chapters", async () => {
    const text = (await get("/llms.txt")).text;
    for (const [form] of FORMS) expect(text).toContain(`(${BASE}/v1/episodes/{ref}/${form})`);
  });
});

describe("read by independent readers", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await sharedChromium();
  });
  afterAll(async () => {
    await closeContexts(browser);
  });

  /** The cues Chromium's WebVTT parser reads from `text`, as a <track> of an <audio>: times, voice and text. */
  async function chromiumCues(text: string) {
    const page = await browser.newPage();
    try {
      return await page.evaluate(async (vtt) => {
        const audio = document.createElement("audio");
        const track = document.createElement("track");
        track.kind = "subtitles";
        track.src = URL.createObjectURL(new Blob([vtt], { type: "text/vtt" }));
        audio.append(track);
        document.body.append(audio);
        track.track.mode = "hidden";
        await new Promise((resolve, reject) => {
          track.addEventListener("load", resolve);
          track.addEventListener("error", () => reject(new Error("Chromium refused the WebVTT")));
        });
        return Array.from(track.track.cues ?? [], (c) => {
          const cue = c as VTTCue;
          const holder = document.createElement("div");
          holder.append(cue.getCueAsHTML());
          const voices = [...holder.querySelectorAll("span[title]")].map((s) => (s as HTMLElement).title);
          return { start: cue.startTime, end: cue.endTime, voices, text: holder.textContent, elements: holder.querySelectorAll("*").length };
        });
      }, text);
    } finally {
      await page.close();
    }
  }

  it("Chromium reads the WebVTT: a cue per turn, its times to the millisecond, the speaker as its voice, the text as spoken", async () => {
    const cues = await chromiumCues((await get("/v1/episodes/1/transcript.vtt")).text);
    expect(cues).toEqual(WANT_SEGMENTS.map((s) => ({ start: s.start, end: s.end, voices: [s.speaker], text: s.text, elements: 1 })));
  });

  it("Chromium finds no markup in text that looks like it: tags, references and arrows stay text", async () => {
    const cues = await chromiumCues((await get(`/v1/episodes/${numberless.id}/transcript.vtt`)).text);
    expect(cues).toEqual([
      { start: 1, end: 2.5, voices: [HOSTS.a], text: "This is <b>not bold</b> &amp; not a reference --> nor a cue.", elements: 1 },
      { start: 2.5, end: 3, voices: [HOSTS.b], text: "Fine.", elements: 1 },
    ]);
  });

  it("ffmpeg's SubRip demuxer reads the SRT: a cue per turn, its times, `Speaker Name: text`", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "srt-"));
    try {
      const file = path.join(dir, "transcript.srt");
      await writeFile(file, (await get("/v1/episodes/1/transcript.srt")).bytes);
      const { stdout } = await run("ffmpeg", ["-v", "error", "-i", file, "-f", "webvtt", "-"]);
      // ffmpeg writes its WebVTT with mm:ss.mmm under an hour.
      const cues = stdout.split("\n\n").slice(1).filter((b) => b.trim() !== "").map((b) => b.trim().split("\n"));
      const seconds = (t: string) => t.split(":").reduce((acc, part) => acc * 60 + Number(part), 0);
      expect(cues.map(([timing, ...text]) => {
        const [from, to] = timing!.split(" --> ");
        return { start: seconds(from!), end: seconds(to!), text: text.join("\n") };
      })).toEqual(WANT_SEGMENTS.map((s) => ({ start: s.start, end: s.end, text: `${s.speaker}: ${s.text}` })));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  const feedText = async () => (await get("/feed.xml")).text;
  const url = (ref: string, form: string) => `${BASE}/v1/episodes/${ref}/${form}`;

  it("podcast-partytime reads podcast:transcript once per form and podcast:chapters where the chapters are timed", async () => {
    // partytime skips items without an enclosure, as podcast apps do: the episodes with audio.
    const feed = parseFeed(await feedText()) as FeedObject;
    const item = (id: unknown) => feed.items.find((i) => i.guid === id)!;
    // partytime gives each transcript the channel's language, as the namespace says when the tag has none.
    const transcript = (u: string, type: string) => ({ url: u, type, language: "en" });
    expect(item(timed.id).podcastTranscripts).toEqual([
      transcript(url("1", "transcript.vtt"), "text/vtt"),
      transcript(url("1", "transcript.srt"), "application/srt"),
      transcript(url("1", "transcript.json"), "application/json"),
      transcript(url("1", "transcript"), "text/plain"),
    ]);
    expect(item(timed.id).podcastChapters).toEqual({ url: url("1", "chapters.json"), type: "application/json+chapters" });
    expect(item(untimed.id).podcastTranscripts).toEqual([transcript(url("2", "transcript"), "text/plain")]);
    expect(item(untimed.id).podcastChapters).toBeUndefined();
    expect(item(partly.id).podcastTranscripts).toEqual([transcript(url("3", "transcript"), "text/plain")]);
    expect(item(partly.id).podcastChapters).toEqual({ url: url("3", "chapters.json"), type: "application/json+chapters" });
  });

  it("rss-parser reads each item's podcast:transcript and podcast:chapters tags", async () => {
    const parser = new Parser({ customFields: { item: [["podcast:transcript", "transcripts", { keepArray: true }], ["podcast:chapters", "chapters"]] as never[] } });
    const feed = await parser.parseString(await feedText());
    const byGuid = new Map(feed.items.map((i) => [i.guid, i as unknown as { transcripts?: { $: { url: string; type: string } }[]; chapters?: { $: { url: string; type: string } } }]));
    const tags = (id: unknown) => {
      const item = byGuid.get(String(id));
      expect(item, String(id)).toBeDefined();
      return { transcripts: (item!.transcripts ?? []).map((t) => t.$), chapters: item!.chapters?.$ ?? null };
    };
    const plain = (ref: string) => ({ url: url(ref, "transcript"), type: "text/plain" });
    expect(tags(timed.id)).toEqual({
      transcripts: [
        { url: url("1", "transcript.vtt"), type: "text/vtt" },
        { url: url("1", "transcript.srt"), type: "application/x-subrip" },
        { url: url("1", "transcript.json"), type: "application/json" },
        plain("1"),
      ],
      chapters: { url: url("1", "chapters.json"), type: "application/json+chapters" },
    });
    expect(tags(untimed.id)).toEqual({ transcripts: [plain("2")], chapters: null });
    expect(tags(partly.id)).toEqual({ transcripts: [plain("3")], chapters: { url: url("3", "chapters.json"), type: "application/json+chapters" } });
    expect(tags(past.id)).toEqual({ transcripts: [plain("4")], chapters: null });
    expect(tags(noScript.id)).toEqual({ transcripts: [], chapters: null });
    expect(tags(numberless.id).transcripts.map((t) => t.url)).toEqual(["transcript.vtt", "transcript.srt", "transcript.json", "transcript"].map((f) => url(String(numberless.id), f)));
    expect(byGuid.has(String(draft.id))).toBe(false);
    expect(byGuid.has(String(scheduled.id))).toBe(false);
  });
});
