// What a composite feed (one priced through other feeds) may use of the pricer: calls, cached facts, nested prices.
import type { ChainCalls } from "../adapter";
import type { FeedSelector } from "../config/schema";
import type { Dec } from "../decimal";
import type { Point } from "../windows";

/** The pricer's services a composite feed reads through: chain calls, immutable facts read once, and nested selectors. */
export interface FeedReader {
  readonly chain: ChainCalls;
  /** An immutable chain fact under `key`: the cached value, or `read()` once, cached in memory and in the state store. */
  cachedFact(key: string, read: () => Promise<string>): Promise<string>;
  /** ERC-20 decimals of a token, read once and cached; an answer above MAX_TOKEN_DECIMALS fails with `feed-config-invalid`. */
  decimals(token: string): Promise<number>;
  /** USD price of `asset` at `point` through a given selector. */
  priceWith(feed: FeedSelector, asset: string, point: Point): Promise<Dec | undefined>;
}
