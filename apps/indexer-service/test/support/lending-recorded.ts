// A recorded Aave V3 market history for the lending benchmark: supplies, withdrawals, variable borrows, repays and
// aToken transfers by many users over days of chain time, each transaction's logs in the order and encoding the
// Pool, aTokens, variable debt tokens and underlying tokens emit them. Indices and scaled balances carry over from
// block to block, so the history is generated forward from its first block and restarted when an earlier block is asked for.
import type { ChainLog } from "@pointwise/indexer-engine";
import { seededUint32 } from "@pointwise/testkit";
import { Interface } from "ethers";
import { aaveArtifact } from "./aave";
import { abiWord, type BlockLogs, BlockWriter, recordedBlockTs, recordedFingerprint, recordedRange } from "./recorded";

/** The recorded market's Pool. */
export const LENDING_POOL = "0x00000000000000000000000000000000000005a0";
/** First block with logs; the users' first supplies fill its first `LENDING_USERS / 5` blocks, five per block. */
export const LENDING_FIRST_BLOCK = 1_000;
/** Number of users (senders and position holders). */
export const LENDING_USERS = 1_000;

/** One reserve of the recorded market: underlying, aToken, variable debt token, decimals. */
export interface RecordedReserve {
  asset: string;
  aToken: string;
  debtToken: string;
  decimals: number;
}

/** The two reserves: a 6-decimal dollar and an 18-decimal ether. */
export const LENDING_RESERVES: readonly RecordedReserve[] = [
  {
    asset: "0x00000000000000000000000000000000000005f0",
    aToken: "0x00000000000000000000000000000000000005f1",
    debtToken: "0x00000000000000000000000000000000000005f2",
    decimals: 6,
  },
  {
    asset: "0x00000000000000000000000000000000000005e0",
    aToken: "0x00000000000000000000000000000000000005e1",
    debtToken: "0x00000000000000000000000000000000000005e2",
    decimals: 18,
  },
];

const RAY = 10n ** 27n;
const YEAR = 365n * 24n * 3600n;
const NULL = "0x0000000000000000000000000000000000000000";
const rayMul = (a: bigint, b: bigint) => (a * b + RAY / 2n) / RAY;
const rayDiv = (a: bigint, b: bigint) => (a * RAY + b / 2n) / b;
const compounded = (rate: bigint, dt: bigint) => {
  const two = rayMul(rate, rate) / (YEAR * YEAR);
  const three = rayMul(two, rate) / YEAR;
  return RAY + (rate * dt) / YEAR + (dt * (dt - 1n) * two) / 2n + (dt * (dt - 1n) * (dt > 2n ? dt - 2n : 0n) * three) / 6n;
};

/** topic0 of each event, from the ABIs of the contracts @aave/core-v3 publishes. */
function topicsOf(artifact: string, names: string[]): Record<string, string> {
  const abi = new Interface(aaveArtifact(artifact).abi as never);
  return Object.fromEntries(names.map((n) => [n, abi.getEvent(n)?.topicHash as string]));
}
const POOL_T = topicsOf("Pool", ["ReserveDataUpdated", "Supply", "Withdraw", "Borrow", "Repay", "ReserveUsedAsCollateralEnabled"]);
const TOKEN_T = topicsOf("AToken", ["Transfer", "Mint", "Burn", "BalanceTransfer"]);

/** The topics of the logs the lending adapter asks for (the rest of each transaction's logs are not served). */
const READ = new Set([POOL_T.ReserveDataUpdated, TOKEN_T.Mint, TOKEN_T.Burn, TOKEN_T.BalanceTransfer]);

const word = abiWord;
const topic = (v: bigint | string) => `0x${word(v)}`;
const user = (i: number) => `0x${(0xa000 + i).toString(16).padStart(40, "0")}`;

/** A reserve's interest state and totals, as the Pool keeps them. */
interface ReserveSim extends RecordedReserve {
  liquidityIndex: bigint;
  variableBorrowIndex: bigint;
  liquidityRate: bigint;
  variableBorrowRate: bigint;
  updatedAt: bigint;
  scaledSupply: bigint;
  scaledDebt: bigint;
  /** Per user: scaled balance and the index of their last balance change, for the aToken and the debt token. */
  supply: bigint[];
  supplyIndex: bigint[];
  debt: bigint[];
  debtIndex: bigint[];
}

