// The `ammv3position` feed: a concentrated-liquidity position's USD value per unit of liquidity, from its labels, the
// pool's sqrt price at the point's block and the two tokens' prices.
import { BaseError } from "@pointwise/errors";
import { id as keccakId } from "ethers";
import type { FeedSelector } from "../config/schema";
import type { Dec } from "../decimal";
import { wordAt } from "../erc20";
import { Lru } from "../util/lru";
import type { Point } from "../windows";
import { amountsPerLiquidityBetween, type Ratio, rangeSqrtRatios } from "./clmath";
import type { FeedReader } from "./feed-reader";
import { divide, fromDec, integer, plus, round, type Scaled, times, toDec } from "./position-decimal";

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
  const { amount0, amount1 } = amountsPerLiquidityBetween(sqrtPriceX96, range.sqrt);
  // In decimal.js terms: amount0 units x price0 + amount1 units x price1, at its precision and rounding; the bigint
  // steps give the same decimal (position-decimal.ts) in a fraction of the time.
  return toDec(plus(times(units(amount0, range.decimals0), fromDec(price0)), times(units(amount1, range.decimals1), fromDec(price1))));
}

/** A feed selector of kind `ammv3position`. */
export type PositionFeedSelector = Extract<FeedSelector, { kind: "ammv3position" }>;

const MAX_UINT160 = (1n << 160n) - 1n;
/** Calldata of the pool's `slot0()`. */
const SLOT0_CALL = keccakId("slot0()").slice(0, 10);

/** A value of a position with what it was computed from. */
interface Valued {
  clamped: bigint;
  price0: Dec;
  price1: Dec;
  value: Dec;
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
  #lastSqrtPrice: { pool: string; block: number; price: Promise<bigint> } | undefined;

  constructor(
    private readonly reader: FeedReader,
    private readonly labels: (asset: string) => Promise<Readonly<Record<string, string>>>,
  ) {}

  /** USD per unit of liquidity of position `asset` at `point`, or undefined while the pool has no price or a token is unpriced. */
  async price(feed: PositionFeedSelector, asset: string, point: Point): Promise<Dec | undefined> {
    const position = await this.#position(asset);
    const { range } = position;
    const sqrtPriceX96 = await this.#sqrtPrice(range.pool, point.block);
    // A pool that is not initialised yet has no price, so its positions have no value.
    if (sqrtPriceX96 === 0n) return undefined;
    const [price0, price1] = await Promise.all([
      this.reader.priceWith(feed.token0, range.token0, point),
      this.reader.priceWith(feed.token1, range.token1, point),
    ]);
    if (price0 === undefined || price1 === undefined) return undefined;
    const { lower, upper } = range.sqrt;
    // biome-ignore lint/complexity/useMathMinMax: Math.min and Math.max do not take bigints.
    const clamped = sqrtPriceX96 < lower ? lower : sqrtPriceX96 > upper ? upper : sqrtPriceX96;
    const side = clamped === lower ? "below" : clamped === upper ? "above" : "inside";
    const last = position[side];
    if (last !== undefined && last.clamped === clamped && same(last.price0, price0) && same(last.price1, price1)) return last.value;
    const value = valuePerLiquidity(range, clamped, price0, price1);
    position[side] = { clamped, price0, price1, value };
    return value;
  }

  async #position(asset: string): Promise<Priced> {
    let position = this.#positions.get(asset);
    if (position === undefined) {
      position = { range: pricedRange(positionFacts(asset, await this.labels(asset))) };
      this.#positions.set(asset, position);
    }
    return position;
  }

  /** The pool's sqrt price (slot0's first word, a uint160) at `block`; a failed read is not kept. */
  #sqrtPrice(pool: string, block: number): Promise<bigint> {
    // A flush asks for every position at one point: the last answer first, before building a key.
    const last = this.#lastSqrtPrice;
    if (last !== undefined && last.pool === pool && last.block === block) return last.price;
    const key = `${pool}|${block}`;
    let cached = this.#sqrtPrices.get(key);
    if (cached === undefined) {
      cached = this.reader.chain.call(pool, SLOT0_CALL, block).then((answer) => wordAt(answer, 0) & MAX_UINT160);
      this.#sqrtPrices.set(key, cached);
      cached.catch(() => {
        this.#sqrtPrices.delete(key);
        if (this.#lastSqrtPrice?.price === cached) this.#lastSqrtPrice = undefined;
      });
    }
    this.#lastSqrtPrice = { pool, block, price: cached };
    return cached;
  }
}
