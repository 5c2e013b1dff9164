// The `ammv3position` feed: a concentrated-liquidity position's USD value per unit of liquidity, from its labels, the
// pool's sqrt price at the point's block and the two tokens' prices.
import { BaseError } from "@pointwise/errors";
import type { Fixed } from "@pointwise/fixed";
import { id as keccakId } from "ethers";
import type { FeedSelector } from "../config/schema";
import type { Dec } from "../decimal";
import { wordAt } from "../erc20";
import { Lru } from "../util/lru";
import { mapLimit } from "../util/retry";
import type { Point } from "../windows";
import { amountsPerLiquidityBetween, type Ratio, rangeSqrtRatios } from "./clmath";
import type { FeedReader } from "./feed-reader";
import { divide, fromDec, integer, plus, round, type Scaled, times, toDec, toFixed } from "./position-decimal";

/** The labels a position asset must carry for the `ammv3position` feed (the amm-v3 adapter writes them). */
export const POSITION_LABELS = ["pool", "token0", "token1", "decimals0", "decimals1", "tickLower", "tickUpper"] as const;

/** A position's immutable facts, read from its labels. */
export interface PositionFacts {
  pool: string;
  token0: string;
  token1: string;
  decimals0: number;
  decimals1: number;
  tickLower: number;
  tickUpper: number;
}

const INTEGER = /^-?\d+$/;

/** Reads a position's facts from its labels; a missing or malformed label fails with `position-labels-missing`. */
export function positionFacts(asset: string, labels: Readonly<Record<string, string>>): PositionFacts {
  const missing = POSITION_LABELS.filter((name) => labels[name] === undefined || labels[name] === "");
  const malformed = (["decimals0", "decimals1", "tickLower", "tickUpper"] as const).filter(
    (name) => !missing.includes(name) && !INTEGER.test(labels[name] as string),
  );
  if (missing.length > 0 || malformed.length > 0) {
    const what = [...missing.map((n) => `${n} is missing`), ...malformed.map((n) => `${n} is not an integer`)].join(", ");
    throw new BaseError(
      "position-labels-missing",
      `the ammv3position feed prices positions of the amm-v3 adapter; asset ${asset} has no usable position labels (${what})`,
      { details: { asset, missing, malformed } },
    );
  }
  return {
    pool: labels.pool as string,
    token0: labels.token0 as string,
    token1: labels.token1 as string,
    decimals0: Number(labels.decimals0),
    decimals1: Number(labels.decimals1),
    tickLower: Number(labels.tickLower),
    tickUpper: Number(labels.tickUpper),
  };
}

/**
 * A token amount per unit of liquidity in token units: num / (den x 10^decimals), each step rounded as the decimal
 * type rounds it (den x 10^decimals, then the quotient).
 */
function units(r: Ratio, decimals: number): Scaled {
  return divide(integer(r.num), round(r.den, decimals));
}

/** A position's facts with the sqrt prices of its range boundaries, which the protocol derives from the ticks. */
export interface PricedRange extends PositionFacts {
  sqrt: { lower: bigint; upper: bigint };
}

/** A position's facts with its boundaries' sqrt prices (TickMath), computed once per position. */
export function pricedRange(facts: PositionFacts): PricedRange {
  return { ...facts, sqrt: rangeSqrtRatios(facts.tickLower, facts.tickUpper) };
}

/**
 * USD value of one unit of liquidity of a position at the pool price `sqrtPriceX96`: the exact token amounts one
 * unit holds (protocol tick and sqrt-price math, so liquidity times them, rounded down, is what the position
 * manager pays out) in token units, times each token's USD price. A window's balance is the position's liquidity.
 */
export function valuePerLiquidity(range: PricedRange, sqrtPriceX96: bigint, price0: Dec, price1: Dec): Dec {
  return toDec(scaledValuePerLiquidity(range, sqrtPriceX96, price0, price1));
}

/** valuePerLiquidity's value as the coefficient and exponent it is computed in, before it becomes a decimal object. */
function scaledValuePerLiquidity(range: PricedRange, sqrtPriceX96: bigint, price0: Dec, price1: Dec): Scaled {
  const { amount0, amount1 } = amountsPerLiquidityBetween(sqrtPriceX96, range.sqrt);
  // In decimal.js terms: amount0 units x price0 + amount1 units x price1, at its precision and rounding; the bigint
  // steps give the same decimal (position-decimal.ts) in a fraction of the time.
  return plus(times(units(amount0, range.decimals0), fromDec(price0)), times(units(amount1, range.decimals1), fromDec(price1)));
}

