// A recorded Uniswap V3 pool history for the amm-v3 benchmark: Swaps with a moving tick, position mints, increases,
// decreases and transfers, generated block by block as a pure function of the block number (any range can be served
// alone, in any order, with nothing held in memory), plus the contract call answers the adapter and the feed need.
import { DECREASE_TOPIC, INCREASE_TOPIC, MINT_TOPIC, SWAP_TOPIC, TRANSFER_TOPIC } from "@pointwise/adapter-amm-v3";
import { type ChainCalls, type ChainLog, sqrtRatioAtTick } from "@pointwise/indexer-engine";
import { seededUint32 } from "@pointwise/testkit";
import { id } from "ethers";
import { RecordedChain, recordedRange } from "./recorded";

/** Addresses of the recorded pool, its position manager, factory and tokens (token0 has 6 decimals, token1 18). */
export const V3_POOL = "0x00000000000000000000000000000000000003a0";
export const V3_MANAGER = "0x00000000000000000000000000000000000003b0";
export const V3_FACTORY = "0x00000000000000000000000000000000000003fa";
export const V3_TOKEN0 = "0x00000000000000000000000000000000000003f0";
export const V3_TOKEN1 = "0x00000000000000000000000000000000000003f1";
/** The pool's fee tier. */
export const V3_FEE = 3000;
/** First block with logs; the set's positions are minted in its first `V3_POSITIONS / 5` blocks, five per block. */
export const V3_FIRST_BLOCK = 1_000;
/** Number of position NFTs (token ids 1..V3_POSITIONS) and of holders. */
export const V3_POSITIONS = 1_000;
export const V3_HOLDERS = 400;

const MINT_BLOCKS = V3_POSITIONS / 5;
const SCHEDULE_START = V3_FIRST_BLOCK + MINT_BLOCKS;
/** Every position is transferred once per TRANSFER_PERIOD blocks, increased and decreased once per CHANGE_PERIOD. */
const TRANSFER_PERIOD = 500;
const CHANGE_PERIOD = 1_000;
const ROUTER = "0x00000000000000000000000000000000000003c0";
const NULL = "0x0000000000000000000000000000000000000000";

const word = (v: bigint) => (v < 0n ? (1n << 256n) + v : v).toString(16).padStart(64, "0");
const topic = (v: bigint) => `0x${word(v)}`;
const addressTopic = (a: string) => `0x${a.slice(2).padStart(64, "0")}`;
const holder = (i: number) => `0x${(0xd000 + i).toString(16).padStart(40, "0")}`;
const floorDiv = (a: number, m: number) => Math.floor(a / m);
/** Number of blocks c in [SCHEDULE_START, b] with c ≡ r (mod m). */
const occurrences = (b: number, r: number, m: number) => (b < SCHEDULE_START ? 0 : floorDiv(b - r, m) - floorDiv(SCHEDULE_START - 1 - r, m));
const rand = (...seed: number[]) => seededUint32(seed.reduce((h, s) => Math.imul(h ^ s, 0x9e3779b1) >>> 0, 0x12345678))();

/** A position's immutable facts: tick range (multiples of 60 between -3000 and 4200), first owner, liquidity steps. */
export function v3Position(tokenId: number): { tickLower: number; tickUpper: number; mintBlock: number; liquidity0: bigint; step: bigint } {
  const r = rand(tokenId, 1);
  const tickLower = 60 * ((r % 100) - 50);
  const liquidity0 = 10n ** 18n + BigInt(rand(tokenId, 2)) * 1_000_000n;
  return {
    tickLower,
    tickUpper: tickLower + 60 * (1 + ((r >>> 8) % 20)),
    mintBlock: V3_FIRST_BLOCK + floorDiv(tokenId - 1, 5),
    liquidity0,
    step: liquidity0 / 100n,
  };
}

/** The owner of a position at the end of `block` (undefined before its mint). */
export function v3OwnerAt(tokenId: number, block: number): string | undefined {
  if (block < v3Position(tokenId).mintBlock) return undefined;
  return holder((rand(tokenId, 3) + occurrences(block, tokenId % TRANSFER_PERIOD, TRANSFER_PERIOD)) % V3_HOLDERS);
}

