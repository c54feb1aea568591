// What the MCP tools answer beside the API's own resources (docs/api.md#mcp): a search's results
// and a transcript, possibly of a time window. Built from the API's schemas (./api.ts), so a
// member means the same in both. The tools declare these as their output schemas
// (functions/routes/mcp.ts) and the SDK checks every result against them.
import * as z from "zod";
import { episodeResource, scriptSegment } from "./api.ts";

const seconds = z.number().min(0);

export const searchResult = z
  .object({
    ref: z.string().describe("The episode's canonical reference: its number, or its UUID when it has none"),
    id: episodeResource.shape.id,
    title: episodeResource.shape.title,
    publishedAt: episodeResource.shape.publishedAt,
    snippet: z.string().describe("Up to ~220 characters of the best-matching field around the hit, … where cut"),
    links: episodeResource.shape.links,
    start: seconds.optional().describe("Found in a timed transcript: when the matching turn starts in the audio, in seconds"),
    speaker: z.string().optional().describe("Found in a timed transcript: who says the matching turn"),
    text: z.string().optional().describe("Found in a timed transcript: the matching turn's words"),
    url: z.url().optional().describe("Found in a timed transcript: the episode page at that moment (links.page with ?t=<start>)"),
  })
  .describe("A published episode matching the query; the four moment members come together or not at all");
export type SearchResult = z.infer<typeof searchResult>;

export const searchResults = z.object({ results: z.array(searchResult).describe("Best first") }).describe("Published episodes matching the query");

export const timedTurn = z
  .object({
    speaker: scriptSegment.shape.speaker,
    text: scriptSegment.shape.text,
    start: seconds.describe("When the turn starts in the audio, in seconds"),
    end: seconds.describe("When the turn ends in the audio, in seconds"),
  })
  .describe("One spoken turn with its times");
export type TimedTurn = z.infer<typeof timedTurn>;

export const transcriptResult = z
  .object({
    transcript: z
      .string()
      .describe("One `Speaker Name: text` line per turn. Without a window: the whole transcript, the body of GET /v1/episodes/{ref}/transcript; with one: the lines of `turns`"),
    turns: z.array(timedTurn).optional().describe("With a window: the turns that overlap it, in speaking order, with their times"),
  })
  .describe("An episode's transcript, whole or within a time window");
export type TranscriptResult = z.infer<typeof transcriptResult>;
