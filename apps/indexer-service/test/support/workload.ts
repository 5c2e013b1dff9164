// Generated chain workloads for the indexer's scale test and benchmark: an ERC-20 with many holders, and an amm-v2
// pool with swaps and LP transfers, mined block by block at a steady 12-second block time on a local hardhat node.
import { createHash } from "node:crypto";
import { seededRandom } from "@pointwise/testkit";
import { ContractFactory, Interface, MaxUint256 } from "ethers";
import type { LocalChain } from "./chain";
import { compileContracts } from "./compile";
import { amountOut } from "./scenario";

/** Seconds between blocks. */
const BLOCK_SECONDS = 12;
const hex = (n: number | bigint) => `0x${n.toString(16)}`;

/** The shape of an ERC-20 workload. */
export interface Erc20Shape {
  /** Transfer logs in all, the holders' mints included. */
  transfers: number;
  holders: number;
  /** Blocks the workload spans, those without transfers included. */
  blocks: number;
  /** Transfers per block that has any, on average. */
  perBlock?: number;
  seed?: number;
}

/** Where a generated workload sits on the chain. */
export interface Workload {
  contract: string;
  fromBlock: number;
  toBlock: number;
  /** Every address that ever held the asset. */
  holders: string[];
}

/**
 * Sends raw JSON-RPC to the chain, one call at a time: hardhat runs a batch's calls in no fixed order, and ethers'
 * provider would hold each call 10 ms to gather a batch.
 */
function rpc(chain: LocalChain) {
  let id = 0;
  return async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const res = await fetch(chain.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
    });
    const answer = (await res.json()) as { result?: T; error?: { message: string } };
    if (answer.error !== undefined) throw new Error(`${method}: ${answer.error.message}`);
    return answer.result as T;
  };
}

/** One transaction of a workload, in a block of its own, and the empty blocks after it. */
interface Tx {
  from: string;
  to: string;
  data: string;
  gap: number;
}

/**
 * Mines the workload's blocks in order: each entry is one transaction in a block of its own, followed by `gap` empty
 * blocks, all BLOCK_SECONDS apart. Returns the first and last block mined.
 */
async function mine(chain: LocalChain, txs: readonly Tx[]): Promise<{ first: number; last: number }> {
  const call = rpc(chain);
  const head = await call<{ number: string; timestamp: string }>("eth_getBlockByNumber", ["latest", false]);
  let ts = Number(head.timestamp) + BLOCK_SECONDS;
  for (const tx of txs) {
    await call("evm_setNextBlockTimestamp", [ts]);
    await call<string>("eth_sendTransaction", [{ from: tx.from, to: tx.to, data: tx.data, gas: hex(15_000_000) }]);
    ts += BLOCK_SECONDS;
    if (tx.gap > 0) {
      await call("evm_setNextBlockTimestamp", [ts]);
      await call("hardhat_mine", [hex(tx.gap), hex(BLOCK_SECONDS)]);
      ts += tx.gap * BLOCK_SECONDS;
    }
  }
  return { first: Number(head.number) + 1, last: Number(await call<string>("eth_blockNumber")) };
}

/** Splits `count` items into `slots` random groups (some empty), the same on every run of a seed. */
function spread(count: number, slots: number, random: () => number): number[] {
  const out = new Array<number>(slots).fill(0);
  for (let i = 0; i < count; i++) {
    const slot = Math.floor(random() * slots);
    out[slot] = (out[slot] as number) + 1;
  }
  return out;
}

/**
 * Deploys a TestToken (18 decimals) and mines an ERC-20 workload: every holder minted once at the start (20 mints a
 * block), then transfers between random holders of up to half the sender's balance, several per transaction
 * (TestToken.scatter), in blocks spread over the rest of the span with empty blocks between them.
 */
