// The MCP endpoint's resources (docs/api.md#resources): an episode, its script, its plain
// transcript, its timed transcripts (WebVTT, SubRip, Podcasting 2.0 JSON) and its chapters, each
// named by its API URL as a URI template (`{base_url}/v1/episodes/{ref}/transcript.vtt`), made by
// urlOf (src/shared/links.ts) from the route table, which also describes it (src/shared/routes.ts).
// `resources/read` answers through the API's reads (./api-reads.ts): the route's body, only for a
// published episode; a refusal is a JSON-RPC error carrying the API's envelope. `resources/list`
// is empty: the concrete resources are every published episode's, a set that changes with the
// clock and runs to 100,000 episodes, which list_episodes already pages with its cursor.
import { MEDIA } from "../../src/shared/media-types.ts";
import type { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { urlOf, type Origins } from "../../src/shared/links.ts";
import { ROUTES, type Operation, type RouteId } from "../../src/shared/routes.ts";
import { TIMED_FORM_NAMES, TIMED_FORMS, type TimedForm } from "../../src/shared/timed.ts";
import { envelopeOf, refusal, Refusal, type ApiReads, type Envelope, type Read } from "./api-reads.ts";
import type { Asset } from "../ports.ts";

/** JSON-RPC codes of a refused read: the MCP specification's "resource not found", invalid params, else internal. */
export const RESOURCE_NOT_FOUND = -32002;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

/** What the SDK answers as a JSON-RPC error: its code, its message and `data` (the envelope). */
class ResourceError extends Error {
  readonly code: number;
  readonly data: Envelope;

  constructor(envelope: Envelope) {
    super(envelope.error.message);
    const { status } = envelope.error;
    this.code = status === 404 ? RESOURCE_NOT_FOUND : status === 400 ? INVALID_PARAMS : INTERNAL_ERROR;
    this.data = envelope;
  }
}

export interface ResourceDeps {
  /** The SDK's class (loaded with the SDK: functions/routes/mcp.ts). */
  ResourceTemplate: typeof ResourceTemplate;
  reads: ApiReads;
  origins: Origins;
  /** Counts the read in the rate-limit bucket; the envelope past the limit. */
  admit: () => Promise<Envelope | null>;
  now: () => number;
}

interface ResourceSpec {
  /** The last segment of its API path; `episode` for the episode itself. */
  name: string;
  route: RouteId;
  uriTemplate: string;
  read: (ref: string, clock: number) => Read<Asset>;
}

/** The media type of a route's body, without parameters: what `mimeType` says. */
function mimeTypeOf(operation: Operation): string {
  const { body } = operation;
  if (body.kind === "json" || body.kind === "openapi") return MEDIA.json;
  return body.kind === "text" ? body.media : MEDIA.mp3;
}

const TIMED_ROUTES: Record<TimedForm, RouteId> = {
  vtt: "getEpisodeTranscriptVtt",
  srt: "getEpisodeTranscriptSrt",
  json: "getEpisodeTranscriptJson",
  chapters: "getEpisodeChapters",
};

/** The resources of one episode, `{ref}` left as the template's variable. */
function specsOf(reads: ApiReads, origins: Origins): ResourceSpec[] {
  const template = (route: RouteId) => urlOf(origins, route);
  return [
    { name: "episode", route: "getEpisode", uriTemplate: template("getEpisode"), read: (ref, clock) => reads.body(ref, "json", clock) },
    { name: "script", route: "getEpisodeScript", uriTemplate: template("getEpisodeScript"), read: (ref, clock) => reads.body(ref, "script", clock) },
    { name: "transcript", route: "getEpisodeTranscript", uriTemplate: template("getEpisodeTranscript"), read: (ref, clock) => reads.body(ref, "transcript", clock) },
    ...TIMED_FORM_NAMES.map(
      (form): ResourceSpec => ({
        name: TIMED_FORMS[form].path,
        route: TIMED_ROUTES[form],
        uriTemplate: template(TIMED_ROUTES[form]),
        read: (ref, clock) => reads.timed(ref, form, clock),
      }),
    ),
  ];
}

const decoder = new TextDecoder();

export function registerResources(mcp: McpServer, deps: ResourceDeps): void {
  for (const spec of specsOf(deps.reads, deps.origins)) {
    const operation = ROUTES[spec.route].operation as Operation;
    const mimeType = mimeTypeOf(operation);
    mcp.registerResource(
      spec.name,
      new deps.ResourceTemplate(spec.uriTemplate, { list: undefined }),
      { title: operation.summary, description: operation.description, mimeType },
      async (uri, variables): Promise<ReadResourceResult> => {
        const limited = await deps.admit();
        if (limited !== null) throw new ResourceError(limited);
        let read: Asset | Refusal;
        try {
          read = await spec.read(String(variables.ref), deps.now());
        } catch {
          read = refusal("upstream_unavailable");
        }
        if (read instanceof Refusal) throw new ResourceError(envelopeOf(read));
        return { contents: [{ uri: uri.href, mimeType, text: decoder.decode(read.body) }] };
      },
    );
  }
}
