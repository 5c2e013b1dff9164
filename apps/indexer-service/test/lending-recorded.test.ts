// The recorded Aave V3 market history for the benchmark: every log decodes with the published contracts' ABIs and
// re-encodes to the same bytes, the set the adapter reads holds at least 100,000 logs, and the lending adapter run over
// a part of it ends with each position at scaled balance x index, computed here from the generator's scaled balances.
import { lendingAdapter } from "@pointwise/adapter-lending";
import { type AdapterRuntime, applyEvent, type ChainLog, WindowBook } from "@pointwise/indexer-engine";
import { createLogger } from "@pointwise/logger";
import { Interface, type LogDescription, parseUnits } from "ethers";
import { aaveArtifact } from "./support/aave";
import {
  LENDING_FIRST_BLOCK,
  LENDING_POOL,
  LENDING_RESERVES,
  LENDING_USERS,
  LendingHistory,
  lendingBlockLogs,
  lendingRangeFor,
} from "./support/lending-recorded";
import { recordedBlockTs } from "./support/recorded";

const abi = (name: string) => new Interface(aaveArtifact(name).abi as never);
const [pool, aToken, debtToken, erc20] = [abi("Pool"), abi("AToken"), abi("VariableDebtToken"), abi("MintableERC20")];
const abiOf = new Map<string, Interface>([[LENDING_POOL, pool]]);
for (const r of LENDING_RESERVES) {
  abiOf.set(r.asset, erc20);
  abiOf.set(r.aToken, aToken);
  abiOf.set(r.debtToken, debtToken);
}
const { toBlock, logs: total } = lendingRangeFor(100_000);

// Aave's WadRayMath and MathUtils, written out: the balance a scaled-balance token's balanceOf answers at `now`.
const RAY = 10n ** 27n;
const YEAR = 31_536_000n;
const rayMul = (a: bigint, b: bigint) => (a * b + RAY / 2n) / RAY;
const linear = (rate: bigint, dt: bigint) => RAY + (rate * dt) / YEAR;
function compoundedFactor(rate: bigint, dt: bigint): bigint {
  if (dt === 0n) return RAY;
  const p2 = rayMul(rate, rate) / (YEAR * YEAR);
  const p3 = rayMul(p2, rate) / YEAR;
  return RAY + (rate * dt) / YEAR + (dt * (dt - 1n) * p2) / 2n + (dt * (dt - 1n) * (dt > 2n ? dt - 2n : 0n) * p3) / 6n;
}

