// A reorg deeper than finality under the indexer: the next block range notices it and the run stops, writing nothing.
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Checkpoint, IndexerConfig, IndexerConfigInput } from "@pointwise/indexer-engine";
import { waitUntil } from "@pointwise/testkit";
import { Contract } from "ethers";
import { spawnIndexer } from "./support/child";
import { blockHashOf, buildConfig, checkpointOf, REDIS_URL, runInProcess, testEnv, uniqueId } from "./support/harness";
import { useScenarioChain } from "./support/suite";

const suite = useScenarioChain();
const _hex = (n: number) => `0x${n.toString(16)}`;

/** A csv-only amm-v2 config of its own indexerId with finality 0, written to a file for the CLI; cleaned up after the file. */
async function reorgConfig(label: string, range: IndexerConfigInput["range"]): Promise<{ config: IndexerConfig; csv: string; file: string }> {
  const indexerId = uniqueId(label);
  const csv = join(tmpdir(), `${indexerId}.csv`);
  const file = join(tmpdir(), `${indexerId}.json`);
  const input: IndexerConfigInput = {
    kind: "evm",
    indexerId,
    flushMs: 3_600_000,
    stateStoreUrl: REDIS_URL,
    network: { chainId: 31337, finality: 0 },
    range,
    sinkConfig: { sinks: [{ sinkType: "csv", path: csv }] },
    adapterConfig: { adapterId: "amm-v2", params: { poolAddress: suite.scenario.pair, trackSwaps: true, trackLP: true } },
  };
  await writeFile(file, JSON.stringify(input));
  const config = buildConfig(input);
  suite.configs.push(config);
  suite.files.push(csv, file);
  return { config, csv, file };
}

/** The chain's head. */
const head = () => suite.chain.provider.getBlockNumber();

/** Sends LP tokens from user c to `to` in a block of its own: the indexer writes rows for it. */
async function transferLp(to: string, value: bigint): Promise<void> {
  const pair = new Contract(
    suite.scenario.pair,
    ["function transfer(address to, uint256 value) returns (bool)"],
    await suite.chain.provider.getSigner(suite.scenario.users.c),
  );
  await (await pair.getFunction("transfer")(to, value)).wait();
}

/**
 * Replaces every block after `snapshot` (an evm_snapshot id) by other blocks: a minute later, with another LP transfer
 * in the first of them, and as many blocks as it takes to reach `until`.
 */
async function reorgTo(snapshot: string, until: number): Promise<void> {
  expect(await suite.chain.rpc("evm_revert", [snapshot])).toBe(true);
  await suite.chain.rpc("evm_increaseTime", [60]);
  await transferLp(suite.scenario.users.b, 7_777n);
  while ((await head()) < until) await suite.chain.rpc("evm_mine");
}

describe("a reorg deeper than finality", () => {
  it("stops a backfill resumed over replaced blocks with chain-reorg-detected and exit code 1, writing nothing", async () => {
    const fork = await head();
    const snapshot = await suite.chain.rpc<string>("evm_snapshot");
    await transferLp(suite.scenario.users.a, 1_000n);
    await suite.chain.rpc("evm_mine");
    await suite.chain.rpc("evm_mine");
    const { config, csv, file } = await reorgConfig("reorg-backfill", { fromBlock: suite.scenario.pairDeployBlock, toBlock: fork + 6 });
    const first = await runInProcess(config, testEnv({ RPC_URL: suite.chain.url }), { untilCaughtUp: true });
    expect(first.result).toMatchObject({ finished: false, nextBlock: fork + 4 });
    const checkpoint = (await checkpointOf(config)) as Checkpoint;
    const last = fork + 3;
    const stored = await blockHashOf(suite.chain.rpc, last);
    // The checkpoint keeps the hash the node gives its last block.
    expect(checkpoint.prev).toMatchObject({ block: last, hash: stored });
    const written = await readFile(csv, "utf8");
    expect(written).toContain(suite.scenario.users.a);

    await reorgTo(snapshot, fork + 6);
    const now = await blockHashOf(suite.chain.rpc, last);
    expect(now).not.toBe(stored);

    const child = spawnIndexer(file, {
      POINTWISE_API_KEY: "pw_test_key",
      PRICE_API_KEY: "price-test-key",
      RPC_URL: suite.chain.url,
      STATE_KEY_PREFIX: "pwtest",
    });
    expect(await child.exited).toBe(1);
    const error = child.lines.find((l) => l.level === "error");
    expect(error).toMatchObject({ code: "chain-reorg-detected", block: last, storedHash: stored, nodeHash: now });
    const message = String(error?.msg);
    expect(message).toContain(`Chain reorg detected at block ${last}`);
    expect(message).toContain(stored);
    expect(message).toContain(now);
    expect(message).toContain("network.finality");
    expect(message).toContain(`pwtest:idx:${config.indexerId}:*`);
    // Nothing of the replaced chain was written: the csv and the checkpoint are as the first run left them.
    expect(await readFile(csv, "utf8")).toBe(written);
    expect(await checkpointOf(config)).toEqual(checkpoint);
  }, 60_000);

  it("stops a run following the chain live when a reorg replaces blocks it indexed", async () => {
    const fork = await head();
    const snapshot = await suite.chain.rpc<string>("evm_snapshot");
    await transferLp(suite.scenario.users.a, 2_000n);
    await suite.chain.rpc("evm_mine");
    const { config, csv } = await reorgConfig("reorg-live", { fromBlock: suite.scenario.pairDeployBlock });
    const controller = new AbortController();
    const running = runInProcess(config, testEnv({ RPC_URL: suite.chain.url, INDEXER_POLL_INTERVAL_MS: "50" }), { signal: controller.signal });
    let settled = false;
    running.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    try {
      const last = fork + 2;
      await waitUntil(async () => settled || (await checkpointOf(config))?.nextBlock === last + 1, 20_000, "the live run to commit the last block");
      const checkpoint = (await checkpointOf(config)) as Checkpoint;
      const stored = await blockHashOf(suite.chain.rpc, last);
      expect(checkpoint.prev).toMatchObject({ block: last, hash: stored });
      const written = await readFile(csv, "utf8");

      await reorgTo(snapshot, last + 3);
      const now = await blockHashOf(suite.chain.rpc, last);
      expect(now).not.toBe(stored);
      // The run either stops on its own or, not noticing, indexes on past the replaced blocks.
      await waitUntil(async () => settled || ((await checkpointOf(config))?.nextBlock ?? 0) > last + 1, 20_000, "the live run to commit past the last block");
      controller.abort();
      await expect(running).rejects.toMatchObject({
        code: "chain-reorg-detected",
        details: { block: last, storedHash: stored, nodeHash: now },
      });
      expect(await readFile(csv, "utf8")).toBe(written);
      expect(await checkpointOf(config)).toEqual(checkpoint);
    } finally {
      controller.abort();
      await running.catch(() => undefined);
    }
  }, 60_000);
});