/** What the generator holds after a block: each reserve's state and each user's scaled balances. */
export interface LendingState {
  reserves: readonly Readonly<ReserveSim>[];
}

/**
 * The market generated forward block by block. `logs(block)` is every log of that block (all events of each
 * transaction); the state after the last generated block is `state`.
 */
export class LendingHistory {
  #next = LENDING_FIRST_BLOCK;
  #reserves: ReserveSim[] = [];

  constructor() {
    this.#reset();
  }

  #reset(): void {
    this.#next = LENDING_FIRST_BLOCK;
    // A market that has run for a while: indices above one, as on a real deployment.
    this.#reserves = LENDING_RESERVES.map((r, i) => ({
      ...r,
      liquidityIndex: 1_031_234_567_890_123_456_789_012_345n + BigInt(i) * 10n ** 25n,
      variableBorrowIndex: 1_052_345_678_901_234_567_890_123_456n + BigInt(i) * 10n ** 25n,
      liquidityRate: 0n,
      variableBorrowRate: 0n,
      updatedAt: 0n,
      scaledSupply: 0n,
      scaledDebt: 0n,
      supply: new Array(LENDING_USERS).fill(0n),
      supplyIndex: new Array(LENDING_USERS).fill(0n),
      debt: new Array(LENDING_USERS).fill(0n),
      debtIndex: new Array(LENDING_USERS).fill(0n),
    }));
  }

  /** Each reserve's state and every user's scaled balances after the last generated block. */
  get state(): LendingState {
    return { reserves: this.#reserves };
  }

  /** Every log of `block` in log-index order with its transaction's sender; earlier blocks restart the history. */
  logs(block: number): { log: ChainLog; from: string }[] {
    if (block < LENDING_FIRST_BLOCK) return [];
    if (block < this.#next) this.#reset();
    while (this.#next < block) this.#generate(this.#next++);
    return this.#generate(this.#next++);
  }

  #generate(block: number): { log: ChainLog; from: string }[] {
    const now = BigInt(recordedBlockTs(block) / 1000);
    const next = seededUint32(Math.imul(block, 0x9e3779b1) ^ 0x5a0);
    const w = new BlockWriter(block);
    const emit = w.emit.bind(w);
    const k = block - LENDING_FIRST_BLOCK;
    const opening = k < LENDING_USERS / 5;
    const count = opening ? 5 : 1 + (next() % 5);
    for (; w.tx < count; w.tx++) {
      const u = opening ? k * 5 + w.tx : next() % LENDING_USERS;
      w.from = user(u);
      const r = this.#reserves[opening ? u % 2 : next() % 2] as ReserveSim;
      const kind = opening ? 0 : next() % 100;
      const amount = (scale: bigint) => (BigInt(1 + (next() % 50_000)) * 10n ** BigInt(r.decimals) * scale) / 10_000n + BigInt(next() % 1_000_000);
      const balance = rayMul(r.supply[u] as bigint, normalizedIncome(r, now));
      const owed = rayMul(r.debt[u] as bigint, r.variableBorrowIndex);
      const room = rayMul(r.scaledSupply, r.liquidityIndex) - rayMul(r.scaledDebt, r.variableBorrowIndex);
      const share = (of: bigint) => (of * BigInt(1 + (next() % 50))) / 100n;
      if (kind < 15 && balance > 10n ** 6n) this.#withdraw(r, u, now, share(balance), emit);
      else if (kind < 35 && room > 10n ** 6n && balance > 0n) this.#borrow(r, u, now, (room * BigInt(1 + (next() % 20))) / 1_000n, emit);
      else if (kind < 50 && owed > 10n ** 6n) this.#repay(r, u, now, share(owed), emit);
      else if (kind < 70 && balance > 10n ** 6n) this.#transfer(r, u, (u + 1 + (next() % (LENDING_USERS - 1))) % LENDING_USERS, now, share(balance), emit);
      else this.#supply(r, u, now, amount(r.decimals === 6 ? 10_000n : 1n), emit);
    }
    return w.out;
  }

  /** Pool's updateState: the indices grow by the rates set at the last update (the debt index only with debt). */
  #updateState(r: ReserveSim, now: bigint): void {
    if (r.updatedAt === now) return;
    const dt = now - r.updatedAt;
    if (r.liquidityRate !== 0n) r.liquidityIndex = rayMul(RAY + (r.liquidityRate * dt) / YEAR, r.liquidityIndex);
    if (r.scaledDebt !== 0n) r.variableBorrowIndex = rayMul(compounded(r.variableBorrowRate, dt), r.variableBorrowIndex);
    r.updatedAt = now;
  }

  /** New rates from utilization (5% + 20% x utilization, suppliers earning 90% of what borrowers pay), then the event. */
  #updateRates(r: ReserveSim, emit: Emit): void {
    const supplied = rayMul(r.scaledSupply, r.liquidityIndex);
    const borrowed = rayMul(r.scaledDebt, r.variableBorrowIndex);
    const utilization = supplied === 0n ? 0n : borrowed >= supplied ? RAY : (borrowed * RAY) / supplied;
    r.variableBorrowRate = RAY / 20n + rayMul(RAY / 5n, utilization);
    r.liquidityRate = (rayMul(r.variableBorrowRate, utilization) * 9n) / 10n;
    emit(
      LENDING_POOL,
      [POOL_T.ReserveDataUpdated as string, topic(r.asset)],
      [r.liquidityRate, r.variableBorrowRate + RAY / 50n, r.variableBorrowRate, r.liquidityIndex, r.variableBorrowIndex],
    );
  }

  /** ScaledBalanceTokenBase._mintScaled / _burnScaled: the Transfer and Mint or Burn of a scaled-balance change. */
  #scaled(token: string, side: "supply" | "debt", r: ReserveSim, u: number, amount: bigint, index: bigint, up: boolean, target: string, emit: Emit): void {
    const balances = side === "supply" ? r.supply : r.debt;
    const indices = side === "supply" ? r.supplyIndex : r.debtIndex;
    const scaled = balances[u] as bigint;
    const increase = rayMul(scaled, index) - rayMul(scaled, indices[u] as bigint);
    const delta = rayDiv(amount, index);
    balances[u] = up ? scaled + delta : scaled - delta;
    indices[u] = index;
    if (side === "supply") r.scaledSupply += up ? delta : -delta;
    else r.scaledDebt += up ? delta : -delta;
    const who = topic(user(u));
    if (up || increase > amount) {
      const minted = up ? amount + increase : increase - amount;
      emit(token, [TOKEN_T.Transfer as string, topic(NULL), who], [minted]);
      emit(token, [TOKEN_T.Mint as string, who, who], [minted, increase, index]);
    } else {
      emit(token, [TOKEN_T.Transfer as string, who, topic(NULL)], [amount - increase]);
      emit(token, [TOKEN_T.Burn as string, who, topic(target)], [amount - increase, increase, index]);
    }
  }

  #supply(r: ReserveSim, u: number, now: bigint, amount: bigint, emit: Emit): void {
    this.#updateState(r, now);
    const first = r.supply[u] === 0n;
    // updateInterestRates runs before the aToken mints; its rates already count the supplied amount.
    const delta = rayDiv(amount, r.liquidityIndex);
    r.scaledSupply += delta;
    this.#updateRates(r, emit);
    r.scaledSupply -= delta;
    emit(r.asset, [TOKEN_T.Transfer as string, topic(user(u)), topic(r.aToken)], [amount]);
    this.#scaled(r.aToken, "supply", r, u, amount, r.liquidityIndex, true, NULL, emit);
    if (first) emit(LENDING_POOL, [POOL_T.ReserveUsedAsCollateralEnabled as string, topic(r.asset), topic(user(u))], []);
    emit(LENDING_POOL, [POOL_T.Supply as string, topic(r.asset), topic(user(u)), topic(0n)], [user(u), amount]);
  }

  #withdraw(r: ReserveSim, u: number, now: bigint, amount: bigint, emit: Emit): void {
    this.#updateState(r, now);
    const delta = rayDiv(amount, r.liquidityIndex);
    r.scaledSupply -= delta;
    this.#updateRates(r, emit);
    r.scaledSupply += delta;
    this.#scaled(r.aToken, "supply", r, u, amount, r.liquidityIndex, false, user(u), emit);
    emit(r.asset, [TOKEN_T.Transfer as string, topic(r.aToken), topic(user(u))], [amount]);
    emit(LENDING_POOL, [POOL_T.Withdraw as string, topic(r.asset), topic(user(u)), topic(user(u))], [amount]);
  }

  #borrow(r: ReserveSim, u: number, now: bigint, amount: bigint, emit: Emit): void {
    this.#updateState(r, now);
    this.#scaled(r.debtToken, "debt", r, u, amount, r.variableBorrowIndex, true, NULL, emit);
    this.#updateRates(r, emit);
    emit(r.asset, [TOKEN_T.Transfer as string, topic(r.aToken), topic(user(u))], [amount]);
    emit(LENDING_POOL, [POOL_T.Borrow as string, topic(r.asset), topic(user(u)), topic(0n)], [user(u), amount, 2n, r.variableBorrowRate]);
  }

  #repay(r: ReserveSim, u: number, now: bigint, amount: bigint, emit: Emit): void {
    this.#updateState(r, now);
    this.#scaled(r.debtToken, "debt", r, u, amount, r.variableBorrowIndex, false, NULL, emit);
    this.#updateRates(r, emit);
    emit(r.asset, [TOKEN_T.Transfer as string, topic(user(u)), topic(r.aToken)], [amount]);
    emit(LENDING_POOL, [POOL_T.Repay as string, topic(r.asset), topic(user(u)), topic(user(u))], [amount, 0n]);
  }

  /** AToken._transfer at the reserve's normalized income (no state update, no ReserveDataUpdated). */
  #transfer(r: ReserveSim, a: number, b: number, now: bigint, amount: bigint, emit: Emit): void {
    const index = normalizedIncome(r, now);
    const before = rayMul(r.supply[b] as bigint, index);
    const [ta, tb] = [topic(user(a)), topic(user(b))];
    const increases = [a, b].map((u) => rayMul(r.supply[u] as bigint, index) - rayMul(r.supply[u] as bigint, r.supplyIndex[u] as bigint));
    const scaled = rayDiv(amount, index);
    r.supply[a] = (r.supply[a] as bigint) - scaled;
    r.supply[b] = (r.supply[b] as bigint) + scaled;
    r.supplyIndex[a] = index;
    r.supplyIndex[b] = index;
    for (const [i, who] of [ta, tb].entries()) {
      const increase = increases[i] as bigint;
      if (increase === 0n) continue;
      emit(r.aToken, [TOKEN_T.Transfer as string, topic(NULL), who], [increase]);
      emit(r.aToken, [TOKEN_T.Mint as string, ta, who], [increase, increase, index]);
    }
    emit(r.aToken, [TOKEN_T.Transfer as string, ta, tb], [amount]);
    if (before === 0n) emit(LENDING_POOL, [POOL_T.ReserveUsedAsCollateralEnabled as string, topic(r.asset), tb], []);
    emit(r.aToken, [TOKEN_T.BalanceTransfer as string, ta, tb], [scaled, index]);
  }
}

type Emit = (address: string, topics: string[], data: (bigint | string)[]) => void;

/** Pool.getReserveNormalizedIncome at `now` (Unix seconds). */
function normalizedIncome(r: ReserveSim, now: bigint): bigint {
  return r.updatedAt === now ? r.liquidityIndex : rayMul(RAY + (r.liquidityRate * (now - r.updatedAt)) / YEAR, r.liquidityIndex);
}

/** A reader of the history's logs the lending adapter asks for (ReserveDataUpdated, Mint, Burn, BalanceTransfer), as eth_getLogs with its filters answers. */
export function lendingBlockLogs(history = new LendingHistory()): BlockLogs {
  return (block) => history.logs(block).filter(({ log }) => READ.has(log.topics[0] as string));
}

/** The last block of a set of at least `logs` logs the adapter reads, and how many it holds. */
export const lendingRangeFor = (logs: number) => recordedRange(lendingBlockLogs(), LENDING_FIRST_BLOCK, logs);

/** SHA-256 over every log the adapter reads up to `toBlock`. */
export const lendingFingerprint = (toBlock: number) => recordedFingerprint(lendingBlockLogs(), LENDING_FIRST_BLOCK, toBlock);
