// The anchor of the request path: a bare node:http server on the same Node, answering from memory
// the same status line, headers and bytes the shim sent for each request the bench makes (recorded
// from the shim just before), with the shim's server options. It does what any Node server must (a
// map lookup by target and If-None-Match, writeHead, end) and nothing else, so the shim's req/s and
// CPU per request against it show what the shim costs beyond Node itself.
import http from "node:http";
import { writeFileSync } from "node:fs";
import { HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, MAX_HEADER_BYTES, REQUEST_TIMEOUT_MS } from "../../functions/node/server.ts";

/** One request the bench sends: its target and, for a 304, the If-None-Match it carries. */
export interface Recorded {
  path: string;
  ifNoneMatch: string | null;
  status: number;
  /** The shim's header fields in its order, without those node:http adds itself (Date, Connection, Keep-Alive). */
  headers: [string, string][];
  /** Base64; "" for no body. */
  body: string;
}

/** Fields node:http writes on its own for every response: left to the bare server's node:http too. */
const NODE_OWN = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

/** The shim's answer to GET `path` (with If-None-Match when given), as the bare server will replay it. */
export function record(url: string, path: string, ifNoneMatch: string | null = null): Promise<Recorded> {
  return new Promise((resolve, reject) => {
    const headers = ifNoneMatch === null ? {} : { "if-none-match": ifNoneMatch };
    http
      .get(`${url}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const fields: [string, string][] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            if (!NODE_OWN.has(res.rawHeaders[i]!.toLowerCase())) fields.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
          }
          resolve({ path, ifNoneMatch, status: res.statusCode ?? 0, headers: fields, body: Buffer.concat(chunks).toString("base64") });
        });
      })
      .on("error", reject);
  });
}

export function writeRecorded(file: string, responses: Recorded[]): void {
  writeFileSync(file, JSON.stringify(responses));
}

/**
 * The server, run as plain JavaScript (`node --input-type=module -e`) so that, like `npm run serve`,
 * it loads no TypeScript stripper. The options are functions/node/server.ts's; an unknown request is 404.
 */
export const BARE_NODE_SERVER = `
import http from "node:http";
import { readFileSync } from "node:fs";
const answers = new Map();
for (const r of JSON.parse(readFileSync(process.env.RESPONSES_FILE, "utf8"))) {
  const body = r.body === "" ? null : Buffer.from(r.body, "base64");
  answers.set(r.path + "\\n" + (r.ifNoneMatch ?? ""), { status: r.status, headers: Object.fromEntries(r.headers), body });
}
const missing = { status: 404, headers: { "content-length": "0" }, body: null };
http.createServer(
  { maxHeaderSize: ${MAX_HEADER_BYTES}, headersTimeout: ${HEADERS_TIMEOUT_MS}, requestTimeout: ${REQUEST_TIMEOUT_MS}, keepAliveTimeout: ${KEEP_ALIVE_TIMEOUT_MS}, requireHostHeader: false },
  (req, res) => {
    const a = answers.get(req.url + "\\n" + (req.headers["if-none-match"] ?? "")) ?? missing;
    res.writeHead(a.status, a.headers);
    if (a.body === null) res.end();
    else res.end(a.body);
  },
).listen(Number(process.env.PORT), "127.0.0.1");
// A normal exit, so that \`node --cpu-prof\` writes its profile.
process.once("SIGTERM", () => process.exit(0));
`;
