// The plain-text transcript (docs/api.md#get-v1episodesreftranscript): one `Speaker Name: text`
// line per spoken turn, in speaking order. The build writes it for every episode with a script
// (src/generate/site.ts); the MCP endpoint writes the lines of a time window with it
// (functions/mcp.ts), and search finds a hit's turn by the same line (functions/search.ts). Portable.

/** A spoken turn as the script resource carries it. */
export interface Turn {
  speaker: string;
  text: string;
}

/** A turn's line, its newline included. */
export function transcriptLine(turn: Turn): string {
  return `${turn.speaker}: ${turn.text}\n`;
}

/** The transcript of a script's turns; null when nothing is spoken. */
export function transcriptOf(script: { segments: readonly Turn[] }): string | null {
  if (script.segments.length === 0) return null;
  return script.segments.map(transcriptLine).join("");
}
