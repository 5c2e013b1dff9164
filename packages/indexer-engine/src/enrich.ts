// The enrichment stage: validates events, prices windows (TWAP) and actions, dedupes, builds output rows.
import { hash } from "node:crypto";
import { addFixed, eqFixed, type Fixed, formatFixed, formatScaled, fx, halveFixed, mulFixed, parseFixed } from "@pointwise/fixed";
import type { Logger } from "@pointwise/logger";
import { OUTPUT_DECIMALS } from "./decimal";
import { type ActionEvent, type EventContext, invalidEventReason } from "./events";
import type { Pricer } from "./pricing/pricer";
import type { OutputRow, RunnerInfo } from "./rows";
import { Lru } from "./util/lru";
import type { ClosedWindow, Point } from "./windows";

const HOUR_MS = 3_600_000n;

/**
 * The prices one batch needs, asked for once per asset and point. Points are told apart by object: a flush closes
 * every window at one shared point, each window starts at the point that closed the previous one, and the legs of
 * an action share their context; so no key strings are built per row. Two equal points that are different objects
 * are only asked twice, and the pricer caches point prices by value.
 */
class PriceTable {
  readonly requests: { asset: string; point: Point }[] = [];
  readonly #index = new Map<string, Map<object, number>>();
  #values: (Fixed | undefined)[] = [];
  /** Whether any request priced: a batch of assets no rule prices skips every lookup. */
  #any = false;
  readonly #texts = new Map<Fixed, string>();

  /** Records that `asset` is needed at `point`, identified by the object `ref`. */
  want(asset: string, ref: object, point: Point): void {
    let refs = this.#index.get(asset);
    if (refs === undefined) {
      refs = new Map();
      this.#index.set(asset, refs);
    }
    if (!refs.has(ref)) {
      refs.set(ref, this.requests.length);
      this.requests.push({ asset, point });
    }
  }

  /** Takes the pricer's exact answers, in request order. */
  fill(values: (Fixed | undefined)[]): void {
    this.#any = values.some((value) => value !== undefined);
    this.#values = values;
  }

  /** A price as output text, formatted once per distinct value object (steady prices repeat on every row). */
  text(price: Fixed): string {
    let text = this.#texts.get(price);
    if (text === undefined) {
      text = formatFixed(price, OUTPUT_DECIMALS);
      this.#texts.set(price, text);
    }
    return text;
  }

