// How the indexer fails on a bad RPC, contract, fromBlock or API key, and amm-v2 on a real pool.
import { readdir, readFile, readlink, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { adapterConfigHash, type IndexerConfig, type IndexerConfigInput } from "@pointwise/indexer-engine";
import { createClient } from "redis";
import { buildConfig, REDIS_URL, runInProcess, testEnv, uniqueId } from "./support/harness";
import { freePort, listen, sendJson } from "./support/net";
import { startIngestServer } from "./support/servers";
import { useScenarioChain } from "./support/suite";

const suite = useScenarioChain();
const { configs, files, closers, proxy } = suite;

function config(overrides: Partial<IndexerConfigInput> & { params?: Record<string, unknown> } = {}): IndexerConfig {
  const { params, ...rest } = overrides;
  return suite.csvConfig("sym", {
    network: { chainId: 31337, finality: 0 },
    range: { fromBlock: suite.scenario.pairDeployBlock, toBlock: suite.scenario.endBlock },
    adapterConfig: { adapterId: "amm-v2", params: params ?? { poolAddress: suite.scenario.pair, trackSwaps: true, trackLP: true } },
    ...rest,
  }).config;
}

/** How many file descriptors of this process point at `path` (Linux: read from /proc/self/fd). */
async function openHandles(path: string): Promise<number> {
  const target = await realpath(path);
  let count = 0;
  for (const fd of await readdir("/proc/self/fd")) {
    const link = await readlink(`/proc/self/fd/${fd}`).catch(() => "");
    if (link === target) count++;
  }
  return count;
}

const run = (c: IndexerConfig, env: Record<string, string> = {}) => runInProcess(c, testEnv({ RPC_URL: suite.chain.url, ...env }));

describe("indexer symptoms", () => {
  it("fails with RPC Connection Failed when the RPC is unreachable", async () => {
    await expect(run(config(), { RPC_URL: `http://127.0.0.1:${await freePort()}` })).rejects.toMatchObject({
      message: "RPC Connection Failed",
      code: "rpc-connection-failed",
    });
  });

  it("fails with RPC Connection Failed when the RPC rejects the key", async () => {
    const rejecting = await proxy({ status: 401 });
    await expect(run(config(), { RPC_URL: rejecting.url })).rejects.toMatchObject({ message: "RPC Connection Failed" });
  });

  it("fails with RPC Connection Failed, after retrying, when the RPC keeps answering HTTP 429", async () => {
    // A provider whose quota is spent: every request is refused with 429 Too Many Requests.
    let requests = 0;
    const limited = await listen((_req, res) => {
      requests++;
      sendJson(res, 429, { error: "Too Many Requests" });
    });
    closers.push(limited);
    const started = Date.now();
    await expect(run(config(), { RPC_URL: limited.url })).rejects.toMatchObject({
      message: "RPC Connection Failed",
      code: "rpc-connection-failed",
      details: { method: "eth_blockNumber", attempts: 3, reason: "endpoint unreachable or rate limited" },
    });
    // The harness allows three attempts per rate-limited request: the reader retried the 429 twice, not ethers endlessly.
    expect(requests).toBe(3);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 20_000);

  it("fails with Contract Not Found for an address without code", async () => {
    await expect(run(config({ params: { poolAddress: "0x00000000000000000000000000000000deadbeef", trackLP: true } }))).rejects.toMatchObject({
      message: "Contract Not Found",
      details: { address: "0x00000000000000000000000000000000deadbeef" },
    });
  });

  it("fails with Contract Not Found when the RPC serves another chain", async () => {
    await expect(run(config({ network: { chainId: 1, finality: 0 } }))).rejects.toMatchObject({
      message: "Contract Not Found",
      details: { served: 31337, chainId: 1 },
    });
  });

  it("fails with fromBlock Not Found when fromBlock is beyond the chain", async () => {
    await expect(run(config({ range: { fromBlock: suite.scenario.endBlock + 1000 } }))).rejects.toMatchObject({ message: "fromBlock Not Found" });
  });

  it("fails with fromBlock Not Found when fromBlock is omitted and the node cannot look up old state", async () => {
    const pruned = await proxy({ noHistoricalState: true });
    await expect(run(config({ range: {} }), { RPC_URL: pruned.url })).rejects.toMatchObject({ message: "fromBlock Not Found" });
  });

  it("refuses a toBlock before the deployment block found for an omitted fromBlock, naming both, having written nothing", async () => {
    // The pair's deployment receipt says where its code first exists; the tokens it trades were deployed before it.
    const deployed = suite.scenario.pairDeployBlock;
    expect(deployed).toBeGreaterThan(1);
    const { config: c, csv } = suite.csvConfig("early", {
      network: { chainId: 31337, finality: 0 },
      range: { toBlock: deployed - 1 },
      adapterConfig: { adapterId: "amm-v2", params: { poolAddress: suite.scenario.pair, trackSwaps: true, trackLP: true } },
    });
    await expect(run(c)).rejects.toMatchObject({
      code: "config-invalid",
      message: `range.toBlock must not be before range.fromBlock: toBlock ${deployed - 1} is before block ${deployed}, where the adapter's contracts were deployed (range.fromBlock omitted)`,
    });
    await expect(readFile(csv, "utf8")).rejects.toMatchObject({ code: "ENOENT" });
    const redis = createClient({ url: REDIS_URL });
    await redis.connect();
    expect(await redis.keys(`pwtest:idx:${c.indexerId}:*`)).toEqual([]);
    await redis.quit();
  });

  it("refuses a toBlock lowered below the deployment block an earlier run of the same index found", async () => {
    const deployed = suite.scenario.pairDeployBlock;
    const first = config({ range: { toBlock: deployed + 1 } });
    await expect(run(first)).resolves.toMatchObject({ result: { finished: true } });
    // toBlock is not part of the config hash: the same index resumes, its checkpoint starting at the block found.
    const lowered = buildConfig({ ...first, range: { toBlock: deployed - 1 } } as never);
    await expect(run(lowered)).rejects.toMatchObject({
      code: "config-invalid",
      message: `range.toBlock must not be before range.fromBlock: toBlock ${deployed - 1} is before block ${deployed}, where the adapter's contracts were deployed (range.fromBlock omitted)`,
    });
  });

  it("fails with Invalid API Key for an example key before touching the chain", async () => {
    const counting = await proxy({});
    await expect(run(config(), { RPC_URL: counting.url, POINTWISE_API_KEY: "pw_live_EXAMPLE_KEY_DO_NOT_USE" })).rejects.toMatchObject({
      message: "Invalid API Key",
    });
    expect(counting.counts.size).toBe(0);
  });

  it("fails with Invalid API Key when the Pointwise API rejects the key", async () => {
    const ingest = await startIngestServer({ apiKey: "the-campaign-key" });
    closers.push(ingest);
    const c = config({
      sinkConfig: {
        sinks: [{ sinkType: "pointwise", baseUrl: ingest.url, events: { swap: { regEventId: "11111111-1111-4111-8111-111111111111", amount: "count" } } }],
      },
    });
    await expect(run(c, { POINTWISE_API_KEY: "another-campaigns-key" })).rejects.toMatchObject({ message: "Invalid API Key", code: "invalid-api-key" });
    expect(ingest.recorded).toEqual([]);
  });
});

describe("amm-v2 on a real pool", () => {
  it("fetches token0/token1 once, lowercased, and caches them under the adapter-config hash, protocol prefix and pool", async () => {
    const counting = await proxy({});
    const first = config();
    await run(first, { RPC_URL: counting.url });
    expect(counting.counts.get("eth_call")).toBe(4); // token0, token1 and their decimals

    const redis = createClient({ url: REDIS_URL });
    await redis.connect();
    const prefix = `pwtest:idx:${first.indexerId}:kv:${adapterConfigHash(first)}:amm-v2:${suite.scenario.pair}`;
    expect(await redis.get(`${prefix}:token0`)).toBe(suite.scenario.token0);
    expect(await redis.get(`${prefix}:token1`)).toBe(suite.scenario.token1);
    await redis.quit();

    // Same indexer and adapter config, different sinks: a new index, but the cached tokens are reused.
    counting.counts.clear();
    const secondCsv = join(tmpdir(), `${uniqueId("sym2")}.csv`);
    const second = buildConfig({ ...first, sinkConfig: { sinks: [{ sinkType: "csv", path: secondCsv }] } } as never);
    configs.push(second);
    files.push(secondCsv);
    await run(second, { RPC_URL: counting.url });
    expect(counting.counts.get("eth_call") ?? 0).toBe(0);
  });

  it("fails the adapter when token0/token1 cannot be read, leaving no file of a sink open", async () => {
    const c = config({ params: { poolAddress: suite.scenario.token0, trackSwaps: true } });
    await expect(run(c)).rejects.toMatchObject({
      code: "adapter-init-failed",
      message: `amm-v2: could not read token0/token1 of pool ${suite.scenario.token0}`,
    });
    // The csv sink had opened its file before the adapter's set-up failed.
    const csv = c.sinkConfig.sinks[0]?.sinkType === "csv" ? c.sinkConfig.sinks[0].path : "";
    expect(await openHandles(csv)).toBe(0);
  });

  it("shrinks log ranges the provider refuses and still writes the same rows", async () => {
    const direct = config();
    await run(direct, { INDEXER_INITIAL_BLOCK_RANGE: "50" });
    const limited = await proxy({ maxLogRange: 2 });
    const narrow = config();
    await run(narrow, { RPC_URL: limited.url, INDEXER_INITIAL_BLOCK_RANGE: "50" });
    // Row ids hash the indexerId, which differs between the two runs; every other column must match.
    const text = async (c: IndexerConfig) =>
      (await readFile(c.sinkConfig.sinks[0]?.sinkType === "csv" ? c.sinkConfig.sinks[0].path : "", "utf8")).replace(/^(\w+),[^,]*,[^,]*,/gm, "$1,ID,ID,");
    expect(await text(narrow)).toBe(await text(direct));
    // Every refused request was retried with a smaller range until the node accepted it.
    expect(limited.counts.get("eth_getLogs") ?? 0).toBeGreaterThan((suite.scenario.endBlock - suite.scenario.pairDeployBlock) / 2);
  });
});
