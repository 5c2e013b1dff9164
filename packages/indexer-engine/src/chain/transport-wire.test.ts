// RpcTransport's requests and answers on the wire, against real HTTP servers on 127.0.0.1: what it sends, which statuses and bodies it accepts, retries or gives up on, the waits and log lines of its retries, and Retry-After parsing.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createServer as createTcpServer, type Socket } from "node:net";
import { createLogger } from "@pointwise/logger";
import { capturingLogger } from "../testing/fixtures";
import { closedAfterAll, json, listenTestServer, startTestServer } from "../testing/http";
import { RpcResponseError, RpcTransport, retryWaitMs } from "./transport";

const silent = createLogger({ service: "test", level: "silent" });
const { servers, clients: transports } = closedAfterAll((t: RpcTransport) => t.close());

type Call = { jsonrpc: string; id: number; method: string; params: unknown[] };
type Seen = { method: string | undefined; headers: IncomingHttpHeaders; body: string; calls: Call[] };

/**
 * An endpoint whose answer to the n-th HTTP request (0-based) `reply` writes; by default (reply returns false) each
 * call is answered with the result `${method}:${id}`, batches in reverse order. It records every request.
 */
async function endpoint(reply: (n: number, res: ServerResponse, calls: Call[], batch: boolean) => boolean | undefined = () => false) {
  const seen: Seen[] = [];
  const server = await startTestServer((req, res, body) => {
    const parsed = JSON.parse(body) as Call | Call[];
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    seen.push({ method: req.method, headers: req.headers, body, calls });
    if (reply(seen.length - 1, res, calls, Array.isArray(parsed)) !== false) return;
    const out = calls.map((c) => ({ jsonrpc: "2.0", id: c.id, result: `${c.method}:${c.id}` }));
    json(res, 200, Array.isArray(parsed) ? out.reverse() : out[0]);
  });
  servers.push(server);
  return { url: server.url, seen };
}

/** Writes `text` as the body with `status`. */
const raw = (res: ServerResponse, status: number, text: string) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(text);
};

const transport = (url: string, options: Partial<ConstructorParameters<typeof RpcTransport>[0]> = {}) => {
  const t = new RpcTransport({ url, logger: silent, retryBaseMs: 1, ...options });
  transports.push(t);
  return t;
};

/** The warnings a transport logged about retries. */
const retries = (lines: Record<string, unknown>[]) => lines.filter((l) => l.msg === "RPC request failed, retrying");

/** The error a promise rejects with. */
async function failure(p: Promise<unknown>): Promise<Error & { details?: Record<string, unknown>; cause?: unknown }> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a rejection");
}

const causeOf = (err: { cause?: unknown }) => (err.cause as Error | undefined)?.message;

