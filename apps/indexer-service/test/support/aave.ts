// Test support for the lending adapter: deploys an Aave V3 market from @aave/core-v3's published artifacts.
import { Contract, ContractFactory, type JsonRpcSigner, MaxUint256 } from "ethers";
import type { LocalChain } from "./chain";

interface Artifact {
  abi: unknown[];
  bytecode: string;
  linkReferences: Record<string, Record<string, { start: number; length: number }[]>>;
}

const ARTIFACTS: Record<string, string> = {
  PoolAddressesProvider: "protocol/configuration/PoolAddressesProvider.sol",
  ACLManager: "protocol/configuration/ACLManager.sol",
  Pool: "protocol/pool/Pool.sol",
  PoolConfigurator: "protocol/pool/PoolConfigurator.sol",
  DefaultReserveInterestRateStrategy: "protocol/pool/DefaultReserveInterestRateStrategy.sol",
  AToken: "protocol/tokenization/AToken.sol",
  StableDebtToken: "protocol/tokenization/StableDebtToken.sol",
  VariableDebtToken: "protocol/tokenization/VariableDebtToken.sol",
  SupplyLogic: "protocol/libraries/logic/SupplyLogic.sol",
  BorrowLogic: "protocol/libraries/logic/BorrowLogic.sol",
  LiquidationLogic: "protocol/libraries/logic/LiquidationLogic.sol",
  EModeLogic: "protocol/libraries/logic/EModeLogic.sol",
  BridgeLogic: "protocol/libraries/logic/BridgeLogic.sol",
  FlashLoanLogic: "protocol/libraries/logic/FlashLoanLogic.sol",
  PoolLogic: "protocol/libraries/logic/PoolLogic.sol",
  ConfiguratorLogic: "protocol/libraries/logic/ConfiguratorLogic.sol",
  PriceOracle: "mocks/oracle/PriceOracle.sol",
  MintableERC20: "mocks/tokens/MintableERC20.sol",
  MockFlashLoanSimpleReceiver: "mocks/flashloan/MockSimpleFlashLoanReceiver.sol",
};

/** The compiled artifact of an Aave V3 contract as the npm package ships it. */
export function aaveArtifact(name: string): Artifact {
  const dir = ARTIFACTS[name];
  if (dir === undefined) throw new Error(`no Aave artifact ${name}`);
  return require(`@aave/core-v3/artifacts/contracts/${dir}/${name}.json`) as Artifact;
}

/** Writes library addresses into the bytecode at the places the artifact's linkReferences name. */
export function linkBytecode(artifact: Artifact, libraries: Record<string, string>): string {
  let code = artifact.bytecode.slice(2);
  for (const libs of Object.values(artifact.linkReferences)) {
    for (const [lib, places] of Object.entries(libs)) {
      const address = libraries[lib];
      if (address === undefined) throw new Error(`library ${lib} is not deployed`);
      for (const { start, length } of places)
        code =
          code.slice(0, start * 2) +
          address
            .slice(2)
            .toLowerCase()
            .padStart(length * 2, "0") +
          code.slice((start + length) * 2);
    }
  }
  return `0x${code}`;
}

/** One reserve of the deployed market. */
export interface AaveReserve {
  asset: string;
  aToken: string;
  debtToken: string;
  decimals: number;
  token: Contract;
}

/** A deployed Aave V3 market: its Pool, configurator, oracle and two reserves (6 and 18 decimals). */
export interface AaveMarket {
  provider: Contract;
  pool: Contract;
  poolAddress: string;
  configurator: Contract;
  oracle: Contract;
  usdc: AaveReserve;
  weth: AaveReserve;
  treasury: string;
  deployBlock: number;
}

const RAY = 10n ** 27n;
const pct = (n: number) => (BigInt(Math.round(n * 100)) * RAY) / 10_000n;

/**
 * Deploys an Aave V3 market the way Aave's own deployment does, from the published artifacts: the libraries the
 * Pool and configurator link, the addresses provider, ACL manager, Pool and PoolConfigurator behind the provider's
 * proxies, a price oracle, token implementations, a rate strategy, then initReserves and the risk parameters.
 */
