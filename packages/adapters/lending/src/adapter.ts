// The lending adapter: Aave V3 supply and variable-debt balances from scaled balances times the reserve's index.
import { BaseError } from "@pointwise/errors";
import {
  type Adapter,
  type AdapterRuntime,
  type ChainLog,
  decodeAddress,
  type IndexerEvent,
  type LogFilter,
  type Point,
  unitsFromRaw,
  wordAt,
} from "@pointwise/indexer-engine";
import { BALANCE_TRANSFER_TOPIC, BURN_TOPIC, MINT_TOPIC, RESERVE_DATA_UPDATED_TOPIC } from "./abi";
import type { LendingParams } from "./params";
import { normalizedDebt, normalizedIncome, rayDiv, rayMul } from "./ray";
import { loadReserves, type Reserve, readReserveData, reserveStateOf } from "./reserves";
import { balanceMetric, StateView, scaledMetric } from "./state";

/** The `protocol` label of every supply and debt token the adapter tracks. */
export const PROTOCOL_LABEL = "aave-v3";
/** Activity of supply positions (aToken balances). */
export const SUPPLY_ACTIVITY = "lend";
/** Activity of variable-debt positions (variable debt token balances). */
export const BORROW_ACTIVITY = "borrow";

/** A token whose balances the adapter follows: a reserve's aToken (supply) or variable debt token (borrow). */
interface Tracked {
  reserve: Reserve;
  side: "supply" | "borrow";
  activity: string;
}

const seconds = (ms: number) => BigInt(Math.floor(ms / 1000));

