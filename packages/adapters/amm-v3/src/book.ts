// The pure state of a pool's positions: owners, liquidity, tick ranges, and which are in range at the pool's tick.
import { type IndexerEvent, NULL_ADDRESS } from "@pointwise/indexer-engine";

/** The activity of position windows (liquidity held, as amm-v2's LP balances). */
export const LP_ACTIVITY = "hold";

/** One tracked position NFT of the pool. */
export interface TrackedPosition {
  tokenId: bigint;
  asset: string;
  tickLower: number;
  tickUpper: number;
  owner: string;
  liquidity: bigint;
  active: boolean;
}

/** True when a position earns fees at `tick`: tickLower <= tick < tickUpper, as the pool itself decides. */
export function inRange(tickLower: number, tickUpper: number, tick: number | undefined): boolean {
  // Stryker disable next-line ConditionalExpression: an undefined tick compares false with tickLower as well; the check is for the type
  return tick !== undefined && tickLower <= tick && tick < tickUpper;
}

/**
 * The positions of one pool and the pool's current tick. Every change returns the events that move the windows:
 * liquidity as balance deltas of the position's asset for its owner, and a status change whenever the tick
 * crosses a range boundary. Boundaries are kept sorted, so a swap looks only at the positions it crossed.
 */
export class PositionBook {
  readonly #positions = new Map<bigint, TrackedPosition>();
  readonly #byBoundary = new Map<number, Set<bigint>>();
  // Stryker disable next-line ArrayDeclaration: a non-number element compares false with every tick, so it sorts and scans as a boundary above all ticks that holds no position
  #boundaries: number[] = [];
  #tick: number | undefined;

  /** The pool's current tick, when known. */
  get tick(): number | undefined {
    return this.#tick;
  }

  /** A tracked position by token id. */
  get(tokenId: bigint): TrackedPosition | undefined {
    return this.#positions.get(tokenId);
  }

  /** Number of tracked positions. */
  get size(): number {
    return this.#positions.size;
  }

  /** Starts tracking a position (owner and liquidity as they are now), with the status the current tick gives it. */
  add(p: Omit<TrackedPosition, "active">): IndexerEvent[] {
    const position = { ...p, active: inRange(p.tickLower, p.tickUpper, this.#tick) };
    this.#positions.set(p.tokenId, position);
    for (const t of [p.tickLower, p.tickUpper]) {
      let set = this.#byBoundary.get(t);
      if (set === undefined) {
        set = new Set();
        this.#byBoundary.set(t, set);
        this.#boundaries.splice(lowerBound(this.#boundaries, t), 0, t);
      }
      set.add(p.tokenId);
    }
    return this.#hold(position, position.owner, position.liquidity);
  }

  /** Stops tracking a burned position. */
  remove(tokenId: bigint): void {
    const p = this.#positions.get(tokenId);
    if (p === undefined) return;
    this.#positions.delete(tokenId);
    for (const t of [p.tickLower, p.tickUpper]) {
      // Every boundary of a tracked position has its set.
      const set = this.#byBoundary.get(t) as Set<bigint>;
      set.delete(tokenId);
      // Stryker disable next-line BlockStatement,ConditionalExpression: an emptied boundary kept in the list only costs a scan step; its set holds no position to change
      if (set.size === 0) {
        this.#byBoundary.delete(t);
        this.#boundaries.splice(lowerBound(this.#boundaries, t), 1);
      }
    }
  }

  /** Liquidity added to (positive) or removed from (negative) a position. */
  changeLiquidity(tokenId: bigint, delta: bigint): IndexerEvent[] {
    const p = this.#positions.get(tokenId);
    if (p === undefined || delta === 0n) return [];
    p.liquidity += delta;
    // Stryker disable next-line EqualityOperator: a zero delta returned above
    return delta > 0n ? this.#hold(p, p.owner, delta) : [balance(p, p.owner, delta)];
  }

  /** A position moved to a new owner: its whole liquidity leaves the old owner's window and enters the new one's. */
  transfer(tokenId: bigint, to: string): IndexerEvent[] {
    const p = this.#positions.get(tokenId);
    if (p === undefined) return [];
    const from = p.owner;
    p.owner = to;
    const out: IndexerEvent[] = p.liquidity > 0n ? [balance(p, from, -p.liquidity)] : [];
    return [...out, ...this.#hold(p, to, p.liquidity)];
  }

  /** The pool's tick moved: positions with a boundary between the old and the new tick change status. */
  moveTick(tick: number): IndexerEvent[] {
    const old = this.#tick;
    this.#tick = tick;
    // The shortcuts below (an unmoved tick, a scan of the crossed boundaries only) spare work on every swap: checking
    // every position instead changes no status that did not change, so their mutants change no output.
    // Stryker disable next-line ConditionalExpression: see above
    if (old === tick) return [];
    const affected = new Set<bigint>();
    // Stryker disable next-line ConditionalExpression: see above
    if (old === undefined) for (const id of this.#positions.keys()) affected.add(id);
    else {
      // Status flips when a boundary b satisfies min < b <= max (tickLower <= tick is in range, tick < tickUpper is).
      // Stryker disable next-line EqualityOperator: old = tick returned above
      const [low, high] = old < tick ? [old, tick] : [tick, old];
      // Stryker disable next-line ArithmeticOperator: scanning from below low + 1 only adds positions whose status did not change
      const first = lowerBound(this.#boundaries, low + 1);
      const end = lowerBound(this.#boundaries, high + 1);
      // Stryker disable next-line EqualityOperator: scanning one boundary past high only adds positions whose status did not change (past the last boundary it throws)
      for (let i = first; i < end; i++) for (const id of this.#byBoundary.get(this.#boundaries[i] as number) as Set<bigint>) affected.add(id);
    }
    const out: IndexerEvent[] = [];
    // Token ids in a set are distinct, so the order needs no "equal" answer.
    // Stryker disable next-line EqualityOperator: see above
    for (const id of [...affected].sort((a, b) => (a < b ? -1 : 1))) {
      const p = this.#positions.get(id) as TrackedPosition;
      const active = inRange(p.tickLower, p.tickUpper, tick);
      if (active === p.active) continue;
      p.active = active;
      if (p.owner !== NULL_ADDRESS) out.push(status(p, p.owner));
    }
    return out;
  }

  /** The status of the holder's window first (so the window opens with it), then the liquidity it gains. */
  #hold(p: TrackedPosition, user: string, amount: bigint): IndexerEvent[] {
    if (user === NULL_ADDRESS) return [];
    return amount > 0n ? [status(p, user), balance(p, user, amount)] : [status(p, user)];
  }
}

function status(p: TrackedPosition, user: string): IndexerEvent {
  return { type: "positionStatusChange", user, asset: p.asset, activity: LP_ACTIVITY, active: p.active };
}

function balance(p: TrackedPosition, user: string, amount: bigint): IndexerEvent {
  return { type: "balanceDelta", user, asset: p.asset, activity: LP_ACTIVITY, amount: amount.toString() };
}

function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
