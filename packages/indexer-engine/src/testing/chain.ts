// Test fixtures for engine runs: a JSON-RPC stand-in of a chain with one contract, and an adapter making a swap per log.
import { z } from "zod";
import { defineAdapter } from "../adapter";
import type { IndexerEngine } from "../engine";
import { json, startTestServer, type TestServer } from "./http";

/** The stand-in chain's id, its one contract, the topic of that contract's logs and the user of every swap. */
export const STAND_IN = {
  chainId: 31337,
  contract: "0x00000000000000000000000000000000000000c1",
  topic: `0x${"5a".repeat(32)}`,
  user: "0x00000000000000000000000000000000000000aa",
} as const;

/** What the stand-in serves; asked on every request, so a test may change the chain between runs. */
export interface StandInChain {
  head: number;
  /** Block `block`'s timestamp in seconds. */
  blockSeconds(block: number): number;
  blockHash(block: number): string;
  /** Whether block `block` holds a log of the contract. */
  hasLog(block: number): boolean;
}

type Call = { id: number; method: string; params: unknown[] };
type Reply = { result: unknown } | { error: { code: number; message: string } };
const hex = (n: number) => `0x${n.toString(16)}`;

/** The node's answer to one call on `chain`. */
function answer(chain: StandInChain, call: Call): Reply {
  switch (call.method) {
    case "eth_chainId":
      return { result: hex(STAND_IN.chainId) };
    case "eth_blockNumber":
      return { result: hex(chain.head) };
    case "eth_getBlockByNumber": {
      const block = Number(call.params[0]);
      return { result: block > chain.head ? null : { number: hex(block), timestamp: hex(chain.blockSeconds(block)), hash: chain.blockHash(block) } };
    }
    case "eth_getCode":
      return { result: call.params[0] === STAND_IN.contract ? "0x6001" : "0x" };
    case "eth_getLogs": {
      const { fromBlock, toBlock } = call.params[0] as { fromBlock: string; toBlock: string };
      const logs = [];
      for (let b = Number(fromBlock); b <= Math.min(chain.head, Number(toBlock)); b++) {
        if (!chain.hasLog(b)) continue;
        const transactionHash = `0x${b.toString(16).padStart(64, "0")}`;
        logs.push({ address: STAND_IN.contract, topics: [STAND_IN.topic], data: "0x", blockNumber: hex(b), transactionHash, logIndex: "0x0", removed: false });
      }
      return { result: logs };
    }
    default:
      return { error: { code: -32601, message: `${call.method} is not served here` } };
  }
}

/** Starts a JSON-RPC endpoint on 127.0.0.1 answering single calls and batches as `chain` says. */
export function startStandInChain(chain: StandInChain): Promise<TestServer> {
  return startTestServer((_req, res, body) => {
    const parsed = JSON.parse(body) as Call | Call[];
    const reply = (c: Call) => ({ jsonrpc: "2.0", id: c.id, ...answer(chain, c) });
    json(res, 200, Array.isArray(parsed) ? parsed.map(reply) : reply(parsed));
  });
}

/** An adapter making one swap action per log of its contract, for the stand-in's user. */
export const swapTest = defineAdapter({
  id: "swap-test",
  version: "1.0.0",
  description: "one swap action per log of a contract",
  paramsSchema: z.object({ contract: z.string() }).strict(),
  create: ({ contract }) => ({
    filters: [{ address: contract, topics: [STAND_IN.topic], withTransaction: false }],
    contracts: [contract],
    handle: (log) => [{ type: "action", key: `${log.transactionHash}-${log.logIndex}`, activity: "swap", user: STAND_IN.user, priceable: false }],
  }),
});

/** Runs a started engine until its range is done or it fails, then closes it; a failure is returned, not thrown. */
export async function runToEnd(engine: IndexerEngine): Promise<{ finished: boolean; error?: unknown }> {
  try {
    return { finished: (await engine.run()).finished };
  } catch (error) {
    return { finished: false, error };
  } finally {
    await engine.close();
  }
}
