import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { episode, makeSite, removeSite, script, serveSite, type Site } from "../support/fixture.ts";
import type { RunningServer } from "../../functions/node/main.ts";

let site: Site;
let server: RunningServer;

beforeAll(async () => {
  site = await makeSite("smoke", [{ episode: episode({ episodeNumber: 1 }), script: script() }]);
  server = await serveSite(site);
});
afterAll(async () => {
  await server?.close();
  await removeSite(site);
});

describe("smoke", () => {
  it("serves an episode by number", async () => {
    const res = await fetch(`${server.url}/v1/episodes/1`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { episodeNumber: number };
    expect(body.episodeNumber).toBe(1);
  });
});
