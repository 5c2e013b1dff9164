// The reorg check end to end: IndexerEngine against a stand-in JSON-RPC chain whose blocks can be replaced, a real Redis
// state store and a csv sink. A checkpoint written before hashes were kept is taken once and hashed from then on.
import { randomBytes } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "@pointwise/logger";
import { configHash } from "./config/hash";
import type { IndexerConfig } from "./config/schema";
import { unwrapConfig, validateConfig } from "./config/validate";
import { IndexerEngine } from "./engine";
import { AdapterRegistry } from "./registry";
import { type Checkpoint, StateStore } from "./state/store";
import { runToEnd, STAND_IN, startStandInChain, swapTest } from "./testing/chain";
import { REDIS_URL } from "./testing/fixtures";
import type { TestServer } from "./testing/http";

const silent = createLogger({ service: "test", level: "silent" });
/** Block `b`'s time: 12 seconds apart. */
const blockSeconds = (b: number) => 1_700_000_000 + b * 12;
/** Blocks from `forkedFrom` on are replaced by other blocks (another chain from there), as after a reorg. */
let forkedFrom = Number.POSITIVE_INFINITY;
/** Block `b`'s hash on the chain as it stands: each fork point makes another chain. */
const blockHash = (b: number) => `0x${(b >= forkedFrom ? forkedFrom + 1 : 0).toString(16).padStart(56, "0")}${(b + 1).toString(16).padStart(8, "0")}`;

let chain: TestServer;
const stores: StateStore[] = [];
const files: string[] = [];

beforeAll(async () => {
  // Twelve blocks, one swap log in each.
  chain = await startStandInChain({ head: 12, blockSeconds, blockHash, hasLog: () => true });
});
afterAll(async () => {
  for (const store of stores) {
    await store.clearIndexer();
    await store.close();
  }
  for (const file of files) await rm(file, { force: true });
  await chain.close();
});

/** The config of `indexerId`, with a csv file of its own, indexing blocks 1 to `toBlock` (which leaves its config hash alone). */
function configFor(indexerId: string, toBlock: number): IndexerConfig {
  const csv = join(tmpdir(), `${indexerId}.csv`);
  files.push(csv);
  return unwrapConfig(
    validateConfig(
      {
        kind: "evm",
        indexerId,
        flushMs: 3_600_000,
        stateStoreUrl: REDIS_URL,
        network: { chainId: STAND_IN.chainId, finality: 0 },
        range: { fromBlock: 1, toBlock },
        sinkConfig: { sinks: [{ sinkType: "csv", path: csv }] },
        adapterConfig: { adapterId: "swap-test", params: { contract: STAND_IN.contract } },
      },
      new AdapterRegistry([swapTest]),
    ),
  );
}

const csvOf = (config: IndexerConfig) => readFile((config.sinkConfig.sinks[0] as { path: string }).path, "utf8");

/** Starts the engine on `config`, one block per range, and runs it until the range is done or it fails. */
async function runOnce(config: IndexerConfig, keyPrefix: string): Promise<{ finished: boolean; error?: unknown }> {
  const engine = await IndexerEngine.start({
    config,
    registry: new AdapterRegistry([swapTest]),
    logger: silent,
    rpcUrl: chain.url,
    keyPrefix,
    tuning: { initialBlockRange: 1, maxBlockRange: 1, readAhead: 2, rpcRetryBaseMs: 1 },
  });
  return runToEnd(engine);
}

/** An index of its own key prefix and indexerId, its first config indexing to `toBlock`, and its state store opened beside it. */
async function newIndex(label: string, toBlock: number) {
  const prefix = `pwt-${randomBytes(4).toString("hex")}`;
  const indexerId = `${label}-${randomBytes(4).toString("hex")}`;
  const first = configFor(indexerId, toBlock);
  const store = await StateStore.connect({ url: REDIS_URL, keyPrefix: prefix, indexerId, configHash: configHash(first) }, silent);
  stores.push(store);
  return { prefix, indexerId, store, first };
}

afterEach(() => {
  forkedFrom = Number.POSITIVE_INFINITY;
});

describe("the reorg check of the engine", () => {
  it("takes a checkpoint written without a hash once, then keeps its last block's hash and refuses a chain replaced under it", async () => {
    const { prefix, indexerId, store, first } = await newIndex("reorg-legacy", 5);
    // What an earlier version committed after indexing blocks 1 to 3: no hash for block 3. The chain since holds
    // another block 3, which that checkpoint cannot tell: it is taken as it is.
    forkedFrom = 3;
    await store.commit({
      positions: [],
      metrics: new Map(),
      checkpoint: { fromBlock: 1, nextBlock: 4, prev: { block: 3, ts: blockSeconds(3) * 1000 }, sinks: {}, rowsWritten: 3 },
    });
    expect(await runOnce(first, prefix)).toEqual({ finished: true });
    const hashed = (await store.loadCheckpoint()) as Checkpoint;
    expect(hashed.prev).toEqual({ block: 5, ts: blockSeconds(5) * 1000, hash: blockHash(5) });
    expect(hashed.nextBlock).toBe(6);

    // From here on the hash is checked: a chain replaced from block 5 on stops the next range, writing nothing.
    const written = await csvOf(first);
    const stored = blockHash(5);
    forkedFrom = 5;
    const extended = configFor(indexerId, 8);
    const second = await runOnce(extended, prefix);
    expect(second.finished).toBe(false);
    expect(second.error).toMatchObject({ code: "chain-reorg-detected", details: { block: 5, storedHash: stored, nodeHash: blockHash(5) } });
    expect(blockHash(5)).not.toBe(stored);
    expect(await store.loadCheckpoint()).toEqual(hashed);
    expect(await csvOf(extended)).toBe(written);
  });

  it("resumes over an unchanged chain, checking each range against the one before", async () => {
    const { prefix, indexerId, store, first } = await newIndex("reorg-resume", 4);
    expect(await runOnce(first, prefix)).toEqual({ finished: true });
    expect((await store.loadCheckpoint())?.prev.hash).toBe(blockHash(4));
    expect(await runOnce(configFor(indexerId, 9), prefix)).toEqual({ finished: true });
    const done = (await store.loadCheckpoint()) as Checkpoint;
    expect(done).toMatchObject({ nextBlock: 10, rowsWritten: 9, prev: { block: 9, hash: blockHash(9) } });
  });
});
