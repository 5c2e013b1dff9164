// The amm-v3 adapter: swaps as priceable legs; position NFTs as liquidity windows that are active only in range.
import { BaseError } from "@pointwise/errors";
import {
  type Adapter,
  type AdapterRuntime,
  type ChainLog,
  type IndexerEvent,
  isCallRevert,
  type LogContext,
  NULL_ADDRESS,
  swapLegs,
  wordAt,
} from "@pointwise/indexer-engine";
import {
  CALLS,
  DECREASE_TOPIC,
  decodeAddress,
  decodeInitializeTick,
  decodeLiquidityChange,
  decodeMint,
  decodeSwap,
  INCREASE_TOPIC,
  INITIALIZE_TOPIC,
  MINT_TOPIC,
  positionAsset,
  SWAP_TOPIC,
  signedAt,
  TRANSFER_TOPIC,
} from "./abi";
import { PositionBook } from "./book";
import { KnownPositions } from "./known";
import type { AmmV3Params } from "./params";
import { checkPositionManager, loadPoolFacts, type PoolFacts, poolKeyPrefix } from "./pool";

/**
 * Turns a V3 Swap log into two priceable swap actions (sold leg, bought leg) sharing one key. The pool's amounts
 * are signed from its side: the positive one was paid in by the trader (sold), the negative one paid out (bought).
 * Swaps with a zero sold or bought amount are skipped.
 */
export function swapEvents(facts: Pick<PoolFacts, "token0" | "token1" | "decimals0" | "decimals1">, log: ChainLog, ctx: LogContext): IndexerEvent[] {
  const { amount0, amount1 } = decodeSwap(log.data);
  // Stryker disable next-line EqualityOperator: with amount0 = 0 either direction has a zero leg, which swapLegs skips
  const zeroToOne = amount0 > 0n;
  const token0 = { asset: facts.token0, decimals: facts.decimals0, raw: zeroToOne ? amount0 : -amount0 };
  const token1 = { asset: facts.token1, decimals: facts.decimals1, raw: zeroToOne ? -amount1 : amount1 };
  return zeroToOne ? swapLegs("amm-v3", log, ctx, token0, token1) : swapLegs("amm-v3", log, ctx, token1, token0);
}

/**
 * A restore call's failure: undefined when the contract reverted (a position minted after that block, or burned),
 * rethrown when no answer came (a lost connection, a timeout), so a restart fails and is tried again rather than
 * silently dropping a live position.
 */
function unlessReverted(err: unknown): undefined {
  if (isCallRevert(err)) return undefined;
  throw err;
}

/** Positions restored in parallel at a restart (two calls each). */
const RESTORE_BATCH = 32;

/**
 * A pool Mint by the position manager, waiting for the manager's next log: its Transfer from the null address when
 * it mints a new position, or its IncreaseLiquidity when it adds to an existing one.
 */
interface PendingMint {
  txHash: string;
  tickLower: number;
  tickUpper: number;
}

