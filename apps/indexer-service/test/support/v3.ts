// Test support for the amm-v3 adapter: deploys Uniswap V3 from its npm artifacts and runs positions and swaps.
import UniswapV3Factory from "@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json";
import UniswapV3Pool from "@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json";
import NonfungiblePositionManager from "@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json";
import SwapRouter from "@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json";
import { Contract, ContractFactory, type JsonRpcSigner, MaxUint256 } from "ethers";
import type { LocalChain } from "./chain";
import { compileContracts } from "./compile";

/** A swap the scenario sent through the router: its block, sender and the pool's Swap log. */
export interface V3Swap {
  block: number;
  txHash: string;
  logIndex: number;
  sender: string;
  amount0: bigint;
  amount1: bigint;
}

/** What the V3 scenario deployed and did, for checking the indexer against the contracts. */
export interface V3Scenario {
  token0: string;
  token1: string;
  pool: string;
  manager: string;
  tokenIds: bigint[];
  swaps: V3Swap[];
  users: { a: string; b: string; c: string };
  endBlock: number;
  poolContract: Contract;
  managerContract: Contract;
}

const FEE = 3000;
const HOUR = 3600;

/**
 * Deploys the real V3 factory, a 0.3% pool (initialised at tick 0), the position manager and the swap router from
 * the published artifacts, with two 18-decimal tokens; then, over several hours: mints three positions in and out
 * of range, swaps the price across their boundaries both ways, increases, decreases, transfers and closes them.
 */
