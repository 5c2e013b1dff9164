// The indexer killed or stopped mid-range: SIGKILL resumes to identical output, SIGTERM commits and exits 0.
import { appendFile, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { IndexerConfig, IndexerConfigInput } from "@pointwise/indexer-engine";
import { type LocalChain, startChain } from "./support/chain";
import { spawnIndexer } from "./support/child";
import { blockHashOf, buildConfig, checkpointOf, clearIndexer, REDIS_URL, runInProcess, testEnv, uniqueId } from "./support/harness";
import { runScenario, type ScenarioResult } from "./support/scenario";
import { type IngestServer, type PriceServer, type RpcProxy, startIngestServer, startPriceServer, startRpcProxy } from "./support/servers";

let chain: LocalChain;
let slowRpc: RpcProxy;
let scenario: ScenarioResult;
let prices: PriceServer;
const servers: IngestServer[] = [];
const cleanup: { config: IndexerConfig; prefix: string }[] = [];
const files: string[] = [];
const indexerId = uniqueId("restart");
let reference: { csv: string; events: string[]; keys: string[] };

async function ingestServer(): Promise<IngestServer> {
  const server = await startIngestServer({ apiKey: "pw_test_key" });
  servers.push(server);
  return server;
}

function configInput(csvPath: string, ingestUrl: string): IndexerConfigInput {
  return {
    kind: "evm",
    indexerId,
    flushMs: 3_600_000,
    stateStoreUrl: REDIS_URL,
    network: { chainId: 31337, finality: 0 },
    range: { fromBlock: scenario.pairDeployBlock, toBlock: scenario.endBlock },
    sinkConfig: {
      sinks: [
        { sinkType: "csv", path: csvPath },
        {
          sinkType: "pointwise",
          baseUrl: ingestUrl,
          batchSize: 3,
          events: {
            swap: { regEventId: "11111111-1111-4111-8111-111111111111", amount: "usd" },
            hold: { regEventId: "22222222-2222-4222-8222-222222222222", amount: "usdHours" },
          },
        },
      ],
    },
    adapterConfig: { adapterId: "amm-v2", params: { poolAddress: scenario.pair, trackSwaps: true, trackLP: true } },
    assetFeedConfig: [
      { match: { key: scenario.token0 }, config: { assetType: "erc20", priceFeed: { kind: "pegged", usdPegValue: 1 } } },
      { match: { key: scenario.token1 }, config: { assetType: "erc20", priceFeed: { kind: "market", id: "test-eth" } } },
      {
        match: { key: scenario.pair },
        config: { assetType: "erc20", priceFeed: { kind: "ammv2nav", token0: { kind: "pegged", usdPegValue: 1 }, token1: { kind: "market", id: "test-eth" } } },
      },
    ],
  };
}

async function prepare(label: string, prefix: string): Promise<{ config: IndexerConfig; file: string; csv: string; ingest: IngestServer }> {
  const csv = join(tmpdir(), `${indexerId}-${label}.csv`);
  const file = join(tmpdir(), `${indexerId}-${label}.json`);
  const ingest = await ingestServer();
  const input = configInput(csv, ingest.url);
  await writeFile(file, JSON.stringify(input));
  files.push(csv, file);
  const config = buildConfig(input);
  cleanup.push({ config, prefix });
  return { config, file, csv, ingest };
}

function childEnv(prefix: string): Record<string, string> {
  return {
    POINTWISE_API_KEY: "pw_test_key",
    RPC_URL: slowRpc.url,
    PRICE_API_KEY: "price-test-key",
    PRICE_API_URL: prices.url,
    PRICE_API_RATE_PER_MINUTE: "6000",
    STATE_KEY_PREFIX: prefix,
    INDEXER_MAX_BLOCK_RANGE: "1",
    INDEXER_INITIAL_BLOCK_RANGE: "1",
  };
}

const eventKey = (e: { account_id: string; reg_event_id: string; amount: string; occurred_at?: string }) =>
  `${e.reg_event_id}|${e.account_id}|${e.amount}|${e.occurred_at}`;
/** The events' idempotency keys: the same indexerId over the same blocks must send the same ones, each once. */
const keysOf = (events: { idempotency_key?: string }[]) => events.map((e) => String(e.idempotency_key)).sort();

beforeAll(async () => {
  chain = await startChain();
  scenario = await runScenario(chain);
  // A slow provider makes every block range take a while, so a kill lands in the middle of the range.
  slowRpc = await startRpcProxy({ target: chain.url, delayMs: 15 });
  prices = await startPriceServer({ apiKey: "price-test-key" });
  const ref = await prepare("reference", "pwref");
  const run = await runInProcess(
    ref.config,
    testEnv({ RPC_URL: chain.url, PRICE_API_URL: prices.url, PRICE_API_RATE_PER_MINUTE: "6000", STATE_KEY_PREFIX: "pwref" }),
  );
  expect(run.result.finished).toBe(true);
  reference = { csv: await readFile(ref.csv, "utf8"), events: ref.ingest.recorded.map(eventKey).sort(), keys: keysOf(ref.ingest.recorded) };
  expect(reference.events.length).toBeGreaterThan(5);
  expect(new Set(reference.keys).size).toBe(reference.events.length);
}, 120_000);

afterAll(async () => {
  for (const { config, prefix } of cleanup) await clearIndexer(config, prefix);
  for (const file of files) await rm(file, { force: true });
  for (const server of [...servers, prices, slowRpc]) await server?.close();
  await chain?.stop();
});

describe("restart semantics", () => {
  it("resumes after SIGKILL mid-range with output identical to an uninterrupted run", async () => {
    const killed = await prepare("killed", "pwkill");
    const child = spawnIndexer(killed.file, childEnv("pwkill"));
    await child.waitFor("Processing block", 6);
    child.child.kill("SIGKILL");
    await child.exited;
    const checkpoint = await checkpointOf(killed.config, "pwkill");
    // The kill really happened mid-range.
    expect(checkpoint).toBeDefined();
    expect(checkpoint?.nextBlock).toBeLessThan(scenario.endBlock);
    // The resumed run's first range is checked against the hash the checkpoint keeps for its last block.
    expect(checkpoint?.prev.hash).toBe(await blockHashOf(chain.rpc, checkpoint?.prev.block as number));
    // A crash can also leave a torn line behind; recovery must cut it.
    await appendFile(killed.csv, "window,torn-row-without-end");

    const resumed = await runInProcess(
      killed.config,
      testEnv({ RPC_URL: chain.url, PRICE_API_URL: prices.url, PRICE_API_RATE_PER_MINUTE: "6000", STATE_KEY_PREFIX: "pwkill" }),
    );
    expect(resumed.result.finished).toBe(true);
    expect(resumed.logs.messages()).toContain("resuming from checkpoint");
    expect(await readFile(killed.csv, "utf8")).toBe(reference.csv);
    expect(killed.ingest.recorded.map(eventKey).sort()).toEqual(reference.events);
    expect(keysOf(killed.ingest.recorded)).toEqual(reference.keys);
  }, 60_000);

  it("on SIGTERM finishes the current block range, commits the checkpoint and exits 0", async () => {
    const stopped = await prepare("stopped", "pwterm");
    const child = spawnIndexer(stopped.file, childEnv("pwterm"));
    await child.waitFor("Processing block", 4);
    child.child.kill("SIGTERM");
    expect(await child.exited).toBe(0);
    expect(child.lines.map((l) => l.msg)).toContain("Indexer stopped at a block range boundary");
    const checkpoint = await checkpointOf(stopped.config, "pwterm");
    expect(checkpoint?.nextBlock).toBeLessThan(scenario.endBlock);
    // Nothing uncommitted is left in the file: its length is the committed cursor.
    expect(String((await stat(stopped.csv)).size)).toBe(checkpoint?.sinks["0-csv"]);
    expect(checkpoint?.prev.hash).toBe(await blockHashOf(chain.rpc, checkpoint?.prev.block as number));

    const resumed = await runInProcess(
      stopped.config,
      testEnv({ RPC_URL: chain.url, PRICE_API_URL: prices.url, PRICE_API_RATE_PER_MINUTE: "6000", STATE_KEY_PREFIX: "pwterm" }),
    );
    expect(resumed.result.finished).toBe(true);
    const finished = await checkpointOf(stopped.config, "pwterm");
    expect(finished?.prev).toMatchObject({ block: scenario.endBlock, hash: await blockHashOf(chain.rpc, scenario.endBlock) });
    expect(await readFile(stopped.csv, "utf8")).toBe(reference.csv);
    expect(stopped.ingest.recorded.map(eventKey).sort()).toEqual(reference.events);
    expect(keysOf(stopped.ingest.recorded)).toEqual(reference.keys);
  }, 60_000);
});
