// Test support for the vault adapter and feeds: deploys an ERC-4626 vault, a Yearn-style vault and a Balancer V2
// weighted pool (from its published artifacts) on the local chain, then moves shares and grows assets over hours.
import { AbiCoder, Contract, ContractFactory, type InterfaceAbi, type JsonRpcSigner, MaxUint256 } from "ethers";
import type { LocalChain } from "./chain";
import { compileContracts } from "./compile";

const coder = AbiCoder.defaultAbiCoder();
const TASKS = "@balancer-labs/v2-deployments/dist/tasks";

/** What the vault scenario deployed and did, for tests that compare the indexer's rows with the contracts. */
export interface VaultScenario {
  /** The 6-decimal underlying of both vaults, and the Balancer pool's 18-decimal second token. */
  usd: string;
  eth: string;
  /** The ERC-4626 vault (shares with 9 decimals) and the Yearn-style vault (shares with 6). */
  vault4626: string;
  vaultV1: string;
  /** The Balancer V2 Vault, the weighted pool (its own pool token) and its pool id. */
  balancerVault: string;
  pool: string;
  poolId: string;
  /** A first-version weighted pool (no getActualSupply: its totalSupply is its supply) and its pool id. */
  poolV1: string;
  poolV1Id: string;
  /** The Vault's protocol fees collector, which the pool mints the owed fee tokens to at a join or exit. */
  feesCollector: string;
  users: { a: string; b: string; c: string };
  /** Deposits and withdrawals the scenario sent, per vault, as the test's own ledger records them. */
  moves: { vault: string; kind: "deposit" | "withdraw"; owner: string; assets: bigint; block: number }[];
  /** Blocks where underlying was sent to a vault (its assets grew while its share supply did not). */
  gains: { vault: string; block: number }[];
  /** Blocks of the pool's swaps (protocol fees accrue: getActualSupply runs ahead of totalSupply). */
  swaps: number[];
  endBlock: number;
}

/** A contract factory from a Balancer deployments task's artifact. */
function balancerFactory(task: string, name: string, signer: JsonRpcSigner): ContractFactory {
  const artifact = require(`${TASKS}/${task}/artifact/${name}.json`) as { abi: InterfaceAbi; bytecode: string };
  return new ContractFactory(artifact.abi, artifact.bytecode, signer);
}

