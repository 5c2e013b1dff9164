// Prices assets in USD at chain points by pegged, market, AMM-v2 LP net-asset-value, AMM-v3 position, vault-share and Balancer V2 feeds.
import { BaseError } from "@pointwise/errors";
import type { Fixed } from "@pointwise/fixed";
import type { Logger } from "@pointwise/logger";
import { AbiCoder, id as keccakId } from "ethers";
import type { ChainCalls, KeyValueStore, LabelStore } from "../adapter";
import type { AssetFeedRule, FeedSelector, IndexerConfig } from "../config/schema";
import { Dec, fixedOfDec } from "../decimal";
import { DECIMALS_CALL, decimalsOf } from "../erc20";
import { Lru } from "../util/lru";
import { mapLimit } from "../util/retry";
import type { Point } from "../windows";
import { balancerNav } from "./balancer";
import type { FeedReader } from "./feed-reader";
import type { MarketPriceClient } from "./market";
import { findFeed } from "./match";
import { NOT_READY, PositionFeed, type PositionFeedSelector } from "./position";
import { vaultSharePrice } from "./vault";

const coder = AbiCoder.defaultAbiCoder();
const selector = (signature: string) => keccakId(signature).slice(0, 10);
const CALL = {
  token0: selector("token0()"),
  token1: selector("token1()"),
  totalSupply: selector("totalSupply()"),
  getReserves: selector("getReserves()"),
};

/** What a pricer needs: the feed rules, where pricing starts, the chain, labels and a market client. */
export interface PricerDeps {
  rules: readonly AssetFeedRule[];
  pricingRange: IndexerConfig["pricingRange"];
  chain: ChainCalls;
  /** Asset labels, read to match feed rules (only adapters write them, so a match never depends on pricing order). */
  labels: LabelStore;
  /** Where chain facts read for pricing (decimals, pool tokens) are cached. */
  facts: KeyValueStore;
  market: MarketPriceClient | undefined;
  logger: Logger;
}

/**
 * Prices assets in USD at points on the chain: the first matching feed rule picks the selector; `pegged` is a
 * constant, `market` asks the price API for the time, `ammv2nav` values an LP token by the pool's reserves and
 * LP supply read at the point's block, each reserve priced by its nested selector. Point prices are cached.
 */
export class Pricer implements FeedReader {
  readonly #points = new Lru<string, Promise<Dec | undefined>>(50_000);
  readonly #unpriced = new Set<string>();
  readonly #facts = new Map<string, string>();
  readonly #pegs = new Map<number, Dec>();
  readonly #feedKeys = new WeakMap<FeedSelector, string>();
  readonly #feedIds = new Map<string, string>();
  readonly #positions = new PositionFeed(this, (asset) => this.deps.labels.get(asset));

  constructor(private readonly deps: PricerDeps) {}

  /** True when `pricingRange` says pricing has started at this point. */
  isActive(point: Point): boolean {
    const range = this.deps.pricingRange;
    if (range === undefined) return true;
    return range.type === "block" ? point.block >= range.fromBlock : point.ts >= range.fromTimestamp * 1000;
  }

  /** USD price of one unit of `asset` at `point`, or undefined when no rule prices it or pricing has not started. */
  async priceAt(asset: string, point: Point): Promise<Dec | undefined> {
    if (!this.isActive(point)) return undefined;
    const feed = await this.#feedOf(asset);
    return feed === undefined ? undefined : this.priceWith(feed, asset, point);
  }

