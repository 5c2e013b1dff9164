// The `balancerv2nav` feed: a Balancer V2 pool token valued from the Vault's pool balances and the pool's supply at the point's block.
import { BaseError } from "@pointwise/errors";
import { AbiCoder, id as keccakId } from "ethers";
import { isCallRevert } from "../chain/revert";
import type { FeedSelector } from "../config/schema";
import { Dec } from "../decimal";
import type { Point } from "../windows";
import type { FeedReader } from "./feed-reader";

const coder = AbiCoder.defaultAbiCoder();
const selector = (signature: string) => keccakId(signature).slice(0, 10);
const CALL = {
  getVault: selector("getVault()"),
  getPoolId: selector("getPoolId()"),
  getPoolTokens: selector("getPoolTokens(bytes32)"),
  getActualSupply: selector("getActualSupply()"),
  totalSupply: selector("totalSupply()"),
};

/** A Balancer V2 pool-token feed selector. */
export type BalancerFeed = Extract<FeedSelector, { kind: "balancerv2nav" }>;

/** The immutable facts of a pool: its Vault, its pool id, and which supply function counts its tokens. */
export interface BalancerPoolFacts {
  vault: string;
  poolId: string;
  supplyCall: string;
}

/**
 * Reads a pool's Vault, pool id and supply function once. Pools since weighted pool V2 answer `getActualSupply()`:
 * `totalSupply()` plus the protocol-fee tokens owed but not yet minted (and without the pre-minted tokens of
 * composable pools); the first weighted pools lack it, and their `totalSupply()` is their supply.
 */
export async function balancerPoolFacts(reader: FeedReader, pool: string): Promise<BalancerPoolFacts> {
  const [vault, poolId, supplyFunction] = await Promise.all([
    reader.cachedFact(`balancer:${pool}:vault`, async () =>
      (coder.decode(["address"], await reader.chain.call(pool, CALL.getVault))[0] as string).toLowerCase(),
    ),
    reader.cachedFact(`balancer:${pool}:poolId`, async () =>
      (coder.decode(["bytes32"], await reader.chain.call(pool, CALL.getPoolId))[0] as string).toLowerCase(),
    ),
    reader.cachedFact(`balancer:${pool}:supply`, async () => {
      let answer: string;
      try {
        answer = await reader.chain.call(pool, CALL.getActualSupply);
      } catch (err) {
        // Only a revert (no such function) means "not this version"; a lost connection must not be cached as a fact.
        if (isCallRevert(err)) return "totalSupply";
        throw err;
      }
      // A contract with a fallback answers an unknown function with no data.
      return answer.length >= 66 ? "getActualSupply" : "totalSupply";
    }),
  ]);
  return { vault, poolId, supplyCall: supplyFunction === "getActualSupply" ? CALL.getActualSupply : CALL.totalSupply };
}

/**
 * USD price of one pool token at `point`: the sum of the pool's token balances (the Vault's `getPoolTokens` at that
 * block, in token units) times their prices from the nested selectors, over the pool's supply at that block. A
 * composable pool's own token among its balances is its pre-minted supply, not value, and is skipped.
 */
export async function balancerNav(reader: FeedReader, feed: BalancerFeed, pool: string, point: Point): Promise<Dec | undefined> {
  const facts = await balancerPoolFacts(reader, pool);
  const data = `${CALL.getPoolTokens}${coder.encode(["bytes32"], [facts.poolId]).slice(2)}`;
  const [poolTokens, supplyWord] = await Promise.all([
    reader.chain.call(facts.vault, data, point.block),
    reader.chain.call(pool, facts.supplyCall, point.block),
  ]);
  const [tokens, balances] = coder.decode(["address[]", "uint256[]", "uint256"], poolTokens) as unknown as [string[], bigint[]];
  const supply = coder.decode(["uint256"], supplyWord)[0] as bigint;
  if (supply === 0n) return undefined;
  const selectors = new Map(Object.entries(feed.tokens).map(([token, selector]) => [token.toLowerCase(), selector]));
  const held = tokens.map((t, i) => ({ token: t.toLowerCase(), balance: balances[i] as bigint })).filter((h) => h.token !== pool);
  const missing = held.filter((h) => !selectors.has(h.token)).map((h) => h.token);
  const unknown = [...selectors.keys()].filter((t) => !held.some((h) => h.token === t));
  if (missing.length > 0 || unknown.length > 0) {
    throw new BaseError(
      "feed-config-invalid",
      `balancerv2nav of pool ${pool}: tokens must name exactly the pool's tokens ${held.map((h) => h.token).join(", ")}` +
        (missing.length > 0 ? `; missing ${missing.join(", ")}` : "") +
        (unknown.length > 0 ? `; not in the pool ${unknown.join(", ")}` : ""),
      { details: { pool } },
    );
  }
  const parts = await Promise.all(
    held.map(async (h) => {
      const [price, decimals] = await Promise.all([reader.priceWith(selectors.get(h.token) as FeedSelector, h.token, point), reader.decimals(h.token)]);
      return price === undefined ? undefined : new Dec(h.balance.toString()).div(new Dec(10).pow(decimals)).times(price);
    }),
  );
  if (parts.some((p) => p === undefined)) return undefined;
  const value = (parts as Dec[]).reduce((sum, p) => sum.plus(p), new Dec(0));
  return value.div(new Dec(supply.toString()).div(new Dec(10).pow(await reader.decimals(pool))));
}