describe("RpcTransport on the wire", () => {
  it("posts JSON with its byte length, a lone call as an object and a batch as an array, numbering calls across requests", async () => {
    const rpc = await endpoint();
    const t = transport(rpc.url);
    await expect(t.call("eth_a", ["Zürich"])).resolves.toBe("eth_a:1");
    await expect(
      t.batch([
        { method: "eth_b", params: [1] },
        { method: "eth_c", params: [2] },
      ]),
    ).resolves.toEqual([
      { ok: true, result: "eth_b:2" },
      { ok: true, result: "eth_c:3" },
    ]);
    await expect(t.call("eth_d", [])).resolves.toBe("eth_d:4");

    const first = '{"jsonrpc":"2.0","id":1,"method":"eth_a","params":["Zürich"]}';
    expect(rpc.seen[0]?.body).toBe(first);
    expect(rpc.seen[0]?.method).toBe("POST");
    expect(rpc.seen[0]?.headers).toMatchObject({ "content-type": "application/json", accept: "application/json", "content-length": "62" });
    // 61 characters, ü taking two bytes.
    expect(first).toHaveLength(61);
    expect(JSON.parse(rpc.seen[1]?.body ?? "")).toEqual([
      { jsonrpc: "2.0", id: 2, method: "eth_b", params: [1] },
      { jsonrpc: "2.0", id: 3, method: "eth_c", params: [2] },
    ]);
    expect(JSON.parse(rpc.seen[2]?.body ?? "")).toEqual({ jsonrpc: "2.0", id: 4, method: "eth_d", params: [] });
    expect(t.calls).toBe(4);
  });

  it("sends exactly batchSize calls per request when the calls fill whole batches, and 50 per request by default", async () => {
    const rpc = await endpoint();
    const outcomes = await transport(rpc.url, { batchSize: 4 }).batch(Array.from({ length: 8 }, (_, i) => ({ method: `m${i}`, params: [] })));
    expect(outcomes.map((o) => o.ok && o.result)).toEqual(["m0:1", "m1:2", "m2:3", "m3:4", "m4:5", "m5:6", "m6:7", "m7:8"]);
    expect(rpc.seen.map((s) => s.calls.length)).toEqual([4, 4]);

    const defaults = await endpoint();
    const many = await transport(defaults.url).batch(Array.from({ length: 51 }, () => ({ method: "m", params: [] })));
    expect(many).toHaveLength(51);
    expect(defaults.seen.map((s) => s.calls.length).sort((a, b) => a - b)).toEqual([1, 50]);
  });

  it("sends a batch of one call as a lone call, and no request at all for an empty batch", async () => {
    const rpc = await endpoint();
    const t = transport(rpc.url, { batchSize: 1 });
    await expect(t.batch([{ method: "only", params: [7] }])).resolves.toEqual([{ ok: true, result: "only:1" }]);
    await expect(t.batch([])).resolves.toEqual([]);
    expect(rpc.seen.map((s) => s.body)).toEqual(['{"jsonrpc":"2.0","id":1,"method":"only","params":[7]}']);
    expect(t.calls).toBe(1);
  });

  it("sends the URL's user name and password as basic auth, and logs and throws neither", async () => {
    // An RPC provider behind basic auth takes them in the URL: network.rpcUrl and RPC_URL allow them for this.
    const { logger, lines } = capturingLogger();
    const rpc = await endpoint((n, res) => {
      if (n > 0) return false;
      json(res, 503, { error: "starting" });
      return true;
    });
    const withPassword = (url: string) => url.replace("http://", "http://rpc-user:s3cret%40pw@");
    await expect(transport(withPassword(rpc.url), { logger }).call("m", [])).resolves.toBe("m:2");
    // base64 of "rpc-user:s3cret@pw": the percent-encoded @ is decoded before it is sent.
    expect(rpc.seen.map((s) => s.headers.authorization)).toEqual(["Basic cnBjLXVzZXI6czNjcmV0QHB3", "Basic cnBjLXVzZXI6czNjcmV0QHB3"]);
    expect(retries(lines)).toEqual([expect.objectContaining({ err: "HTTP 503" })]);

    const gone = await startTestServer(() => {});
    await gone.close();
    const err = await failure(transport(withPassword(gone.url), { logger, maxAttempts: 2, timeoutMs: 2_000 }).call("m", []));
    expect(err).toMatchObject({ message: "RPC Connection Failed", details: { attempts: 2 } });
    expect(JSON.stringify({ lines, message: err.message, details: err.details, cause: causeOf(err), stack: err.stack })).not.toMatch(/s3cret|rpc-user/);
  });

  it("with concurrency 1 still serves one request after another", async () => {
    const rpc = await endpoint();
    const t = transport(rpc.url, { concurrency: 1 });
    await expect(t.call("a", [])).resolves.toBe("a:1");
    await expect(t.call("b", [])).resolves.toBe("b:2");
    await expect(t.call("c", [])).resolves.toBe("c:3");
  });

  it("keeps one connection alive for requests one after another, and closes it when closed", async () => {
    let connections = 0;
    let closed!: () => void;
    const connectionClosed = new Promise<string>((resolve) => {
      closed = () => resolve("closed");
    });
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => json(res, 200, { jsonrpc: "2.0", id: 1, result: "0x1" }));
    });
    server.on("connection", (socket: Socket) => {
      connections++;
      socket.on("close", closed);
    });
    const started = await listenTestServer(server);
    servers.push(started);
    const { url } = started;
    const t = new RpcTransport({ url, logger: silent });
    await expect(t.call("eth_blockNumber", [])).resolves.toBe("0x1");
    await expect(t.call("eth_blockNumber", [])).resolves.toBe("0x1");
    await expect(t.call("eth_blockNumber", [])).resolves.toBe("0x1");
    expect(connections).toBe(1);
    t.close();
    const outcome = await Promise.race([connectionClosed, new Promise<string>((resolve) => setTimeout(() => resolve("still open"), 3_000).unref())]);
    expect(outcome).toBe("closed");
  });

  it("speaks TLS to an https URL", async () => {
    let first: number | undefined;
    const tcp = createTcpServer((socket) => {
      socket.once("data", (chunk: Buffer) => {
        first = chunk[0];
        socket.destroy();
      });
    });
    await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
    servers.push({ url: "", close: () => new Promise<void>((resolve) => tcp.close(() => resolve())) });
    const url = `https://127.0.0.1:${(tcp.address() as AddressInfo).port}`;
    await expect(transport(url, { maxAttempts: 1 }).call("m", [])).rejects.toMatchObject({ message: "RPC Connection Failed" });
    // 0x16 opens a TLS handshake record (the ClientHello); a plain HTTP request would start with "P" of POST.
    expect(first).toBe(0x16);
  });
});

