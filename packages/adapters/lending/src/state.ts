// The lending adapter's state in the engine's metrics: scaled balances, last written balances, reserve indices.
import type { IndexerEvent } from "@pointwise/indexer-engine";
import type { ReserveState } from "./ray";

/** Metric of a user's scaled balance of a scaled token (aToken or variable debt token). */
export const scaledMetric = (user: string) => `scaled:${user}`;
/** Metric of the balance (token's smallest units) the adapter last gave the engine for a user's position. */
export const balanceMetric = (user: string) => `balance:${user}`;
/** Metrics of a reserve's interest state, on the underlying asset. */
export const RESERVE_METRICS = {
  liquidityIndex: "aave:liquidityIndex",
  liquidityRate: "aave:liquidityRate",
  variableBorrowIndex: "aave:variableBorrowIndex",
  variableBorrowRate: "aave:variableBorrowRate",
  updatedAt: "aave:updatedAt",
} as const satisfies Record<keyof ReserveState, string>;

/**
 * A view of the engine's live metrics for one log or flush: reads see the committed values plus this call's own
 * changes, and each change becomes a measureDelta the engine applies and commits with the checkpoint.
 */
export class StateView {
  readonly #pending = new Map<string, bigint>();
  readonly events: IndexerEvent[] = [];

  constructor(private readonly metrics: ReadonlyMap<string, string>) {}

  /** The value of `metric` of `asset` (0 when never set). */
  get(asset: string, metric: string): bigint {
    const key = `${asset}|${metric}`;
    const pending = this.#pending.get(key);
    if (pending !== undefined) return pending;
    const stored = this.metrics.get(key);
    return stored === undefined ? 0n : BigInt(stored);
  }

  /** Sets `metric` of `asset`, emitting the measureDelta that moves the engine's value there. */
  set(asset: string, metric: string, value: bigint): void {
    const diff = value - this.get(asset, metric);
    if (diff === 0n) return;
    this.#pending.set(`${asset}|${metric}`, value);
    this.events.push({ type: "measureDelta", asset, metric, amount: diff.toString() });
  }

  /** The reserve's interest state, or undefined before the adapter has seen one. */
  reserve(asset: string): ReserveState | undefined {
    const updatedAt = this.get(asset, RESERVE_METRICS.updatedAt);
    if (updatedAt === 0n) return undefined;
    return {
      liquidityIndex: this.get(asset, RESERVE_METRICS.liquidityIndex),
      liquidityRate: this.get(asset, RESERVE_METRICS.liquidityRate),
      variableBorrowIndex: this.get(asset, RESERVE_METRICS.variableBorrowIndex),
      variableBorrowRate: this.get(asset, RESERVE_METRICS.variableBorrowRate),
      updatedAt,
    };
  }

  /** Records the reserve's interest state. */
  setReserve(asset: string, state: ReserveState): void {
    for (const [field, metric] of Object.entries(RESERVE_METRICS)) this.set(asset, metric, state[field as keyof ReserveState]);
  }
}
