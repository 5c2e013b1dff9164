// The recorded V3 pool history for the benchmark: real-ABI logs, at least 100,000 of them, and the amm-v3 adapter run
// over all of them ends with each position's owner, liquidity and status as the recorded contract calls answer.
import { randomBytes } from "node:crypto";
import { ammV3Adapter, inRange, positionAsset } from "@pointwise/adapter-amm-v3";
import { StateStore } from "@pointwise/indexer-engine";
import { createLogger } from "@pointwise/logger";
import UniswapV3Pool from "@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json";
import NonfungiblePositionManager from "@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json";
import { AbiCoder, type EventFragment, Interface } from "ethers";
import { REDIS_URL } from "./support/harness";
import {
  RecordedV3Chain,
  V3_FIRST_BLOCK,
  V3_MANAGER,
  V3_POOL,
  V3_POSITIONS,
  v3BlockLogs,
  v3LiquidityAt,
  v3OwnerAt,
  v3Position,
  v3RangeFor,
  v3TickAt,
} from "./support/v3-recorded";

const NULL = "0x0000000000000000000000000000000000000000";
const poolAbi = new Interface(UniswapV3Pool.abi);
const managerAbi = new Interface(NonfungiblePositionManager.abi);
const eventsOf = (abi: Interface) => {
  const out = new Map<string, EventFragment>();
  abi.forEachEvent((e) => out.set(e.topicHash, e));
  return out;
};
const poolEvents = eventsOf(poolAbi);
const managerEvents = eventsOf(managerAbi);
const coder = AbiCoder.defaultAbiCoder();
// The Swap event's non-indexed inputs, as the pool's ABI lists them.
const swapData = (poolEvents.get(poolAbi.getEvent("Swap")?.topicHash as string) as EventFragment).inputs.filter((i) => !i.indexed);
const { toBlock, logs: total } = v3RangeFor(100_000);

describe("recorded V3 pool history", () => {
  it("is at least 100,000 logs of the five kinds, decoding with the real contracts' ABIs to the recorded state", () => {
    expect(total).toBeGreaterThanOrEqual(100_000);
    const counts = new Map<string, number>();
    const bad: unknown[] = [];
    let tick = 0;
    for (let block = V3_FIRST_BLOCK; block <= toBlock; block++) {
      const logs = v3BlockLogs(block);
      if (logs.some((l, i) => l.log.logIndex !== i || l.log.blockNumber !== block)) bad.push({ block, what: "log order" });
      // Every block's swaps are decoded for the tick; the full ABI parse runs on the mint blocks and every 7th block.
      const full = block < V3_FIRST_BLOCK + V3_POSITIONS / 5 || block % 7 === 0;
      for (const { log } of logs) {
        const abi = log.address === V3_POOL ? poolAbi : managerAbi;
        const event = (log.address === V3_POOL ? poolEvents : managerEvents).get(log.topics[0] as string);
        if (event === undefined) {
          bad.push({ block, log: log.logIndex, what: "unknown topic" });
          continue;
        }
        counts.set(event.name, (counts.get(event.name) ?? 0) + 1);
        if (event.name === "Swap") {
          const [a0, a1, , , newTick] = coder.decode(swapData, log.data) as unknown as [bigint, bigint, bigint, bigint, bigint];
          // One side paid in, the other out; the tick rises only when token1 is paid in and falls only when token0 is.
          if (a0 === 0n || a1 === 0n || a0 > 0n === a1 > 0n || (Number(newTick) > tick && a1 < 0n) || (Number(newTick) < tick && a0 < 0n))
            bad.push({ block, log: log.logIndex, a0, a1, newTick, tick });
          tick = Number(newTick);
        } else if (full) {
          const parsed = abi.parseLog(log);
          if (parsed?.name === "Transfer" && (parsed.args.to as string).toLowerCase() !== (v3OwnerAt(Number(parsed.args.tokenId), block) ?? NULL))
            bad.push({ block, log: log.logIndex, what: "owner" });
        }
      }
      if (tick !== v3TickAt(block)) bad.push({ block, tick, slot0: v3TickAt(block) });
    }
    expect(bad).toEqual([]);
    expect([...counts.keys()].sort()).toEqual(["DecreaseLiquidity", "IncreaseLiquidity", "Mint", "Swap", "Transfer"]);
    expect(Math.min(...counts.values())).toBeGreaterThan(5_000);
  }, 120_000);

  it("through the amm-v3 adapter leaves every position with the recorded owner, liquidity and in-range status", async () => {
    const chain = new RecordedV3Chain(toBlock);
    const logger = createLogger({ service: "test", level: "silent" });
    const store = await StateStore.connect(
      { url: REDIS_URL, keyPrefix: `pwt-${randomBytes(4).toString("hex")}`, indexerId: "v3-recorded", configHash: "c" },
      logger,
    );
    try {
      const params = ammV3Adapter.paramsSchema.parse({ poolAddress: V3_POOL, positionManagerAddress: V3_MANAGER, trackSwaps: true, trackLP: true });
      const adapter = await ammV3Adapter.create(params, { chainId: 1, chain, store: store.kv, labels: store.labels, adapterConfigHash: "b", logger });
      await adapter.init?.();
      const held = new Map<string, bigint>();
      const active = new Map<string, boolean>();
      let actions = 0;
      for (let from = V3_FIRST_BLOCK; from <= toBlock; from += 500) {
        const to = Math.min(toBlock, from + 499);
        for (const log of await chain.logs([], [], from, to)) {
          const tx = { from: (await chain.transactionFrom(log.transactionHash)) as string };
          for (const e of await adapter.handle(log, { ts: 0, height: log.blockNumber, txHash: log.transactionHash, logIndex: log.logIndex, transaction: tx })) {
            if (e.type === "action") actions++;
            else if (e.type === "balanceDelta") held.set(`${e.user}|${e.asset}`, (held.get(`${e.user}|${e.asset}`) ?? 0n) + BigInt(e.amount));
            else if (e.type === "positionStatusChange") active.set(`${e.user}|${e.asset}`, e.active);
          }
        }
      }
      expect(actions).toBeGreaterThan(2 * 30_000);
      const tick = v3TickAt(toBlock);
      const mismatches: unknown[] = [];
      for (let tokenId = 1; tokenId <= V3_POSITIONS; tokenId++) {
        const asset = positionAsset(V3_MANAGER, BigInt(tokenId));
        const owner = v3OwnerAt(tokenId, toBlock) as string;
        const { tickLower, tickUpper } = v3Position(tokenId);
        if (held.get(`${owner}|${asset}`) !== v3LiquidityAt(tokenId, toBlock) || active.get(`${owner}|${asset}`) !== inRange(tickLower, tickUpper, tick))
          mismatches.push({ tokenId, held: held.get(`${owner}|${asset}`), active: active.get(`${owner}|${asset}`) });
      }
      expect(mismatches).toEqual([]);
      // Nothing is left with earlier owners: the only non-zero balances are the current owners'.
      expect([...held.values()].filter((v) => v !== 0n)).toHaveLength(V3_POSITIONS);
    } finally {
      await store.clearIndexer();
      await store.close();
    }
  }, 180_000);
});