describe("RpcTransport answers", () => {
  it("takes a JSON-RPC error without code or message as code -32603 with an empty message, and does not retry it", async () => {
    const rpc = await endpoint((_n, res, calls) => {
      json(res, 200, { jsonrpc: "2.0", id: calls[0]?.id, error: {} });
      return true;
    });
    const err = await failure(transport(rpc.url).call("eth_call", []));
    expect(err).toBeInstanceOf(RpcResponseError);
    expect(err).toMatchObject({ rpcCode: -32603, message: "" });
    expect(rpc.seen).toHaveLength(1);
  });

  it("gives every call of a batch the one error the node answered the whole batch with", async () => {
    const rpc = await endpoint((_n, res) => {
      json(res, 200, { jsonrpc: "2.0", id: null, error: { code: -32600, message: "batches are not allowed" } });
      return true;
    });
    const outcomes = await transport(rpc.url).batch([
      { method: "a", params: [] },
      { method: "b", params: [] },
    ]);
    expect(outcomes.map((o) => !o.ok && [o.error.rpcCode, o.error.message])).toEqual([
      [-32600, "batches are not allowed"],
      [-32600, "batches are not allowed"],
    ]);
    expect(rpc.seen).toHaveLength(1);
  });

  it("resends a batch the node answered with a single result", async () => {
    const { logger, lines } = capturingLogger();
    const rpc = await endpoint((n, res) => {
      if (n > 0) return false;
      json(res, 200, { jsonrpc: "2.0", id: 1, result: "lone" });
      return true;
    });
    const outcomes = await transport(rpc.url, { logger, maxAttempts: 2 }).batch([
      { method: "a", params: [] },
      { method: "b", params: [] },
    ]);
    expect(outcomes).toEqual([
      { ok: true, result: "a:3" },
      { ok: true, result: "b:4" },
    ]);
    expect(retries(lines)).toEqual([expect.objectContaining({ method: "a", calls: 2, rate_limited: false, err: "a batch was answered with a single result" })]);
  });

  it("resends the calls a batch answer leaves out or answers with null, keeping the others", async () => {
    const { logger, lines } = capturingLogger();
    const rpc = await endpoint((n, res, calls) => {
      if (n > 0) return false;
      json(res, 200, [null, { jsonrpc: "2.0", id: calls[0]?.id, result: "kept" }]);
      return true;
    });
    const outcomes = await transport(rpc.url, { logger, maxAttempts: 2 }).batch(["a", "b", "c"].map((method) => ({ method, params: [] })));
    expect(outcomes).toEqual([
      { ok: true, result: "kept" },
      { ok: true, result: "b:4" },
      { ok: true, result: "c:5" },
    ]);
    expect(rpc.seen.map((s) => s.calls.map((c) => c.method))).toEqual([
      ["a", "b", "c"],
      ["b", "c"],
    ]);
    expect(retries(lines)).toEqual([
      expect.objectContaining({ level: "warn", method: "b", calls: 2, attempt: 1, rate_limited: false, wait_ms: 1, err: "answer missing" }),
    ]);
  });

  it("treats a batch answered with an empty array as answers missing, and gives up after maxAttempts although no call was rate limited", async () => {
    const { logger, lines } = capturingLogger();
    const rpc = await endpoint((_n, res) => {
      json(res, 200, []);
      return true;
    });
    const err = await failure(
      transport(rpc.url, { logger, maxAttempts: 2, rateLimitAttempts: 5 }).batch([
        { method: "a", params: [] },
        { method: "b", params: [] },
      ]),
    );
    expect(err).toMatchObject({ message: "RPC Connection Failed", details: { method: "a", attempts: 2 } });
    expect(causeOf(err)).toBe("answer missing");
    expect(rpc.seen).toHaveLength(2);
    expect(retries(lines).map((l) => l.err)).toEqual(["answer missing"]);
  });

  it("takes a 200 answer whatever its shape as the answer to a lone call", async () => {
    const rpc = await endpoint((_n, res) => {
      json(res, 200, { jsonrpc: "2.0", id: 1, note: "no result" });
      return true;
    });
    await expect(transport(rpc.url).call("m", [])).resolves.toBeUndefined();
    expect(rpc.seen).toHaveLength(1);
  });

  it("accepts a JSON-RPC error or result sent with a 4xx status, for a lone call and a batch", async () => {
    const rpc = await endpoint((n, res, calls) => {
      if (n === 0) json(res, 400, { jsonrpc: "2.0", id: calls[0]?.id, error: { code: -32602, message: "invalid params" } });
      else if (n === 1) json(res, 422, { jsonrpc: "2.0", id: calls[0]?.id, result: "0x1" });
      else
        json(res, 400, [
          { jsonrpc: "2.0", id: calls[1]?.id, error: { code: -32601, message: "no such method" } },
          { jsonrpc: "2.0", id: calls[0]?.id, result: "x" },
        ]);
      return true;
    });
    const t = transport(rpc.url, { maxAttempts: 1 });
    await expect(t.call("eth_call", [])).rejects.toMatchObject({ rpcCode: -32602, message: "invalid params" });
    await expect(t.call("eth_call", [])).resolves.toBe("0x1");
    const outcomes = await t.batch([
      { method: "a", params: [] },
      { method: "b", params: [] },
    ]);
    expect(outcomes.map((o) => (o.ok ? o.result : o.error.message))).toEqual(["x", "no such method"]);
    expect(rpc.seen).toHaveLength(3);
  });

  it.each([
    [404, '{"message":"not found"}'],
    [400, "null"],
    [400, '"oops"'],
    [400, "[]"],
    [500, '{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"node failing"}}'],
    [503, '{"jsonrpc":"2.0","id":1,"result":"0x1"}'],
  ])("fails an exchange answered with HTTP %i and body %s, whatever JSON it holds", async (status, body) => {
    const rpc = await endpoint((_n, res) => {
      raw(res, status, body);
      return true;
    });
    const err = await failure(transport(rpc.url, { maxAttempts: 2 }).call("eth_x", []));
    expect(err).toMatchObject({ message: "RPC Connection Failed", details: { method: "eth_x", attempts: 2, reason: "endpoint unreachable or rate limited" } });
    expect(causeOf(err)).toBe(`HTTP ${status}`);
    expect(rpc.seen).toHaveLength(2);
  });

  it("retries a 200 whose body is not JSON", async () => {
    const { logger, lines } = capturingLogger();
    const rpc = await endpoint((n, res) => {
      if (n > 0) return false;
      raw(res, 200, "<html>busy</html>");
      return true;
    });
    await expect(transport(rpc.url, { logger }).call("m", [])).resolves.toBe("m:2");
    expect(retries(lines)).toEqual([expect.objectContaining({ rate_limited: false, err: "HTTP 200 with a body that is not JSON" })]);
  });

  it("stops at once on HTTP 401, with the rejected key as the reason", async () => {
    const rpc = await endpoint((_n, res) => {
      json(res, 401, { jsonrpc: "2.0", id: 1, error: { code: -32000, message: "unauthorized" } });
      return true;
    });
    const err = await failure(transport(rpc.url).call("eth_chainId", []));
    expect(err).toMatchObject({
      code: "rpc-connection-failed",
      details: { method: "eth_chainId", attempts: 1, reason: "endpoint rejected the request (key invalid or expired)" },
    });
    expect(causeOf(err)).toBe("HTTP 401");
    expect(rpc.seen).toHaveLength(1);
  });

  it("retries a refused connection and names the refusal as the cause", async () => {
    const gone = await startTestServer(() => {});
    await gone.close();
    const err = await failure(transport(gone.url, { maxAttempts: 2, timeoutMs: 2_000 }).call("m", []));
    expect(err).toMatchObject({ message: "RPC Connection Failed", details: { attempts: 2 } });
    expect(causeOf(err)).toContain("ECONNREFUSED");
  });

  it("retries an answer cut off mid-body as aborted", async () => {
    const { logger, lines } = capturingLogger();
    const rpc = await endpoint((n, res) => {
      if (n > 0) return false;
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"jsonrpc":"2.0"', () => setTimeout(() => res.destroy(), 30));
      return true;
    });
    await expect(transport(rpc.url, { logger }).call("m", [])).resolves.toBe("m:2");
    expect(retries(lines)).toEqual([expect.objectContaining({ rate_limited: false, err: "aborted" })]);
  });

  it("sends a request again at once when the server closes the kept-alive connection it went out on, without counting an attempt", async () => {
    const { logger, lines } = capturingLogger();
    // The second request arrives on the connection the first one left open; the server closes it unanswered, as a
    // server whose keep-alive timeout runs out just as a request is sent does.
    const rpc = await endpoint((n, res) => {
      if (n !== 1) return false;
      res.socket?.destroy();
      return true;
    });
    const t = transport(rpc.url, { logger, maxAttempts: 1, concurrency: 1 });
    await expect(t.call("a", [])).resolves.toBe("a:1");
    await expect(t.call("b", [])).resolves.toBe("b:2");
    expect(rpc.seen.map((s) => s.calls.map((c) => c.id))).toEqual([[1], [2], [2]]);
    expect(retries(lines)).toEqual([]);
    expect(t.calls).toBe(3);
  });

  it("takes callsPerSecond tokens for a request it sends again on a new connection", async () => {
    const rpc = await endpoint((n, res) => {
      if (n !== 1) return false;
      res.socket?.destroy();
      return true;
    });
    // One call per second: the first goes at once, the second a second later, and its copy a second after that.
    const t = transport(rpc.url, { maxAttempts: 1, concurrency: 1, callsPerSecond: 1 });
    const started = Date.now();
    await t.call("a", []);
    await expect(t.call("b", [])).resolves.toBe("b:2");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    expect(rpc.seen).toHaveLength(3);
  });

  it("counts a timeout on a kept-alive connection as a failed attempt, not as a closed connection", async () => {
    const rpc = await endpoint((n, res) => {
      if (n === 0) return false;
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"jsonrpc":"2.0"');
      return true;
    });
    const t = transport(rpc.url, { maxAttempts: 1, concurrency: 1, timeoutMs: 150 });
    await expect(t.call("a", [])).resolves.toBe("a:1");
    expect(causeOf(await failure(t.call("b", [])))).toBe("no complete answer within 150 ms");
    expect(rpc.seen).toHaveLength(2);
  });

  it("counts a connection closed unanswered as a failed attempt when it was a new connection", async () => {
    const rpc = await endpoint((_n, res) => {
      res.socket?.destroy();
      return true;
    });
    const err = await failure(transport(rpc.url, { maxAttempts: 2 }).call("m", []));
    expect(err).toMatchObject({ message: "RPC Connection Failed", details: { attempts: 2 } });
    expect(causeOf(err)).toBe("socket hang up");
    expect(rpc.seen).toHaveLength(2);
  });

  it("names the timeout as the cause when no complete answer comes within timeoutMs", async () => {
    const rpc = await endpoint((_n, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"jsonrpc":"2.0"');
      return true;
    });
    const err = await failure(transport(rpc.url, { timeoutMs: 150, maxAttempts: 1 }).call("m", []));
    expect(causeOf(err)).toBe("no complete answer within 150 ms");
  });
});