/** Creates the amm-v3 adapter for one pool. */
export function createAmmV3Adapter(params: AmmV3Params, runtime: AdapterRuntime): Adapter {
  const pool = params.poolAddress;
  // Stryker disable next-line StringLiteral: without trackLP the manager's address is never called nor matched by a log's address; with it the schema requires one
  const manager = params.positionManagerAddress ?? "";
  const trackLP = params.trackLP === true;
  const trackSwaps = params.trackSwaps === true;
  const book = new PositionBook();
  // Token ids with their ranges: immutable facts of the pool, so they may be written ahead of the checkpoint.
  const known = new KnownPositions(runtime.store, `${poolKeyPrefix(runtime.adapterConfigHash, pool)}:${manager}:positions`);
  let facts: PoolFacts | undefined;
  let hydrated = false;
  let pending: PendingMint | undefined;

  // The schema requires trackSwaps or trackLP, and either needs the pool's swaps (trackLP for the tick).
  const filters = [{ address: pool, topics: [SWAP_TOPIC], withTransaction: trackSwaps }];
  if (trackLP) {
    filters.push({ address: pool, topics: [INITIALIZE_TOPIC, MINT_TOPIC], withTransaction: false });
    filters.push({ address: manager, topics: [TRANSFER_TOPIC, INCREASE_TOPIC, DECREASE_TOPIC], withTransaction: false });
  }

  /**
   * Before the first log of a run: the pool's tick and every known position's owner and liquidity as they were at
   * the end of the previous block, so a restart continues from chain state rather than from memory.
   */
  async function hydrate(block: number): Promise<void> {
    hydrated = true;
    if (block === 0) return;
    const at = block - 1;
    const slot0 = await runtime.chain.call(pool, CALLS.slot0, at).catch(unlessReverted);
    if (slot0 !== undefined && slot0.length >= 2 + 64 * 2 && wordAt(slot0, 0) !== 0n) book.moveTick(Number(signedAt(slot0, 1)));
    await known.load();
    // Positions burned by then are skipped without a call; one minted later (its record written ahead of the
    // checkpoint) answers with a revert and is skipped too, to be added again when the replay reaches its mint.
    const live = known.values().filter((p) => p.burnedAt === undefined || p.burnedAt > at);
    // Stryker disable next-line EqualityOperator: one more pass at start = live.length restores nothing
    for (let start = 0; start < live.length; start += RESTORE_BATCH) {
      const slice = live.slice(start, start + RESTORE_BATCH);
      const answers = await Promise.all(
        slice.map(async (p) => {
          const [position, owner] = await Promise.all([
            runtime.chain.call(manager, CALLS.positions(p.tokenId), at).catch(unlessReverted),
            runtime.chain.call(manager, CALLS.ownerOf(p.tokenId), at).catch(unlessReverted),
          ]);
          return { ...p, position, owner };
        }),
      );
      for (const { tokenId, tickLower, tickUpper, position, owner } of answers) {
        if (position === undefined || owner === undefined) continue;
        book.add({ tokenId, asset: positionAsset(manager, tokenId), tickLower, tickUpper, owner: decodeAddress(owner), liquidity: wordAt(position, 7) });
      }
    }
    runtime.logger.info({ pool, block, known: known.size, positions: book.size, tick: book.tick }, "amm-v3 positions restored");
  }

  async function register(tokenId: bigint, mint: PendingMint, owner: string): Promise<IndexerEvent[]> {
    const f = facts as PoolFacts;
    const asset = positionAsset(manager, tokenId);
    await runtime.labels.set(asset, {
      protocol: "amm-v3",
      role: "position",
      pool,
      positionManager: manager,
      tokenId: tokenId.toString(),
      token0: f.token0,
      token1: f.token1,
      decimals0: String(f.decimals0),
      decimals1: String(f.decimals1),
      fee: String(f.fee),
      tickLower: String(mint.tickLower),
      tickUpper: String(mint.tickUpper),
    });
    await known.add(tokenId, mint.tickLower, mint.tickUpper);
    return book.add({ tokenId, asset, tickLower: mint.tickLower, tickUpper: mint.tickUpper, owner, liquidity: 0n });
  }

  async function handleManager(log: ChainLog): Promise<IndexerEvent[]> {
    const topic = log.topics[0];
    // The manager's next log after a pool Mint is that Mint's Transfer or IncreaseLiquidity: whichever it is ends the wait.
    const mint = pending;
    pending = undefined;
    if (topic === TRANSFER_TOPIC) {
      // The position manager's Transfer is ERC-721: from, to and the token id are all indexed.
      if (log.topics.length !== 4) return [];
      const from = decodeAddress(log.topics[1] as string);
      const to = decodeAddress(log.topics[2] as string);
      const tokenId = wordAt(log.topics[3] as string, 0);
      if (from === NULL_ADDRESS) {
        // A new NFT of this pool when the pool's Mint for the position manager came just before, in the same
        // transaction; otherwise a position of another pool of the same manager.
        if (mint?.txHash !== log.transactionHash) return [];
        return register(tokenId, mint, to);
      }
      // A token the book does not hold (another pool's position) changes nothing: remove, burn and transfer skip it.
      if (to === NULL_ADDRESS) {
        book.remove(tokenId);
        await known.burn(tokenId, log.blockNumber);
        return [];
      }
      return book.transfer(tokenId, to);
    }
    if (topic === INCREASE_TOPIC || topic === DECREASE_TOPIC) {
      const { tokenId, liquidity } = decodeLiquidityChange(log.topics, log.data);
      return book.changeLiquidity(tokenId, topic === INCREASE_TOPIC ? liquidity : -liquidity);
    }
    return [];
  }

  function handlePool(log: ChainLog, ctx: LogContext): IndexerEvent[] {
    const topic = log.topics[0];
    if (topic === SWAP_TOPIC) {
      const out = trackSwaps ? swapEvents(facts as PoolFacts, log, ctx) : [];
      // Stryker disable next-line ConditionalExpression: without trackLP the book holds no position, so the tick moves nothing; skipped to spare the decoding
      if (trackLP) out.push(...book.moveTick(decodeSwap(log.data).tick));
      return out;
    }
    // Initialize and Mint are only asked for with trackLP (the filters above).
    if (topic === INITIALIZE_TOPIC) return book.moveTick(decodeInitializeTick(log.data));
    if (topic === MINT_TOPIC) {
      const mint = decodeMint(log.topics, log.data);
      if (mint.owner === manager) pending = { txHash: log.transactionHash, tickLower: mint.tickLower, tickUpper: mint.tickUpper };
    }
    return [];
  }

  return {
    filters,
    contracts: trackLP ? [pool, manager] : [pool],
    async init() {
      facts = await loadPoolFacts(pool, runtime);
      if (trackLP) await checkPositionManager(manager, pool, facts, runtime);
      await runtime.labels.set(pool, { protocol: "amm-v3", role: "pool", token0: facts.token0, token1: facts.token1, fee: String(facts.fee) });
      await runtime.labels.set(facts.token0, { decimals: String(facts.decimals0) });
      await runtime.labels.set(facts.token1, { decimals: String(facts.decimals1) });
    },
    async handle(log, ctx) {
      if (facts === undefined) throw new BaseError("adapter-failed", "amm-v3: pool facts were not loaded before the first log");
      if (log.address !== pool && log.address !== manager) return [];
      if (trackLP && !hydrated) await hydrate(log.blockNumber);
      return log.address === pool ? handlePool(log, ctx) : trackLP ? handleManager(log) : [];
    },
  };
}
