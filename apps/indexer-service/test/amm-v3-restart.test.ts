// The amm-v3 indexer killed mid-range on the real Uniswap V3 contracts: the resumed run restores the pool's tick and
// the positions from the chain at the block before its first log and writes the same windows as an uninterrupted run.
import { readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { IndexerConfig, IndexerConfigInput } from "@pointwise/indexer-engine";
import { type LocalChain, startChain } from "./support/chain";
import { spawnIndexer } from "./support/child";
import { buildConfig, checkpointOf, clearIndexer, REDIS_URL, runInProcess, testEnv, uniqueId } from "./support/harness";
import { type RpcProxy, startRpcProxy } from "./support/servers";
import { runV3Scenario, type V3Scenario } from "./support/v3";

let chain: LocalChain;
let slowRpc: RpcProxy;
let scenario: V3Scenario;
let reference: string;
const indexerId = uniqueId("amm-v3-restart");
const cleanup: { config: IndexerConfig; prefix: string }[] = [];
const files: string[] = [];

function configInput(csv: string): IndexerConfigInput {
  const { pool, manager, token0, token1, endBlock } = scenario;
  return {
    kind: "evm",
    indexerId,
    flushMs: 3_600_000,
    stateStoreUrl: REDIS_URL,
    network: { chainId: 31337, finality: 0 },
    range: { fromBlock: 0, toBlock: endBlock },
    sinkConfig: { sinks: [{ sinkType: "csv", path: csv }] },
    adapterConfig: { adapterId: "amm-v3", params: { poolAddress: pool, positionManagerAddress: manager, trackSwaps: true, trackLP: true } },
    assetFeedConfig: [
      { match: { key: token0 }, config: { assetType: "erc20", priceFeed: { kind: "pegged", usdPegValue: 1 } } },
      { match: { key: token1 }, config: { assetType: "erc20", priceFeed: { kind: "pegged", usdPegValue: 2 } } },
      {
        match: { matchLabels: { protocol: "amm-v3", role: "position" } },
        config: {
          assetType: "erc721",
          priceFeed: { kind: "ammv3position", token0: { kind: "pegged", usdPegValue: 1 }, token1: { kind: "pegged", usdPegValue: 2 } },
        },
      },
    ],
  };
}

async function prepare(label: string, prefix: string): Promise<{ config: IndexerConfig; file: string; csv: string }> {
  const csv = join(tmpdir(), `${indexerId}-${label}.csv`);
  const file = join(tmpdir(), `${indexerId}-${label}.json`);
  const input = configInput(csv);
  await writeFile(file, JSON.stringify(input));
  files.push(csv, file);
  const config = buildConfig(input);
  cleanup.push({ config, prefix });
  return { config, file, csv };
}

beforeAll(async () => {
  chain = await startChain();
  scenario = await runV3Scenario(chain);
  slowRpc = await startRpcProxy({ target: chain.url, delayMs: 15 });
  const ref = await prepare("reference", "pwv3ref");
  const run = await runInProcess(ref.config, testEnv({ RPC_URL: chain.url, STATE_KEY_PREFIX: "pwv3ref" }));
  expect(run.result.finished).toBe(true);
  reference = await readFile(ref.csv, "utf8");
  expect(reference.split("\n").filter((l) => l.startsWith("window,")).length).toBeGreaterThan(10);
}, 180_000);

afterAll(async () => {
  for (const { config, prefix } of cleanup) await clearIndexer(config, prefix);
  for (const file of files) await rm(file, { force: true });
  await slowRpc?.close();
  await chain?.stop();
});

describe("amm-v3 restart", () => {
  it("after SIGKILL mid-range, restores slot0, positions() and ownerOf() at the previous block and writes the uninterrupted run's windows", async () => {
    const killed = await prepare("killed", "pwv3kill");
    const child = spawnIndexer(killed.file, {
      POINTWISE_API_KEY: "pw_test_key",
      RPC_URL: slowRpc.url,
      PRICE_API_KEY: "price-test-key",
      STATE_KEY_PREFIX: "pwv3kill",
      INDEXER_MAX_BLOCK_RANGE: "1",
      INDEXER_INITIAL_BLOCK_RANGE: "1",
    });
    // The third swap comes after two mints, an increase, a decrease, a third mint and a transfer.
    const target = (scenario.swaps[2] as { block: number }).block;
    await child.waitFor(`Processing block ${target}`);
    child.child.kill("SIGKILL");
    await child.exited;
    const checkpoint = await checkpointOf(killed.config, "pwv3kill");
    expect(checkpoint?.nextBlock).toBeGreaterThan((scenario.swaps[1] as { block: number }).block);
    expect(checkpoint?.nextBlock).toBeLessThan(scenario.endBlock);

    const resumed = await runInProcess(killed.config, testEnv({ RPC_URL: chain.url, STATE_KEY_PREFIX: "pwv3kill" }));
    expect(resumed.result.finished).toBe(true);
    expect(resumed.logs.messages()).toContain("resuming from checkpoint");
    expect(await readFile(killed.csv, "utf8")).toBe(reference);

    // What the adapter restored is what the contracts say at the block before the resumed run's first log.
    const restored = resumed.logs.lines.find((l) => l.msg === "amm-v3 positions restored") as { block: number; positions: number; tick: number };
    expect(restored.block).toBeGreaterThanOrEqual(checkpoint?.nextBlock as number);
    const at = restored.block - 1;
    const slot0 = (await scenario.poolContract.getFunction("slot0")({ blockTag: at })) as { tick: bigint };
    let live = 0;
    for (const id of scenario.tokenIds) {
      const owner = await scenario.managerContract
        .getFunction("ownerOf")(id, { blockTag: at })
        .catch(() => undefined);
      if (owner !== undefined) live++;
    }
    expect([restored.tick, restored.positions]).toEqual([Number(slot0.tick), live]);
    expect(live).toBeGreaterThanOrEqual(2);
  }, 180_000);
});