/** Deploys the vaults and the pool and runs deposits, transfers, gains, withdrawals, joins and swaps over several hours. */
export async function runVaultScenario(chain: LocalChain): Promise<VaultScenario> {
  const compiled = await compileContracts();
  const [deployer, sa, sb, sc] = (await chain.provider.listAccounts()) as [JsonRpcSigner, JsonRpcSigner, JsonRpcSigner, JsonRpcSigner];
  const deploy = async (factory: ContractFactory, ...args: unknown[]) => {
    const contract = await factory.deploy(...args);
    await contract.waitForDeployment();
    return contract as Contract;
  };
  const local = (name: string) => {
    const c = compiled[name];
    if (c === undefined) throw new Error(`contract ${name} not compiled`);
    return new ContractFactory(c.abi as InterfaceAbi, c.bytecode, deployer);
  };
  const addr = async (c: Contract) => (await c.getAddress()).toLowerCase();
  const send = async (c: Contract, signer: JsonRpcSigner, fn: string, ...args: unknown[]) => {
    const receipt = (await (await (c.connect(signer) as Contract).getFunction(fn)(...args)).wait()) as {
      blockNumber: number;
      logs: { topics: string[]; data: string }[];
    };
    return receipt;
  };
  const hours = async (h: number) => chain.rpc("evm_increaseTime", [Math.round(h * 3600)]);

  const usd = await deploy(local("TestToken"), "Test Dollar", "TUSD", 6);
  const eth = await deploy(local("TestToken"), "Test Ether", "TETH", 18);
  const v2 = await deploy(local("TestVault4626"), await usd.getAddress());
  const v1 = await deploy(local("TestYearnVault"), await usd.getAddress());
  const users = { a: (await sa.getAddress()).toLowerCase(), b: (await sb.getAddress()).toLowerCase(), c: (await sc.getAddress()).toLowerCase() };

  // Balancer V2: authorizer, Vault, fee-percentages provider and weighted pool factory, from the published artifacts.
  const authorizer = await deploy(balancerFactory("20210418-authorizer", "Authorizer", deployer), await deployer.getAddress());
  const bVault = await deploy(balancerFactory("20210418-vault", "Vault", deployer), await authorizer.getAddress(), await eth.getAddress(), 0, 0);
  const provider = await deploy(
    balancerFactory("20220725-protocol-fee-percentages-provider", "ProtocolFeePercentagesProvider", deployer),
    await bVault.getAddress(),
    5n * 10n ** 17n,
    5n * 10n ** 17n,
  );
  const factory = await deploy(
    balancerFactory("20230206-weighted-pool-v3", "WeightedPoolFactory", deployer),
    await bVault.getAddress(),
    await provider.getAddress(),
    "test-factory",
    "test-pool",
  );
  // A protocol swap fee of 50%, set before the pool exists so its fee cache starts with it: the pool then owes the
  // protocol pool tokens between joins and exits.
  const collectorAddress = (await bVault.getFunction("getProtocolFeesCollector")()) as string;
  const collector = new Contract(collectorAddress, ["function getActionId(bytes4) view returns (bytes32)", "function setSwapFeePercentage(uint256)"], deployer);
  const setFee = collector.interface.getFunction("setSwapFeePercentage")?.selector as string;
  await send(authorizer, deployer, "grantRole", await collector.getFunction("getActionId")(setFee), await deployer.getAddress());
  await send(collector, deployer, "setSwapFeePercentage", 5n * 10n ** 17n);
  const tokens = [await addr(usd), await addr(eth)].sort();
  const created = await send(
    factory,
    deployer,
    "create",
    "Test 50 TUSD 50 TETH",
    "B-50TUSD-50TETH",
    tokens,
    [5n * 10n ** 17n, 5n * 10n ** 17n],
    tokens.map(() => "0x0000000000000000000000000000000000000000"),
    10n ** 16n,
    await deployer.getAddress(),
  );
  const poolCreated = created.logs.map((l) => factory.interface.parseLog(l)).find((l) => l?.name === "PoolCreated");
  const poolAddress = String(poolCreated?.args[0]).toLowerCase();
  const poolAbi = (require(`${TASKS}/20230206-weighted-pool-v3/artifact/WeightedPool.json`) as { abi: InterfaceAbi }).abi;
  const pool = new Contract(poolAddress, poolAbi, deployer);
  const poolId = String(await pool.getFunction("getPoolId")()).toLowerCase();
  // The first weighted pool factory (20210418) is published as ABI and creation code.
  const v1Abi = require(`${TASKS}/20210418-weighted-pool/abi/WeightedPoolFactory.json`) as InterfaceAbi;
  const v1Code = (require(`${TASKS}/20210418-weighted-pool/bytecode/WeightedPoolFactory.json`) as { creationCode: string }).creationCode;
  const factoryV1 = await deploy(new ContractFactory(v1Abi, v1Code, deployer), await bVault.getAddress());
  const createdV1 = await send(
    factoryV1,
    deployer,
    "create",
    "Test V1 50/50",
    "B-V1",
    tokens,
    [5n * 10n ** 17n, 5n * 10n ** 17n],
    10n ** 16n,
    await deployer.getAddress(),
  );
  const poolV1Address = String(createdV1.logs.map((l) => factoryV1.interface.parseLog(l)).find((l) => l?.name === "PoolCreated")?.args[0]).toLowerCase();
  const poolV1 = new Contract(poolV1Address, require(`${TASKS}/20210418-weighted-pool/abi/WeightedPool.json`) as InterfaceAbi, deployer);
  const poolV1Id = String(await poolV1.getFunction("getPoolId")()).toLowerCase();

  for (const signer of [sa, sb, sc]) {
    const who = await signer.getAddress();
    await send(usd, deployer, "mint", who, 1_000_000n * 10n ** 6n);
    await send(eth, deployer, "mint", who, 1_000n * 10n ** 18n);
    for (const spender of [v2, v1, bVault]) {
      await send(usd, signer, "approve", await spender.getAddress(), MaxUint256);
      await send(eth, signer, "approve", await spender.getAddress(), MaxUint256);
    }
  }

  const moves: VaultScenario["moves"] = [];
  const gains: VaultScenario["gains"] = [];
  const swaps: number[] = [];
  const v2a = await addr(v2);
  const v1a = await addr(v1);
  const move = (vault: string, kind: "deposit" | "withdraw", owner: string, assets: bigint, block: number) => moves.push({ vault, kind, owner, assets, block });
  const gain = async (vault: Contract, amount: bigint) => {
    const r = await send(usd, deployer, "mint", await vault.getAddress(), amount);
    gains.push({ vault: await addr(vault), block: r.blockNumber });
  };
  const usdAddress = await addr(usd);
  const ethAddress = await addr(eth);
  // Amounts in the pool's token order (sorted addresses).
  const amounts = (usdAmount: bigint, ethAmount: bigint) => tokens.map((t) => (t === usdAddress ? usdAmount : ethAmount));
  const join = async (signer: JsonRpcSigner, userData: string, maxIn: bigint[], id = poolId) => {
    const who = await signer.getAddress();
    return send(bVault, signer, "joinPool", id, who, who, { assets: tokens, maxAmountsIn: maxIn, userData, fromInternalBalance: false });
  };
  const swap = async (signer: JsonRpcSigner, assetIn: string, assetOut: string, amount: bigint, id = poolId) => {
    const who = await signer.getAddress();
    const r = await send(
      bVault,
      signer,
      "swap",
      { poolId: id, kind: 0, assetIn, assetOut, amount, userData: "0x" },
      { sender: who, fromInternalBalance: false, recipient: who, toInternalBalance: false },
      0,
      MaxUint256,
    );
    swaps.push(r.blockNumber);
  };

  // Hour 0: first deposits into both vaults, and the pool's initial join (1 TETH = 2000 TUSD).
  move(v2a, "deposit", users.a, 1_000n * 10n ** 6n, (await send(v2, sa, "deposit", 1_000n * 10n ** 6n, users.a)).blockNumber);
  move(v1a, "deposit", users.a, 1_000n * 10n ** 6n, (await send(v1, sa, "deposit", 1_000n * 10n ** 6n, users.a)).blockNumber);
  const initAmounts = amounts(20_000n * 10n ** 6n, 10n * 10n ** 18n);
  await join(sa, coder.encode(["uint256", "uint256[]"], [0, initAmounts]), initAmounts);
  const initV1 = amounts(4_000n * 10n ** 6n, 2n * 10n ** 18n);
  await join(sa, coder.encode(["uint256", "uint256[]"], [0, initV1]), initV1, poolV1Id);
  await hours(1.5);
  // Hour 1.5: B deposits, A hands pool tokens to B, the vaults gain (a strategy's profit arrives).
  move(v2a, "deposit", users.b, 500n * 10n ** 6n, (await send(v2, sb, "deposit", 500n * 10n ** 6n, users.b)).blockNumber);
  move(v1a, "deposit", users.b, 400n * 10n ** 6n, (await send(v1, sb, "deposit", 400n * 10n ** 6n, users.b)).blockNumber);
  await send(pool, sa, "transfer", users.b, 3n * 10n ** 18n);
  await send(poolV1, sa, "transfer", users.c, 10n ** 18n);
  await swap(sc, ethAddress, usdAddress, 10n ** 17n, poolV1Id);
  await gain(v2, 150n * 10n ** 6n);
  await gain(v1, 100n * 10n ** 6n);
  await swap(sc, usdAddress, ethAddress, 1_000n * 10n ** 6n);
  await hours(2.2);
  // Hour 3.7: share transfers, more gains, swaps both ways.
  await send(v2, sa, "transfer", users.c, 300n * 10n ** 9n);
  await send(v1, sa, "transfer", users.c, 250n * 10n ** 6n);
  await gain(v2, 75_123_457n);
  await swap(sc, ethAddress, usdAddress, 4n * 10n ** 17n);
  await hours(1.1);
  await gain(v1, 33_333_333n);
  await swap(sc, usdAddress, ethAddress, 2_500n * 10n ** 6n);
  await swap(sc, usdAddress, ethAddress, 300n * 10n ** 6n, poolV1Id);
  await hours(2.4);
  // Hour 7.2: withdrawals (A's assets paid to B in the ERC-4626 vault; B's paid to C in the Yearn-style vault, whose
  // Withdraw names only C, the recipient: the shares were B's), B joins the pool with both tokens.
  const w2 = await send(v2, sa, "withdraw", 200n * 10n ** 6n, users.b, users.a);
  move(v2a, "withdraw", users.a, 200n * 10n ** 6n, w2.blockNumber);
  const bShares = (await v1.getFunction("balanceOf")(users.b)) as bigint;
  const expectedOut = ((bShares / 2n) * ((await v1.getFunction("totalAssets")()) as bigint)) / ((await v1.getFunction("totalSupply")()) as bigint);
  move(v1a, "withdraw", users.b, expectedOut, (await send(v1, sb, "withdraw", bShares / 2n, users.c)).blockNumber);
  // Deposits of nothing (both vaults accept them and log them) move no asset and no share: they are no move.
  await send(v2, sc, "deposit", 0n, users.c);
  await send(v1, sc, "deposit", 0n, users.c);
  const joinAmounts = amounts(2_000n * 10n ** 6n, 1n * 10n ** 18n);
  await join(sb, coder.encode(["uint256", "uint256[]", "uint256"], [1, joinAmounts, 0]), joinAmounts);
  await hours(1.3);
  await swap(sc, ethAddress, usdAddress, 3n * 10n ** 17n);
  await gain(v2, 12_345_678n);
  await hours(1.6);
  // Hour 10.1: B redeems every ERC-4626 share; a last block closes the scenario.
  const bAll = (await v2.getFunction("balanceOf")(users.b)) as bigint;
  const assetsOut = (await v2.getFunction("previewRedeem")(bAll)) as bigint;
  move(v2a, "withdraw", users.b, assetsOut, (await send(v2, sb, "redeem", bAll, users.b, users.b)).blockNumber);
  await hours(0.5);
  await chain.rpc("evm_mine");
  const endBlock = await chain.provider.getBlockNumber();
  return {
    usd: usdAddress,
    eth: ethAddress,
    vault4626: v2a,
    vaultV1: v1a,
    balancerVault: await addr(bVault),
    pool: poolAddress,
    poolId,
    poolV1: poolV1Address,
    poolV1Id,
    feesCollector: collectorAddress.toLowerCase(),
    users,
    moves,
    gains,
    swaps,
    endBlock,
  };
}
