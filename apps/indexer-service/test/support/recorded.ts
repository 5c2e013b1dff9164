// A recorded chain served from a generator: any history whose logs are a pure function of the block number is read
// range by range like eth_getLogs, with its blocks' timestamps and its transactions' senders, and never held whole.
import { createHash } from "node:crypto";
import type { BlockSource, ChainLog, LogSource } from "@pointwise/indexer-engine";

/** The logs of one block in log-index order, each with its transaction's sender. */
export type BlockLogs = (block: number) => { log: ChainLog; from: string }[];

/** Unix ms of a block in every recorded history: one block every 12 seconds from 2024-01-01. */
export function recordedBlockTs(block: number): number {
  return 1_704_067_200_000 + block * 12_000;
}

/** The last block of a set of at least `logs` logs from `firstBlock`, and how many logs it holds. */
export function recordedRange(blockLogs: BlockLogs, firstBlock: number, logs: number): { toBlock: number; logs: number } {
  let total = 0;
  for (let block = firstBlock; ; block++) {
    total += blockLogs(block).length;
    if (total >= logs) return { toBlock: block, logs: total };
  }
}

/** SHA-256 over every log of a set (block, index, topics, data, sender), so a report can name exactly what it measured. */
export function recordedFingerprint(blockLogs: BlockLogs, firstBlock: number, toBlock: number): string {
  const h = createHash("sha256");
  for (let block = firstBlock; block <= toBlock; block++)
    for (const { log, from } of blockLogs(block)) h.update(`${log.blockNumber}|${log.logIndex}|${log.topics.join(",")}|${log.data}|${from}\n`);
  return h.digest("hex").slice(0, 16);
}

/**
 * A generated history as the engine reads it: logs by block range (LogSource; addresses and topics are not filtered,
 * the set holds only what its adapter asks for), timestamps and senders (BlockSource). Only the senders of the range
 * last served are held, like a node answering from its index.
 */
export class RecordedChain implements LogSource, BlockSource {
  #senders: ReadonlyMap<string, string> = new Map();

  constructor(private readonly blockLogs: BlockLogs) {}

  async logs(_addresses: readonly string[], _topics: readonly string[], from: number, to: number): Promise<ChainLog[]> {
    const out: ChainLog[] = [];
    const senders = new Map<string, string>();
    for (let block = from; block <= to; block++)
      for (const { log, from: sender } of this.blockLogs(block)) {
        out.push(log);
        senders.set(log.transactionHash, sender);
      }
    this.#senders = senders;
    // Through JSON like an eth_getLogs answer, so the engine gets flat strings rather than the generator's concatenations
    // (which V8 would flatten on first use, inside a measured step).
    return JSON.parse(JSON.stringify(out)) as ChainLog[];
  }

  /** The senders of the range last served, to replay that range later without reading it again. */
  get senders(): ReadonlyMap<string, string> {
    return this.#senders;
  }

  /** Serves the senders of a range read earlier (see `senders`). */
  replay(senders: ReadonlyMap<string, string>): void {
    this.#senders = senders;
  }

  async timestamp(block: number): Promise<number> {
    return recordedBlockTs(block);
  }

  async timestamps(blocks: readonly number[]): Promise<Map<number, number>> {
    return new Map(blocks.map((b) => [b, recordedBlockTs(b)]));
  }

  async transactionFrom(hash: string): Promise<string | undefined> {
    return this.#senders.get(hash);
  }
}

/** A 32-byte ABI word of a uint256 or an address, without 0x. */
export const abiWord = (v: bigint | string) => (typeof v === "string" ? v.slice(2).padStart(64, "0") : v.toString(16).padStart(64, "0"));

/**
 * Collects one block's logs in log-index order for a generator: `tx` (the transaction's index in the block, which
 * makes its hash) and `from` (its sender) are set before each transaction's logs are emitted.
 */
export class BlockWriter {
  readonly out: { log: ChainLog; from: string }[] = [];
  tx = 0;
  from = "";

  constructor(private readonly block: number) {}

  /** Appends a log with `data` as ABI words. */
  emit(address: string, topics: string[], data: (bigint | string)[]): void {
    this.out.push({
      log: {
        address,
        topics,
        data: `0x${data.map(abiWord).join("")}`,
        blockNumber: this.block,
        transactionHash: `0x${this.block.toString(16).padStart(48, "0")}${this.tx.toString(16).padStart(16, "0")}`,
        logIndex: this.out.length,
      },
      from: this.from,
    });
  }
}
