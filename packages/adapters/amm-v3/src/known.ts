// The pool's known position NFTs in the state store: one key per position and a count, so a new position costs two writes.
import { BaseError } from "@pointwise/errors";
import type { KeyValueStore } from "@pointwise/indexer-engine";

/** A position NFT of the pool as stored: its token id, tick range and, once burned, the block of its burn. */
export interface KnownPosition {
  tokenId: bigint;
  tickLower: number;
  tickUpper: number;
  burnedAt?: number;
}

const RECORD = /^(\d+):(-?\d+):(-?\d+)(?::(\d+))?$/;

/** Encodes a stored position record: `tokenId:tickLower:tickUpper[:burnBlock]`. */
export function encodeKnown(p: KnownPosition): string {
  const base = `${p.tokenId}:${p.tickLower}:${p.tickUpper}`;
  return p.burnedAt === undefined ? base : `${base}:${p.burnedAt}`;
}

/** Decodes a stored position record; anything else is undefined (the caller says which key held it). */
export function decodeKnown(value: string): KnownPosition | undefined {
  const m = RECORD.exec(value);
  if (m === null) return undefined;
  const p: KnownPosition = { tokenId: BigInt(m[1] as string), tickLower: Number(m[2]), tickUpper: Number(m[3]) };
  if (m[4] !== undefined) p.burnedAt = Number(m[4]);
  return p;
}

/**
 * Every position NFT the adapter has seen for the pool, as an append-only list in the key-value store: `<prefix>:n`
 * holds the count and `<prefix>:<i>` the i-th record. Appending writes the record first and the count second, so a
 * crash in between leaves a record past the count, which the replay of the same mint writes again. A burn rewrites
 * only that position's record. Token ids and ranges never change, so they may be written ahead of the checkpoint;
 * a burn block is a fact of a final block too, and a restore before it still reads the position from the chain.
 */
export class KnownPositions {
  readonly #index = new Map<bigint, number>();
  readonly #records: KnownPosition[] = [];

  constructor(
    private readonly store: KeyValueStore,
    private readonly prefix: string,
  ) {}

  /** Number of positions known. */
  get size(): number {
    return this.#records.length;
  }

  /**
   * Reads the stored list, `batch` keys at a time. A record that is missing or does not parse fails the adapter with
   * `adapter-failed`: restoring without it would lose that position's liquidity changes.
   */
  async load(batch = 64): Promise<number> {
    const count = Number((await this.store.get(`${this.prefix}:n`)) ?? 0);
    // Stryker disable next-line EqualityOperator: one more pass at start = count reads no key
    for (let start = 0; start < count; start += batch) {
      const keys = Array.from({ length: Math.min(batch, count - start) }, (_, k) => `${this.prefix}:${start + k}`);
      const values = await Promise.all(keys.map((key) => this.store.get(key)));
      values.forEach((value, k) => {
        // Stryker disable next-line ConditionalExpression: a missing value read as text ("undefined") matches no record either
        const p = value === undefined ? undefined : decodeKnown(value);
        if (p === undefined)
          throw new BaseError("adapter-failed", `amm-v3: stored position record ${keys[k]} is unreadable (${value ?? "missing"})`, {
            details: { key: keys[k], value },
          });
        if (!this.#index.has(p.tokenId)) this.#push(p);
      });
    }
    return this.#records.length;
  }

  /** Records a new position (a no-op when the token id is known already). */
  async add(tokenId: bigint, tickLower: number, tickUpper: number): Promise<void> {
    if (this.#index.has(tokenId)) return;
    const p = { tokenId, tickLower, tickUpper };
    const i = this.#push(p);
    await this.store.set(`${this.prefix}:${i}`, encodeKnown(p));
    await this.store.set(`${this.prefix}:n`, String(i + 1));
  }

  /** Records the block in which a known position was burned, so a later restore reads nothing for it. */
  async burn(tokenId: bigint, block: number): Promise<void> {
    const i = this.#index.get(tokenId);
    if (i === undefined) return;
    const p = this.#records[i] as KnownPosition;
    if (p.burnedAt !== undefined) return;
    p.burnedAt = block;
    await this.store.set(`${this.prefix}:${i}`, encodeKnown(p));
  }

  /** The known positions, in the order they were first seen. */
  values(): readonly KnownPosition[] {
    return this.#records;
  }

  #push(p: KnownPosition): number {
    const i = this.#records.length;
    this.#records.push(p);
    this.#index.set(p.tokenId, i);
    return i;
  }
}
