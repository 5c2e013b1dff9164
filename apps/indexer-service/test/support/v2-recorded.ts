// A recorded amm-v2 pool history for the indexer benchmark: a constant-product pool's LP Transfer and Swap logs,
// generated deterministically block by block (every block's logs are a pure function of its number and the
// seed), so a set of any size is the same on every run and machine, is read range by range like eth_getLogs,
// and never has to sit in memory or on disk as a whole.

import { SWAP_TOPIC, TRANSFER_TOPIC } from "@pointwise/adapter-amm-v2";
import type { ChainLog } from "@pointwise/indexer-engine";
import { seededUint32 } from "@pointwise/testkit";
import { type BlockLogs, RecordedChain, recordedFingerprint, recordedRange } from "./recorded";

/** The pool, its tokens and the shape of the history. */
export const POOL = "0x00000000000000000000000000000000000000a0";
export const TOKEN0 = "0x00000000000000000000000000000000000000f0";
export const TOKEN1 = "0x00000000000000000000000000000000000000f1";
export const HOLDERS = 500;
export const FIRST_BLOCK = 1_000;
const ROUTER = "0x00000000000000000000000000000000000000c0";
/** Blocks at the start that mint LP to every holder, five mints each. */
const MINT_BLOCKS = HOLDERS / 5;
const NULL_WORD = `0x${"0".repeat(64)}`;

const word = (value: bigint) => value.toString(16).padStart(64, "0");
const holder = (i: number) => `0x${(0xb000 + i).toString(16).padStart(40, "0")}`;
const topicOf = (address: string) => `0x${address.slice(2).padStart(64, "0")}`;

/** Transaction hash of the `logIndex`-th log of a block (one log per transaction). */
function txHash(block: number, logIndex: number): string {
  return `0x${block.toString(16).padStart(48, "0")}${logIndex.toString(16).padStart(16, "0")}`;
}

/** Number of logs in a block: five in the mint blocks, otherwise 1 to 9 (five on average). */
export function logsInBlock(block: number): number {
  const k = block - FIRST_BLOCK;
  if (k < 0) return 0;
  return k < MINT_BLOCKS ? 5 : 1 + (seededUint32(block * 2_654_435_761)() % 9);
}

/** The logs of one block, in log-index order, and the sender of each log's transaction. */
const blockLogs: BlockLogs = (block) => {
  const count = logsInBlock(block);
  const next = seededUint32(block * 2_654_435_761);
  next(); // the draw logsInBlock used
  const out: { log: ChainLog; from: string }[] = [];
  const k = block - FIRST_BLOCK;
  for (let i = 0; i < count; i++) {
    const base = { address: POOL, blockNumber: block, transactionHash: txHash(block, i), logIndex: i };
    if (k < MINT_BLOCKS) {
      // 1,000 to 2,000 LP with all 18 decimals used.
      const value = 10n ** 21n + BigInt(next()) * 232_830_643_653n;
      out.push({ log: { ...base, topics: [TRANSFER_TOPIC, NULL_WORD, topicOf(holder(k * 5 + i))], data: `0x${word(value)}` }, from: holder(k * 5 + i) });
      continue;
    }
    const a = holder(next() % HOLDERS);
    const b = holder(next() % HOLDERS);
    const kind = next() % 100;
    if (kind < 68) {
      // LP moves between holders: up to 4.3 LP, far below what each was minted, so balances stay positive.
      const value = BigInt(next()) * 1_000_000_000n + BigInt(next() % 1_000_000_000);
      out.push({ log: { ...base, topics: [TRANSFER_TOPIC, topicOf(a), topicOf(b)], data: `0x${word(value)}` }, from: a });
    } else if (kind < 70) {
      // A burn: LP leaves a holder for the null address.
      const value = BigInt(next()) * 1_000_000n;
      out.push({ log: { ...base, topics: [TRANSFER_TOPIC, topicOf(a), NULL_WORD], data: `0x${word(value)}` }, from: a });
    } else {
      // Swaps through a router (Swap.sender is the router, the user is the transaction sender), both ways.
      const usdc = BigInt(next()) * 1_000n + BigInt(next() % 1_000);
      const eth = usdc * 400_000_000n + BigInt(next());
      const amounts = kind % 2 === 0 ? [usdc, 0n, 0n, eth] : [0n, eth, usdc, 0n];
      out.push({ log: { ...base, topics: [SWAP_TOPIC, topicOf(ROUTER), topicOf(b)], data: `0x${amounts.map(word).join("")}` }, from: a });
    }
  }
  return out;
};

/** The last block of a set of at least `logs` logs, and how many logs it holds. */
export const rangeFor = (logs: number) => recordedRange(blockLogs, FIRST_BLOCK, logs);

/** SHA-256 over every log of the set up to `toBlock`, so a report can name exactly what it measured. */
export const fingerprint = (toBlock: number) => recordedFingerprint(blockLogs, FIRST_BLOCK, toBlock);

/** The recorded pool history as the engine reads it (logs by range, timestamps, senders). */
export const recordedChain = () => new RecordedChain(blockLogs);
