// A recorded ERC-4626 vault history for the vault benchmark: deposits, withdrawals, redemptions and share transfers by
// many users over days of chain time, and a strategy's gains that raise the share price without a vault log, with
// the logs in the order and encoding OpenZeppelin's ERC4626 emits them and the calls the adapter and the feed make.
import type { ChainCalls, ChainLog } from "@pointwise/indexer-engine";
import { seededUint32 } from "@pointwise/testkit";
import { Interface, id } from "ethers";
import { abiWord, type BlockLogs, BlockWriter, RecordedChain, recordedFingerprint, recordedRange } from "./recorded";

/** The vault, which is its own share token (9 decimals). */
export const VAULT = "0x00000000000000000000000000000000000006a0";
/** The vault's 6-decimal underlying asset. */
export const VAULT_ASSET = "0x00000000000000000000000000000000000006f0";
/** The strategy that sends the vault its gains. */
const STRATEGY = "0x00000000000000000000000000000000000006c0";
/** First block with logs; the holders' first deposits fill its first `VAULT_HOLDERS / 5` blocks, five per block. */
export const VAULT_FIRST_BLOCK = 1_000;
/** Number of holders (senders and share owners). */
export const VAULT_HOLDERS = 1_000;
/** OpenZeppelin's decimals offset of the vault: shares have 3 more decimals than the asset. */
const OFFSET = 10n ** 3n;

const abi = new Interface((require("@openzeppelin/contracts/build/contracts/ERC4626.json") as { abi: never }).abi);
const topicOf = (name: string) => abi.getEvent(name)?.topicHash as string;
const T = { Transfer: topicOf("Transfer"), Deposit: topicOf("Deposit"), Withdraw: topicOf("Withdraw") };
const NULL = "0x0000000000000000000000000000000000000000";
const word = abiWord;
const topic = (v: string) => `0x${word(v)}`;
const holder = (i: number) => `0x${(0xe000 + i).toString(16).padStart(40, "0")}`;
const mulDiv = (a: bigint, b: bigint, c: bigint, up: boolean) => (up ? (a * b + c - 1n) / c : (a * b) / c);

/**
 * The vault generated forward block by block (a block's logs depend on the balances before it). `logs(block)` is every
 * log of that block; `totalsAt(block)` the vault's total assets and share supply at the end of a generated block.
 */
export class VaultHistory {
  #next = VAULT_FIRST_BLOCK;
  #assets = 0n;
  #supply = 0n;
  #shares: bigint[] = [];
  /** Total assets and supply at the end of each generated block, from VAULT_FIRST_BLOCK. */
  #totals: [bigint, bigint][] = [];

  constructor() {
    this.#reset();
  }