/** A position's liquidity at the end of `block`: its mint, plus two steps per increase, minus one per decrease. */
export function v3LiquidityAt(tokenId: number, block: number): bigint {
  const p = v3Position(tokenId);
  if (block < p.mintBlock) return 0n;
  const increases = occurrences(block, tokenId % CHANGE_PERIOD, CHANGE_PERIOD);
  const decreases = occurrences(block, (tokenId + CHANGE_PERIOD / 2) % CHANGE_PERIOD, CHANGE_PERIOD);
  return p.liquidity0 + 2n * p.step * BigInt(increases) - p.step * BigInt(decreases);
}

/** Number of Swaps in a block (1 to 4). */
const swapsIn = (block: number) => 1 + (rand(block, 4) % 4);

/** The pool's tick after the k-th swap of a block: a slow wave over +-3000 with noise, so ranges are crossed often. */
export function v3TickAfter(block: number, k: number): number {
  const t = block * 4 + k;
  return Math.round(3000 * Math.sin(t / 700)) + (rand(block, k, 5) % 241) - 120;
}

/** The pool's tick at the end of `block` (what slot0 answers there). */
export function v3TickAt(block: number): number {
  return block < V3_FIRST_BLOCK ? 0 : v3TickAfter(block, swapsIn(block) - 1);
}

/** The logs of one block in log-index order, each with its transaction's sender. */
export function v3BlockLogs(block: number): { log: ChainLog; from: string }[] {
  if (block < V3_FIRST_BLOCK) return [];
  const out: { log: ChainLog; from: string }[] = [];
  let tx = 0;
  const emit = (address: string, topics: string[], data: string[], from: string) =>
    out.push({
      log: {
        address,
        topics,
        data: `0x${data.join("")}`,
        blockNumber: block,
        transactionHash: `0x${block.toString(16).padStart(48, "0")}${tx.toString(16).padStart(16, "0")}`,
        logIndex: out.length,
      },
      from,
    });
  const poolMint = (tokenId: number, amount: bigint) => {
    const p = v3Position(tokenId);
    emit(
      V3_POOL,
      [MINT_TOPIC, addressTopic(V3_MANAGER), topic(BigInt(p.tickLower)), topic(BigInt(p.tickUpper))],
      [word(BigInt(V3_MANAGER)), word(amount), word(amount / 3n), word(amount / 5n)],
      holder(0),
    );
  };
  const change = (kind: string, tokenId: number, amount: bigint, from: string) =>
    emit(V3_MANAGER, [kind, topic(BigInt(tokenId))], [word(amount), word(amount / 3n), word(amount / 5n)], from);

  const swaps = swapsIn(block);
  let previous = block === V3_FIRST_BLOCK ? 0 : v3TickAt(block - 1);
  for (let k = 0; k < swaps; k++, tx++) {
    const tick = v3TickAfter(block, k);
    // The tick rises when token1 is paid in (amount1 > 0) and falls when token0 is.
    const up = tick > previous || (tick === previous && k % 2 === 0);
    const amount0 = BigInt(1 + (rand(block, k, 6) % 1_000_000)) * 1_000n;
    const amount1 = amount0 * 999_000_000_000n;
    const data = [word(up ? -amount0 : amount0), word(up ? amount1 : -amount1), word(sqrtRatioAtTick(tick)), word(10n ** 24n), word(BigInt(tick))];
    emit(V3_POOL, [SWAP_TOPIC, addressTopic(ROUTER), addressTopic(holder(rand(block, k, 7) % V3_HOLDERS))], data, holder(rand(block, k, 8) % V3_HOLDERS));
    previous = tick;
    if (k > 0) continue;
    // After the block's first swap: its mints (in the first blocks), then the scheduled position changes.
    if (block < SCHEDULE_START)
      for (let i = 0; i < 5; i++, tx++) {
        const tokenId = (block - V3_FIRST_BLOCK) * 5 + i + 1;
        const { liquidity0 } = v3Position(tokenId);
        const owner = v3OwnerAt(tokenId, block) as string;
        poolMint(tokenId, liquidity0);
        emit(V3_MANAGER, [TRANSFER_TOPIC, addressTopic(NULL), addressTopic(owner), topic(BigInt(tokenId))], [], owner);
        change(INCREASE_TOPIC, tokenId, liquidity0, owner);
      }
    else {
      for (let tokenId = block % TRANSFER_PERIOD || TRANSFER_PERIOD; tokenId <= V3_POSITIONS; tokenId += TRANSFER_PERIOD, tx++) {
        const [from, to] = [v3OwnerAt(tokenId, block - 1) as string, v3OwnerAt(tokenId, block) as string];
        emit(V3_MANAGER, [TRANSFER_TOPIC, addressTopic(from), addressTopic(to), topic(BigInt(tokenId))], [], from);
      }
      for (let tokenId = block % CHANGE_PERIOD || CHANGE_PERIOD; tokenId <= V3_POSITIONS; tokenId += CHANGE_PERIOD, tx++) {
        const step = 2n * v3Position(tokenId).step;
        poolMint(tokenId, step);
        change(INCREASE_TOPIC, tokenId, step, v3OwnerAt(tokenId, block) as string);
      }
      for (let tokenId = (block + CHANGE_PERIOD / 2) % CHANGE_PERIOD || CHANGE_PERIOD; tokenId <= V3_POSITIONS; tokenId += CHANGE_PERIOD, tx++)
        change(DECREASE_TOPIC, tokenId, v3Position(tokenId).step, v3OwnerAt(tokenId, block) as string);
    }
  }
  return out;
}