describe("recorded Aave V3 market history", () => {
  it("decodes with the Pool, aToken, debt token and ERC-20 ABIs to the same bytes, with at least 100,000 logs the adapter reads", () => {
    expect(total).toBeGreaterThanOrEqual(100_000);
    const history = new LendingHistory();
    const read = lendingBlockLogs(new LendingHistory());
    const counts = new Map<string, number>();
    const bad: unknown[] = [];
    let readCount = 0;
    for (let block = LENDING_FIRST_BLOCK; block <= toBlock; block++) {
      const logs = history.logs(block);
      readCount += read(block).length;
      // Every block's logs are checked for order; the full decode and re-encode (slow in ethers)
      // runs on every 20th block, a fair sample of every kind.
      if (logs.some((l, i) => l.log.logIndex !== i || l.log.blockNumber !== block)) bad.push({ block, what: "log order" });
      if (block % 20 !== 0) continue;
      for (const { log } of logs) {
        const iface = abiOf.get(log.address);
        const parsed = iface?.parseLog(log) as LogDescription | null | undefined;
        if (iface === undefined || parsed == null) {
          bad.push({ block, log: log.logIndex, what: "no event in the contract's ABI" });
          continue;
        }
        const name = `${log.address === LENDING_POOL ? "Pool" : LENDING_RESERVES.some((r) => r.asset === log.address) ? "ERC20" : "token"}.${parsed.name}`;
        counts.set(name, (counts.get(name) ?? 0) + 1);
        const again = iface.encodeEventLog(parsed.fragment, [...parsed.args]);
        if (again.data !== log.data || again.topics.join() !== log.topics.join()) bad.push({ block, log: log.logIndex, what: "re-encodes differently" });
      }
    }
    expect(bad).toEqual([]);
    expect(readCount).toBe(total);
    expect([...counts.keys()].sort()).toEqual([
      "ERC20.Transfer",
      "Pool.Borrow",
      "Pool.Repay",
      "Pool.ReserveDataUpdated",
      "Pool.ReserveUsedAsCollateralEnabled",
      "Pool.Supply",
      "Pool.Withdraw",
      "token.BalanceTransfer",
      "token.Burn",
      "token.Mint",
      "token.Transfer",
    ]);
    expect(Math.min(...[...counts].filter(([n]) => n !== "Pool.ReserveUsedAsCollateralEnabled").map(([, c]) => c))).toBeGreaterThan(50);
    // Days of chain time.
    expect(recordedBlockTs(toBlock) - recordedBlockTs(LENDING_FIRST_BLOCK)).toBeGreaterThan(2 * 86_400_000);
  }, 240_000);

  it("through the lending adapter ends with every position at its scaled balance x the reserve's index at the last block", async () => {
    const history = new LendingHistory();
    const { toBlock: end } = lendingRangeFor(20_000);
    const metrics = new Map<string, string>();
    const runtime: AdapterRuntime = {
      chainId: 1,
      chain: { call: () => Promise.reject(new Error("no calls expected: the reserves are stored")) },
      store: { get: async () => JSON.stringify(LENDING_RESERVES), set: async () => {} },
      labels: { get: async () => ({}), set: async () => {} },
      adapterConfigHash: "t",
      logger: createLogger({ service: "test", level: "silent" }),
      metrics,
    };
    const adapter = await lendingAdapter.create(
      lendingAdapter.paramsSchema.parse({ poolAddress: LENDING_POOL, trackSupply: true, trackBorrow: true }),
      runtime,
    );
    await adapter.init?.();
    const book = new WindowBook();
    const held = new Map<string, bigint>();
    const decimals = new Map(LENDING_RESERVES.flatMap((r) => [[r.aToken, r.decimals] as const, [r.debtToken, r.decimals] as const]));
    const apply = (events: Awaited<ReturnType<typeof adapter.handle>>, ts: number, block: number) => {
      for (const e of events) {
        applyEvent(book, metrics, e, { ts, height: block, txHash: "0x", logIndex: 0 });
        if (e.type === "balanceDelta") {
          const key = `${e.user}|${e.asset}`;
          held.set(key, (held.get(key) ?? 0n) + parseUnits(e.amount, decimals.get(e.asset)));
        }
      }
    };
    const read = lendingBlockLogs(history);
    for (let block = LENDING_FIRST_BLOCK; block <= end; block++) {
      const ts = recordedBlockTs(block);
      for (const { log } of read(block))
        apply(await adapter.handle(log as ChainLog, { ts, height: block, txHash: log.transactionHash, logIndex: log.logIndex }), ts, block);
    }
    // The flush at a boundary an hour after the last block revalues every position to what balanceOf answers then.
    const at = recordedBlockTs(end) + 3_600_000;
    apply(adapter.onFlush?.({ ts: at, block: end + 300 }, at) ?? [], at, end + 300);
    const now = BigInt(at / 1000);
    const mismatches: unknown[] = [];
    let positions = 0;
    for (const r of history.state.reserves) {
      const income = rayMul(linear(r.liquidityRate, now - r.updatedAt), r.liquidityIndex);
      const debt = rayMul(compoundedFactor(r.variableBorrowRate, now - r.updatedAt), r.variableBorrowIndex);
      for (let u = 0; u < LENDING_USERS; u++) {
        const who = `0x${(0xa000 + u).toString(16).padStart(40, "0")}`;
        for (const [token, scaled, index] of [
          [r.aToken, r.supply[u] as bigint, income],
          [r.debtToken, r.debt[u] as bigint, debt],
        ] as const) {
          if (scaled !== 0n) positions++;
          const expected = rayMul(scaled, index);
          if ((held.get(`${who}|${token}`) ?? 0n) !== expected) mismatches.push({ u, token, held: held.get(`${who}|${token}`), expected });
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(positions).toBeGreaterThan(LENDING_USERS);
  }, 120_000);
});
