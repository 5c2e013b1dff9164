// Test support for the amm-v3 unit tests: hand-encoded V3 pool and position manager logs, a table-driven chain, a real Redis store.
import { randomBytes } from "node:crypto";
import { type Adapter, type AdapterRuntime, type ChainLog, type IndexerEvent, StateStore } from "@pointwise/indexer-engine";
import { AbiCoder, id, keccak256, toBeHex, zeroPadValue } from "ethers";
import { ammV3Adapter } from "../src/index";

/** The pool, its position manager, factory, tokens and users of the unit tests. */
export const POOL = "0x00000000000000000000000000000000000000a0";
export const NPM = "0x00000000000000000000000000000000000000b0";
export const FACTORY = "0x00000000000000000000000000000000000000fa";
export const T0 = "0x00000000000000000000000000000000000000f0";
export const T1 = "0x00000000000000000000000000000000000000f1";
export const ALICE = "0x00000000000000000000000000000000000000a1";
export const BOB = "0x00000000000000000000000000000000000000b2";
export const CAROL = "0x00000000000000000000000000000000000000c3";
export const DAVE = "0x00000000000000000000000000000000000000d4";
export const NULL = "0x0000000000000000000000000000000000000000";

const coder = AbiCoder.defaultAbiCoder();
const addressTopic = (a: string) => zeroPadValue(a, 32);
const intTopic = (t: number) => coder.encode(["int24"], [t]);
const uintTopic = (v: bigint) => zeroPadValue(toBeHex(v), 32);
const sel = (signature: string) => id(signature).slice(0, 10);

/** A transaction hash made from a small number. */
export const tx = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;

/** Where a log sits: block, transaction and log index. */
export interface At {
  block: number;
  tx: number;
  index?: number;
}

const base = (address: string, at: At) => ({ address, blockNumber: at.block, transactionHash: tx(at.tx), logIndex: at.index ?? 0 });

/** The pool's Swap log, encoded by its ABI. */
export function swapLog(amount0: bigint, amount1: bigint, tick: number, at: At): ChainLog {
  return {
    ...base(POOL, at),
    topics: [id("Swap(address,address,int256,int256,uint160,uint128,int24)"), addressTopic(DAVE), addressTopic(DAVE)],
    data: coder.encode(["int256", "int256", "uint160", "uint128", "int24"], [amount0, amount1, 1n << 96n, 10n ** 20n, tick]),
  };
}

/** The pool's Initialize log. */
export function initializeLog(tick: number, at: At): ChainLog {
  return { ...base(POOL, at), topics: [id("Initialize(uint160,int24)")], data: coder.encode(["uint160", "int24"], [1n << 96n, tick]) };
}

/** The pool's Mint log: `owner` receives `amount` liquidity in [tickLower, tickUpper). */
export function mintLog(owner: string, tickLower: number, tickUpper: number, amount: bigint, at: At): ChainLog {
  return {
    ...base(POOL, at),
    topics: [id("Mint(address,address,int24,int24,uint128,uint256,uint256)"), addressTopic(owner), intTopic(tickLower), intTopic(tickUpper)],
    data: coder.encode(["address", "uint128", "uint256", "uint256"], [NPM, amount, 11n, 13n]),
  };
}

/** The pool's Burn log (the same indexed owner and ticks as Mint): `owner` removes `amount` liquidity from [tickLower, tickUpper). */
export function burnLog(owner: string, tickLower: number, tickUpper: number, amount: bigint, at: At): ChainLog {
  return {
    ...base(POOL, at),
    topics: [id("Burn(address,int24,int24,uint128,uint256,uint256)"), addressTopic(owner), intTopic(tickLower), intTopic(tickUpper)],
    data: coder.encode(["uint128", "uint256", "uint256"], [amount, 11n, 13n]),
  };
}