  #reset(): void {
    this.#next = VAULT_FIRST_BLOCK;
    this.#assets = 0n;
    this.#supply = 0n;
    this.#shares = new Array(VAULT_HOLDERS).fill(0n);
    this.#totals = [];
  }

  /** Each holder's share balance after the last generated block. */
  get shares(): readonly bigint[] {
    return this.#shares;
  }

  /** The vault's totalAssets() and totalSupply() at the end of `block`, generating up to it when needed. */
  totalsAt(block: number): [assets: bigint, supply: bigint] {
    if (block < VAULT_FIRST_BLOCK) return [0n, 0n];
    while (this.#next <= block) this.#generate(this.#next++);
    return this.#totals[block - VAULT_FIRST_BLOCK] as [bigint, bigint];
  }

  /** Every log of `block` in log-index order with its transaction's sender; earlier blocks restart the history. */
  logs(block: number): { log: ChainLog; from: string }[] {
    if (block < VAULT_FIRST_BLOCK) return [];
    if (block < this.#next) this.#reset();
    while (this.#next < block) this.#generate(this.#next++);
    return this.#generate(this.#next++);
  }

  #generate(block: number): { log: ChainLog; from: string }[] {
    const next = seededUint32(Math.imul(block, 0x9e3779b1) ^ 0x6a0);
    const w = new BlockWriter(block);
    const emit = w.emit.bind(w);
    const k = block - VAULT_FIRST_BLOCK;
    const opening = k < VAULT_HOLDERS / 5;
    const count = opening ? 5 : 1 + (next() % 5);
    for (; w.tx < count; w.tx++) {
      const u = opening ? k * 5 + w.tx : next() % VAULT_HOLDERS;
      w.from = holder(u);
      const who = topic(holder(u));
      const kind = opening ? 99 : next() % 100;
      const shares = this.#shares[u] as bigint;
      const half = (of: bigint) => (of * BigInt(1 + (next() % 50))) / 100n;
      if (kind < 5) {
        // A strategy's gain: underlying sent to the vault, 0.05 to 0.5 basis points of its assets; no vault log.
        w.from = STRATEGY;
        const gain = (this.#assets * BigInt(5 + (next() % 46))) / 1_000_000n + 1n;
        this.#assets += gain;
        emit(VAULT_ASSET, [T.Transfer, topic(STRATEGY), topic(VAULT)], [gain]);
      } else if (kind < 55 && shares > 1_000n) {
        // A share transfer to another holder.
        const to = (u + 1 + (next() % (VAULT_HOLDERS - 1))) % VAULT_HOLDERS;
        const value = half(shares);
        this.#shares[u] = shares - value;
        this.#shares[to] = (this.#shares[to] as bigint) + value;
        emit(VAULT, [T.Transfer, who, topic(holder(to))], [value]);
      } else if (kind < 70 && shares > 1_000_000n) {
        // withdraw(assets): shares rounded up; the assets go to the holder.
        const assets = half(mulDiv(shares, this.#assets + 1n, this.#supply + OFFSET, false));
        const burned = mulDiv(assets, this.#supply + OFFSET, this.#assets + 1n, true);
        this.#out(u, assets, burned, emit);
      } else if (kind < 80 && shares > 1_000_000n) {
        // redeem(shares): assets rounded down.
        const burned = half(shares);
        this.#out(u, mulDiv(burned, this.#assets + 1n, this.#supply + OFFSET, false), burned, emit);
      } else {
        // deposit(assets): 10 to 50,000 units of the asset with every decimal used; shares rounded down.
        const assets = BigInt(10 + (next() % 49_991)) * 1_000_000n + BigInt(next() % 1_000_000);
        const minted = mulDiv(assets, this.#supply + OFFSET, this.#assets + 1n, false);
        this.#assets += assets;
        this.#supply += minted;
        this.#shares[u] = shares + minted;
        emit(VAULT_ASSET, [T.Transfer, who, topic(VAULT)], [assets]);
        emit(VAULT, [T.Transfer, topic(NULL), who], [minted]);
        emit(VAULT, [T.Deposit, who, who], [assets, minted]);
      }
    }
    this.#totals[block - VAULT_FIRST_BLOCK] = [this.#assets, this.#supply];
    return w.out;
  }

  /** ERC4626._withdraw of the holder's own shares to themselves: burn, asset transfer, Withdraw. */
  #out(u: number, assets: bigint, burned: bigint, emit: (address: string, topics: string[], data: (bigint | string)[]) => void): void {
    const who = topic(holder(u));
    this.#shares[u] = (this.#shares[u] as bigint) - burned;
    this.#supply -= burned;
    this.#assets -= assets;
    emit(VAULT, [T.Transfer, who, topic(NULL)], [burned]);
    emit(VAULT_ASSET, [T.Transfer, topic(VAULT), who], [assets]);
    emit(VAULT, [T.Withdraw, who, who, who], [assets, burned]);
  }
}

/** A reader of the logs the vault adapter asks for (the vault's own), as eth_getLogs with its filter answers. */
export function vaultBlockLogs(history = new VaultHistory()): BlockLogs {
  return (block) => history.logs(block).filter(({ log }) => log.address === VAULT);
}

/** The last block of a set of at least `logs` vault logs, and how many it holds. */
export const vaultRangeFor = (logs: number) => recordedRange(vaultBlockLogs(), VAULT_FIRST_BLOCK, logs);

/** SHA-256 over every vault log up to `toBlock`. */
export const vaultFingerprint = (toBlock: number) => recordedFingerprint(vaultBlockLogs(), VAULT_FIRST_BLOCK, toBlock);

const sel = (signature: string) => id(signature).slice(0, 10);
const CONVERT_ONE_SHARE = `${sel("convertToAssets(uint256)")}${word(10n ** 9n)}`;

/**
 * The recorded vault as the engine, the vault adapter and the `vaultshare` feed read it: logs, timestamps and senders
 * (RecordedChain), and eth_call answers at any block (asset(), decimals(), convertToAssets of one share).
 */
export class RecordedVaultChain extends RecordedChain implements ChainCalls {
  readonly #totals = new VaultHistory();

  constructor(private readonly latestBlock: number) {
    super(vaultBlockLogs());
  }

  async call(to: string, data: string, blockTag?: number): Promise<string> {
    if (to === VAULT && data === sel("asset()")) return `0x${word(VAULT_ASSET)}`;
    if (data === sel("decimals()") && (to === VAULT || to === VAULT_ASSET)) return `0x${word(to === VAULT ? 9n : 6n)}`;
    if (to === VAULT && data === CONVERT_ONE_SHARE) {
      const [assets, supply] = this.#totals.totalsAt(blockTag ?? this.latestBlock);
      return `0x${word(mulDiv(10n ** 9n, assets + 1n, supply + OFFSET, false))}`;
    }
    throw new Error("execution reverted");
  }
}
