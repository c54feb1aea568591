// The Node adapter's streaming path, on a real node:http server and a real socket.
import { createServer } from "node:http";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { writeResponse } from "../../functions/node/server.ts";

describe("Node adapter streaming", () => {
  it("a client that hangs up while the server waits for drain ends the write and cancels the upstream", async () => {
    let cancelled = false;
    let finished!: () => void;
    const writeDone = new Promise<void>((resolve) => (finished = resolve));
    const chunk = new Uint8Array(1024 * 1024);
    const server = createServer((_req, res) => {
      // An endless body: the socket fills, the adapter waits for "drain".
      const body = new ReadableStream<Uint8Array>({
        pull: (c) => c.enqueue(chunk),
        cancel: () => void (cancelled = true),
      });
      const response = new Response(body, { headers: { "content-type": "application/octet-stream", "content-length": String(2 ** 40) } });
      void writeResponse(res, response).finally(finished);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    const socket = connect(port, "127.0.0.1");
    socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    // Read the first bytes, then stop reading so the server's socket buffer fills up.
    await new Promise<void>((r) => socket.once("data", () => r()));
    socket.pause();
    await new Promise((r) => setTimeout(r, 300));
    socket.destroy();
    await writeDone;
    expect(cancelled).toBe(true);
    server.close();
  });
});
