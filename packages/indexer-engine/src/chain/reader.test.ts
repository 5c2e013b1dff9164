// ChainReader's retries against a local JSON-RPC stand-in: Retry-After, attempt limits, and rejected keys.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createLogger } from "@pointwise/logger";
import { ChainReader } from "./reader";

const silent = createLogger({ service: "test", level: "silent" });
const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) await new Promise((resolve) => s.close(resolve));
});

/** A JSON-RPC endpoint on 127.0.0.1 whose answer to the n-th request (0-based) `reply` decides; it records when each came. */
async function endpoint(reply: (n: number, res: ServerResponse, body: { id: number }) => void) {
  const times: number[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      times.push(Date.now());
      const parsed = JSON.parse(text) as { id: number } | { id: number }[];
      reply(times.length - 1, res, Array.isArray(parsed) ? (parsed[0] as { id: number }) : parsed);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, times };
}

const status = (res: ServerResponse, code: number, headers: Record<string, string> = {}) => {
  res.writeHead(code, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ error: "refused" }));
};
const blockNumber = (res: ServerResponse, id: number) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", id, result: "0x2a" }));
};

describe("ChainReader retries", () => {
  it("waits as long as a 429's Retry-After asks, then carries on", async () => {
    const rpc = await endpoint((n, res, body) => (n < 2 ? status(res, 429, { "retry-after": "1" }) : blockNumber(res, body.id)));
    const reader = new ChainReader({ rpcUrl: rpc.url, chainId: 31337, logger: silent, maxAttempts: 2, retryBaseMs: 1 });
    await expect(reader.head()).resolves.toBe(42);
    expect(rpc.times).toHaveLength(3);
    // Two rate-limited answers were retried although maxAttempts is 2, each after the second it asked for.
    expect((rpc.times[1] as number) - (rpc.times[0] as number)).toBeGreaterThanOrEqual(950);
    expect((rpc.times[2] as number) - (rpc.times[1] as number)).toBeGreaterThanOrEqual(950);
  });

  it("gives a rate-limited endpoint rateLimitAttempts and any other failure maxAttempts, then RPC Connection Failed", async () => {
    const limited = await endpoint((_n, res) => status(res, 429));
    const broken = await endpoint((_n, res) => status(res, 503));
    const options = { chainId: 31337, logger: silent, maxAttempts: 2, rateLimitAttempts: 4, retryBaseMs: 1 };
    await expect(new ChainReader({ ...options, rpcUrl: limited.url }).head()).rejects.toMatchObject({
      message: "RPC Connection Failed",
      details: { method: "eth_blockNumber", attempts: 4, reason: "endpoint unreachable or rate limited" },
    });
    expect(limited.times).toHaveLength(4);
    await expect(new ChainReader({ ...options, rpcUrl: broken.url }).head()).rejects.toMatchObject({
      message: "RPC Connection Failed",
      details: { attempts: 2 },
    });
    expect(broken.times).toHaveLength(2);
  });

  it("stops at once when the endpoint rejects the key (401/403), however many attempts are left", async () => {
    const denying = await endpoint((_n, res) => status(res, 403));
    await expect(new ChainReader({ rpcUrl: denying.url, chainId: 31337, logger: silent, retryBaseMs: 1 }).head()).rejects.toMatchObject({
      details: { attempts: 1, reason: "endpoint rejected the request (key invalid or expired)" },
    });
    expect(denying.times).toHaveLength(1);
  });
});
