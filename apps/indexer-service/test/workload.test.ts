// The indexer on a generated ERC-20 workload (hundreds of holders, thousands of transfers over a day of blocks, many
// blocks empty): every holder's final balance equals the token's balanceOf, sampled windows hold the balance the
// token reports at their start, and every hourly flush ends at the last block before the hour, per the chain's headers.
import { readFile } from "node:fs/promises";
import { configHash, StateStore } from "@pointwise/indexer-engine";
import { createLogger } from "@pointwise/logger";
import { Contract, formatUnits } from "ethers";
import { type LocalChain, startChain } from "./support/chain";
import { parseCsv } from "./support/csv";
import { buildConfig, clearIndexer, REDIS_URL, runInProcess, testEnv, uniqueId } from "./support/harness";
import { type RpcProxy, startRpcProxy } from "./support/servers";
import { generateErc20Workload, type Workload } from "./support/workload";

let chain: LocalChain;
let workload: Workload;
let proxy: RpcProxy;
const cleanup: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  chain = await startChain();
  // About 26 hours of 12-second blocks, two in three of them empty.
  workload = await generateErc20Workload(chain, { transfers: 3_000, holders: 300, blocks: 8_000, seed: 7 });
  proxy = await startRpcProxy({ target: chain.url });
}, 180_000);

afterAll(async () => {
  for (const c of cleanup) await c();
  await proxy?.close();
  await chain?.stop();
});

const decimal = (raw: bigint) => formatUnits(raw, 18).replace(/\.0$/, "");

describe("a generated ERC-20 workload, read ahead in batches", () => {
  it("ends with every holder's balance equal to the token's balanceOf, and places each flush at the last block before its hour", async () => {
    const csv = `/tmp/${uniqueId("workload")}.csv`;
    const config = buildConfig({
      kind: "evm",
      indexerId: uniqueId("workload"),
      flushMs: 3_600_000,
      stateStoreUrl: REDIS_URL,
      network: { chainId: 31337, finality: 0 },
      range: { fromBlock: workload.fromBlock, toBlock: workload.toBlock },
      adapterConfig: { adapterId: "erc20-holdings", params: { tokenAddress: workload.contract } },
      sinkConfig: { sinks: [{ sinkType: "csv", path: csv }] },
    });
    cleanup.push(
      () => clearIndexer(config),
      () => import("node:fs/promises").then((fs) => fs.rm(csv, { force: true })),
    );
    // This test is about output, not failures: the production retry count rides out a connection a busy machine drops.
    const { result } = await runInProcess(config, testEnv({ RPC_URL: proxy.url, INDEXER_RPC_BATCH_SIZE: "40", INDEXER_RPC_READ_AHEAD: "3" }), {
      retries: { rpcRetryBaseMs: 250, rpcMaxAttempts: 5 },
    });
    expect(result).toMatchObject({ finished: true, nextBlock: workload.toBlock + 1 });

    // Final balances: the indexer's committed positions against balanceOf at the last block, for every holder.
    const store = await StateStore.connect(
      { url: REDIS_URL, keyPrefix: "pwtest", indexerId: config.indexerId, configHash: configHash(config) },
      createLogger({ service: "test", level: "silent" }),
    );
    const positions = new Map((await store.loadPositions()).map((p) => [p.user, p.balance]));
    await store.close();
    const token = new Contract(workload.contract, ["function balanceOf(address) view returns (uint256)"], chain.provider);
    const balanceOf = async (user: string, block: number) => decimal((await token.getFunction("balanceOf").staticCall(user, { blockTag: block })) as bigint);
    const finals = await Promise.all(
      workload.holders.map(async (h) => ({ holder: h, indexed: positions.get(h) ?? "0", balanceOf: await balanceOf(h, workload.toBlock) })),
    );
    expect(finals).toHaveLength(300);
    expect(finals.filter((f) => f.indexed !== f.balanceOf)).toEqual([]);

    const rows = parseCsv(await readFile(csv, "utf8"));
    // Windows hold what the token reported at their start (every 25th row, so the check stays quick). Hardhat answers
    // no state at blocks it mined in bulk (hardhat_mine), so a window starting in an empty block is checked at the
    // last block with a transfer before it: empty blocks change no balance.
    const logs = await chain.provider.getLogs({ address: workload.contract, fromBlock: workload.fromBlock, toBlock: workload.toBlock });
    const logBlocks = [...new Set(logs.map((l) => l.blockNumber))];
    const stateAt = (block: number) => logBlocks.filter((b) => b <= block).at(-1) ?? block;
    const sampled = rows.filter((_, i) => i % 25 === 0);
    const windows = await Promise.all(
      sampled.map(async (r) => ({ id: r.id, amount: r.amount, balanceOf: await balanceOf(r.user as string, stateAt(Number(r.startBlock))) })),
    );
    expect(windows.length).toBeGreaterThan(100);
    expect(windows.filter((w) => w.amount !== w.balanceOf)).toEqual([]);

    // Each hourly flush ends at the last block stamped before the hour: that block is earlier, the next one is not.
    const flushes = [...new Map(rows.filter((r) => r.trigger === "flush").map((r) => [r.endTs, Number(r.endBlock)])).entries()];
    expect(flushes.length).toBeGreaterThanOrEqual(24);
    const stamp = async (block: number) =>
      Number((await chain.rpc<{ timestamp: string }>("eth_getBlockByNumber", [`0x${block.toString(16)}`, false])).timestamp) * 1000;
    for (const [endTs, endBlock] of flushes) {
      expect(await stamp(endBlock)).toBeLessThan(Number(endTs));
      expect(await stamp(endBlock + 1)).toBeGreaterThanOrEqual(Number(endTs));
    }

    // One header read per block with logs and per range end; a boundary between them costs one step of two reads.
    const blocksWithLogs = logBlocks.length;
    const ranges = Math.ceil((workload.toBlock - workload.fromBlock + 1) / 500);
    expect(proxy.counts.get("eth_getBlockByNumber") ?? 0).toBeLessThanOrEqual(blocksWithLogs + 2 * ranges + 2 * flushes.length);
  }, 240_000);
});
