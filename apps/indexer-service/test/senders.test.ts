// The transaction senders an adapter wants, read from a real node both ways: with the whole blocks that hold them (the
// default, as a local node's blocks hold a transaction or two) and looked up one transaction at a time
// (INDEXER_RPC_WHOLE_BLOCK_TXS=0). Both give every swap the sender the node reports, and the same rows.
import { readFile, rm } from "node:fs/promises";
import { type LocalChain, startChain } from "./support/chain";
import { parseCsv } from "./support/csv";
import { buildConfig, clearIndexer, REDIS_URL, runInProcess, testEnv, uniqueId } from "./support/harness";
import { type RpcProxy, startRpcProxy } from "./support/servers";
import { generateAmmWorkload, type Workload } from "./support/workload";

let chain: LocalChain;
let workload: Workload;
const cleanup: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  chain = await startChain();
  workload = await generateAmmWorkload(chain, { transactions: 160, blocks: 600, seed: 11 });
}, 180_000);

afterAll(async () => {
  for (const c of cleanup) await c();
  await chain?.stop();
});

/** Indexes the workload through a recording proxy with the given environment: its rows and the calls the node received. */
async function index(env: Record<string, string>): Promise<{ rows: Record<string, string>[]; proxy: RpcProxy }> {
  const proxy = await startRpcProxy({ target: chain.url });
  cleanup.push(() => proxy.close());
  const csv = `/tmp/${uniqueId("senders")}.csv`;
  const config = buildConfig({
    kind: "evm",
    indexerId: uniqueId("senders"),
    flushMs: 3_600_000,
    stateStoreUrl: REDIS_URL,
    network: { chainId: 31337, finality: 0 },
    range: { fromBlock: workload.fromBlock, toBlock: workload.toBlock },
    adapterConfig: { adapterId: "amm-v2", params: { poolAddress: workload.contract, trackSwaps: true, trackLP: true } },
    sinkConfig: { sinks: [{ sinkType: "csv", path: csv }] },
  });
  cleanup.push(
    () => clearIndexer(config),
    () => rm(csv, { force: true }),
  );
  const { result } = await runInProcess(config, testEnv({ RPC_URL: proxy.url, ...env }));
  expect(result).toMatchObject({ finished: true, nextBlock: workload.toBlock + 1 });
  return { rows: parseCsv(await readFile(csv, "utf8")), proxy };
}

/** The rows without the columns that name the run (indexerId, and the window ids hashed from it). */
const content = (rows: Record<string, string>[]) => rows.map(({ indexerId: _indexerId, id: _id, ...rest }) => rest);

const fullBlockReads = (proxy: RpcProxy) =>
  proxy.calls.filter((c) => c.method === "eth_getBlockByNumber" && c.params[1] === true).map((c) => Number(c.params[0]));

describe("transaction senders", () => {
  it("reads them with whole blocks while blocks are small, or by transaction, and both give each swap the sender the node reports", async () => {
    const whole = await index({});
    const lookedUp = await index({ INDEXER_RPC_WHOLE_BLOCK_TXS: "0" });

    const swaps = whole.rows.filter((r) => r.rowType === "action" && r.activity === "swap");
    expect(swaps.length).toBeGreaterThan(50);
    const swapTxs = [...new Set(swaps.map((r) => r.txHash as string))];
    const fromNode = new Map(
      await Promise.all(swapTxs.map(async (hash) => [hash, ((await chain.provider.getTransaction(hash))?.from ?? "").toLowerCase()] as const)),
    );
    expect(swaps.filter((r) => r.user !== fromNode.get(r.txHash as string))).toEqual([]);
    expect(content(lookedUp.rows)).toEqual(content(whole.rows));

    // Whole blocks: one read of each block with a swap, no lookups.
    const swapBlocks = [...new Set(swaps.map((r) => Number(r.height)))].sort((a, b) => a - b);
    expect([...new Set(fullBlockReads(whole.proxy))].sort((a, b) => a - b)).toEqual(swapBlocks);
    expect(whole.proxy.counts.get("eth_getTransactionByHash") ?? 0).toBe(0);
    // By transaction: a lookup per swap transaction, no whole block.
    expect(fullBlockReads(lookedUp.proxy)).toEqual([]);
    expect(lookedUp.proxy.calls.filter((c) => c.method === "eth_getTransactionByHash").map((c) => c.params[0])).toEqual(expect.arrayContaining(swapTxs));
    expect(lookedUp.proxy.counts.get("eth_getTransactionByHash")).toBe(swapTxs.length);
    // Each whole block replaced a header read and the lookups of its transactions.
    expect(whole.proxy.calls.length).toBeLessThan(lookedUp.proxy.calls.length - swapTxs.length / 2);
  }, 240_000);
});