export async function deployAaveMarket(chain: LocalChain): Promise<AaveMarket> {
  const [deployer] = (await chain.provider.listAccounts()) as [JsonRpcSigner];
  const admin = (await deployer.getAddress()).toLowerCase();
  const deploy = async (name: string, args: unknown[] = [], libraries: Record<string, string> = {}) => {
    const artifact = aaveArtifact(name);
    const contract = await new ContractFactory(artifact.abi as never, linkBytecode(artifact, libraries), deployer).deploy(...args);
    await contract.waitForDeployment();
    return contract as Contract;
  };
  const at = (name: string, address: string) => new Contract(address, aaveArtifact(name).abi as never, deployer);
  const send = async (tx: Promise<{ wait(): Promise<unknown> }>) => {
    await (await tx).wait();
  };

  const provider = await deploy("PoolAddressesProvider", ["pointwise-test", admin]);
  const deployBlock = await chain.provider.getBlockNumber();
  await send(provider.getFunction("setACLAdmin")(admin));
  const acl = await deploy("ACLManager", [await provider.getAddress()]);
  await send(provider.getFunction("setACLManager")(await acl.getAddress()));
  await send(acl.getFunction("addPoolAdmin")(admin));

  const libraries: Record<string, string> = {};
  for (const name of ["SupplyLogic", "BorrowLogic", "LiquidationLogic", "EModeLogic", "BridgeLogic", "PoolLogic", "ConfiguratorLogic"])
    libraries[name] = await (await deploy(name)).getAddress();
  libraries.FlashLoanLogic = await (await deploy("FlashLoanLogic", [], libraries)).getAddress();

  const poolImpl = await deploy("Pool", [await provider.getAddress()], libraries);
  await send(poolImpl.getFunction("initialize")(await provider.getAddress()));
  await send(provider.getFunction("setPoolImpl")(await poolImpl.getAddress()));
  const poolAddress = ((await provider.getFunction("getPool")()) as string).toLowerCase();
  const configuratorImpl = await deploy("PoolConfigurator", [], libraries);
  await send(configuratorImpl.getFunction("initialize")(await provider.getAddress()));
  await send(provider.getFunction("setPoolConfiguratorImpl")(await configuratorImpl.getAddress()));
  const configurator = at("PoolConfigurator", (await provider.getFunction("getPoolConfigurator")()) as string);
  const oracle = await deploy("PriceOracle");
  await send(provider.getFunction("setPriceOracle")(await oracle.getAddress()));

  const aTokenImpl = await deploy("AToken", [poolAddress]);
  const stableImpl = await deploy("StableDebtToken", [poolAddress]);
  const variableImpl = await deploy("VariableDebtToken", [poolAddress]);
  // optimal usage 80%, base variable rate 5%, slopes 20% / 100%: rates high enough that a few days show interest.
  const strategy = await deploy("DefaultReserveInterestRateStrategy", [
    await provider.getAddress(),
    pct(80),
    pct(5),
    pct(20),
    pct(100),
    pct(2),
    pct(50),
    pct(1),
    pct(8),
    pct(20),
  ]);
  const usdcToken = await deploy("MintableERC20", ["Test USD Coin", "tUSDC", 6]);
  const wethToken = await deploy("MintableERC20", ["Test Wrapped Ether", "tWETH", 18]);
  const treasury = "0x00000000000000000000000000000000000007e5";
  const inputs = [];
  for (const [token, decimals, symbol] of [
    [usdcToken, 6, "tUSDC"],
    [wethToken, 18, "tWETH"],
  ] as const) {
    inputs.push({
      aTokenImpl: await aTokenImpl.getAddress(),
      stableDebtTokenImpl: await stableImpl.getAddress(),
      variableDebtTokenImpl: await variableImpl.getAddress(),
      underlyingAssetDecimals: decimals,
      interestRateStrategyAddress: await strategy.getAddress(),
      underlyingAsset: await token.getAddress(),
      treasury,
      incentivesController: "0x0000000000000000000000000000000000000000",
      aTokenName: `Aave ${symbol}`,
      aTokenSymbol: `a${symbol}`,
      variableDebtTokenName: `Variable Debt ${symbol}`,
      variableDebtTokenSymbol: `variableDebt${symbol}`,
      stableDebtTokenName: `Stable Debt ${symbol}`,
      stableDebtTokenSymbol: `stableDebt${symbol}`,
      params: "0x",
    });
  }
  await send(configurator.getFunction("initReserves")(inputs));
  await send(oracle.getFunction("setAssetPrice")(await usdcToken.getAddress(), 10n ** 8n));
  await send(oracle.getFunction("setAssetPrice")(await wethToken.getAddress(), 3000n * 10n ** 8n));
  const pool = at("Pool", poolAddress);
  const reserve = async (token: Contract, decimals: number): Promise<AaveReserve> => {
    const asset = (await token.getAddress()).toLowerCase();
    await send(configurator.getFunction("configureReserveAsCollateral")(asset, 8000, 8500, 10500));
    await send(configurator.getFunction("setReserveBorrowing")(asset, true));
    await send(configurator.getFunction("setReserveFactor")(asset, 1000));
    await send(configurator.getFunction("setReserveFlashLoaning")(asset, true));
    const data = (await pool.getFunction("getReserveData")(asset)) as { aTokenAddress: string; variableDebtTokenAddress: string };
    return { asset, aToken: data.aTokenAddress.toLowerCase(), debtToken: data.variableDebtTokenAddress.toLowerCase(), decimals, token };
  };
  const usdc = await reserve(usdcToken, 6);
  const weth = await reserve(wethToken, 18);
  return { provider, pool, poolAddress, configurator, oracle, usdc, weth, treasury, deployBlock };
}

