// Time-weighted balance windows: the pure state table that opens and closes windows per position.
import { addFixed, FIXED_ZERO, type Fixed, parseFixed, plainDecimal } from "@pointwise/fixed";

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
  cause?: { txHash: string; logIndex: number } | undefined;
  /** `balance` as an exact decimal, as the WindowBook held it (so enrichment need not parse the text again). */
  exact?: Fixed;
  /** positionKey(user, asset, activity), as the WindowBook keyed the position. */
  key?: string;
}

/** The event that closed a window (ClosedWindow's `cause`). */
type Cause = ClosedWindow["cause"];

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
  // Each position's balance is kept as an exact bigint beside its string form, so a delta costs one parse and one
  // addition; the string is what windows, the state store and callers see.
  readonly #positions = new Map<string, Slot>();
  // The slots with an open window, and those changed since takeDirty, by key.
  readonly #open = new Map<string, Slot>();
  readonly #dirty = new Map<string, Slot>();
  // The open slots in key order, kept until a key joins or leaves the open set: every flush walks them in that
  // order, and between two flushes the set rarely changes while each sort cost a few thousand string comparisons.
  #ordered: Slot[] | undefined;

  constructor(initial: readonly Position[] = []) {
    for (const p of initial) {
      const key = positionKey(p.user, p.asset, p.activity);
      const slot = { key, position: { ...p }, balance: parseFixed(p.balance) };
      this.#positions.set(key, slot);
      if (p.openSince !== undefined) this.#open.set(key, slot);
      this.#ordered = undefined;
    }
  }

  /** The position for a key, if known. */
  get(user: string, asset: string, activity: string): Position | undefined {
    return this.#positions.get(positionKey(user, asset, activity))?.position;
  }

  /** Number of positions with an open window. */
  get openCount(): number {
    return this.#open.size;
  }

  #slot(user: string, asset: string, activity: string): Slot {
    const key = positionKey(user, asset, activity);
    let slot = this.#positions.get(key);
    if (slot === undefined) {
      slot = { key, position: { user, asset, activity, balance: "0", active: true }, balance: FIXED_ZERO };
      this.#positions.set(key, slot);
    }
    return slot;
  }

  /** Emits the open window of a position closed at `at`, when it has length. */
  #close(slot: Slot, at: Point, trigger: WindowTrigger, cause: ClosedWindow["cause"], out: ClosedWindow[]): void {
    const { position } = slot;
    const open = position.openSince;
    if (open !== undefined && at.ts > open.ts) {
      const { user, asset, activity, balance, active } = position;
      // Every window has the same properties (cause may be undefined), so V8 keeps one shape for all of them.
      out.push({ user, asset, activity, balance, active, start: open, end: at, trigger, cause, exact: slot.balance, key: slot.key });
    }
  }

  /** Opens a window at `at` while the balance is positive, otherwise leaves none open. */
  #reopen(slot: Slot, at: Point): void {
    this.#dirty.set(slot.key, slot);
    if (slot.balance.units > 0n) {
      slot.position.openSince = at;
      // Stryker disable next-line ConditionalExpression: setting an open slot again keeps its place and only drops the cached order, which is rebuilt the same
      if (!this.#open.has(slot.key)) {
        this.#open.set(slot.key, slot);
        this.#ordered = undefined;
      }
    } else {
      delete slot.position.openSince;
      if (this.#open.delete(slot.key)) this.#ordered = undefined;
    }
  }

  #cut(slot: Slot, at: Point, trigger: WindowTrigger, cause: ClosedWindow["cause"], out: ClosedWindow[]): void {
    this.#close(slot, at, trigger, cause, out);
    this.#reopen(slot, at);
  }

  /**
   * Applies a balance change at `at`; returns the window it closed, if any, appended to `out`. A zero amount changes
   * nothing. (Every method that closes windows takes `out`, so a caller can collect a whole batch in one array.)
   */
  applyDelta(user: string, asset: string, activity: string, amount: string, at: Point, cause?: Cause, out: ClosedWindow[] = []): ClosedWindow[] {
    const delta = parseFixed(amount);
    if (delta.units === 0n) return out;
    const slot = this.#slot(user, asset, activity);
    this.#close(slot, at, "balanceDelta", cause, out);
    slot.balance = addFixed(slot.balance, delta);
    slot.position.balance = plainDecimal(slot.balance.units, slot.balance.scale);
    this.#reopen(slot, at);
    return out;
  }

  /** Forces a new window for a position without a balance change. */
  positionUpdate(user: string, asset: string, activity: string, at: Point, cause?: Cause, out: ClosedWindow[] = []): ClosedWindow[] {
    const slot = this.#slot(user, asset, activity);
    this.#cut(slot, at, "positionUpdate", cause, out);
    return out;
  }

  /** Marks a position active or inactive; the open window closes so each window has one status. */
  setStatus(user: string, asset: string, activity: string, active: boolean, at: Point, cause?: Cause, out: ClosedWindow[] = []): ClosedWindow[] {
    const slot = this.#slot(user, asset, activity);
    if (slot.position.active === active) return out;
    this.#cut(slot, at, "statusChange", cause, out);
    slot.position.active = active;
    return out;
  }

  /** Closes and reopens every open window of `asset` so its price is sampled at `at`. */
  reprice(asset: string, at: Point, cause?: Cause, out: ClosedWindow[] = []): ClosedWindow[] {
    for (const slot of this.#openInKeyOrder()) if (slot.position.asset === asset) this.#cut(slot, at, "reprice", cause, out);
    return out;
  }

  /** Closes every open window at a flush boundary and opens the next one with the same balance, in key order. */
  flush(at: Point): ClosedWindow[] {
    const out: ClosedWindow[] = [];
    for (const slot of this.#openInKeyOrder()) this.#cut(slot, at, "flush", undefined, out);
    return out;
  }

  /** The slots with an open window, sorted by key so every run emits windows in one order. */
  #openInKeyOrder(): Slot[] {
    this.#ordered ??= [...this.#open.keys()].sort().map((key) => this.#open.get(key) as Slot);
    return this.#ordered;
  }

  /** Positions changed since the last call, for the state store to persist. */
  takeDirty(): Position[] {
    const out = [...this.#dirty.values()].map((slot) => ({ ...slot.position }));
    this.#dirty.clear();
    return out;
  }
}

/** A position with its balance as an exact decimal. */
interface Slot {
  key: string;
  position: Position;
  balance: Fixed;
}
