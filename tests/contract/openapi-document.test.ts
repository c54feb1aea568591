// The OpenAPI document of the demo content: valid OpenAPI 3.1 for two independent validators
// (Redocly's recommended ruleset, swagger-parser), and its examples are real responses.
import { execFile } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import SwaggerParser from "@apidevtools/swagger-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../functions/node/main.ts";
import { Router } from "../../functions/router.ts";
import { BUILD_FILES } from "../../src/shared/layout.ts";
import { ROUTES, type Route } from "../../src/shared/routes.ts";
import { demoSite, removeSite, ROOT, serveSite, tempDir, type Site } from "../support/fixture.ts";
import { ContractChecker, exchange } from "./support/contract.ts";

const run = promisify(execFile);
type Obj = Record<string, any>;

let site: Site;
let server: RunningServer;
let doc: Obj;
let docFile: string;

beforeAll(async () => {
  site = await demoSite();
  docFile = path.join(site.distDir, BUILD_FILES.openapi);
  doc = JSON.parse(await readFile(docFile, "utf8"));
  server = await serveSite(site);
});
afterAll(async () => {
  await server?.close();
  await removeSite(site);
});

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: "error" | "warn"; message: string; location: { pointer: string }[] }[];
}

/** `redocly lint` offline (no telemetry, no update check), with the repository's redocly.yaml. */
async function lint(file: string): Promise<LintReport> {
  const cli = path.join(ROOT, "node_modules/@redocly/cli/bin/cli.js");
  const args = [cli, "lint", file, "--config", path.join(ROOT, "redocly.yaml"), "--format", "json"];
  const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };
  // lint exits non-zero when it finds errors; the report is on stdout either way.
  const out = await run(process.execPath, args, { cwd: ROOT, env, maxBuffer: 32 * 1024 * 1024 }).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? "" }));
  return JSON.parse(out.stdout) as LintReport;
}

/** Rules redocly.yaml keeps as warnings, each under a comment that justifies it. */
async function justifiedWarnings(): Promise<string[]> {
  const yaml = await readFile(path.join(ROOT, "redocly.yaml"), "utf8");
  return [...yaml.matchAll(/^\s+([a-z0-9.-]+):\s*warn\s*$/gm)].map((m) => m[1]!);
}