/** A feed selector of kind `ammv3position`. */
export type PositionFeedSelector = Extract<FeedSelector, { kind: "ammv3position" }>;

const MAX_UINT160 = (1n << 160n) - 1n;
/** Calldata of the pool's `slot0()`. */
const SLOT0_CALL = keccakId("slot0()").slice(0, 10);

/** A value of a position with what it was computed from: exact, and as a decimal object once one is asked for. */
interface Valued {
  clamped: bigint;
  price0: Dec;
  price1: Dec;
  scaled: Scaled;
  exact: Fixed;
  value: Dec | undefined;
}

/** The decimal object of a value, made on first use (enrichment reads only the exact value). */
function decOf(valued: Valued): Dec {
  valued.value ??= toDec(valued.scaled);
  return valued.value;
}

/**
 * A position being priced: its range, and its last value below, inside and above the range. All the amounts depend
 * on is the sqrt price clamped to the range, so below or above it they stay fixed while the position is out of range.
 */
interface Priced {
  range: PricedRange;
  below?: Valued;
  inside?: Valued;
  above?: Valued;
}

const same = (a: Dec, b: Dec) => a === b || a.eq(b);

/** What `PositionFeed.priceNow` answers when something it needs has to be read first. */
export const NOT_READY: unique symbol = Symbol("not ready");

/**
 * The `ammv3position` feed for one pricer. A flush prices every open position at one point, so what does not depend
 * on the position is read once: the pool's `slot0` once per pool and block (a call at a fixed block always answers
 * the same), each position's facts and boundary sqrt prices once per position (its labels never change). A position
 * out of range holds fixed amounts, so its value there is computed again only when a token price changes; what is
 * returned is the decimal the same computation gave.
 */
export class PositionFeed {
  readonly #positions = new Lru<string, Priced>(100_000);
  readonly #sqrtPrices = new Lru<string, Promise<bigint>>(10_000);
  // The answers already read, per pool and block, so pricing a window needs no promise once they are in.
  readonly #sqrtKnown = new Map<string, Lru<number, bigint>>();
  #lastSqrtPrice: { pool: string; block: number; price: Promise<bigint> } | undefined;

  constructor(
    private readonly reader: FeedReader,
    private readonly labels: (asset: string) => Promise<Readonly<Record<string, string>>>,
  ) {}

  /** USD per unit of liquidity of position `asset` at `point`, or undefined while the pool has no price or a token is unpriced. */
  async price(feed: PositionFeedSelector, asset: string, point: Point): Promise<Dec | undefined> {
    const position = await this.#position(asset);
    const sqrtPriceX96 = await this.#sqrtPrice(position.range.pool, point.block);
    if (sqrtPriceX96 === 0n) return undefined;
    const [price0, price1] = await Promise.all([
      this.reader.priceWith(feed.token0, position.range.token0, point),
      this.reader.priceWith(feed.token1, position.range.token1, point),
    ]);
    const valued = this.#value(position, sqrtPriceX96, price0, price1);
    return valued === undefined ? undefined : decOf(valued);
  }