/** Creates the lending adapter for one Aave V3 market; reserves and tokens are read from the Pool at init. */
export function createLendingAdapter(params: LendingParams, runtime: AdapterRuntime): Adapter {
  const pool = params.poolAddress;
  const metrics = runtime.metrics;
  if (metrics === undefined) throw new BaseError("adapter-init-failed", "lending: the engine gives this adapter no metrics to keep its state in");
  const tokens = new Map<string, Tracked>();
  const byAsset = new Map<string, Reserve>();
  // Users with a non-zero scaled balance per token: the positions a flush boundary or an index jump revalues.
  const holders = new Map<string, Set<string>>();
  let filters: LogFilter[] | undefined;

  /** Sets a position's scaled balance (when given) and moves its balance to scaled x index, emitting the difference. */
  const revalue = (view: StateView, token: string, user: string, index: bigint, scaled?: bigint) => {
    const tracked = tokens.get(token) as Tracked;
    if (scaled !== undefined) {
      if (scaled < 0n)
        throw new BaseError("adapter-failed", `lending: scaled balance of ${user} in ${token} would go below zero`, { details: { token, user } });
      view.set(token, scaledMetric(user), scaled);
      const set = holders.get(token) as Set<string>;
      // Stryker disable next-line ConditionalExpression: equivalent, a holder left at zero revalues to zero and emits nothing; dropping it only saves work
      if (scaled === 0n) set.delete(user);
      else set.add(user);
    }
    const balance = rayMul(scaled ?? view.get(token, scaledMetric(user)), index);
    const before = view.get(token, balanceMetric(user));
    if (balance === before) return;
    view.set(token, balanceMetric(user), balance);
    view.events.push({
      type: "balanceDelta",
      user,
      asset: token,
      amount: unitsFromRaw(balance - before, tracked.reserve.decimals),
      activity: tracked.activity,
    });
  };

  const revalueAll = (view: StateView, token: string, index: bigint) => {
    // Only tracked tokens are revalued, and each has its set from init.
    for (const user of [...(holders.get(token) as Set<string>)].sort()) revalue(view, token, user, index);
  };

  /** A reserve's interest state: from the metrics, or read from the Pool at this block when the index started mid-history. */
  const ensureReserve = async (view: StateView, asset: string, block: number) => {
    if (view.reserve(asset) === undefined) view.setReserve(asset, reserveStateOf(await readReserveData(runtime, pool, asset, block)));
  };

  const onReserveData = (log: ChainLog, ts: number): IndexerEvent[] => {
    // Stryker disable next-line StringLiteral: equivalent, a missing topic fails decodeAddress alike with any short string
    const reserve = byAsset.get(decodeAddress(log.topics[1] ?? ""));
    if (reserve === undefined) return [];
    const view = new StateView(metrics);
    const before = view.reserve(reserve.asset);
    const now = seconds(ts);
    const next = {
      liquidityRate: wordAt(log.data, 0),
      variableBorrowRate: wordAt(log.data, 2),
      liquidityIndex: wordAt(log.data, 3),
      variableBorrowIndex: wordAt(log.data, 4),
      updatedAt: now,
    };
    view.setReserve(reserve.asset, next);
    // An index that is not the previous one grown by time jumped inside the block (a flash-loan premium or a
    // bridge fee added to the liquidity index): every holder's balance moved with it, here.
    if (before !== undefined) {
      if (tokens.has(reserve.aToken) && normalizedIncome(before, now) !== next.liquidityIndex) revalueAll(view, reserve.aToken, next.liquidityIndex);
      if (tokens.has(reserve.debtToken) && normalizedDebt(before, now) !== next.variableBorrowIndex)
        revalueAll(view, reserve.debtToken, next.variableBorrowIndex);
    }
    return view.events;
  };

  const onScaledEvent = async (log: ChainLog, tracked: Tracked): Promise<IndexerEvent[]> => {
    const token = log.address;
    const view = new StateView(metrics);
    await ensureReserve(view, tracked.reserve.asset, log.blockNumber);
    const scaledOf = (user: string) => view.get(token, scaledMetric(user));
    const topic = log.topics[0];
    if (topic === BALANCE_TRANSFER_TOPIC) {
      if (tracked.side !== "supply") return [];
      // Stryker disable next-line StringLiteral: equivalent, a missing topic fails decodeAddress alike with any short string
      const from = decodeAddress(log.topics[1] ?? "");
      // Stryker disable next-line StringLiteral: equivalent, a missing topic fails decodeAddress alike with any short string
      const to = decodeAddress(log.topics[2] ?? "");
      const [value, index] = [wordAt(log.data, 0), wordAt(log.data, 1)];
      revalue(view, token, from, index, scaledOf(from) - value);
      revalue(view, token, to, index, scaledOf(to) + value);
      return view.events;
    }
    const [value, balanceIncrease, index] = [wordAt(log.data, 0), wordAt(log.data, 1), wordAt(log.data, 2)];
    if (topic === MINT_TOPIC) {
      // Mint(caller, onBehalfOf, value, balanceIncrease, index): value = amount + interest since the user's last
      // action. A burn smaller than that interest is also logged as a Mint, with value = interest - amount.
      // Stryker disable next-line StringLiteral: equivalent, a missing topic fails decodeAddress alike with any short string
      const user = decodeAddress(log.topics[2] ?? "");
      const amount = value - balanceIncrease;
      // Stryker disable next-line EqualityOperator: equivalent, at zero both branches give 0
      const delta = amount >= 0n ? rayDiv(amount, index) : -rayDiv(-amount, index);
      revalue(view, token, user, index, scaledOf(user) + delta);
    } else {
      // Burn(from, target, value, balanceIncrease, index): value = amount - interest since the user's last action.
      // Stryker disable next-line StringLiteral: equivalent, a missing topic fails decodeAddress alike with any short string
      const user = decodeAddress(log.topics[1] ?? "");
      revalue(view, token, user, index, scaledOf(user) - rayDiv(value + balanceIncrease, index));
    }
    return view.events;
  };

  return {
    get filters(): LogFilter[] {
      if (filters === undefined) throw new BaseError("adapter-failed", "lending: filters are known after init");
      return filters;
    },
    contracts: [pool],
    async init() {
      const reserves = await loadReserves(runtime, pool, params.assets);
      const out: LogFilter[] = [{ address: pool, topics: [RESERVE_DATA_UPDATED_TOPIC], withTransaction: false }];
      for (const reserve of reserves) {
        byAsset.set(reserve.asset, reserve);
        const decimals = String(reserve.decimals);
        await runtime.labels.set(reserve.asset, { decimals });
        /** Follows one of the reserve's tokens: its state, its labels (the side among them) and its log filter. */
        const track = async (token: string, side: Tracked["side"], activity: string, topics: string[]) => {
          tokens.set(token, { reserve, side, activity });
          await runtime.labels.set(token, { protocol: PROTOCOL_LABEL, pool, reserve: reserve.asset, decimals, side });
          out.push({ address: token, topics, withTransaction: false });
        };
        if (params.trackSupply === true) await track(reserve.aToken, "supply", SUPPLY_ACTIVITY, [MINT_TOPIC, BURN_TOPIC, BALANCE_TRANSFER_TOPIC]);
        if (params.trackBorrow === true) await track(reserve.debtToken, "borrow", BORROW_ACTIVITY, [MINT_TOPIC, BURN_TOPIC]);
      }
      for (const token of tokens.keys()) holders.set(token, new Set());
      // Rebuild who holds what from the committed state, so a restart revalues the same positions.
      for (const [key, value] of metrics) {
        const [asset, metric] = key.split("|") as [string, string];
        if (
          value !== "0" &&
          // Stryker disable next-line StringLiteral: equivalent, any other metric read as a holder names no one with a scaled balance or a balance, so revaluing it emits nothing
          metric.startsWith("scaled:")
        )
          holders.get(asset)?.add(metric.slice("scaled:".length));
      }
      filters = out;
    },
    handle(log, ctx) {
      if (log.address === pool) return log.topics[0] === RESERVE_DATA_UPDATED_TOPIC ? onReserveData(log, ctx.ts) : [];
      const tracked = tokens.get(log.address);
      const topic = log.topics[0];
      if (tracked === undefined || (topic !== MINT_TOPIC && topic !== BURN_TOPIC && topic !== BALANCE_TRANSFER_TOPIC)) return [];
      return onScaledEvent(log, tracked);
    },
    onFlush(_at: Point, blockTs: number) {
      // Interest accrued since the last valuation becomes a balance change at the boundary: the windows opened
      // here carry what balanceOf answers at the boundary's block.
      const view = new StateView(metrics);
      const now = seconds(blockTs);
      for (const [token, tracked] of tokens) {
        // Stryker disable next-line ConditionalExpression,OptionalChaining: equivalent, revaluing no holders emits nothing (this skips the work); every tracked token has its set
        if ((holders.get(token)?.size ?? 0) === 0) continue;
        const reserve = view.reserve(tracked.reserve.asset);
        if (reserve === undefined) continue;
        revalueAll(view, token, tracked.side === "supply" ? normalizedIncome(reserve, now) : normalizedDebt(reserve, now));
      }
      return view.events;
    },
  };
}
