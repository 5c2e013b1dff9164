// RpcTransport against real HTTP servers on 127.0.0.1: chunked bodies, batches, 429 with Retry-After, the
// calls-per-second limit, concurrency, timeouts, and the node's own JSON-RPC errors.
import type { IncomingMessage, ServerResponse } from "node:http";
import { createLogger } from "@pointwise/logger";
import { closedAfterAll, json, startTestServer } from "../testing/http";
import { RpcResponseError, RpcTransport } from "./transport";

const silent = createLogger({ service: "test", level: "silent" });
const { servers, clients: transports } = closedAfterAll((t: RpcTransport) => t.close());

type Request = { id: number; method: string; params: unknown[] };
/** A JSON-RPC endpoint that answers each call with `answer` and records every HTTP request's calls and time. */
async function node(answer: (call: Request, res: ServerResponse, n: number) => unknown) {
  const requests: { calls: Request[]; at: number }[] = [];
  const server = await startTestServer((_req: IncomingMessage, res, body) => {
    const parsed = JSON.parse(body) as Request | Request[];
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    requests.push({ calls, at: Date.now() });
    const results = calls.map((c) => answer(c, res, requests.length - 1));
    if (res.headersSent) return;
    const out = results.map((result, i) =>
      result instanceof Error
        ? { jsonrpc: "2.0", id: calls[i]?.id, error: { code: -32000, message: result.message } }
        : { jsonrpc: "2.0", id: calls[i]?.id, result },
    );
    json(res, 200, Array.isArray(parsed) ? out.reverse() : out[0]);
  });
  servers.push(server);
  return { url: server.url, requests };
}

/** A JSON-RPC endpoint answering every call with `text`, its body streamed in 513-byte chunks; its URL. */
async function chunkedNode(text: string): Promise<string> {
  const server = await startTestServer((_req, res, body) => {
    const { id } = JSON.parse(body) as Request;
    const bytes = Buffer.from(JSON.stringify({ jsonrpc: "2.0", id, result: text }));
    res.writeHead(200, { "content-type": "application/json" });
    for (let i = 0; i < bytes.length; i += 513) res.write(bytes.subarray(i, i + 513));
    res.end();
  });
  servers.push(server);
  return server.url;
}

const transport = (url: string, options: Partial<ConstructorParameters<typeof RpcTransport>[0]> = {}) => {
  const t = new RpcTransport({ url, logger: silent, retryBaseMs: 1, ...options });
  transports.push(t);
  return t;
};