export async function generateErc20Workload(chain: LocalChain, shape: Erc20Shape): Promise<Workload> {
  const random = seededRandom(shape.seed ?? 37);
  const compiled = (await compileContracts()).TestToken;
  if (compiled === undefined) throw new Error("TestToken not compiled");
  const [deployer] = await chain.provider.listAccounts();
  if (deployer === undefined) throw new Error("the chain has no accounts");
  const token = await new ContractFactory(compiled.abi as never, compiled.bytecode, deployer).deploy("Workload Token", "WORK", 18);
  await token.waitForDeployment();
  const address = (await token.getAddress()).toLowerCase();
  const abi = new Interface(compiled.abi as never);
  const holders = Array.from(
    { length: shape.holders },
    (_, i) =>
      `0x${createHash("sha256")
        .update(`holder ${shape.seed ?? 37} ${i}`)
        .digest("hex")
        .slice(0, 40)}`,
  );
  const balances = new Map<string, bigint>();
  const from = await deployer.getAddress();
  const txs: Tx[] = [];
  const scatter = (moves: [string, string, bigint][]) =>
    abi.encodeFunctionData("scatter", [moves.map((m) => m[0]), moves.map((m) => m[1]), moves.map((m) => m[2])]);

  const zero = `0x${"0".repeat(40)}`;
  for (let i = 0; i < holders.length; i += 20) {
    const moves = holders.slice(i, i + 20).map((h): [string, string, bigint] => [zero, h, 10n ** 21n + BigInt(Math.floor(random() * 1e12)) * 10n ** 9n]);
    for (const [, h, v] of moves) balances.set(h, v);
    txs.push({ from, to: address, data: scatter(moves), gap: 0 });
  }
  const remaining = Math.max(0, shape.transfers - holders.length);
  const txBlocks = Math.ceil(remaining / (shape.perBlock ?? 6));
  const perTx = spread(remaining - txBlocks, txBlocks, random).map((n) => n + 1);
  const emptyBlocks = Math.max(0, shape.blocks - txs.length - txBlocks);
  const gaps = spread(emptyBlocks, txBlocks, random);
  perTx.forEach((count, t) => {
    const moves: [string, string, bigint][] = [];
    for (let k = 0; k < count; k++) {
      const sender = holders[Math.floor(random() * holders.length)] as string;
      const to = holders[Math.floor(random() * holders.length)] as string;
      const balance = balances.get(sender) ?? 0n;
      const value = (balance * BigInt(1 + Math.floor(random() * 50))) / 100n;
      balances.set(sender, balance - value);
      balances.set(to, (balances.get(to) ?? 0n) + value);
      moves.push([sender, to, value]);
    }
    txs.push({ from, to: address, data: scatter(moves), gap: gaps[t] as number });
  });
  const { first, last } = await mine(chain, txs);
  // Every transfer was planned within its sender's balance; a transaction that reverted anyway would lose its logs.
  const logs = await rpc(chain)<unknown[]>("eth_getLogs", [{ address, fromBlock: hex(first), toBlock: hex(last) }]);
  if (logs.length !== holders.length + remaining) throw new Error(`the workload has ${logs.length} logs, ${holders.length + remaining} were sent`);
  return { contract: address, fromBlock: first, toBlock: last, holders };
}

/** The shape of an amm-v2 workload. */
export interface AmmShape {
  /** Transactions after the initial liquidity: 3 in 4 a swap, the rest an LP transfer. */
  transactions: number;
  blocks: number;
  seed?: number;
}

/**
 * Deploys two tokens (6 and 18 decimals), a TestPair and a TestRouter, lets the chain's unlocked accounts add
 * liquidity, then mines swaps through the router (either way, the fair output after the 0.3% fee) and LP transfers
 * between the accounts, one transaction a block with empty blocks between.
 */