  // Stryker disable all: equivalent, prepare only fills caches keyed by what it read; what it leaves out, priceNow answers NOT_READY for and the general path reads and values the same
  /**
   * Reads what pricing these requests needs and is not held yet, each thing once: the facts of positions not seen
   * before, then the pool's sqrt price at each block not read before; at most `concurrency` reads at a time.
   */
  async prepare(requests: readonly { asset: string; point: Point }[], concurrency: number): Promise<void> {
    const unknown = new Set<string>();
    for (const { asset } of requests) if (!this.#positions.has(asset)) unknown.add(asset);
    await mapLimit([...unknown], concurrency, (asset) => this.#position(asset));
    const reads: { pool: string; block: number }[] = [];
    const seen = new Map<string, Set<number>>();
    for (const { asset, point } of requests) {
      // A position evicted again since (more positions than the cache holds) is left to the general path.
      const pool = this.#positions.get(asset)?.range.pool;
      if (pool === undefined || this.#knownSqrtPrice(pool, point.block) !== undefined) continue;
      let blocks = seen.get(pool);
      if (blocks === undefined) {
        blocks = new Set();
        seen.set(pool, blocks);
      }
      if (blocks.has(point.block)) continue;
      blocks.add(point.block);
      reads.push({ pool, block: point.block });
    }
    await mapLimit(reads, concurrency, ({ pool, block }) => this.#sqrtPrice(pool, block));
  }
  // Stryker restore all

  /**
   * The same value as `price`, exact, computed without waiting when the position's facts and the pool's sqrt price at
   * the block are held (see `prepare`) and both token prices are known now (`tokenPrice`); otherwise NOT_READY.
   */
  priceNow(
    feed: PositionFeedSelector,
    asset: string,
    point: Point,
    tokenPrice: (feed: FeedSelector) => Dec | undefined | typeof NOT_READY,
  ): Fixed | undefined | typeof NOT_READY {
    const position = this.#positions.get(asset);
    if (position === undefined) return NOT_READY;
    const sqrtPriceX96 = this.#knownSqrtPrice(position.range.pool, point.block);
    if (sqrtPriceX96 === undefined) return NOT_READY;
    if (sqrtPriceX96 === 0n) return undefined;
    const price0 = tokenPrice(feed.token0);
    const price1 = tokenPrice(feed.token1);
    if (price0 === NOT_READY || price1 === NOT_READY) return NOT_READY;
    // Stryker disable next-line OptionalChaining: equivalent, tokenPrice answers a price or NOT_READY, never undefined, so #value always values here
    return this.#value(position, sqrtPriceX96, price0, price1)?.exact;
  }

  /** The value at a pool price that is not 0 (a pool not initialised yet has no price, so its positions have no value). */
  #value(position: Priced, sqrtPriceX96: bigint, price0: Dec | undefined, price1: Dec | undefined): Valued | undefined {
    if (price0 === undefined || price1 === undefined) return undefined;
    const { range } = position;
    const { lower, upper } = range.sqrt;
    const clamped = sqrtPriceX96 < lower ? lower : sqrtPriceX96 > upper ? upper : sqrtPriceX96;
    // Stryker disable next-line all: equivalent, a slot only saves a computation: a hit needs the same clamped price and token prices in any slot
    const side = clamped === lower ? "below" : clamped === upper ? "above" : "inside";
    const last = position[side];
    if (last !== undefined && last.clamped === clamped && same(last.price0, price0) && same(last.price1, price1)) return last;
    const scaled = scaledValuePerLiquidity(range, clamped, price0, price1);
    const valued: Valued = { clamped, price0, price1, scaled, exact: toFixed(scaled), value: undefined };
    position[side] = valued;
    return valued;
  }

  async #position(asset: string): Promise<Priced> {
    let position = this.#positions.get(asset);
    if (position === undefined) {
      position = { range: pricedRange(positionFacts(asset, await this.labels(asset))) };
      this.#positions.set(asset, position);
    }
    return position;
  }

  /** The pool's sqrt price at `block` when it has been read, without waiting. */
  // Stryker disable next-line BlockStatement: equivalent, without it priceNow answers NOT_READY and the general path reads the same price
  #knownSqrtPrice(pool: string, block: number): bigint | undefined {
    return this.#sqrtKnown.get(pool)?.get(block);
  }

  #knownOf(pool: string): Lru<number, bigint> {
    let known = this.#sqrtKnown.get(pool);
    if (known === undefined) {
      known = new Lru(10_000);
      this.#sqrtKnown.set(pool, known);
    }
    return known;
  }

  /** The pool's sqrt price (slot0's first word, a uint160) at `block`; a failed read is not kept. */
  #sqrtPrice(pool: string, block: number): Promise<bigint> {
    // A flush asks for every position at one point: the last answer first, before building a key.
    const last = this.#lastSqrtPrice;
    if (last !== undefined && last.pool === pool && last.block === block) return last.price;
    const key = `${pool}|${block}`;
    let cached = this.#sqrtPrices.get(key);
    if (cached === undefined) {
      cached = this.reader.chain.call(pool, SLOT0_CALL, block).then((answer) => {
        const price = wordAt(answer, 0) & MAX_UINT160;
        this.#knownOf(pool).set(block, price);
        return price;
      });
      this.#sqrtPrices.set(key, cached);
      cached.catch(() => {
        this.#sqrtPrices.delete(key);
        if (this.#lastSqrtPrice?.price === cached) this.#lastSqrtPrice = undefined;
      });
    }
    // Stryker disable next-line ObjectLiteral: equivalent, an empty record never matches, so every read goes through the keyed cache
    this.#lastSqrtPrice = { pool, block, price: cached };
    return cached;
  }
}