/** The last block of a set of at least `logs` logs from V3_FIRST_BLOCK, and how many logs it holds. */
export function v3RangeFor(logs: number): { toBlock: number; logs: number } {
  return recordedRange(v3BlockLogs, V3_FIRST_BLOCK, logs);
}

const sel = (signature: string) => id(signature).slice(0, 10);
const SLOT0 = sel("slot0()");
const OWNER_OF = sel("ownerOf(uint256)");
const POSITIONS = sel("positions(uint256)");
const CALL_WORDS: [string, string, string][] = [
  [V3_POOL, sel("token0()"), word(BigInt(V3_TOKEN0))],
  [V3_POOL, sel("token1()"), word(BigInt(V3_TOKEN1))],
  [V3_POOL, sel("fee()"), word(BigInt(V3_FEE))],
  [V3_POOL, sel("factory()"), word(BigInt(V3_FACTORY))],
  [V3_MANAGER, sel("factory()"), word(BigInt(V3_FACTORY))],
  [V3_TOKEN0, sel("decimals()"), word(6n)],
  [V3_TOKEN1, sel("decimals()"), word(18n)],
];

/**
 * The recorded chain as the engine and the amm-v3 adapter read it: logs, timestamps and senders (RecordedChain), and
 * eth_call answers (ChainCalls) at any block: immutable facts, slot0, positions(), ownerOf(). `latestBlock` is the
 * block a call without a block tag reads.
 */
export class RecordedV3Chain extends RecordedChain implements ChainCalls {
  readonly #immutable = new Map(CALL_WORDS.map(([to, data, answer]) => [`${to}|${data}`, `0x${answer}`]));

  constructor(private readonly latestBlock: number) {
    super(v3BlockLogs);
  }

  async call(to: string, data: string, blockTag?: number): Promise<string> {
    const block = blockTag ?? this.latestBlock;
    const fixed = this.#immutable.get(`${to}|${data}`);
    if (fixed !== undefined) return fixed;
    if (to === V3_POOL && data === SLOT0) {
      const tick = v3TickAt(block);
      return `0x${[sqrtRatioAtTick(tick), BigInt(tick), 0n, 1n, 1n, 0n, 1n].map(word).join("")}`;
    }
    const tokenId = Number.parseInt(data.slice(10), 16);
    if (to === V3_MANAGER && tokenId >= 1 && tokenId <= V3_POSITIONS && block >= v3Position(tokenId).mintBlock) {
      if (data.startsWith(OWNER_OF)) return addressTopic(v3OwnerAt(tokenId, block) as string);
      if (data.startsWith(POSITIONS)) {
        const p = v3Position(tokenId);
        const fields = [0n, 0n, BigInt(V3_TOKEN0), BigInt(V3_TOKEN1), BigInt(V3_FEE), BigInt(p.tickLower), BigInt(p.tickUpper), v3LiquidityAt(tokenId, block)];
        return `0x${[...fields, 0n, 0n, 0n, 0n].map(word).join("")}`;
      }
    }
    // A position asked for before its mint reverts, as the chain reader reports a revert (ethers' CALL_EXCEPTION):
    // the adapter's restore skips it, where any other failure would stop the run.
    throw Object.assign(new Error("execution reverted"), { code: "CALL_EXCEPTION" });
  }
}
