import { hash } from "node:crypto";
import type { Logger } from "@pointwise/logger";
import { Dec, formatDecimal } from "./decimal";
import { type ActionEvent, type EventContext, invalidEventReason } from "./events";
import type { Pricer } from "./pricing/pricer";
import type { OutputRow, RunnerInfo } from "./rows";
import { Lru } from "./util/lru";
import { mapLimit } from "./util/retry";
import type { ClosedWindow, Point } from "./windows";

const HOUR_MS = new Dec(3_600_000);

function priceKey(asset: string, point: Point): string {
  return `${asset}|${point.ts}|${point.block}`;
}

/** Time-weighted average price over a window: the price moves linearly between the two boundary samples. */
export function twapOf(start: Dec | undefined, end: Dec | undefined): Dec | undefined {
  if (start === undefined || end === undefined) return undefined;
  // A steady price (pegged feeds, quiet markets) needs no arithmetic.
  return start.eq(end) ? start : start.plus(end).div(2);
}

/** Something a batch produced, in order: a closed window or an action with its context. */
export type BatchItem = { kind: "window"; window: ClosedWindow } | { kind: "action"; action: ActionEvent; ctx: EventContext };

/** Settings of enrichment. */
export interface EnricherOptions {
  runner: RunnerInfo;
  pricer: Pricer;
  logger: Logger;
  /** How many recent action ids are remembered for dedupe across batches (memory stays bounded). */
  dedupeCapacity?: number;
  concurrency?: number;
}

/** A window's row id: stable for the same user, asset, activity and start. */
export function windowId(indexerId: string, w: ClosedWindow): string {
  return hash("sha256", `${indexerId}|${w.user}|${w.asset}|${w.activity}|${w.start.ts}`, "hex").slice(0, 32);
}

/**
 * The enrichment stage: checks emitted events (invalid ones are dropped with a logged reason), adds runner info
 * and base fields, prices windows (TWAP) and priceable actions, and dedupes actions that share an id by keeping
 * the first leg that prices (or the first leg when none does).
 */
export class Enricher {
  readonly #seen: Lru<string, true>;
  readonly #log: Logger;
  /** Items dropped as invalid since start. */
  dropped = 0;

  constructor(private readonly options: EnricherOptions) {
    this.#seen = new Lru(options.dedupeCapacity ?? 100_000);
    this.#log = options.logger;
  }

  /** True when an event is structurally valid; otherwise logs the reason and returns false. */
  accept(event: unknown, ctx: EventContext): boolean {
    const reason = invalidEventReason(event);
    if (reason === undefined) return true;
    this.dropped++;
    this.#log.warn({ reason, event, height: ctx.height, txHash: ctx.txHash, logIndex: ctx.logIndex }, "dropped invalid item");
    return false;
  }

  /**
   * Turns a batch's items into rows, in order. Prices are looked up once per distinct (asset, point) first:
   * every window closed by one flush shares its end point, so a batch needs far fewer lookups than rows.
   */
  async rows(items: readonly BatchItem[]): Promise<OutputRow[]> {
    const { pricer } = this.options;
    const wanted = new Map<string, { asset: string; point: Point }>();
    const want = (asset: string, point: Point) => wanted.set(priceKey(asset, point), { asset, point });
    for (const item of items) {
      if (item.kind === "window") {
        if (pricer.isActive(item.window.start)) {
          want(item.window.asset, item.window.start);
          want(item.window.asset, item.window.end);
        }
      } else if (item.action.priceable && item.action.amount !== undefined) {
        want(item.action.amount.asset, { ts: item.ctx.ts, block: item.ctx.height });
      }
    }
    const requests = [...wanted.entries()];
    const values = await mapLimit(requests, this.options.concurrency ?? 16, ([, r]) => pricer.priceAt(r.asset, r.point));
    const prices = new Map(requests.map(([key], i) => [key, values[i]]));
    const rows = items.map((item) => (item.kind === "window" ? this.#windowRow(item.window, prices) : this.#actionRow(item.action, item.ctx, prices)));
    return this.#dedupe(rows);
  }

  #dedupe(rows: OutputRow[]): OutputRow[] {
    const keep = new Map<string, number>();
    rows.forEach((row, index) => {
      if (row.rowType !== "action" || this.#seen.has(row.id)) return;
      const chosen = keep.get(row.id);
      // The first leg wins unless it did not price and this one did.
      if (chosen === undefined || (rows[chosen]?.priceUsd === null && row.priceUsd !== null)) keep.set(row.id, index);
    });
    for (const id of keep.keys()) this.#seen.set(id, true);
    return rows.filter((row, index) => row.rowType !== "action" || keep.get(row.id) === index);
  }

  #windowRow(w: ClosedWindow, prices: ReadonlyMap<string, Dec | undefined>): OutputRow {
    const { runner } = this.options;
    const durationMs = w.end.ts - w.start.ts;
    const twap = twapOf(prices.get(priceKey(w.asset, w.start)), prices.get(priceKey(w.asset, w.end)));
    const value = twap === undefined ? undefined : new Dec(w.balance).times(twap);
    return {
      ...runner,
      rowType: "window",
      id: windowId(runner.indexerId, w),
      user: w.user,
      asset: w.asset,
      activity: w.activity,
      amount: w.balance,
      priceable: null,
      active: w.active,
      startTs: w.start.ts,
      endTs: w.end.ts,
      durationMs,
      startBlock: w.start.block,
      endBlock: w.end.block,
      ts: w.end.ts,
      height: w.end.block,
      txHash: w.cause?.txHash ?? null,
      logIndex: w.cause?.logIndex ?? null,
      trigger: w.trigger,
      priceUsd: twap === undefined ? null : formatDecimal(twap),
      valueUsd: value === undefined ? null : formatDecimal(value),
      usdHours: value === undefined ? null : formatDecimal(value.times(durationMs).div(HOUR_MS)),
      meta: null,
    };
  }

  #actionRow(a: ActionEvent, ctx: EventContext, prices: ReadonlyMap<string, Dec | undefined>): OutputRow {
    const { runner } = this.options;
    const price = a.priceable && a.amount !== undefined ? prices.get(priceKey(a.amount.asset, { ts: ctx.ts, block: ctx.height })) : undefined;
    return {
      ...runner,
      rowType: "action",
      id: a.key,
      user: a.user,
      asset: a.amount?.asset ?? null,
      activity: a.activity,
      amount: a.amount?.amount ?? null,
      priceable: a.priceable,
      active: null,
      startTs: null,
      endTs: null,
      durationMs: null,
      startBlock: null,
      endBlock: null,
      ts: ctx.ts,
      height: ctx.height,
      txHash: ctx.txHash,
      logIndex: ctx.logIndex,
      trigger: null,
      priceUsd: price === undefined ? null : formatDecimal(price),
      valueUsd: price === undefined || a.amount === undefined ? null : formatDecimal(new Dec(a.amount.amount).times(price)),
      usdHours: null,
      meta: a.meta === undefined ? null : JSON.stringify(a.meta),
    };
  }
}
