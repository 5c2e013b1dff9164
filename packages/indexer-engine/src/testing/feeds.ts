// Test fixtures for composite price feeds: an in-memory chain that decodes calls by ABI, and an in-memory FeedReader.
import type { Interface } from "ethers";
import type { ChainCalls } from "../adapter";
import type { FeedSelector } from "../config/schema";
import type { Dec } from "../decimal";
import type { FeedReader } from "../pricing/feed-reader";
import type { Point } from "../windows";

/** Answer data returned as it is, not ABI-encoded (a fallback function's empty answer). */
export class RawAnswer {
  constructor(readonly data: string) {}
}

/** One contract: its functions by name, each giving the outputs (or raw data) for the call's arguments at a block (undefined for latest). */
export type MemoryContract = Record<string, (args: readonly unknown[], block: number | undefined) => unknown[] | RawAnswer>;

/** A call the in-memory chain answered. */
export interface MemoryCall {
  to: string;
  fn: string;
  args: unknown[];
  block: number | undefined;
}

/** A contract without the function reverts, as a node does for a selector the contract lacks (ethers' CALL_EXCEPTION). */
export function revert(): Error {
  return Object.assign(new Error("execution reverted"), { code: "CALL_EXCEPTION" });
}

/** A chain whose `call` decodes the selector and arguments with `abi` and answers from the contracts' tables, recording each call. */
export function memoryChain(abi: Interface, contracts: Record<string, MemoryContract>): ChainCalls & { calls: MemoryCall[] } {
  const calls: MemoryCall[] = [];
  return {
    calls,
    async call(to: string, data: string, block?: number) {
      const tx = abi.parseTransaction({ data });
      if (tx === null) throw revert();
      calls.push({ to, fn: tx.name, args: [...tx.args], block });
      const answer = contracts[to]?.[tx.name];
      if (answer === undefined) throw revert();
      const out = answer([...tx.args], block);
      return out instanceof RawAnswer ? out.data : abi.encodeFunctionResult(tx.name, out);
    },
  };
}

/** A FeedReader kept in memory: facts cached by key as the pricer does (a failed read is not cached), decimals and nested prices from tables. */
export class MemoryReader implements FeedReader {
  readonly facts = new Map<string, string>();
  readonly factReads: string[] = [];
  readonly priceCalls: { feed: FeedSelector; asset: string; point: Point }[] = [];

  constructor(
    readonly chain: ChainCalls,
    private readonly decimalsOf: Record<string, number>,
    private readonly priceOf: (asset: string, point: Point) => Dec | undefined,
  ) {}

  async cachedFact(key: string, read: () => Promise<string>): Promise<string> {
    const cached = this.facts.get(key);
    if (cached !== undefined) return cached;
    this.factReads.push(key);
    const value = await read();
    this.facts.set(key, value);
    return value;
  }

  async decimals(token: string): Promise<number> {
    const d = this.decimalsOf[token];
    if (d === undefined) throw new Error(`no decimals for ${token}`);
    return d;
  }

  async priceWith(feed: FeedSelector, asset: string, point: Point): Promise<Dec | undefined> {
    this.priceCalls.push({ feed, asset, point });
    return this.priceOf(asset, point);
  }
}
