// ChainReader's reads against local JSON-RPC stand-ins on 127.0.0.1: which endpoint and parameters each read uses, block timestamps and their cache, block headers with their hashes, logs, transaction senders, calls and code, and the settings it hands its transports.
import { createServer, type IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { createLogger } from "@pointwise/logger";
import { capturingLogger } from "../testing/fixtures";
import { closedAfterAll, json, listenTestServer, startTestServer } from "../testing/http";
import { BlockSizes, ChainReader, RpcResponseError } from "./reader";

const silent = createLogger({ service: "test", level: "silent" });
const { servers, clients: readers } = closedAfterAll((r: ChainReader) => r.destroy());

type Call = { id: number; method: string; params: unknown[] };
/** A node's answer to one call: its result, or a JSON-RPC error. */
type Reply = { result: unknown } | { error: { code: number; message: string } };

/** A JSON-RPC endpoint answering each call with `answer(call)`; it records every HTTP request's calls. */
async function node(answer: (call: Call) => Reply) {
  const requests: Call[][] = [];
  const server = await startTestServer((_req: IncomingMessage, res, body) => {
    const parsed = JSON.parse(body) as Call | Call[];
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    requests.push(calls);
    const out = calls.map((c) => ({ jsonrpc: "2.0", id: c.id, ...answer(c) }));
    json(res, 200, Array.isArray(parsed) ? out : out[0]);
  });
  servers.push(server);
  const calls = () => requests.flat().map((c) => [c.method, ...c.params]);
  return { url: server.url, requests, calls };
}

const reader = (rpcUrl: string, options: Partial<ConstructorParameters<typeof ChainReader>[0]> = {}) => {
  const r = new ChainReader({ rpcUrl, chainId: 1, logger: silent, retryBaseMs: 1, ...options });
  readers.push(r);
  return r;
};

/** Block n's header: its timestamp is 1000 + n seconds. */
const block = (c: Call): Reply => ({ result: { number: c.params[0], timestamp: `0x${(1000 + Number(c.params[0])).toString(16)}` } });

describe("ChainReader endpoints", () => {
  it("asks the live endpoint for the chain id, the head and latest state, and the archive for history", async () => {
    const live = await node((c) => ({ result: c.method === "eth_chainId" ? "0x89" : c.method === "eth_blockNumber" ? "0x1f4" : `live ${c.method}` }));
    const archive = await node((c) => (c.method === "eth_getBlockByNumber" ? block(c) : { result: `archive ${c.method}` }));
    const r = reader(live.url, { archiveUrl: archive.url });
    await expect(r.chainId()).resolves.toBe(137);
    await expect(r.head()).resolves.toBe(500);
    await expect(r.call("0xC0", "0xdata")).resolves.toBe("live eth_call");
    await expect(r.code("0xC0")).resolves.toBe("live eth_getCode");
    await expect(r.call("0xC0", "0xdata", 255)).resolves.toBe("archive eth_call");
    await expect(r.code("0xC0", 16)).resolves.toBe("archive eth_getCode");
    await expect(r.send("eth_getBalance", ["0xC0", "0x1"])).resolves.toBe("archive eth_getBalance");
    await expect(r.send("eth_gasPrice", [], false)).resolves.toBe("live eth_gasPrice");
    await expect(r.timestamp(16)).resolves.toBe(1_016_000);

    expect(live.calls()).toEqual([
      ["eth_chainId"],
      ["eth_blockNumber"],
      ["eth_call", { to: "0xC0", data: "0xdata" }, "latest"],
      ["eth_getCode", "0xC0", "latest"],
      ["eth_gasPrice"],
    ]);
    expect(archive.calls()).toEqual([
      ["eth_call", { to: "0xC0", data: "0xdata" }, "0xff"],
      ["eth_getCode", "0xC0", "0x10"],
      ["eth_getBalance", "0xC0", "0x1"],
      ["eth_getBlockByNumber", "0x10", false],
    ]);
    // 5 calls to the live endpoint and 4 to the archive.
    expect(r.requests).toBe(9);
  });

  it("uses the one endpoint for everything without an archive URL, counting each call once", async () => {
    const rpc = await node((c) => (c.method === "eth_getBlockByNumber" ? block(c) : { result: "0x2" }));
    const r = reader(rpc.url);
    await expect(r.head()).resolves.toBe(2);
    await expect(r.timestamp(1)).resolves.toBe(1_001_000);
    await expect(r.call("0xC0", "0x", 1)).resolves.toBe("0x2");
    expect(rpc.calls()).toEqual([["eth_blockNumber"], ["eth_getBlockByNumber", "0x1", false], ["eth_call", { to: "0xC0", data: "0x" }, "0x1"]]);
    expect(r.requests).toBe(3);
  });

  it("closes both endpoints' kept-alive connections when destroyed", async () => {
    const closed: string[] = [];
    const start = async (name: string) => {
      const server = createServer((req, res) => {
        req.resume();
        req.on("end", () => json(res, 200, { jsonrpc: "2.0", id: 1, result: "0x1" }));
      });
      server.on("connection", (socket: Socket) => socket.on("close", () => closed.push(name)));
      const started = await listenTestServer(server);
      servers.push(started);
      const { url } = started;
      return { url };
    };
    const live = await start("live");
    const archive = await start("archive");
    const r = new ChainReader({ rpcUrl: live.url, archiveUrl: archive.url, chainId: 1, logger: silent });
    await expect(r.head()).resolves.toBe(1);
    await expect(r.send("eth_x", [])).resolves.toBe("0x1");
    r.destroy();
    for (let i = 0; i < 100 && closed.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 30));
    expect(closed.sort()).toEqual(["archive", "live"]);
  });

  it("hands its settings to the transports: batch size, attempts and concurrency", async () => {
    let inFlight = 0;
    let most = 0;
    const requests: number[] = [];
    const server = await startTestServer((_req, res, body) => {
      const calls = JSON.parse(body) as Call | Call[];
      const list = Array.isArray(calls) ? calls : [calls];
      requests.push(list.length);
      inFlight++;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight--;
        if (list[0]?.method === "fail") return json(res, 503, { error: "down" });
        const out = list.map((c) => ({ jsonrpc: "2.0", id: c.id, ...block(c) }));
        json(res, 200, Array.isArray(calls) ? out : out[0]);
      }, 100);
    });
    servers.push(server);
    const r = reader(server.url, { batchSize: 2, concurrency: 2, maxAttempts: 3, timeoutMs: 5_000, callsPerSecond: 1000 });
    const stamps = await r.timestamps([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(stamps.get(10)).toBe(1_010_000);
    expect(requests).toEqual([2, 2, 2, 2, 2]);
    expect(most).toBe(2);
    requests.length = 0;
    await expect(r.send("fail", [])).rejects.toMatchObject({ details: { attempts: 3 } });
    expect(requests).toEqual([1, 1, 1]);
  });

  it("keeps to callsPerSecond", async () => {
    const rpc = await node(block);
    const r = reader(rpc.url, { callsPerSecond: 5, batchSize: 1 });
    const started = Date.now();
    await r.timestamps([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // A full bucket (5) goes at once, the other 5 calls need another second.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(rpc.requests).toHaveLength(10);
  });

  it("gives up after timeoutMs on an endpoint that never answers", async () => {
    const server = await startTestServer(() => {});
    servers.push(server);
    const err = await reader(server.url, { timeoutMs: 100, maxAttempts: 1 })
      .head()
      .catch((e: Error) => e);
    expect((err as Error & { cause: Error }).cause.message).toBe("no complete answer within 100 ms");
  });

  it("passes rateLimitAttempts, retryBaseMs and its logger on", async () => {
    let requests = 0;
    const server = await startTestServer((_req, res) => {
      requests++;
      json(res, 429, { error: "slow" });
    });
    servers.push(server);
    const { logger, lines } = capturingLogger();
    await expect(reader(server.url, { logger, maxAttempts: 1, rateLimitAttempts: 2, retryBaseMs: 30 }).head()).rejects.toMatchObject({
      details: { attempts: 2 },
    });
    expect(requests).toBe(2);
    // The first retry of a rate-limited request without Retry-After waits exactly retryBaseMs.
    expect(lines.filter((l) => l.msg === "RPC request failed, retrying")).toEqual([
      expect.objectContaining({ method: "eth_blockNumber", rate_limited: true, wait_ms: 30, err: "HTTP 429" }),
    ]);
  });
});

describe("ChainReader block timestamps", () => {
  it("reads a block's timestamp in ms, asks once per block, and answers undefined for a block the chain lacks", async () => {
    const rpc = await node((c) => (c.params[0] === "0x64" ? { result: null } : block(c)));
    const r = reader(rpc.url);
    await expect(r.timestampOrUndefined(10)).resolves.toBe(1_010_000);
    await expect(r.timestampOrUndefined(10)).resolves.toBe(1_010_000);
    await expect(r.timestamp(10)).resolves.toBe(1_010_000);
    await expect(r.timestampOrUndefined(100)).resolves.toBeUndefined();
    await expect(r.timestampOrUndefined(100)).resolves.toBeUndefined();
    expect(rpc.calls()).toEqual([
      ["eth_getBlockByNumber", "0xa", false],
      ["eth_getBlockByNumber", "0x64", false],
      ["eth_getBlockByNumber", "0x64", false],
    ]);
  });

  it("fails a block that must exist but does not, with -32000 and its number", async () => {
    const rpc = await node(() => ({ result: null }));
    const err = await reader(rpc.url)
      .timestamp(7)
      .catch((e: Error) => e);
    expect(err).toBeInstanceOf(RpcResponseError);
    expect(err).toMatchObject({ rpcCode: -32000, message: "block 7 not found" });
  });

  it("fails a header without a timestamp with -32603, and passes the node's own error on", async () => {
    const rpc = await node((c) =>
      c.params[0] === "0x1" ? { result: { number: "0x1" } } : c.params[0] === "0x2" ? { result: "0x" } : { error: { code: -32001, message: "header gone" } },
    );
    const r = reader(rpc.url);
    await expect(r.timestamp(1)).rejects.toMatchObject({ rpcCode: -32603, message: "block 1 came without a timestamp" });
    await expect(r.timestamp(2)).rejects.toMatchObject({ rpcCode: -32603, message: "block 2 came without a timestamp" });
    await expect(r.timestamps([1])).rejects.toMatchObject({ rpcCode: -32603, message: "block 1 came without a timestamp" });
    await expect(r.timestamps([3])).rejects.toMatchObject({ rpcCode: -32001, message: "header gone" });
    await expect(r.timestamp(3)).rejects.toBeInstanceOf(RpcResponseError);
  });

  it("fails a header answered with nothing as one without a timestamp", async () => {
    const server = await startTestServer((_req, res, body) => json(res, 200, { jsonrpc: "2.0", id: (JSON.parse(body) as Call).id }));
    servers.push(server);
    await expect(reader(server.url).timestamp(5)).rejects.toMatchObject({ rpcCode: -32603, message: "block 5 came without a timestamp" });
  });

  it("fetches the timestamps of many blocks in one batch, once per block, in the order asked, reusing those it has", async () => {
    const rpc = await node(block);
    const r = reader(rpc.url);
    await expect(r.timestamp(2)).resolves.toBe(1_002_000);
    const stamps = await r.timestamps([5, 2, 9, 5, 3]);
    expect([...stamps]).toEqual([
      [5, 1_005_000],
      [2, 1_002_000],
      [9, 1_009_000],
      [3, 1_003_000],
    ]);
    // Headers only (false: no full transactions), one request for the single block, one batch for the three missing.
    const header = (n: string) => ["eth_getBlockByNumber", n, false];
    expect(rpc.requests.map((calls) => calls.map((c) => [c.method, ...c.params]))).toEqual([[header("0x2")], [header("0x5"), header("0x9"), header("0x3")]]);
    // All cached now: no request at all, and the cached values.
    expect([...(await r.timestamps([3, 9]))]).toEqual([
      [3, 1_003_000],
      [9, 1_009_000],
    ]);
    await expect(r.timestamp(9)).resolves.toBe(1_009_000);
    expect([...(await r.timestamps([]))]).toEqual([]);
    expect(rpc.requests).toHaveLength(2);
  });

  it("fails a batch of timestamps when one block does not exist, naming it", async () => {
    const rpc = await node((c) => (c.params[0] === "0x8" ? { result: null } : block(c)));
    await expect(reader(rpc.url).timestamps([7, 8])).rejects.toMatchObject({ rpcCode: -32000, message: "block 8 not found" });
  });
});

describe("ChainReader block headers", () => {
  /** Block n's header with its hash: `generation` repeated, then n. */
  const hashOf = (n: number, generation = "AB") => `0x${generation.repeat(31)}${n.toString(16).padStart(2, "0")}`;
  const hashed =
    (generation: () => string) =>
    (c: Call): Reply => {
      const n = Number(c.params[0]);
      return { result: { timestamp: `0x${(1000 + n).toString(16)}`, hash: hashOf(n, generation()) } };
    };

  it("reads timestamps and hashes in one batch, lowercased, asking the node again each time", async () => {
    let generation = "AB";
    const rpc = await node(hashed(() => generation));
    const r = reader(rpc.url);
    const headers = await r.headers([4, 9, 4]);
    expect([...headers]).toEqual([
      [4, { ts: 1_004_000, hash: hashOf(4, "ab") }],
      [9, { ts: 1_009_000, hash: hashOf(9, "ab") }],
    ]);
    // Their timestamps are cached: no request for them.
    await expect(r.timestamps([4, 9])).resolves.toEqual(
      new Map([
        [4, 1_004_000],
        [9, 1_009_000],
      ]),
    );
    // The chain changed under the reader: headers are read again, never answered from what it read before.
    generation = "CD";
    expect((await r.headers([9])).get(9)).toEqual({ ts: 1_009_000, hash: hashOf(9, "cd") });
    const header = (n: string) => ["eth_getBlockByNumber", n, false];
    expect(rpc.requests.map((calls) => calls.map((c) => [c.method, ...c.params]))).toEqual([[header("0x4"), header("0x9")], [header("0x9")]]);
  });

  it("fails a header without a well-formed hash with -32603, and a block the node lacks with -32000", async () => {
    const rpc = await node((c) => {
      const n = Number(c.params[0]);
      if (n === 1) return { result: { timestamp: "0x10" } };
      if (n === 2) return { result: { timestamp: "0x10", hash: "0x12" } };
      return { result: null };
    });
    const r = reader(rpc.url);
    await expect(r.headers([1])).rejects.toMatchObject({ rpcCode: -32603, message: "block 1 came without a hash" });
    await expect(r.headers([2])).rejects.toMatchObject({ rpcCode: -32603, message: "block 2 came without a hash" });
    await expect(r.headers([3])).rejects.toMatchObject({ rpcCode: -32000, message: "block 3 not found" });
  });
});

describe("ChainReader logs", () => {
  const raw = (blockNumber: number, logIndex: number, extra: Record<string, unknown> = {}) => ({
    address: "0xAbC0000000000000000000000000000000000001",
    topics: ["0xDDF2", "0x00AA"],
    data: "0xDaTa",
    blockNumber: `0x${blockNumber.toString(16)}`,
    transactionHash: "0xFEED",
    logIndex: `0x${logIndex.toString(16)}`,
    ...extra,
  });

  it("asks for the range and topics, lowercases addresses, topics and hashes, and skips removed logs", async () => {
    const rpc = await node(() => ({ result: [raw(16, 1), raw(16, 2, { removed: true }), raw(17, 0, { removed: false })] }));
    const logs = await reader(rpc.url).logs(["0xa1", "0xa2"], ["0xt1", "0xt2"], 16, 31);
    expect(rpc.calls()).toEqual([["eth_getLogs", { fromBlock: "0x10", toBlock: "0x1f", address: ["0xa1", "0xa2"], topics: [["0xt1", "0xt2"]] }]]);
    const common = { address: "0xabc0000000000000000000000000000000000001", topics: ["0xddf2", "0x00aa"], data: "0xDaTa", transactionHash: "0xfeed" };
    expect(logs).toEqual([
      { ...common, blockNumber: 16, logIndex: 1 },
      { ...common, blockNumber: 17, logIndex: 0 },
    ]);
  });

  it("puts logs a node answered out of order into block and log-index order", async () => {
    const rpc = await node(() => ({ result: [raw(5, 3), raw(5, 1), raw(4, 9), raw(6, 0), raw(5, 2)] }));
    const logs = await reader(rpc.url).logs([], [], 0, 10);
    expect(logs.map((l) => [l.blockNumber, l.logIndex])).toEqual([
      [4, 9],
      [5, 1],
      [5, 2],
      [5, 3],
      [6, 0],
    ]);
  });

  it("sorts logs whose only disorder is the log index within one block", async () => {
    const rpc = await node(() => ({ result: [raw(4, 0), raw(5, 2), raw(5, 1)] }));
    const logs = await reader(rpc.url).logs([], [], 4, 5);
    expect(logs.map((l) => [l.blockNumber, l.logIndex])).toEqual([
      [4, 0],
      [5, 1],
      [5, 2],
    ]);
  });

  it("sorts logs whose only disorder is the block number, though the log index rises", async () => {
    const rpc = await node(() => ({ result: [raw(7, 0), raw(6, 4)] }));
    const logs = await reader(rpc.url).logs([], [], 6, 7);
    expect(logs.map((l) => [l.blockNumber, l.logIndex])).toEqual([
      [6, 4],
      [7, 0],
    ]);
  });

  it("keeps logs already in order as they came", async () => {
    const rpc = await node(() => ({ result: [raw(3, 5), raw(4, 0), raw(4, 1)] }));
    const logs = await reader(rpc.url).logs([], [], 3, 4);
    expect(logs.map((l) => [l.blockNumber, l.logIndex])).toEqual([
      [3, 5],
      [4, 0],
      [4, 1],
    ]);
  });
});

describe("ChainReader transaction senders", () => {
  it("fetches the senders of distinct transactions in one batch, lowercased, leaving out those the node lacks or gives no sender", async () => {
    const senders: Record<string, unknown> = { "0x1": { from: "0xAbCd" }, "0x2": null, "0x3": { from: "" }, "0x4": { from: 7 }, "0x5": {} };
    const rpc = await node((c) => ({ result: senders[c.params[0] as string] }));
    const out = await reader(rpc.url).transactionsFrom(["0x1", "0x2", "0x1", "0x3", "0x4", "0x5"]);
    expect([...out]).toEqual([["0x1", "0xabcd"]]);
    expect(rpc.requests.map((calls) => calls.map((c) => [c.method, ...c.params]))).toEqual([
      [
        ["eth_getTransactionByHash", "0x1"],
        ["eth_getTransactionByHash", "0x2"],
        ["eth_getTransactionByHash", "0x3"],
        ["eth_getTransactionByHash", "0x4"],
        ["eth_getTransactionByHash", "0x5"],
      ],
    ]);
  });

  it("gives one transaction's sender, or undefined", async () => {
    const rpc = await node((c) => ({ result: c.params[0] === "0xaa" ? { from: "0xF00" } : null }));
    const r = reader(rpc.url);
    await expect(r.transactionFrom("0xaa")).resolves.toBe("0xf00");
    await expect(r.transactionFrom("0xbb")).resolves.toBeUndefined();
  });

  it("passes the node's error for a transaction on", async () => {
    const rpc = await node(() => ({ error: { code: -32602, message: "bad hash" } }));
    const err = await reader(rpc.url)
      .transactionsFrom(["0xzz"])
      .catch((e: Error) => e);
    expect(err).toBeInstanceOf(RpcResponseError);
    expect(err).toMatchObject({ rpcCode: -32602, message: "bad hash" });
  });
});

describe("ChainReader whole blocks", () => {
  /** Block n at 1000 + n seconds, holding n transactions: 0xtx<n>-<i> sent by 0xSENDER<i> (block 5's second listed by hash alone). */
  const wholeBlock = (c: Call): Reply => {
    const n = Number(c.params[0]);
    if (n === 404) return { result: null };
    const full = c.params[1] === true;
    const transactions = Array.from({ length: n }, (_, i) => {
      const hash = `0xTX${n}-${i}`;
      if (!full || (n === 5 && i === 1)) return hash;
      return { hash, from: i === 2 ? "" : `0xSENDER${i}` };
    });
    return { result: { timestamp: `0x${(1000 + n).toString(16)}`, hash: `0x${n.toString(16).padStart(64, "0")}`, transactions } };
  };

  it("reads blocks with their transactions in one batch: timestamps, cached, and each sender by hash, lowercased", async () => {
    const rpc = await node(wholeBlock);
    const r = reader(rpc.url);
    const read = await r.blocksWithSenders([2, 5, 2]);
    expect(read.timestamps).toEqual(
      new Map([
        [2, 1_002_000],
        [5, 1_005_000],
      ]),
    );
    // Block 5's second transaction came as a bare hash and its third without a sender: both are left out.
    expect([...read.senders]).toEqual([
      ["0xtx2-0", "0xsender0"],
      ["0xtx2-1", "0xsender1"],
      ["0xtx5-0", "0xsender0"],
      ["0xtx5-3", "0xsender3"],
      ["0xtx5-4", "0xsender4"],
    ]);
    await expect(r.timestamp(5)).resolves.toBe(1_005_000);
    expect(rpc.calls()).toEqual([
      ["eth_getBlockByNumber", "0x2", true],
      ["eth_getBlockByNumber", "0x5", true],
    ]);
  });

  it("fails a block the node lacks with -32000 and its number", async () => {
    const rpc = await node(wholeBlock);
    await expect(reader(rpc.url).blocksWithSenders([3, 404])).rejects.toMatchObject({ rpcCode: -32000, message: "block 404 not found" });
  });

  it("measures the transactions per block of every block it reads, whole or as a header, and none before", async () => {
    const rpc = await node(wholeBlock);
    const r = reader(rpc.url);
    expect(r.transactionsPerBlock).toBeUndefined();
    await r.headers([2, 4]);
    expect(r.transactionsPerBlock).toBe(3);
    await r.timestamps([6, 8]);
    expect(r.transactionsPerBlock).toBe(5);
    await r.blocksWithSenders([10]);
    expect(r.transactionsPerBlock).toBe(6);
    await r.timestamp(1);
    expect(r.transactionsPerBlock).toBe(31 / 6);
  });

  it("does not count a header that came without its transaction list", async () => {
    const rpc = await node((c) => ({
      result: { timestamp: "0x10", hash: `0x${"1".repeat(64)}`, ...(Number(c.params[0]) === 1 ? { transactions: ["0xa"] } : {}) },
    }));
    const r = reader(rpc.url);
    await r.headers([1, 2, 3]);
    expect(r.transactionsPerBlock).toBe(1);
  });
});

describe("BlockSizes", () => {
  it("follows the recent blocks: the counts halve every 1,024 blocks past the first 2,048", () => {
    const sizes = new BlockSizes();
    const blockOf = (n: number) => ({ transactions: Array.from({ length: n }) });
    for (let i = 0; i < 2_047; i++) sizes.add(blockOf(10));
    expect(sizes.mean).toBe(10);
    // The 2,048th block halves the counts (1,024 blocks of weight left), so 1,024 more of 30 weigh as much as all before.
    sizes.add(blockOf(10));
    for (let i = 0; i < 1_023; i++) sizes.add(blockOf(30));
    expect(sizes.mean).toBeCloseTo((1_024 * 10 + 1_023 * 30) / 2_047, 10);
    sizes.add(blockOf(30));
    // Halved again at 2,048: the same mean, then more weight to what comes after.
    expect(sizes.mean).toBeCloseTo(20, 10);
  });

  it("ignores a block without a transaction list, and nothing at all", () => {
    const sizes = new BlockSizes();
    sizes.add(null);
    sizes.add({});
    sizes.add({ transactions: "0x" });
    expect(sizes.mean).toBeUndefined();
    sizes.add({ transactions: [] });
    expect(sizes.mean).toBe(0);
  });
});