export async function runV3Scenario(chain: LocalChain): Promise<V3Scenario> {
  const compiled = await compileContracts();
  const [deployer, sa, sb, sc] = (await chain.provider.listAccounts()) as [JsonRpcSigner, JsonRpcSigner, JsonRpcSigner, JsonRpcSigner];
  const deploy = async (abi: unknown, bytecode: string, ...args: unknown[]) => {
    const contract = await new ContractFactory(abi as never, bytecode, deployer).deploy(...args);
    await contract.waitForDeployment();
    return contract as Contract;
  };
  const token = compiled.TestToken;
  if (token === undefined) throw new Error("TestToken not compiled");
  const tA = await deploy(token.abi, token.bytecode, "Token A", "TKA", 18);
  const tB = await deploy(token.abi, token.bytecode, "Token B", "TKB", 18);
  const [addrA, addrB] = [(await tA.getAddress()).toLowerCase(), (await tB.getAddress()).toLowerCase()];
  const [t0, t1] = addrA < addrB ? [tA, tB] : [tB, tA];
  const [token0, token1] = addrA < addrB ? [addrA, addrB] : [addrB, addrA];
  const factory = await deploy(UniswapV3Factory.abi, UniswapV3Factory.bytecode);
  await (await factory.getFunction("createPool")(token0, token1, FEE)).wait();
  const pool = ((await factory.getFunction("getPool")(token0, token1, FEE)) as string).toLowerCase();
  const poolContract = new Contract(pool, UniswapV3Pool.abi, deployer);
  await (await poolContract.getFunction("initialize")(1n << 96n)).wait();
  // WETH9 and the token descriptor are never called by what the scenario does; any address will do.
  const placeholder = await deployer.getAddress();
  const managerContract = await deploy(
    NonfungiblePositionManager.abi,
    NonfungiblePositionManager.bytecode,
    await factory.getAddress(),
    placeholder,
    placeholder,
  );
  const router = await deploy(SwapRouter.abi, SwapRouter.bytecode, await factory.getAddress(), placeholder);
  const manager = (await managerContract.getAddress()).toLowerCase();

  const users = { a: (await sa.getAddress()).toLowerCase(), b: (await sb.getAddress()).toLowerCase(), c: (await sc.getAddress()).toLowerCase() };
  for (const signer of [sa, sb, sc]) {
    for (const t of [t0, t1]) {
      await (await (t.connect(deployer) as Contract).getFunction("mint")(await signer.getAddress(), 10n ** 30n)).wait();
      for (const spender of [manager, await router.getAddress()])
        await (await (t.connect(signer) as Contract).getFunction("approve")(spender, MaxUint256)).wait();
    }
  }

  const later = (seconds: number) => chain.rpc("evm_increaseTime", [seconds]);
  const deadline = 2n ** 40n;
  const npm = (signer: JsonRpcSigner) => managerContract.connect(signer) as Contract;
  const tokenIds: bigint[] = [];
  const swaps: V3Swap[] = [];
  const mint = async (signer: JsonRpcSigner, tickLower: number, tickUpper: number, amount: bigint) => {
    const params = { token0, token1, fee: FEE, tickLower, tickUpper, amount0Desired: amount, amount1Desired: amount, amount0Min: 0n, amount1Min: 0n };
    await (await npm(signer).getFunction("mint")({ ...params, recipient: await signer.getAddress(), deadline })).wait();
    tokenIds.push(BigInt(tokenIds.length + 1));
  };
  const swap = async (signer: JsonRpcSigner, zeroForOne: boolean, amountIn: bigint) => {
    const [tokenIn, tokenOut] = zeroForOne ? [token0, token1] : [token1, token0];
    const params = { tokenIn, tokenOut, fee: FEE, recipient: await signer.getAddress(), deadline, amountIn, amountOutMinimum: 0n, sqrtPriceLimitX96: 0n };
    const receipt = await (await (router.connect(signer) as Contract).getFunction("exactInputSingle")(params)).wait();
    const log = receipt.logs.find((l: { address: string }) => l.address.toLowerCase() === pool);
    const parsed = poolContract.interface.parseLog(log);
    swaps.push({
      block: receipt.blockNumber,
      txHash: receipt.hash,
      logIndex: log.index,
      sender: (await signer.getAddress()).toLowerCase(),
      amount0: parsed?.args.amount0 as bigint,
      amount1: parsed?.args.amount1 as bigint,
    });
  };
  const liquidityOf = async (tokenId: bigint) => ((await managerContract.getFunction("positions")(tokenId)) as { liquidity: bigint }).liquidity;
  const e18 = 10n ** 18n;

  await mint(sa, -600, 600, 1000n * e18); // 1: in range
  await later(HOUR / 3);
  await mint(sb, 600, 1800, 1000n * e18); // 2: above the price (token0 only)
  await later(HOUR / 2);
  await swap(sc, false, 300n * e18); // token1 in: the tick rises, still below 600
  await later(HOUR / 4);
  await swap(sc, false, 1200n * e18); // across 600: 1 leaves the range, 2 enters it
  await later(HOUR);
  await (
    await npm(sa).getFunction("increaseLiquidity")({
      tokenId: 1n,
      amount0Desired: 50n * e18,
      amount1Desired: 50n * e18,
      amount0Min: 0n,
      amount1Min: 0n,
      deadline,
    })
  ).wait();
  await later(HOUR / 3);
  const half2 = (await liquidityOf(2n)) / 2n;
  await (await npm(sb).getFunction("decreaseLiquidity")({ tokenId: 2n, liquidity: half2, amount0Min: 0n, amount1Min: 0n, deadline })).wait();
  await later(HOUR / 2);
  await mint(sc, -1200, 1200, 300n * e18); // 3: wide, in range throughout
  await later(HOUR / 3);
  await (await npm(sa).getFunction("transferFrom")(users.a, users.b, 1n)).wait();
  await later(HOUR);
  await swap(sa, true, 3000n * e18); // token0 in: the tick falls back across 600 and below 0
  await later(HOUR / 2);
  const rest2 = await liquidityOf(2n);
  await (await npm(sb).getFunction("decreaseLiquidity")({ tokenId: 2n, liquidity: rest2, amount0Min: 0n, amount1Min: 0n, deadline })).wait();
  const max = (1n << 128n) - 1n;
  await (await npm(sb).getFunction("collect")({ tokenId: 2n, recipient: users.b, amount0Max: max, amount1Max: max })).wait();
  await (await npm(sb).getFunction("burn")(2n)).wait();
  await later(HOUR / 2);
  await swap(sb, false, 400n * e18);
  await later(HOUR);
  await (
    await npm(sb).getFunction("decreaseLiquidity")({ tokenId: 1n, liquidity: (await liquidityOf(1n)) / 3n, amount0Min: 0n, amount1Min: 0n, deadline })
  ).wait();
  await later(HOUR);
  await chain.rpc("evm_mine");
  const endBlock = await chain.provider.getBlockNumber();
  return { token0, token1, pool, manager, tokenIds, swaps, users, endBlock, poolContract, managerContract };
}