/** Everything the lending scenario did that the test needs to find its rows. */
export interface AaveScenario {
  market: AaveMarket;
  users: { a: string; b: string; c: string };
  /** Blocks mined without any transaction while interest accrued. */
  idleBlocks: number[];
  flashLoanBlock: number;
  endBlock: number;
}

/**
 * Runs supply, borrow, aToken transfer, repay, withdraw, a flash loan and a treasury mint over five days of chain
 * time, with empty blocks about every 40 minutes in between so interest accrues without any user action.
 */
export async function runAaveScenario(chain: LocalChain): Promise<AaveScenario> {
  const market = await deployAaveMarket(chain);
  const signers = await chain.provider.listAccounts();
  const [, sa, sb, sc] = signers as [JsonRpcSigner, JsonRpcSigner, JsonRpcSigner, JsonRpcSigner];
  const [a, b, c] = (await Promise.all([sa, sb, sc].map(async (s) => (await s.getAddress()).toLowerCase()))) as [string, string, string];
  const { usdc, weth } = market;
  const idleBlocks: number[] = [];
  const as = (signer: JsonRpcSigner, contract: Contract) => contract.connect(signer) as Contract;
  const send = async (tx: Promise<{ wait(): Promise<unknown> }>) => {
    await (await tx).wait();
  };
  const idle = async (hours: number) => {
    for (let minutes = 0; minutes < hours * 60; minutes += 40) {
      await chain.rpc("evm_increaseTime", [40 * 60]);
      await chain.rpc("evm_mine");
      idleBlocks.push(await chain.provider.getBlockNumber());
    }
  };
  for (const [signer, user] of [
    [sa, a],
    [sb, b],
    [sc, c],
  ] as const) {
    await send(as(signer, usdc.token).getFunction("mint(address,uint256)")(user, 100_000n * 10n ** 6n));
    await send(as(signer, weth.token).getFunction("mint(address,uint256)")(user, 100n * 10n ** 18n));
    await send(as(signer, usdc.token).getFunction("approve")(market.poolAddress, MaxUint256));
    await send(as(signer, weth.token).getFunction("approve")(market.poolAddress, MaxUint256));
  }
  const pool = (signer: JsonRpcSigner) => as(signer, market.pool);
  await send(pool(sa).getFunction("supply")(usdc.asset, 10_000n * 10n ** 6n, a, 0));
  await send(pool(sb).getFunction("supply")(weth.asset, 5n * 10n ** 18n, b, 0));
  await send(pool(sc).getFunction("supply")(usdc.asset, 2_000_123_457n, c, 0));
  await idle(3);
  await send(pool(sb).getFunction("borrow")(usdc.asset, 6_000n * 10n ** 6n, 2, 0, b));
  await send(pool(sa).getFunction("borrow")(weth.asset, 10n ** 18n, 2, 0, a));
  await idle(30);
  await send(as(sa, new Contract(usdc.aToken, ["function transfer(address,uint256) returns (bool)"], sa)).getFunction("transfer")(c, 3_000_000_001n));
  await idle(20);
  await send(pool(sb).getFunction("repay")(usdc.asset, 2_000n * 10n ** 6n, 2, b));
  await send(pool(sc).getFunction("withdraw")(usdc.asset, 1_000n * 10n ** 6n, c));
  await send(pool(sb).getFunction("supply")(usdc.asset, 1_500n * 10n ** 6n, b, 0));
  await idle(10);
  // A flash loan's premium is added to the liquidity index inside its block: every supplier's balance jumps.
  const receiver = await new ContractFactory(
    aaveArtifact("MockFlashLoanSimpleReceiver").abi as never,
    aaveArtifact("MockFlashLoanSimpleReceiver").bytecode,
    sa,
  ).deploy(await market.provider.getAddress());
  await receiver.waitForDeployment();
  await send(pool(sa).getFunction("flashLoanSimple")(await receiver.getAddress(), usdc.asset, 5_000n * 10n ** 6n, "0x", 0));
  const flashLoanBlock = await chain.provider.getBlockNumber();
  await idle(12);
  await send(pool(sa).getFunction("repay")(weth.asset, MaxUint256, 2, a));
  await send(pool(sb).getFunction("withdraw")(weth.asset, 10n ** 18n, b));
  await send(pool(sa).getFunction("mintToTreasury")([usdc.asset, weth.asset]));
  await idle(40);
  await send(pool(sb).getFunction("borrow")(weth.asset, 2n * 10n ** 17n, 2, 0, b));
  await idle(6);
  return { market, users: { a, b, c }, idleBlocks, flashLoanBlock, endBlock: await chain.provider.getBlockNumber() };
}