/** The position manager's Collect log: the fees of `tokenId` paid to `recipient`. */
export function collectLog(tokenId: bigint, recipient: string, at: At): ChainLog {
  return {
    ...base(NPM, at),
    topics: [id("Collect(uint256,address,uint256,uint256)"), uintTopic(tokenId)],
    data: coder.encode(["address", "uint256", "uint256"], [recipient, 5n, 7n]),
  };
}

/** The position manager's ERC-721 Transfer log. */
export function nftTransferLog(from: string, to: string, tokenId: bigint, at: At): ChainLog {
  return {
    ...base(NPM, at),
    topics: [id("Transfer(address,address,uint256)"), addressTopic(from), addressTopic(to), uintTopic(tokenId)],
    data: "0x",
  };
}

/** The three logs of a position manager mint in one transaction: the pool's Mint, the NFT's Transfer from null and IncreaseLiquidity. */
export function positionMintLogs(owner: string, tokenId: bigint, tickLower: number, tickUpper: number, liquidity: bigint, at: At): ChainLog[] {
  return [
    mintLog(NPM, tickLower, tickUpper, liquidity, { ...at, index: 0 }),
    nftTransferLog(NULL, owner, tokenId, { ...at, index: 1 }),
    liquidityLog("Increase", tokenId, liquidity, { ...at, index: 2 }),
  ];
}

/** The position manager's IncreaseLiquidity or DecreaseLiquidity log. */
export function liquidityLog(kind: "Increase" | "Decrease", tokenId: bigint, liquidity: bigint, at: At): ChainLog {
  return {
    ...base(NPM, at),
    topics: [id(`${kind}Liquidity(uint256,uint128,uint256,uint256)`), uintTopic(tokenId)],
    data: coder.encode(["uint128", "uint256", "uint256"], [liquidity, 17n, 19n]),
  };
}

/** The asset of a position NFT, written out: the last 20 bytes of keccak256 over the two 32-byte words (manager, token id). */
export function assetOf(tokenId: bigint): string {
  return `0x${keccak256(`0x${NPM.slice(2).padStart(64, "0")}${tokenId.toString(16).padStart(64, "0")}`).slice(-40)}`;
}

/** The position status and balance events the engine expects, written out. */
export const status = (user: string, tokenId: bigint, active: boolean): IndexerEvent => ({
  type: "positionStatusChange",
  user,
  asset: assetOf(tokenId),
  activity: "hold",
  active,
});
export const balance = (user: string, tokenId: bigint, amount: string): IndexerEvent => ({
  type: "balanceDelta",
  user,
  asset: assetOf(tokenId),
  activity: "hold",
  amount,
});

/** Answers of `positions(tokenId)` and `slot0()` as the contracts encode them. */
export function positionsAnswer(tickLower: number, tickUpper: number, liquidity: bigint): string {
  return coder.encode(
    ["uint96", "address", "address", "address", "uint24", "int24", "int24", "uint128", "uint256", "uint256", "uint128", "uint128"],
    [0n, NULL, T0, T1, 3000, tickLower, tickUpper, liquidity, 0n, 0n, 0n, 0n],
  );
}
export function slot0Answer(tick: number): string {
  return coder.encode(["uint160", "int24", "uint16", "uint16", "uint16", "uint8", "bool"], [1n << 96n, tick, 0, 1, 1, 0, true]);
}

/** Calldata of the calls the adapter makes, written out from the function signatures. */
export const call = {
  token0: sel("token0()"),
  token1: sel("token1()"),
  fee: sel("fee()"),
  factory: sel("factory()"),
  slot0: sel("slot0()"),
  decimals: sel("decimals()"),
  positions: (tokenId: bigint) => sel("positions(uint256)") + tokenId.toString(16).padStart(64, "0"),
  ownerOf: (tokenId: bigint) => sel("ownerOf(uint256)") + tokenId.toString(16).padStart(64, "0"),
};