  /**
   * USD prices of many (asset, point) pairs, in order, as exact fixed-point decimals, what enrichment multiplies
   * with. The feed is resolved once per asset, and a pegged price is converted once: a batch of windows needs a
   * handful of lookups, not two per window. Point-dependent lookups run at most `concurrency` at a time. Positions of the
   * `ammv3position` feed are priced without a promise each (PositionFeed.priceNow): a flush or a swap crossing many
   * ranges asks for hundreds of positions at a handful of blocks, so the facts and pool prices they need are read
   * first, once each, and every value is then computed in place.
   */
  async priceManyExact(requests: readonly { asset: string; point: Point }[], concurrency = 16): Promise<(Fixed | undefined)[]> {
    const out = new Array<Fixed | undefined>(requests.length).fill(undefined);
    const feeds = await this.#feedsOf(requests);
    const pending: number[] = [];
    const positions: { asset: string; point: Point }[] = [];
    const positionIndices: number[] = [];
    for (const [i, feed] of feeds.entries()) {
      if (feed === undefined) continue;
      if (feed.kind === "pegged") out[i] = this.#pegExact(feed.usdPegValue);
      else if (feed.kind === "ammv3position") {
        positions.push(requests[i] as { asset: string; point: Point });
        positionIndices.push(i);
      } else pending.push(i);
    }
    // With no positions this reads nothing.
    await this.#positions.prepare(positions, concurrency);
    const tokenPrice = (feed: FeedSelector) => (feed.kind === "pegged" ? this.#peg(feed.usdPegValue) : NOT_READY);
    for (const i of positionIndices) {
      const { asset, point } = requests[i] as { asset: string; point: Point };
      const value = this.#positions.priceNow(feeds[i] as PositionFeedSelector, asset, point, tokenPrice);
      // A token priced by a feed that is not pegged takes the general path.
      if (value === NOT_READY) pending.push(i);
      else out[i] = value;
    }
    await this.#priceEach(requests, pending, feeds, concurrency, (i, value) => {
      out[i] = value === undefined ? undefined : fixedOfDec(value);
    });
    return out;
  }

  /** Each request's feed (undefined when no rule prices it or pricing has not started there), resolved once per asset. */
  async #feedsOf(requests: readonly { asset: string; point: Point }[]): Promise<(FeedSelector | undefined)[]> {
    const byAsset = new Map<string, FeedSelector | undefined>();
    const feeds: (FeedSelector | undefined)[] = [];
    for (const { asset, point } of requests) {
      let feed: FeedSelector | undefined;
      if (this.isActive(point)) {
        if (!byAsset.has(asset)) byAsset.set(asset, await this.#feedOf(asset));
        feed = byAsset.get(asset);
      }
      feeds.push(feed);
    }
    return feeds;
  }

  /** Prices the requests at `indices` through their feeds, at most `concurrency` at a time, handing each to `put`. */
  async #priceEach(
    requests: readonly { asset: string; point: Point }[],
    indices: readonly number[],
    feeds: readonly (FeedSelector | undefined)[],
    concurrency: number,
    put: (index: number, value: Dec | undefined) => void,
  ): Promise<void> {
    const values = await mapLimit(indices, concurrency, (i) => {
      const { asset, point } = requests[i] as { asset: string; point: Point };
      return this.priceWith(feeds[i] as FeedSelector, asset, point);
    });
    for (const [k, index] of indices.entries()) put(index, values[k]);
  }

  async #feedOf(asset: string): Promise<FeedSelector | undefined> {
    const feed = findFeed(this.deps.rules, asset, await this.deps.labels.get(asset));
    if (feed === undefined) {
      if (!this.#unpriced.has(asset)) this.deps.logger.info({ asset }, "no asset feed rule matches; rows of this asset stay unpriced");
      this.#unpriced.add(asset);
    }
    return feed;
  }

  /** A pegged price as an exact fixed-point decimal, converted once per peg. */
  #pegExact(value: number): Fixed {
    return fixedOfDec(this.#peg(value));
  }

  #peg(value: number): Dec {
    let price = this.#pegs.get(value);
    if (price === undefined) {
      price = new Dec(String(value));
      this.#pegs.set(value, price);
    }
    return price;
  }

  /** USD price of `asset` at `point` through a given selector. */
  priceWith(feed: FeedSelector, asset: string, point: Point): Promise<Dec | undefined> {
    if (feed.kind === "pegged") return Promise.resolve(this.#peg(feed.usdPegValue));
    const key = `${this.#feedKey(feed)}|${asset}|${point.ts}|${point.block}`;
    let cached = this.#points.get(key);
    if (cached === undefined) {
      cached = this.#compute(feed, asset, point);
      this.#points.set(key, cached);
      cached.catch(() => this.#points.delete(key));
    }
    return cached;
  }

  /**
   * A feed's cache-key text, found once per feed object (feeds come from the parsed config and never change): a short
   * number per distinct serialised feed, so the point keys built for every lookup stay short.
   */
  #feedKey(feed: FeedSelector): string {
    return this.#feedKeys.get(feed) ?? this.#newFeedKey(feed);
  }

  /** The cache-key text of a feed object not seen before: the number of an equal feed seen before, or a new one. */
  #newFeedKey(feed: FeedSelector): string {
    const text = JSON.stringify(feed);
    let key = this.#feedIds.get(text);
    if (key === undefined) {
      key = String(this.#feedIds.size);
      this.#feedIds.set(text, key);
    }
    this.#feedKeys.set(feed, key);
    return key;
  }

  /** A price through a feed other than `pegged` (priceWith answers those without computing). */
  async #compute(feed: Exclude<FeedSelector, { kind: "pegged" }>, asset: string, point: Point): Promise<Dec | undefined> {
    switch (feed.kind) {
      case "market":
        if (this.deps.market === undefined) throw new BaseError("price-api-missing", "a market price feed needs PRICE_API_KEY");
        return this.deps.market.priceAt(feed.id, point.ts);
      case "ammv2nav":
        return this.#nav(feed, asset, point);
      case "ammv3position":
        return this.#positions.price(feed, asset, point);
      case "vaultshare":
        return vaultSharePrice(this, feed, asset, point);
      case "balancerv2nav":
        return balancerNav(this, feed, asset, point);
    }
  }

  async #nav(feed: Extract<FeedSelector, { kind: "ammv2nav" }>, pool: string, point: Point): Promise<Dec | undefined> {
    const facts = await this.#poolFacts(pool);
    const [reservesWord, supplyWord] = await Promise.all([
      this.deps.chain.call(pool, CALL.getReserves, point.block),
      this.deps.chain.call(pool, CALL.totalSupply, point.block),
    ]);
    const [reserve0, reserve1] = coder.decode(["uint112", "uint112", "uint32"], reservesWord) as unknown as [bigint, bigint];
    const supply = coder.decode(["uint256"], supplyWord)[0] as bigint;
    if (supply === 0n) return undefined;
    const [p0, p1] = await Promise.all([this.priceWith(feed.token0, facts.token0, point), this.priceWith(feed.token1, facts.token1, point)]);
    if (p0 === undefined || p1 === undefined) return undefined;
    const value = units(reserve0, facts.decimals0).times(p0).plus(units(reserve1, facts.decimals1).times(p1));
    return value.div(units(supply, facts.decimalsLp));
  }

  /** token0/token1 and decimals of a pool and its tokens: immutable, so read once and cached. */
  async #poolFacts(pool: string): Promise<{ token0: string; token1: string; decimals0: number; decimals1: number; decimalsLp: number }> {
    const [token0, token1] = await Promise.all([
      this.#address(`pool:${pool}:token0`, pool, CALL.token0),
      this.#address(`pool:${pool}:token1`, pool, CALL.token1),
    ]);
    const [decimals0, decimals1, decimalsLp] = await Promise.all([this.decimals(token0), this.decimals(token1), this.decimals(pool)]);
    return { token0, token1, decimals0, decimals1, decimalsLp };
  }

  /**
   * ERC-20 decimals of a token, read once and cached, decoded and bounded as adapters read them (decimalsOf): an answer
   * above MAX_TOKEN_DECIMALS stops pricing with `feed-config-invalid` naming the token, since the feed prices something
   * that is no ERC-20. A call that fails is rethrown as it is (a lost connection is no config error), and nothing is cached.
   */
  async decimals(token: string): Promise<number> {
    const text = await this.cachedFact(`decimals:${token}`, async () =>
      String(
        decimalsOf(await this.deps.chain.call(token, DECIMALS_CALL), { code: "feed-config-invalid", subject: `pricing: token ${token}`, details: { token } }),
      ),
    );
    return Number(text);
  }

  /** An immutable address fact of a contract, read once, cached and lowercased. */
  async #address(key: string, to: string, data: string): Promise<string> {
    return this.cachedFact(key, async () => (coder.decode(["address"], await this.deps.chain.call(to, data))[0] as string).toLowerCase());
  }

  /** The chain calls feeds make (eth_call, at a point's block or latest). */
  get chain(): ChainCalls {
    return this.deps.chain;
  }

  /** An immutable chain fact: cached in memory and in the state store under `pricer:<key>`, read once otherwise. */
  async cachedFact(key: string, read: () => Promise<string>): Promise<string> {
    const cacheKey = `pricer:${key}`;
    const cached = this.#facts.get(cacheKey) ?? (await this.deps.facts.get(cacheKey));
    if (cached !== undefined) {
      this.#facts.set(cacheKey, cached);
      return cached;
    }
    const value = await read();
    await this.deps.facts.set(cacheKey, value);
    this.#facts.set(cacheKey, value);
    return value;
  }
}

function units(raw: bigint, decimals: number): Dec {
  return new Dec(raw.toString()).div(new Dec(10).pow(decimals));
}