describe("RpcTransport retries", () => {
  it("gives up after 5 attempts by default", async () => {
    const rpc = await endpoint((_n, res) => {
      json(res, 503, { error: "down" });
      return true;
    });
    await expect(transport(rpc.url).call("m", [])).rejects.toMatchObject({ details: { attempts: 5 } });
    expect(rpc.seen).toHaveLength(5);
  });

  it("gives a rate-limited endpoint 12 attempts by default, and at least maxAttempts", async () => {
    const limited = await endpoint((_n, res) => {
      json(res, 429, { error: "slow down" });
      return true;
    });
    const err = await failure(transport(limited.url, { maxAttempts: 1, retryBaseMs: 0.1 }).call("m", []));
    expect(err).toMatchObject({ details: { attempts: 12 } });
    expect(causeOf(err)).toBe("HTTP 429");
    expect(limited.seen).toHaveLength(12);

    const again = await endpoint((_n, res) => {
      json(res, 429, { error: "slow down" });
      return true;
    });
    await expect(transport(again.url, { maxAttempts: 3, rateLimitAttempts: 1 }).call("m", [])).rejects.toMatchObject({ details: { attempts: 3 } });
    expect(again.seen).toHaveLength(3);
  });

  it("logs each retry with its wait: the backoff base for a first failure, Retry-After only while rate limited", async () => {
    const { logger, lines } = capturingLogger();
    const rpc = await endpoint((n, res) => {
      if (n === 0) json(res, 503, { error: "down" }, { "retry-after": "1" });
      else if (n === 2) json(res, 429, { error: "slow down" });
      else if (n === 4) json(res, 429, { error: "slow down" }, { "retry-after": "1" });
      else return false;
      return true;
    });
    const t = transport(rpc.url, { logger, maxAttempts: 2 });
    await expect(t.call("first", [])).resolves.toBe("first:2");
    await expect(t.call("second", [])).resolves.toBe("second:4");
    await expect(t.call("third", [])).resolves.toBe("third:6");
    expect(retries(lines)).toEqual([
      expect.objectContaining({ level: "warn", method: "first", calls: 1, attempt: 1, rate_limited: false, wait_ms: 1, err: "HTTP 503" }),
      expect.objectContaining({ level: "warn", method: "second", calls: 1, attempt: 1, rate_limited: true, wait_ms: 1, err: "HTTP 429" }),
      expect.objectContaining({ level: "warn", method: "third", calls: 1, attempt: 1, rate_limited: true, wait_ms: 1000, err: "HTTP 429" }),
    ]);
  });

  it("waits retryBaseMs, 250 ms by default, before the first retry", async () => {
    const { logger, lines } = capturingLogger();
    const rpc = await endpoint((n, res) => {
      if (n !== 0 && n !== 2) return false;
      json(res, 503, { error: "down" });
      return true;
    });
    await expect(transport(rpc.url, { logger, retryBaseMs: undefined }).call("a", [])).resolves.toBe("a:2");
    await expect(transport(rpc.url, { logger, retryBaseMs: 40 }).call("b", [])).resolves.toBe("b:2");
    expect(retries(lines).map((l) => l.wait_ms)).toEqual([250, 40]);
  });

  it("retries calls a node answers with a rate-limit error, by code 429 or by message, however many maxAttempts allows", async () => {
    const { logger, lines } = capturingLogger();
    const errors: Record<string, { code?: number; message?: string }> = {
      code: { code: 429, message: "slow down" },
      rate: { code: -32005, message: "Rate Limit reached" },
      many: { code: -32000, message: "TOO MANY REQUESTS" },
      quota: { code: -32000, message: "you have exceeded the quota" },
      capacity: { code: -32000, message: "exceededcapacity" },
      daily: { code: -32001, message: "daily request count reached" },
      gas: { code: -32000, message: "exceeded gas limit" },
      bare: { code: -32000 },
    };
    const rpc = await endpoint((n, res, calls) => {
      if (n > 0) return false;
      json(
        res,
        200,
        calls.map((c) => ({ jsonrpc: "2.0", id: c.id, error: errors[c.method] })),
      );
      return true;
    });
    const names = Object.keys(errors);
    const outcomes = await transport(rpc.url, { logger, maxAttempts: 1 }).batch(names.map((method) => ({ method, params: [] })));
    expect(outcomes.map((o) => (o.ok ? o.result : `${o.error.rpcCode} ${o.error.message}`))).toEqual([
      "code:9",
      "rate:10",
      "many:11",
      "quota:12",
      "capacity:13",
      "daily:14",
      "-32000 exceeded gas limit",
      "-32000 ",
    ]);
    expect(rpc.seen.map((s) => s.calls.length)).toEqual([8, 6]);
    expect(retries(lines)).toEqual([expect.objectContaining({ method: "code", calls: 6, attempt: 1, rate_limited: true, wait_ms: 1, err: "rate limited" })]);
  });

  it("retries a lone call or a batch the node answered with one rate-limit error, naming it", async () => {
    const { logger, lines } = capturingLogger();
    const rpc = await endpoint((n, res) => {
      if (n === 0) json(res, 200, { jsonrpc: "2.0", id: 1, error: { code: -32005, message: "daily request count exceeded" } });
      else if (n === 2) json(res, 200, { jsonrpc: "2.0", id: null, error: { code: -32005, message: "too many requests" } });
      else return false;
      return true;
    });
    const t = transport(rpc.url, { logger, maxAttempts: 1 });
    await expect(t.call("a", [])).resolves.toBe("a:2");
    await expect(
      t.batch([
        { method: "b", params: [] },
        { method: "c", params: [] },
      ]),
    ).resolves.toEqual([
      { ok: true, result: "b:5" },
      { ok: true, result: "c:6" },
    ]);
    expect(retries(lines)).toEqual([
      expect.objectContaining({ method: "a", calls: 1, rate_limited: true, err: "daily request count exceeded" }),
      expect.objectContaining({ method: "b", calls: 2, rate_limited: true, err: "too many requests" }),
    ]);
  });

  it("gives up on a lone call rate limited by JSON-RPC error after rateLimitAttempts", async () => {
    const rpc = await endpoint((_n, res, calls) => {
      json(res, 200, { jsonrpc: "2.0", id: calls[0]?.id, error: { code: 429, message: "slow down" } });
      return true;
    });
    const err = await failure(transport(rpc.url, { maxAttempts: 1, rateLimitAttempts: 3 }).call("m", []));
    expect(err).toMatchObject({ details: { method: "m", attempts: 3, reason: "endpoint unreachable or rate limited" } });
    expect(causeOf(err)).toBe("slow down");
    expect(rpc.seen).toHaveLength(3);
  });
});

