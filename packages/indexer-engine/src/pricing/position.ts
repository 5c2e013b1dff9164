// Values a concentrated-liquidity position per unit of liquidity: its labels, the pool's sqrt price and two token prices.
import { BaseError } from "@pointwise/errors";
import { Dec } from "../decimal";
import { amountsPerLiquidity, type Ratio } from "./clmath";

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

function ratio(r: Ratio, decimals: number): Dec {
  return new Dec(r.num.toString()).div(new Dec(r.den.toString()).times(new Dec(10).pow(decimals)));
}

/**
 * USD value of one unit of liquidity of a position at the pool price `sqrtPriceX96`: the exact token amounts one
 * unit holds (protocol tick and sqrt-price math, so liquidity times them, rounded down, is what the position
 * manager pays out) in token units, times each token's USD price. A window's balance is the position's liquidity.
 */
export function valuePerLiquidity(facts: PositionFacts, sqrtPriceX96: bigint, price0: Dec, price1: Dec): Dec {
  const { amount0, amount1 } = amountsPerLiquidity(sqrtPriceX96, facts.tickLower, facts.tickUpper);
  return ratio(amount0, facts.decimals0).times(price0).plus(ratio(amount1, facts.decimals1).times(price1));
}
