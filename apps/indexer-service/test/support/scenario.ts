// Test support for the indexer: deploys tokens and a pool on the local chain and records every move.
import { type Contract, ContractFactory, type JsonRpcSigner, MaxUint256 } from "ethers";
import type { LocalChain } from "./chain";
import { compileContracts } from "./compile";

/** An LP-token movement the scenario caused, as the test's own ledger records it. */
export interface LpMove {
  block: number;
  from: string;
  to: string;
  value: bigint;
  txHash: string;
}

/** A swap the scenario sent, with the amounts the pool saw. */
export interface SentSwap {
  block: number;
  txHash: string;
  logIndex: number;
  sender: string;
  amount0In: bigint;
  amount1In: bigint;
  amount0Out: bigint;
  amount1Out: bigint;
}

/** Pool reserves and LP supply after a block, per the test's own bookkeeping. */
export interface PoolState {
  block: number;
  reserve0: bigint;
  reserve1: bigint;
  supply: bigint;
}

/** Everything the scenario did, for computing expected rows independently of the indexer. */
export interface ScenarioResult {
  token0: string;
  token1: string;
  pair: string;
  router: string;
  users: { a: string; b: string; c: string };
  pairDeployBlock: number;
  lpMoves: LpMove[];
  swaps: SentSwap[];
  poolStates: PoolState[];
  /** Marks of interest: the block of B's mint and of the first T1->T0 swap. */
  marks: { bMint: number; firstT1Swap: number; firstT1SwapTs: number };
  endBlock: number;
}

function sqrt(y: bigint): bigint {
  if (y < 4n) return y === 0n ? 0n : 1n;
  let z = y;
  let x = y / 2n + 1n;
  while (x < z) {
    z = x;
    x = (y / x + x) / 2n;
  }
  return z;
}

/** Output of a constant-product swap with a 0.3% fee on the input. */
export function amountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  const withFee = amountIn * 997n;
  return (withFee * reserveOut) / (reserveIn * 1000n + withFee);
}