  /** The price of `asset` at the point `ref` stood for, if it priced. */
  get(asset: string, ref: object): Fixed | undefined {
    if (!this.#any) return undefined;
    const index = this.#index.get(asset)?.get(ref);
    return index === undefined ? undefined : this.#values[index];
  }
}

/** Time-weighted average price over a window: the price moves linearly between the two boundary samples. */
export function twapOf(start: Fixed | undefined, end: Fixed | undefined): Fixed | undefined {
  if (start === undefined || end === undefined) return undefined;
  // A steady price (pegged feeds, quiet markets) needs no arithmetic.
  return start === end || eqFixed(start, end) ? start : halveFixed(addFixed(start, end));
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
  /** Price lookups at a time (the pricer's default of 16 when absent). */
  concurrency?: number;
}

/** A window's row id: stable for the same user, asset, activity and start. */
export function windowId(indexerId: string, w: ClosedWindow): string {
  // The book's position key is user|asset|activity already, so the id's text is built from it when the window has it.
  return hash("sha256", `${indexerId}|${w.key ?? `${w.user}|${w.asset}|${w.activity}`}|${w.start.ts}`, "hex").slice(0, 32);
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

  /**
   * True when an event is valid; otherwise logs the reason (code `validation-failed`) and returns false. The spec
   * filters invalid items out in enrichment, so one bad item never stops the run.
   */
  accept(event: unknown, ctx: EventContext): boolean {
    const reason = invalidEventReason(event);
    if (reason === undefined) return true;
    this.dropped++;
    this.#log.warn({ code: "validation-failed", reason, event, height: ctx.height, txHash: ctx.txHash, logIndex: ctx.logIndex }, "dropped invalid item");
    return false;
  }

  /**
   * Turns a batch's items into rows, in order. Prices are looked up once per distinct (asset, point) first:
   * every window closed by one flush shares its end point, so a batch needs far fewer lookups than rows.
   */
  async rows(items: readonly BatchItem[]): Promise<OutputRow[]> {
    const { pricer } = this.options;
    const prices = new PriceTable();
    for (const item of items) {
      if (item.kind === "window") {
        if (pricer.isActive(item.window.start)) {
          prices.want(item.window.asset, item.window.start, item.window.start);
          prices.want(item.window.asset, item.window.end, item.window.end);
        }
      } else if (item.action.priceable && item.action.amount !== undefined) {
        prices.want(item.action.amount.asset, item.ctx, { ts: item.ctx.ts, block: item.ctx.height });
      }
    }
    prices.fill(await pricer.priceManyExact(prices.requests, this.options.concurrency));
    const kept = this.#chooseLegs(items, prices);
    const rows: OutputRow[] = [];
    items.forEach((item, index) => {
      if (item.kind === "window") rows.push(this.#windowRow(item.window, prices));
      else if (kept.get(item.action.key) === index) rows.push(this.#actionRow(item.action, item.ctx, prices));
    });
    return rows;
  }

  /**
   * Dedupe, decided before any action row is built: per action id, the first leg that prices wins, else the
   * first leg; ids written in earlier batches (the bounded LRU) are dropped. Returns the item index kept per id.
   */
  #chooseLegs(items: readonly BatchItem[], prices: PriceTable): Map<string, number> {
    const keep = new Map<string, number>();
    const priced = (item: BatchItem | undefined) =>
      item?.kind === "action" && item.action.priceable && item.action.amount !== undefined && prices.get(item.action.amount.asset, item.ctx) !== undefined;
    items.forEach((item, index) => {
      if (item.kind !== "action" || this.#seen.has(item.action.key)) return;
      const chosen = keep.get(item.action.key);
      if (chosen === undefined || (!priced(items[chosen]) && priced(item))) keep.set(item.action.key, index);
    });
    for (const id of keep.keys()) this.#seen.set(id, true);
    return keep;
  }

  // Rows are one object literal with every column. Spreading the runner info into the literal ahead of the other
  // 22 columns sent every row through V8's slow generic object-building path, tens of microseconds per row.

  #windowRow(w: ClosedWindow, prices: PriceTable): OutputRow {
    const { runner } = this.options;
    const durationMs = w.end.ts - w.start.ts;
    const twap = twapOf(prices.get(w.asset, w.start), prices.get(w.asset, w.end));
    // A window's balance is the WindowBook's own plainDecimal text (positions restored from the store are parsed
    // and checked when the book is built), so it is read without checking it again; the book hands its exact value.
    const value = twap === undefined ? undefined : mulFixed(w.exact ?? fx(w.balance), twap);
    return {
      rowType: "window",
      id: windowId(runner.indexerId, w),
      indexerId: runner.indexerId,
      chainId: runner.chainId,
      adapterId: runner.adapterId,
      adapterVersion: runner.adapterVersion,
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
      priceUsd: twap === undefined ? null : prices.text(twap),
      valueUsd: value === undefined ? null : formatFixed(value, OUTPUT_DECIMALS),
      usdHours: value === undefined ? null : formatScaled(value, BigInt(durationMs), HOUR_MS, OUTPUT_DECIMALS),
      meta: null,
    };
  }

  #actionRow(a: ActionEvent, ctx: EventContext, prices: PriceTable): OutputRow {
    const { runner } = this.options;
    // Only a priceable action's amount is priced.
    const priced = a.priceable ? a.amount : undefined;
    const price = priced === undefined ? undefined : prices.get(priced.asset, ctx);
    return {
      rowType: "action",
      id: a.key,
      indexerId: runner.indexerId,
      chainId: runner.chainId,
      adapterId: runner.adapterId,
      adapterVersion: runner.adapterVersion,
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
      priceUsd: price === undefined ? null : prices.text(price),
      // A price is only found for an amount (priced).
      valueUsd: price === undefined ? null : formatFixed(mulFixed(parseFixed(priced!.amount), price), OUTPUT_DECIMALS),
      usdHours: null,
      meta: a.meta === undefined ? null : JSON.stringify(a.meta),
    };
  }
}