describe("RpcTransport", () => {
  it.each([
    ["a space in the host", "http://user:pw@ho st/key123"],
    ["no host", "http://"],
    ["no host before its path, which the URL parser would take for one", "https:///key123"],
    ["port 0", "http://user:pw@node:0/key123"],
    ["a scheme other than http(s)", "ftp://user:pw@node/key123"],
  ])("refuses an endpoint URL with %s with RPC Connection Failed, without showing the URL", (_what, url) => {
    let thrown: unknown;
    try {
      transports.push(new RpcTransport({ url, logger: silent }));
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toMatchObject({
      code: "rpc-connection-failed",
      message: "RPC Connection Failed",
      details: { reason: "the RPC URL is not a well-formed http:// or https:// URL with a host" },
    });
    const { stack, cause } = thrown as Error;
    expect(JSON.stringify({ thrown, stack, cause: String(cause) })).not.toMatch(/key123|pw@|ho st/);
  });

  it("reads a large answer streamed in many small chunks, multi-byte characters split across them", async () => {
    // 513-byte chunks, as hardhat streams: boundaries fall inside the three-byte ✓ and the two-byte ü.
    const text = "Zürich ✓ ".repeat(20_000);
    await expect(transport(await chunkedNode(text)).call("big", [])).resolves.toBe(text);
  });

  it("reads a large ASCII answer streamed in many small chunks exactly", async () => {
    // Every printable ASCII character and the JSON escapes of control characters, repeated past one chunk.
    const text = `${Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join("")}\n\t\u0001`.repeat(20_000);
    await expect(transport(await chunkedNode(text)).call("big", [])).resolves.toBe(text);
  });

  it("sends calls in batches of batchSize and returns answers in call order, whatever order the node answers in", async () => {
    const rpc = await node((c) => `r${(c.params[0] as number) * 2}`);
    const t = transport(rpc.url, { batchSize: 4 });
    const outcomes = await t.batch(Array.from({ length: 10 }, (_, i) => ({ method: "double", params: [i] })));
    expect(outcomes).toEqual(Array.from({ length: 10 }, (_, i) => ({ ok: true, result: `r${i * 2}` })));
    expect(rpc.requests.map((r) => r.calls.length).sort()).toEqual([2, 4, 4]);
    expect(t.calls).toBe(10);
  });

  it("gives each call of a batch its own JSON-RPC error, and throws it as RpcResponseError from call", async () => {
    const rpc = await node((c) => (c.params[0] === 1 ? new Error("execution reverted") : "ok"));
    const t = transport(rpc.url);
    const [first, second] = await t.batch([
      { method: "eth_call", params: [0] },
      { method: "eth_call", params: [1] },
    ]);
    expect(first).toEqual({ ok: true, result: "ok" });
    expect(second).toMatchObject({ ok: false, error: { rpcCode: -32000, message: "execution reverted" } });
    await expect(t.call("eth_call", [1])).rejects.toBeInstanceOf(RpcResponseError);
  });

  it("waits as long as a 429's Retry-After asks, then resends only what was refused", async () => {
    const rpc = await node((_c, res, n) => {
      if (n === 0) return json(res, 429, { error: "slow down" }, { "retry-after": "1" });
      return "0x1";
    });
    await expect(transport(rpc.url).call("eth_blockNumber", [])).resolves.toBe("0x1");
    expect(rpc.requests).toHaveLength(2);
    expect((rpc.requests[1]?.at ?? 0) - (rpc.requests[0]?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it("retries the calls of a batch a node answered with a rate-limit error, keeping the others' answers", async () => {
    let limited = 0;
    const rpc = await node((c) => (c.params[0] === 2 && limited++ === 0 ? Object.assign(new Error("rate limit exceeded")) : c.params[0]));
    const outcomes = await transport(rpc.url).batch([0, 1, 2, 3].map((i) => ({ method: "echo", params: [i] })));
    expect(outcomes.map((o) => (o.ok ? o.result : o.error.message))).toEqual([0, 1, 2, 3]);
    expect(rpc.requests.map((r) => r.calls.length)).toEqual([4, 1]);
  });

  it("keeps to callsPerSecond, counting every call of a batch", async () => {
    const rpc = await node(() => "ok");
    const t = transport(rpc.url, { callsPerSecond: 20, batchSize: 5 });
    const started = Date.now();
    await t.batch(Array.from({ length: 60 }, () => ({ method: "m", params: [] })));
    // A full bucket (20) goes at once, the other 40 calls need two more seconds.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    expect(rpc.requests).toHaveLength(12);
  });

  it.each([
    { name: "`concurrency`", options: { concurrency: 3 }, calls: 12, limit: 3 },
    { name: "8 by default", options: {}, calls: 20, limit: 8 },
  ])("has at most $name requests in flight", async ({ options, calls, limit }) => {
    let inFlight = 0;
    let most = 0;
    const server = await startTestServer((_req, res, body) => {
      inFlight++;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight--;
        json(res, 200, { jsonrpc: "2.0", id: (JSON.parse(body) as Request).id, result: 1 });
      }, 150);
    });
    servers.push(server);
    const t = transport(server.url, { ...options, batchSize: 1 });
    await t.batch(Array.from({ length: calls }, () => ({ method: "m", params: [] })));
    expect(most).toBe(limit);
  });

  it("gives up on an answer that does not come within timeoutMs, after maxAttempts, with RPC Connection Failed", async () => {
    let requests = 0;
    const server = await startTestServer(() => {
      requests++; // never answers
    });
    servers.push(server);
    const started = Date.now();
    await expect(transport(server.url, { timeoutMs: 200, maxAttempts: 2 }).call("eth_getLogs", [])).rejects.toMatchObject({
      code: "rpc-connection-failed",
      message: "RPC Connection Failed",
      details: { method: "eth_getLogs", attempts: 2, reason: "endpoint unreachable or rate limited" },
    });
    expect(requests).toBe(2);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("retries a 5xx and a connection that closes mid-answer", async () => {
    const server = await startTestServer((_req, res, body) => {
      const { id } = JSON.parse(body) as Request;
      if (id === 1) return json(res, 503, { error: "unavailable" });
      if (id === 2) {
        res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
        res.write('{"jsonrpc":"2.0"');
        return res.destroy();
      }
      json(res, 200, { jsonrpc: "2.0", id, result: "fine" });
    });
    servers.push(server);
    await expect(transport(server.url, { maxAttempts: 3 }).call("m", [])).resolves.toBe("fine");
  });
});