describe("the OpenAPI document of the demo content", () => {
  it("passes redocly lint with the recommended ruleset: no errors, only warnings the config justifies", async () => {
    const report = await lint(docFile);
    const justified = await justifiedWarnings();
    expect(report.totals.errors, JSON.stringify(report.problems.filter((p) => p.severity === "error"), null, 1)).toBe(0);
    for (const p of report.problems) expect(justified, `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`).toContain(p.ruleId);
  });

  it("redocly lint reports the errors of a document that breaks the rules", async () => {
    const broken = structuredClone(doc);
    broken.paths["/v1"].head.operationId = broken.paths["/v1"].get.operationId;
    delete broken.paths["/v1/episodes"].get.summary;
    broken.components.responses.Episode.content["application/json"].examples.example1.value.id = 42;
    const dir = await tempDir("broken-openapi");
    const file = path.join(dir, "broken-openapi.json");
    await writeFile(file, JSON.stringify(broken));
    const rules = (await lint(file)).problems.filter((p) => p.severity === "error").map((p) => p.ruleId);
    expect(rules).toEqual(expect.arrayContaining(["operation-operationId-unique", "operation-summary", "no-invalid-media-type-examples"]));
    await rm(dir, { recursive: true, force: true });
  });

  it("swagger-parser validates it as OpenAPI 3.1, and refuses a broken copy", async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
    const broken = structuredClone(doc);
    broken.paths["/v1/episodes/{ref}"].get.responses["200"] = { $ref: "#/components/responses/NoSuchResponse" };
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow();
    const invalid = structuredClone(doc);
    delete invalid.info;
    await expect(SwaggerParser.validate(invalid as never)).rejects.toThrow();
  });

  it("counts 22 operations (GET and HEAD of the 11 routes) with unique, readable operationIds and tags", () => {
    const ops = Object.values(doc.paths as Obj).flatMap((item: Obj) => Object.values(item)) as Obj[];
    expect(ops).toHaveLength(22);
    const idsOf = ops.map((o) => o.operationId as string);
    expect(new Set(idsOf).size).toBe(22);
    for (const id of idsOf) expect(id).toMatch(/^(get|list|head)[A-Z][A-Za-z]+$/);
    const tags = new Set((doc.tags as Obj[]).map((t) => t.name));
    for (const o of ops) expect(tags).toContain(o.tags[0]);
  });

  it("its operations are exactly the API routes the shim serves: the route table's, each dispatched to its route", async () => {
    const table = Object.values(ROUTES as Record<string, Route>);
    const served = table.filter((r) => r.api && r.operation !== null);
    expect(Object.keys(doc.paths).sort()).toEqual(served.map((r) => r.paths[0]).sort());
    // The API routes without an operation: the catch-all that answers 404 under /v1, and the MCP
    // endpoint, which the Model Context Protocol describes (its tools list, docs/api.md#mcp).
    expect(table.filter((r) => r.api && r.operation === null).map((r) => r.paths)).toEqual([["/v1/{rest+}"], ["/mcp"]]);
    const router = new Router();
    for (const [template, item] of Object.entries(doc.paths as Obj)) {
      const path = template.replace("{ref}", "1");
      expect(router.match(path)?.route.operation?.operationId, path).toBe(item.get.operationId);
      expect(item.head.operationId).toMatch(/^head/);
      const answer = await exchange(server.url, path);
      // A timed form of an episode whose script carries no times answers its own 404, never the catch-all's.
      if (answer.status === 404) expect(JSON.parse(new TextDecoder().decode(answer.body)).error.code, path).toMatch(/^(transcript|chapters)_unavailable$/);
      else expect(answer.status, path).toBeLessThan(400);
    }
    expect(router.match("/v1/episodes/1/nothing")?.route.operation).toBeNull();
    expect((await exchange(server.url, "/v1/episodes/1/nothing")).status).toBe(404);
  });

  it("every example validates against its schema with every object closed", () => {
    const checker = new ContractChecker(doc);
    let count = 0;
    for (const [name, response] of Object.entries(doc.components.responses as Obj)) {
      for (const [media, m] of Object.entries((response.content ?? {}) as Obj)) {
        for (const [key, example] of Object.entries((m.examples ?? {}) as Obj)) {
          const v = checker.validator(`/components/responses/${name}/content/${media.replace(/\//g, "~1")}/schema`);
          expect(v(example.value), `${name} ${media} ${key}: ${JSON.stringify(v.errors)}`).toBe(true);
          count++;
        }
      }
    }
    expect(count).toBeGreaterThan(20);
  });

  it("its examples are the responses the server sends for the demo content", async () => {
    const body = async (target: string, init?: RequestInit) => {
      const ex = await exchange(server.url, target, init);
      const text = new TextDecoder().decode(ex.body);
      return ex.headers.get("content-type")?.startsWith("application/json") ? JSON.parse(text) : text;
    };
    const examples = (name: string, media = "application/json") => Object.values(doc.components.responses[name].content[media].examples as Obj) as Obj[];

    expect(examples("Discovery")[0]!.value).toEqual(await body("/v1"));
    const [first, second] = examples("EpisodePage");
    expect(first!.value).toEqual(await body("/v1/episodes?limit=2"));
    expect(second!.value).toEqual(await body(`/v1/episodes?limit=2&cursor=${first!.value.pagination.nextCursor}`));
    for (const e of examples("Episode")) expect(e.value).toEqual(await body(`/v1/episodes/${e.value.id}`));
    const script = examples("Script")[0]!.value;
    expect(script).toEqual(await body(`/v1/episodes/${script.id}/script`));
    expect(examples("Transcript", "text/plain")[0]!.value).toEqual(await body(`/v1/episodes/${script.id}/transcript`));

    const errorRequests: Record<string, [string, RequestInit?]> = {
      not_found: ["/v1/episodes/999999"],
      invalid_episode_ref: ["/v1/episodes/not-a-ref"],
      invalid_limit: ["/v1/episodes?limit=0"],
      invalid_cursor: ["/v1/episodes?cursor=x"],
      invalid_domain: ["/v1/episodes?domain=_"],
      invalid_since: ["/v1/episodes?since=x"],
      method_not_allowed: ["/v1", { method: "POST" }],
      range_not_satisfiable: [`/v1/episodes/${script.id}/audio`, { headers: { Range: "bytes=-0" } }],
    };
    let compared = 0;
    for (const response of Object.values(doc.components.responses as Obj)) {
      for (const [code, example] of Object.entries((response.content?.["application/json"]?.examples ?? {}) as Obj)) {
        const request = errorRequests[code];
        if (request === undefined) continue;
        expect(example.value, code).toEqual(await body(...request));
        compared++;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(Object.keys(errorRequests).length);
  });
});