export async function generateAmmWorkload(chain: LocalChain, shape: AmmShape): Promise<Workload & { token0: string; token1: string }> {
  const random = seededRandom(shape.seed ?? 38);
  const compiled = await compileContracts();
  const signers = await chain.provider.listAccounts();
  const [deployer] = signers;
  if (deployer === undefined) throw new Error("the chain has no accounts");
  const deploy = async (name: string, ...args: unknown[]) => {
    const c = compiled[name];
    if (c === undefined) throw new Error(`contract ${name} not compiled`);
    const contract = await new ContractFactory(c.abi as never, c.bytecode, deployer).deploy(...args);
    await contract.waitForDeployment();
    return { address: (await contract.getAddress()).toLowerCase(), abi: new Interface(c.abi as never) };
  };
  const t0 = await deploy("TestToken", "Test Dollar", "TUSD", 6);
  const t1 = await deploy("TestToken", "Test Ether", "TETH", 18);
  const pair = await deploy("TestPair", t0.address, t1.address);
  const router = await deploy("TestRouter");
  const users = await Promise.all(signers.map(async (s) => (await s.getAddress()).toLowerCase()));
  const call = rpc(chain);
  const send = (from: string, to: string, data: string) => call("eth_sendTransaction", [{ from, to, data, gas: hex(1_000_000) }]);
  for (const user of users) {
    await send(user, t0.address, t0.abi.encodeFunctionData("mint", [user, 10n ** 15n]));
    await send(user, t1.address, t1.abi.encodeFunctionData("mint", [user, 10n ** 27n]));
    for (const c of [t0, t1, pair]) await send(user, c.address, c.abi.encodeFunctionData("approve", [router.address, MaxUint256]));
  }
  // Liquidity from every account at one price (2,000 token0 units of 6 decimals per token1).
  let r0 = 0n;
  let r1 = 0n;
  const liquidity: Tx[] = users.map((user) => {
    const a1 = 10n ** 18n * BigInt(1 + Math.floor(random() * 10));
    const a0 = (a1 * 2_000n * 10n ** 6n) / 10n ** 18n;
    r0 += a0;
    r1 += a1;
    return { from: user, to: router.address, data: router.abi.encodeFunctionData("addLiquidity", [pair.address, a0, a1, user]), gap: 0 };
  });
  const { first } = await mine(chain, liquidity);
  const lp = new Map<string, bigint>();
  for (const user of users)
    lp.set(user, BigInt(await call<string>("eth_call", [{ to: pair.address, data: pair.abi.encodeFunctionData("balanceOf", [user]) }, "latest"])));

  const gaps = spread(Math.max(0, shape.blocks - users.length - shape.transactions), shape.transactions, random);
  const txs: Tx[] = gaps.map((gap) => {
    const user = users[Math.floor(random() * users.length)] as string;
    const other = users[Math.floor(random() * users.length)] as string;
    const share = BigInt(1 + Math.floor(random() * 100));
    if (random() < 0.25) {
      const value = ((lp.get(user) ?? 0n) * share) / 1_000n;
      lp.set(user, (lp.get(user) ?? 0n) - value);
      lp.set(other, (lp.get(other) ?? 0n) + value);
      return { from: user, to: pair.address, data: pair.abi.encodeFunctionData("transfer", [other, value]), gap };
    }
    // Up to 0.1% of the reserve in, either way, for the fair output after the fee: prices drift, the pool never runs dry.
    const zeroForOne = random() < 0.5;
    const amountIn = ((zeroForOne ? r0 : r1) * share) / 100_000n;
    const out = zeroForOne ? amountOut(amountIn, r0, r1) : amountOut(amountIn, r1, r0);
    if (zeroForOne) [r0, r1] = [r0 + amountIn, r1 - out];
    else [r0, r1] = [r0 - out, r1 + amountIn];
    const args = [pair.address, zeroForOne ? t0.address : t1.address, amountIn, zeroForOne ? 0n : out, zeroForOne ? out : 0n, user];
    return { from: user, to: router.address, data: router.abi.encodeFunctionData("swap", args), gap };
  });
  const { last } = await mine(chain, txs);
  // A swap that reverted would leave the reserves off the plan's.
  const reserves = pair.abi.decodeFunctionResult(
    "getReserves",
    await call<string>("eth_call", [{ to: pair.address, data: pair.abi.encodeFunctionData("getReserves") }, "latest"]),
  );
  if (reserves[0] !== r0 || reserves[1] !== r1) throw new Error(`pool reserves ${reserves[0]}/${reserves[1]} differ from the plan's ${r0}/${r1}`);
  return { contract: pair.address, token0: t0.address, token1: t1.address, fromBlock: first, toBlock: last, holders: users };
}
