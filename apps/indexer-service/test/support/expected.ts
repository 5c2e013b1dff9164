// Test support for the indexer: the rows it must write, computed from the scenario without engine code.
import { createHash } from "node:crypto";
import DecimalJs from "decimal.js";
import { formatUnits } from "ethers";
import type { ScenarioResult } from "./scenario";
import { gridFloor, testEthPriceAtGrid } from "./servers";

/** The test's own decimal type, configured apart from the engine's. */
export const D = DecimalJs.clone({ precision: 80 });
type D = DecimalJs;

const NULL = "0x0000000000000000000000000000000000000000";

/** A window row the indexer must write. */
export interface ExpectedWindow {
  id: string;
  user: string;
  asset: string;
  balance: string;
  startTs: number;
  endTs: number;
  startBlock: number;
  endBlock: number;
  trigger: "flush" | "balanceDelta";
  priceUsd: D | null;
  valueUsd: D | null;
  usdHours: D | null;
}

/** An action row the indexer must write. */
export interface ExpectedAction {
  id: string;
  user: string;
  asset: string;
  amount: string;
  height: number;
  ts: number;
  txHash: string;
  logIndex: number;
  priceUsd: D | null;
  valueUsd: D | null;
  meta: Record<string, string>;
}

/** Pricing inputs of the expectation: where pricing starts and from when the market has samples. */
export interface PricingModel {
  pricingFromBlock: number;
  marketAvailableFrom: number;
}

const trim = (text: string) => (text.endsWith(".0") ? text.slice(0, -2) : text);

/**
 * Computes every window and action row from the scenario's own ledger and the chain's block timestamps, without
 * any engine code: balances from LP moves, windows split at balance changes and hour multiples, prices from the
 * stand-in market series and the ledger's reserves.
 */
export function expectedRows(s: ScenarioResult, blockTs: ReadonlyMap<number, number>, indexerId: string, flushMs: number, pricing: PricingModel) {
  const tsOf = (block: number) => {
    const ts = blockTs.get(block);
    if (ts === undefined) throw new Error(`no timestamp for block ${block}`);
    return ts;
  };
  const lastBlockBefore = (ts: number) => {
    let best = -1;
    for (const [block, t] of blockTs) if (t < ts && block > best) best = block;
    return best;
  };
  const market = (ts: number): D | undefined => {
    const g = gridFloor(ts);
    return g >= pricing.marketAvailableFrom ? new D(testEthPriceAtGrid(g)) : undefined;
  };
  const price = (asset: string, block: number, ts: number): D | undefined => {
    if (block < pricing.pricingFromBlock) return undefined;
    if (asset === s.token0) return new D(1);
    if (asset === s.token1) return market(ts);
    const state = [...s.poolStates].reverse().find((p) => p.block <= block);
    const p1 = market(ts);
    if (state === undefined || state.supply === 0n || p1 === undefined) return undefined;
    const value = new D(state.reserve0.toString()).div(1e6).plus(new D(state.reserve1.toString()).div("1e18").times(p1));
    return value.div(new D(state.supply.toString()).div("1e18"));
  };

  // Balances after each block in which an LP move touched the holder.
  const timelines = new Map<string, { block: number; balance: bigint }[]>();
  const balances = new Map<string, bigint>();
  for (const move of s.lpMoves) {
    for (const [who, delta] of [
      [move.from, -move.value],
      [move.to, move.value],
    ] as const) {
      if (who === NULL) continue;
      const balance = (balances.get(who) ?? 0n) + delta;
      balances.set(who, balance);
      const line = timelines.get(who) ?? [];
      const last = line[line.length - 1];
      if (last !== undefined && last.block === move.block) last.balance = balance;
      else line.push({ block: move.block, balance });
      timelines.set(who, line);
    }
  }

  const endTs = tsOf(s.endBlock);
  const windows: ExpectedWindow[] = [];
  const emit = (
    user: string,
    balance: bigint,
    start: { ts: number; block: number },
    end: { ts: number; block: number },
    trigger: ExpectedWindow["trigger"],
  ) => {
    if (end.ts <= start.ts) return;
    const p0 = price(s.pair, start.block, start.ts);
    const p1 = p0 === undefined ? undefined : price(s.pair, end.block, end.ts);
    const twap = p0 === undefined || p1 === undefined ? null : p0.plus(p1).div(2);
    const units = new D(formatUnits(balance, 18));
    const value = twap === null ? null : units.times(twap);
    windows.push({
      id: createHash("sha256").update(`${indexerId}|${user}|${s.pair}|hold|${start.ts}`).digest("hex").slice(0, 32),
      user,
      asset: s.pair,
      balance: trim(formatUnits(balance, 18)),
      startTs: start.ts,
      endTs: end.ts,
      startBlock: start.block,
      endBlock: end.block,
      trigger,
      priceUsd: twap,
      valueUsd: value,
      usdHours: value === null ? null : value.times(end.ts - start.ts).div(3_600_000),
    });
  };
  for (const [user, line] of timelines) {
    line.forEach((change, i) => {
      if (change.balance <= 0n) return;
      const next = line[i + 1];
      const untilTs = next === undefined ? endTs : tsOf(next.block);
      let cursor = { ts: tsOf(change.block), block: change.block };
      for (let b = Math.floor(cursor.ts / flushMs) * flushMs + flushMs; b <= untilTs; b += flushMs) {
        const at = { ts: b, block: lastBlockBefore(b) };
        emit(user, change.balance, cursor, at, "flush");
        cursor = at;
      }
      if (next !== undefined) emit(user, change.balance, cursor, { ts: tsOf(next.block), block: next.block }, "balanceDelta");
    });
  }

  const actions: ExpectedAction[] = [];
  for (const swap of s.swaps) {
    const zeroToOne = swap.amount0In > 0n;
    const fromAmount = zeroToOne ? swap.amount0In : swap.amount1In;
    const toAmount = zeroToOne ? swap.amount1Out : swap.amount0Out;
    if (fromAmount === 0n || toAmount === 0n) continue;
    const ts = tsOf(swap.block);
    const [fromAsset, fromDec, toAsset, toDec] = zeroToOne ? [s.token0, 6, s.token1, 18] : [s.token1, 18, s.token0, 6];
    const meta = {
      fromTkAddress: fromAsset,
      toTkAddress: toAsset,
      fromTkAmount: trim(formatUnits(fromAmount, fromDec)),
      toTkAmount: trim(formatUnits(toAmount, toDec)),
    };
    const legs = [
      { asset: fromAsset, amount: meta.fromTkAmount },
      { asset: toAsset, amount: meta.toTkAmount },
    ].map((leg) => ({ ...leg, price: price(leg.asset, swap.block, ts) }));
    const kept = legs.find((leg) => leg.price !== undefined) ?? legs[0];
    if (kept === undefined) continue;
    actions.push({
      id: createHash("md5").update(`${swap.txHash}${swap.logIndex}`).digest("hex"),
      user: swap.sender,
      asset: kept.asset,
      amount: kept.amount,
      height: swap.block,
      ts,
      txHash: swap.txHash,
      logIndex: swap.logIndex,
      priceUsd: kept.price ?? null,
      valueUsd: kept.price === undefined ? null : new D(kept.amount).times(kept.price),
      meta,
    });
  }
  return { windows, actions, balances };
}