/** A chain that answers calls from a table keyed `to|data|block` (or `to|data` for any block), and records every call. */
export class TableChain {
  readonly answers = new Map<string, string>();
  readonly calls: string[] = [];

  constructor() {
    const word = (a: string | bigint) => coder.encode([typeof a === "string" ? "address" : "uint256"], [a]);
    this.set(POOL, call.token0, word(T0));
    this.set(POOL, call.token1, word(T1));
    this.set(POOL, call.fee, word(3000n));
    this.set(POOL, call.factory, word(FACTORY));
    this.set(NPM, call.factory, word(FACTORY));
    this.set(T0, call.decimals, word(6n));
    this.set(T1, call.decimals, word(18n));
  }

  set(to: string, data: string, answer: string, block?: number): void {
    this.answers.set(block === undefined ? `${to}|${data}` : `${to}|${data}|${block}`, answer);
  }

  readonly call = async (to: string, data: string, block?: number): Promise<string> => {
    this.calls.push(`${to}|${data}|${block ?? "latest"}`);
    const answer = this.answers.get(`${to}|${data}|${block}`) ?? this.answers.get(`${to}|${data}`);
    // What the chain reader passes on for a contract's revert: ethers' CALL_EXCEPTION.
    if (answer === undefined) throw Object.assign(new Error("execution reverted"), { code: "CALL_EXCEPTION" });
    return answer;
  };
}

/** A log line the adapter wrote: its level, its object and its message. */
export interface LogLine {
  level: string;
  obj: unknown;
  msg: string;
}

/**
 * A runtime on the real Redis state store (its own key prefix) and a table chain, recording the adapter's log lines in
 * `logs`; `close` removes what it wrote.
 */
export async function testRuntime(
  chain = new TableChain(),
): Promise<{ runtime: AdapterRuntime; store: StateStore; chain: TableChain; logs: LogLine[]; close(): Promise<void> }> {
  const logs: LogLine[] = [];
  const line = (level: string) => (obj: unknown, msg: string) => logs.push({ level, obj, msg });
  const logger = { info: line("info"), warn: line("warn"), debug: line("debug"), error: line("error") } as never;
  const store = await StateStore.connect(
    { url: "redis://127.0.0.1:6379", keyPrefix: `pwt-${randomBytes(4).toString("hex")}`, indexerId: "amm-v3-unit", configHash: "cfg" },
    logger,
  );
  const runtime: AdapterRuntime = { chainId: 1, chain, store: store.kv, labels: store.labels, adapterConfigHash: "h", logger };
  return {
    runtime,
    store,
    chain,
    logs,
    close: async () => {
      await store.clearIndexer();
      await store.close();
    },
  };
}

/** Runs logs through an adapter's `handle` one by one, returning each log's events. */
export async function feed(
  adapter: { handle(log: ChainLog, ctx: never): Promise<IndexerEvent[]> | IndexerEvent[] },
  logs: ChainLog[],
  from = DAVE,
): Promise<IndexerEvent[][]> {
  const out: IndexerEvent[][] = [];
  for (const log of logs)
    out.push(
      await adapter.handle(log, { ts: 0, height: log.blockNumber, txHash: log.transactionHash, logIndex: log.logIndex, transaction: { from } } as never),
    );
  return out;
}

/**
 * The adapter on a test runtime, created and initialised: call once at a test file's top level, then `start` in each
 * test; every runtime started is closed after each test.
 */
export function adapterHarness(): (
  params: Record<string, unknown>,
  chain?: TableChain,
) => Promise<{ adapter: Adapter } & Awaited<ReturnType<typeof testRuntime>>> {
  let opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const o of opened) await o.close();
    opened = [];
  });
  return async (params, chain = new TableChain()) => {
    const env = await testRuntime(chain);
    opened.push(env);
    const adapter: Adapter = await ammV3Adapter.create(ammV3Adapter.paramsSchema.parse(params), env.runtime);
    await adapter.init?.();
    return { adapter, ...env };
  };
}