/** Deploys two tokens (6 and 18 decimals), a pair and a router, then runs mints, LP transfers, swaps and burns over several hours. */
export async function runScenario(chain: LocalChain): Promise<ScenarioResult> {
  const compiled = await compileContracts();
  const signers: JsonRpcSigner[] = await chain.provider.listAccounts();
  const [deployer, sa, sb, sc] = signers as [JsonRpcSigner, JsonRpcSigner, JsonRpcSigner, JsonRpcSigner];
  const deploy = async (name: string, ...args: unknown[]) => {
    const c = compiled[name];
    if (c === undefined) throw new Error(`contract ${name} not compiled`);
    const contract = await new ContractFactory(c.abi as never, c.bytecode, deployer).deploy(...args);
    await contract.waitForDeployment();
    const receipt = await contract.deploymentTransaction()?.wait();
    return { contract: contract as Contract, address: (await contract.getAddress()).toLowerCase(), block: receipt?.blockNumber ?? 0 };
  };
  const t0 = await deploy("TestToken", "Test Dollar", "TUSD", 6);
  const t1 = await deploy("TestToken", "Test Ether", "TETH", 18);
  const pair = await deploy("TestPair", t0.address, t1.address);
  const router = await deploy("TestRouter");

  const users = { a: (await sa.getAddress()).toLowerCase(), b: (await sb.getAddress()).toLowerCase(), c: (await sc.getAddress()).toLowerCase() };
  const as = (contract: Contract, signer: JsonRpcSigner) => contract.connect(signer) as Contract;
  for (const signer of [sa, sb, sc]) {
    const who = await signer.getAddress();
    await (await as(t0.contract, deployer).getFunction("mint")(who, 1_000_000n * 10n ** 6n)).wait();
    await (await as(t1.contract, deployer).getFunction("mint")(who, 1_000n * 10n ** 18n)).wait();
    for (const c of [t0, t1, pair]) await (await as(c.contract, signer).getFunction("approve")(router.address, MaxUint256)).wait();
  }

  const lpMoves: LpMove[] = [];
  const swaps: SentSwap[] = [];
  const poolStates: PoolState[] = [];
  let r0 = 0n;
  let r1 = 0n;
  let supply = 0n;
  const later = async (seconds: number) => chain.rpc("evm_increaseTime", [seconds]);
  const send = async (promise: Promise<{ wait(): Promise<unknown> }>) => {
    const receipt = (await (await promise).wait()) as { blockNumber: number; hash: string; logs: { address: string; topics: string[]; index: number }[] };
    return receipt;
  };
  const record = (block: number) => poolStates.push({ block, reserve0: r0, reserve1: r1, supply });

  const addLiquidity = async (signer: JsonRpcSigner, to: string, amount0: bigint, amount1: bigint) => {
    const byAmount0 = supply === 0n ? 0n : (amount0 * supply) / r0;
    const byAmount1 = supply === 0n ? 0n : (amount1 * supply) / r1;
    const liquidity = supply === 0n ? sqrt(amount0 * amount1) : byAmount0 < byAmount1 ? byAmount0 : byAmount1;
    const receipt = await send(as(router.contract, signer).getFunction("addLiquidity")(pair.address, amount0, amount1, to));
    r0 += amount0;
    r1 += amount1;
    supply += liquidity;
    lpMoves.push({ block: receipt.blockNumber, from: "0x0000000000000000000000000000000000000000", to, value: liquidity, txHash: receipt.hash });
    record(receipt.blockNumber);
    return receipt;
  };
  const removeLiquidity = async (signer: JsonRpcSigner, liquidity: bigint) => {
    const who = (await signer.getAddress()).toLowerCase();
    const out0 = (liquidity * r0) / supply;
    const out1 = (liquidity * r1) / supply;
    const receipt = await send(as(router.contract, signer).getFunction("removeLiquidity")(pair.address, liquidity, who));
    lpMoves.push({ block: receipt.blockNumber, from: who, to: pair.address, value: liquidity, txHash: receipt.hash });
    lpMoves.push({ block: receipt.blockNumber, from: pair.address, to: "0x0000000000000000000000000000000000000000", value: liquidity, txHash: receipt.hash });
    r0 -= out0;
    r1 -= out1;
    supply -= liquidity;
    record(receipt.blockNumber);
  };
  const swapLogIndex = (receipt: { logs: { address: string; topics: string[]; index: number }[] }) => {
    const log = receipt.logs.find(
      (l) => l.address.toLowerCase() === pair.address && l.topics[0] === "0xd78ad95fa46c994b6551d0da85fc275fe613ce37657fb8d5e3d130840159d822",
    );
    if (log === undefined) throw new Error("no Swap log");
    return log.index;
  };
  /** Sells `amountIn` of token0 (zeroForOne) or token1 through the router; `exactOut` overrides the fair output (0 makes a zero swap). */
  const swap = async (signer: JsonRpcSigner, zeroForOne: boolean, amountIn: bigint, to: string, exactOut?: bigint) => {
    const out = exactOut ?? (zeroForOne ? amountOut(amountIn, r0, r1) : amountOut(amountIn, r1, r0));
    const tokenIn = zeroForOne ? t0.address : t1.address;
    const receipt = await send(
      as(router.contract, signer).getFunction("swap")(pair.address, tokenIn, amountIn, zeroForOne ? 0n : out, zeroForOne ? out : 0n, to),
    );
    const s: SentSwap = {
      block: receipt.blockNumber,
      txHash: receipt.hash.toLowerCase(),
      logIndex: swapLogIndex(receipt),
      sender: (await signer.getAddress()).toLowerCase(),
      amount0In: zeroForOne ? amountIn : 0n,
      amount1In: zeroForOne ? 0n : amountIn,
      amount0Out: zeroForOne ? 0n : out,
      amount1Out: zeroForOne ? out : 0n,
    };
    swaps.push(s);
    r0 += s.amount0In - s.amount0Out;
    r1 += s.amount1In - s.amount1Out;
    record(receipt.blockNumber);
    return s;
  };

  const E6 = 10n ** 6n;
  const E18 = 10n ** 18n;
  await later(600);
  await addLiquidity(sa, users.a, 2_000n * E6, 1n * E18);
  await later(20 * 60);
  const bMint = await addLiquidity(sb, users.b, 1_000n * E6, E18 / 2n);
  const aLp = lpMoves[0]?.value ?? 0n;
  await later(90 * 60);
  const transfer = await send(as(pair.contract, sa).getFunction("transfer")(users.c, aLp / 4n));
  lpMoves.push({ block: transfer.blockNumber, from: users.a, to: users.c, value: aLp / 4n, txHash: transfer.hash });
  await later(45 * 60);
  await swap(sc, true, 100n * E6, users.b);
  await later(10 * 60);
  const firstT1 = await swap(sb, false, E18 / 100n, users.b);
  await later(5 * 60);
  await swap(sa, true, 1n * E6, users.a, 0n); // a zero-output swap: the pool keeps the input
  await later(60);
  const zero = await send(as(pair.contract, sa).getFunction("swap")(0n, 0n, users.a)); // nothing in, nothing out
  swaps.push({
    block: zero.blockNumber,
    txHash: zero.hash.toLowerCase(),
    logIndex: swapLogIndex(zero),
    sender: users.a,
    amount0In: 0n,
    amount1In: 0n,
    amount0Out: 0n,
    amount1Out: 0n,
  });
  await later(5 * 3600);
  await chain.rpc("evm_mine");
  const bLp = lpMoves[1]?.value ?? 0n;
  await removeLiquidity(sb, bLp / 2n);
  await later(2 * 3600);
  await swap(sa, false, E18 / 5n, users.a);
  await later(3 * 3600);
  await chain.rpc("evm_mine");
  await chain.rpc("evm_mine");

  // The ledger must agree with the chain, or the expectations built on it would be wrong.
  const onChain = (await as(pair.contract, deployer).getFunction("getReserves")()) as [bigint, bigint];
  if (onChain[0] !== r0 || onChain[1] !== r1) throw new Error(`reserve ledger ${r0}/${r1} differs from chain ${onChain[0]}/${onChain[1]}`);
  const firstT1Block = await chain.provider.getBlock(firstT1.block);
  return {
    token0: t0.address,
    token1: t1.address,
    pair: pair.address,
    router: router.address,
    users,
    pairDeployBlock: pair.block,
    lpMoves,
    swaps,
    poolStates,
    marks: { bMint: bMint.blockNumber, firstT1Swap: firstT1.block, firstT1SwapTs: (firstT1Block?.timestamp ?? 0) * 1000 },
    endBlock: await chain.provider.getBlockNumber(),
  };
}
