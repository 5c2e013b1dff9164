import { Dec } from "./decimal";

/** A moment on the chain: Unix ms and the block whose state represents it. */
export interface Point {
  ts: number;
  block: number;
}

/** The balance of one user in one asset for one activity, and the window open on it (while the balance is positive). */
export interface Position {
  user: string;
  asset: string;
  activity: string;
  balance: string;
  active: boolean;
  openSince?: Point;
}

/** What closed a window. */
export type WindowTrigger = "balanceDelta" | "flush" | "positionUpdate" | "statusChange" | "reprice";

/** A closed time-weighted balance window [start, end] with one fixed balance. */
export interface ClosedWindow {
  user: string;
  asset: string;
  activity: string;
  balance: string;
  active: boolean;
  start: Point;
  end: Point;
  trigger: WindowTrigger;
  /** The event that closed the window, when one did (not for flushes). */
  cause?: { txHash: string; logIndex: number };
}

/** The identity of a position. */
export function positionKey(user: string, asset: string, activity: string): string {
  return `${user}|${asset}|${activity}`;
}

/** The flush boundaries in (afterTs, uptoTs]: multiples of `flushMs` since the Unix epoch. */
export function boundariesBetween(afterTs: number, uptoTs: number, flushMs: number): number[] {
  const out: number[] = [];
  for (let b = Math.floor(afterTs / flushMs) * flushMs + flushMs; b <= uptoTs; b += flushMs) out.push(b);
  return out;
}

/**
 * The pure core of time-weighted balances, per the spec's state table: every balance change closes the open
 * window and opens one with the new balance; each flush boundary closes the open window and opens the next with
 * the same balance; windows of different balances are never merged. Zero-length windows are not emitted and a
 * window is open only while the balance is positive.
 */
export class WindowBook {
  readonly #positions = new Map<string, Position>();
  readonly #open = new Set<string>();
  readonly #dirty = new Set<string>();

  constructor(initial: readonly Position[] = []) {
    for (const p of initial) {
      const key = positionKey(p.user, p.asset, p.activity);
      this.#positions.set(key, { ...p });
      if (p.openSince !== undefined) this.#open.add(key);
    }
  }

  /** The position for a key, if known. */
  get(user: string, asset: string, activity: string): Position | undefined {
    return this.#positions.get(positionKey(user, asset, activity));
  }

  /** Number of positions with an open window. */
  get openCount(): number {
    return this.#open.size;
  }

  #position(user: string, asset: string, activity: string): [string, Position] {
    const key = positionKey(user, asset, activity);
    let position = this.#positions.get(key);
    if (position === undefined) {
      position = { user, asset, activity, balance: "0", active: true };
      this.#positions.set(key, position);
    }
    return [key, position];
  }

  /** Closes the open window of a position at `at` (emitting it when it has length) and reopens it per the current balance. */
  #cut(key: string, position: Position, at: Point, trigger: WindowTrigger, cause: ClosedWindow["cause"], out: ClosedWindow[]): void {
    const open = position.openSince;
    if (open !== undefined && at.ts > open.ts) {
      const { user, asset, activity, balance, active } = position;
      out.push({ user, asset, activity, balance, active, start: open, end: at, trigger, ...(cause === undefined ? {} : { cause }) });
    }
    this.#reopen(key, position, at);
  }

  #reopen(key: string, position: Position, at: Point): void {
    this.#dirty.add(key);
    if (new Dec(position.balance).gt(0)) {
      position.openSince = at;
      this.#open.add(key);
    } else {
      delete position.openSince;
      this.#open.delete(key);
    }
  }

  /** Applies a balance change at `at`; returns the window it closed, if any. A zero amount changes nothing. */
  applyDelta(user: string, asset: string, activity: string, amount: string, at: Point, cause?: ClosedWindow["cause"]): ClosedWindow[] {
    const delta = new Dec(amount);
    if (delta.isZero()) return [];
    const [key, position] = this.#position(user, asset, activity);
    const out: ClosedWindow[] = [];
    this.#cut(key, position, at, "balanceDelta", cause, out);
    position.balance = new Dec(position.balance).plus(delta).toFixed();
    this.#reopen(key, position, at);
    return out;
  }

  /** Forces a new window for a position without a balance change. */
  positionUpdate(user: string, asset: string, activity: string, at: Point, cause?: ClosedWindow["cause"]): ClosedWindow[] {
    const [key, position] = this.#position(user, asset, activity);
    const out: ClosedWindow[] = [];
    this.#cut(key, position, at, "positionUpdate", cause, out);
    return out;
  }

  /** Marks a position active or inactive; the open window closes so each window has one status. */
  setStatus(user: string, asset: string, activity: string, active: boolean, at: Point, cause?: ClosedWindow["cause"]): ClosedWindow[] {
    const [key, position] = this.#position(user, asset, activity);
    if (position.active === active) return [];
    const out: ClosedWindow[] = [];
    this.#cut(key, position, at, "statusChange", cause, out);
    position.active = active;
    return out;
  }

  /** Closes and reopens every open window of `asset` so its price is sampled at `at`. */
  reprice(asset: string, at: Point, cause?: ClosedWindow["cause"]): ClosedWindow[] {
    const out: ClosedWindow[] = [];
    for (const key of [...this.#open].sort()) {
      const position = this.#positions.get(key);
      if (position !== undefined && position.asset === asset) this.#cut(key, position, at, "reprice", cause, out);
    }
    return out;
  }

  /** Closes every open window at a flush boundary and opens the next one with the same balance, in key order. */
  flush(at: Point): ClosedWindow[] {
    const out: ClosedWindow[] = [];
    for (const key of [...this.#open].sort()) {
      const position = this.#positions.get(key);
      if (position !== undefined) this.#cut(key, position, at, "flush", undefined, out);
    }
    return out;
  }

  /** Positions changed since the last call, for the state store to persist. */
  takeDirty(): Position[] {
    const out = [...this.#dirty].flatMap((key) => {
      const p = this.#positions.get(key);
      return p === undefined ? [] : [{ ...p }];
    });
    this.#dirty.clear();
    return out;
  }
}