describe("retryWaitMs", () => {
  const failed = { reason: "x", kind: "failed" } as const;
  const limited = { reason: "x", kind: "rate-limited" } as const;
  const waits = (failure: Parameters<typeof retryWaitMs>[0], attempt: number, baseMs: number) =>
    Array.from({ length: 200 }, () => retryWaitMs(failure, attempt, baseMs));

  it("waits the base for a first failure, rate limited or not", () => {
    expect(new Set([...waits(failed, 0, 250), ...waits(limited, 0, 250)])).toEqual(new Set([250]));
  });

  it("backs off up to 8 s after failures, up to 30 s while rate limited", () => {
    // At attempt 10 the doubling (1 s * 2^10) is far past both caps, so the jitter spans base to cap.
    const plain = waits(failed, 10, 1000);
    expect(Math.min(...plain)).toBeGreaterThanOrEqual(1000);
    expect(Math.max(...plain)).toBeLessThan(8000);
    const rateLimited = waits(limited, 10, 1000);
    expect(Math.min(...rateLimited)).toBeGreaterThanOrEqual(1000);
    expect(Math.max(...rateLimited)).toBeLessThan(30_000);
    // 200 draws from [1 s, 30 s) all below 8 s would have a chance of (7/29)^200.
    expect(Math.max(...rateLimited)).toBeGreaterThanOrEqual(8000);
  });

  it("waits what Retry-After asks while rate limited, at most a minute, never less than the backoff", () => {
    expect(retryWaitMs({ ...limited, retryAfterMs: 45_000 }, 0, 250)).toBe(45_000);
    expect(retryWaitMs({ ...limited, retryAfterMs: 90_000 }, 0, 250)).toBe(60_000);
    expect(retryWaitMs({ ...limited, retryAfterMs: 100 }, 0, 250)).toBe(250);
  });
});
