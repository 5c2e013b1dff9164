// The vault adapter and the vaultshare and balancerv2nav feeds on a local chain: an ERC-4626 vault built from
// OpenZeppelin's ERC4626 and a Yearn-style vault whose assets grow between windows, and a Balancer V2 weighted pool
// deployed from its published artifacts. Every window's balance and USD value is compared with the contracts'
// own answers (balanceOf, convertToAssets, pricePerShare, getPoolTokens, getActualSupply) at the window's blocks.
import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { IndexerConfig, IndexerConfigInput } from "@pointwise/indexer-engine";
import { Contract, formatUnits } from "ethers";
import { type LocalChain, startChain } from "./support/chain";
import { parseCsv } from "./support/csv";
import { D } from "./support/expected";
import { buildConfig, clearIndexer, REDIS_URL, runInProcess, testEnv, uniqueId } from "./support/harness";
import { runVaultScenario, type VaultScenario } from "./support/vault-scenario";

type Row = Record<string, string>;
let chain: LocalChain;
let scenario: VaultScenario;
const configs: IndexerConfig[] = [];
const files: string[] = [];

beforeAll(async () => {
  chain = await startChain();
  scenario = await runVaultScenario(chain);
}, 120_000);
afterAll(async () => {
  for (const config of configs) await clearIndexer(config);
  for (const file of files) await rm(file, { force: true });
  await chain?.stop();
});

/** Runs the indexer over the whole scenario with one adapter and feed rules, and returns its csv rows. */
async function index(label: string, adapterConfig: IndexerConfigInput["adapterConfig"], assetFeedConfig: IndexerConfigInput["assetFeedConfig"]) {
  const csv = join(tmpdir(), `${uniqueId(label)}.csv`);
  files.push(csv);
  const config = buildConfig({
    kind: "evm",
    indexerId: uniqueId(label),
    flushMs: 3_600_000,
    stateStoreUrl: REDIS_URL,
    network: { chainId: 31337, finality: 0 },
    range: { fromBlock: 0, toBlock: scenario.endBlock },
    sinkConfig: { sinks: [{ sinkType: "csv", path: csv }] },
    adapterConfig,
    assetFeedConfig,
  });
  configs.push(config);
  const { result } = await runInProcess(config, testEnv({ RPC_URL: chain.url }));
  expect(result).toMatchObject({ finished: true, nextBlock: scenario.endBlock + 1 });
  const rows = parseCsv(await readFile(csv, "utf8"));
  return { windows: rows.filter((r) => r.rowType === "window"), actions: rows.filter((r) => r.rowType === "action") };
}

/** A read-only call of `contract` at a block, through ethers (not through the indexer's reader). */
async function at<T>(contract: Contract, fn: string, block: number, ...args: unknown[]): Promise<T> {
  return (await contract.getFunction(fn).staticCall(...args, { blockTag: block })) as T;
}

function close(actual: string, expected: InstanceType<typeof D>, what: string): void {
  const diff = new D(actual === "" ? "NaN" : actual).minus(expected).abs();
  if (!diff.lte("1e-15")) throw new Error(`${what}: expected ${expected.toFixed()} got ${actual}`);
}

/** Checks every window: its balance is balanceOf at its start, its price the TWAP of `priceAt` over its two blocks. */
async function checkWindows(windows: Row[], share: Contract, decimals: number, priceAt: (block: number) => Promise<InstanceType<typeof D>>) {
  for (const [i, w] of windows.entries()) {
    const start = Number(w.startBlock);
    const end = Number(w.endBlock);
    const balance = await at<bigint>(share, "balanceOf", start, w.user);
    expect({ i, amount: w.amount }).toEqual({ i, amount: formatUnits(balance, decimals).replace(/\.0$/, "") });
    const price = (await priceAt(start)).plus(await priceAt(end)).div(2);
    close(w.priceUsd ?? "", price, `window ${i} priceUsd`);
    close(w.valueUsd ?? "", new D(w.amount ?? "").times(price), `window ${i} valueUsd`);
  }
}

/** True when some holder kept one balance over consecutive windows while its price per share rose. */
function valueRoseOnUnchangedBalance(windows: Row[]): boolean {
  return windows.some((w, i) =>
    windows.slice(i + 1).some((n) => n.user === w.user && n.amount === w.amount && n.startTs === w.endTs && new D(n.priceUsd ?? "0").gt(w.priceUsd ?? "0")),
  );
}

/** Compares action rows with the scenario's own ledger of deposits and withdrawals of `vault`. */
function checkActions(actions: Row[], vault: string) {
  const expected = scenario.moves
    .filter((m) => m.vault === vault)
    .map((m) => ({
      user: m.owner,
      activity: m.kind === "deposit" ? "mint" : "custom",
      kind: m.kind,
      amount: formatUnits(m.assets, 6).replace(/\.0$/, ""),
      block: m.block,
    }));
  const actual = actions.map((a) => ({
    user: a.user,
    activity: a.activity,
    kind: (JSON.parse(a.meta ?? "{}") as { kind?: string }).kind,
    amount: a.amount,
    block: Number(a.height),
  }));
  expect(actual).toEqual(expected);
  // The underlying is pegged at 1 USD, so each move's value is its asset amount.
  for (const a of actions) {
    expect([a.asset, a.priceable, a.priceUsd]).toEqual([scenario.usd, "true", "1"]);
    close(a.valueUsd ?? "", new D(a.amount ?? ""), `action ${a.id} valueUsd`);
  }
}

const USD_PEG = { kind: "pegged", usdPegValue: 1 } as const;

describe("vault adapter and vaultshare feed on a local chain", () => {
  it("v2 (ERC-4626): share windows carry balanceOf and the value convertToAssets gives one share at each window's blocks", async () => {
    const { windows, actions } = await index("vault-v2", { adapterId: "vault", params: { vaultAddress: scenario.vault4626, version: "v2" } }, [
      {
        match: { matchLabels: { protocol: "vault", vaultVersion: "v2" } },
        config: { assetType: "erc20", priceFeed: { kind: "vaultshare", version: "v2", underlying: USD_PEG } },
      },
      { match: { key: scenario.usd }, config: { assetType: "erc20", priceFeed: USD_PEG } },
    ]);
    const vault = new Contract(
      scenario.vault4626,
      ["function balanceOf(address) view returns (uint256)", "function convertToAssets(uint256) view returns (uint256)"],
      chain.provider,
    );
    // One whole share is 10^9 units (asset decimals 6 plus the vault's decimals offset 3).
    const priceAt = async (block: number) => new D(String(await at<bigint>(vault, "convertToAssets", block, 10n ** 9n))).div(1e6);
    expect(windows.length).toBeGreaterThan(15);
    await checkWindows(windows, vault, 9, priceAt);
    expect(new Set(windows.map((w) => w.user))).toEqual(new Set(Object.values(scenario.users)));
    expect(windows.every((w) => w.asset === scenario.vault4626 && w.activity === "hold" && w.adapterId === "vault")).toBe(true);
    expect(valueRoseOnUnchangedBalance(windows)).toBe(true);
    // The per-share rate applied to a whole balance is the contract's own conversion of that balance, to within the
    // rounding of one share's conversion (one asset unit per share held).
    for (const w of windows) {
      const raw = await at<bigint>(vault, "balanceOf", Number(w.startBlock), w.user);
      const whole = new D(String(await at<bigint>(vault, "convertToAssets", Number(w.startBlock), raw))).div(1e6);
      const byRate = new D(w.amount ?? "").times(await priceAt(Number(w.startBlock)));
      expect(
        whole
          .minus(byRate)
          .abs()
          .lte(new D(w.amount ?? "").plus(1).div(1e6)),
      ).toBe(true);
    }
    checkActions(actions, scenario.vault4626);
  }, 120_000);

  it("v1 (pricePerShare): share windows carry balanceOf and the value pricePerShare gives at each window's blocks", async () => {
    const { windows, actions } = await index("vault-v1", { adapterId: "vault", params: { vaultAddress: scenario.vaultV1, version: "v1" } }, [
      { match: { key: scenario.vaultV1 }, config: { assetType: "erc20", priceFeed: { kind: "vaultshare", version: "v1", underlying: USD_PEG } } },
      { match: { key: scenario.usd }, config: { assetType: "erc20", priceFeed: USD_PEG } },
    ]);
    const vault = new Contract(
      scenario.vaultV1,
      ["function balanceOf(address) view returns (uint256)", "function pricePerShare() view returns (uint256)"],
      chain.provider,
    );
    const priceAt = async (block: number) => new D(String(await at<bigint>(vault, "pricePerShare", block))).div(1e6);
    expect(windows.length).toBeGreaterThan(15);
    await checkWindows(windows, vault, 6, priceAt);
    expect(new Set(windows.map((w) => w.user))).toEqual(new Set(Object.values(scenario.users)));
    expect(valueRoseOnUnchangedBalance(windows)).toBe(true);
    checkActions(actions, scenario.vaultV1);
  }, 120_000);
});

describe("balancerv2nav feed on a Balancer V2 weighted pool", () => {
  it("values pool-token windows from the Vault's pool balances and the pool's getActualSupply at each window's blocks", async () => {
    const { windows } = await index("balancer", { adapterId: "erc20-holdings", params: { tokenAddress: scenario.pool } }, [
      {
        match: { key: scenario.pool },
        config: {
          assetType: "erc20",
          priceFeed: {
            kind: "balancerv2nav",
            tokens: { [scenario.usd]: USD_PEG, [scenario.eth.toUpperCase().replace("0X", "0x")]: { kind: "pegged", usdPegValue: 2000 } },
          },
        },
      },
    ]);
    const bVault = new Contract(
      scenario.balancerVault,
      ["function getPoolTokens(bytes32) view returns (address[] tokens, uint256[] balances, uint256 lastChangeBlock)"],
      chain.provider,
    );
    const pool = new Contract(
      scenario.pool,
      [
        "function balanceOf(address) view returns (uint256)",
        "function getActualSupply() view returns (uint256)",
        "function totalSupply() view returns (uint256)",
      ],
      chain.provider,
    );
    const usdPrice = (token: string) => (token.toLowerCase() === scenario.usd ? { price: 1, decimals: 6 } : { price: 2000, decimals: 18 });
    const poolValue = async (block: number) => {
      const [tokens, balances] = await at<[string[], bigint[]]>(bVault, "getPoolTokens", block, scenario.poolId);
      return tokens.reduce((sum, t, i) => sum.plus(new D(String(balances[i])).div(new D(10).pow(usdPrice(t).decimals)).times(usdPrice(t).price)), new D(0));
    };
    const navAt = async (block: number) => (await poolValue(block)).div(new D(String(await at<bigint>(pool, "getActualSupply", block))).div(1e18));
    expect(windows.length).toBeGreaterThan(10);
    await checkWindows(windows, pool, 18, navAt);
    // A and B hold pool tokens; the fees collector receives the protocol's owed tokens when B joins.
    expect(new Set(windows.map((w) => w.user))).toEqual(new Set([scenario.users.a, scenario.users.b, scenario.feesCollector]));
    // Between swaps and the next join the pool owes the protocol fee tokens: getActualSupply runs ahead of
    // totalSupply, and pricing by totalSupply would overstate those windows.
    let differing = 0;
    for (const w of windows) {
      const block = Number(w.startBlock);
      const actual = await at<bigint>(pool, "getActualSupply", block);
      const total = await at<bigint>(pool, "totalSupply", block);
      if (actual !== total) {
        differing++;
        const byTotal = (await poolValue(block)).div(new D(String(total)).div(1e18));
        expect(byTotal.gt(await navAt(block))).toBe(true);
      }
    }
    expect(differing).toBeGreaterThan(0);
  }, 120_000);
});

describe("balancerv2nav feed on a first-version weighted pool", () => {
  it("values pool-token windows by totalSupply, which is the supply of a pool without getActualSupply", async () => {
    const { windows } = await index("balancer-v1", { adapterId: "erc20-holdings", params: { tokenAddress: scenario.poolV1 } }, [
      {
        match: { key: scenario.poolV1 },
        config: {
          assetType: "erc20",
          priceFeed: { kind: "balancerv2nav", tokens: { [scenario.usd]: USD_PEG, [scenario.eth]: { kind: "pegged", usdPegValue: 2000 } } },
        },
      },
    ]);
    const bVault = new Contract(
      scenario.balancerVault,
      ["function getPoolTokens(bytes32) view returns (address[] tokens, uint256[] balances, uint256 lastChangeBlock)"],
      chain.provider,
    );
    const pool = new Contract(
      scenario.poolV1,
      ["function balanceOf(address) view returns (uint256)", "function totalSupply() view returns (uint256)"],
      chain.provider,
    );
    // The pool has no getActualSupply: the call reverts.
    await expect(
      new Contract(scenario.poolV1, ["function getActualSupply() view returns (uint256)"], chain.provider).getFunction("getActualSupply")(),
    ).rejects.toThrow();
    const navAt = async (block: number) => {
      const [tokens, balances] = await at<[string[], bigint[]]>(bVault, "getPoolTokens", block, scenario.poolV1Id);
      const value = tokens.reduce(
        (sum, t, i) => sum.plus(t.toLowerCase() === scenario.usd ? new D(String(balances[i])).div(1e6) : new D(String(balances[i])).div(1e18).times(2000)),
        new D(0),
      );
      return value.div(new D(String(await at<bigint>(pool, "totalSupply", block))).div(1e18));
    };
    expect(windows.length).toBeGreaterThan(5);
    await checkWindows(windows, pool, 18, navAt);
    expect(new Set(windows.map((w) => w.user))).toEqual(new Set([scenario.users.a, scenario.users.c]));
  }, 120_000);
});

describe("vault and pool configurations that do not fit the chain", () => {
  /** A config over the scenario that is expected to stop the run. */
  function failing(label: string, adapterConfig: IndexerConfigInput["adapterConfig"], assetFeedConfig: IndexerConfigInput["assetFeedConfig"] = []) {
    const csv = join(tmpdir(), `${uniqueId(label)}.csv`);
    files.push(csv);
    const config = buildConfig({
      kind: "evm",
      indexerId: uniqueId(label),
      flushMs: 3_600_000,
      stateStoreUrl: REDIS_URL,
      network: { chainId: 31337, finality: 0 },
      range: { fromBlock: 0, toBlock: scenario.endBlock },
      sinkConfig: { sinks: [{ sinkType: "csv", path: csv }] },
      adapterConfig,
      assetFeedConfig,
    });
    configs.push(config);
    return runInProcess(config, testEnv({ RPC_URL: chain.url }));
  }

  it("stops at start when the vault does not speak the configured version, naming the other", async () => {
    await expect(failing("vault-wrong-v1", { adapterId: "vault", params: { vaultAddress: scenario.vault4626, version: "v1" } })).rejects.toMatchObject({
      code: "adapter-init-failed",
      message: `vault: could not read token() and pricePerShare() of vault ${scenario.vault4626} as version v1; use v2 for an ERC-4626 vault`,
    });
    await expect(failing("vault-wrong-v2", { adapterId: "vault", params: { vaultAddress: scenario.vaultV1, version: "v2" } })).rejects.toMatchObject({
      message: `vault: could not read asset() (ERC-4626) of vault ${scenario.vaultV1} as version v2; use v1 for a vault with pricePerShare()`,
    });
  }, 60_000);

  it("stops pricing a vault whose vaultshare version is not the vault's, naming the other, with feed-config-invalid", async () => {
    const feed = (version: "v1" | "v2") => [
      {
        match: { matchLabels: { protocol: "vault" } },
        config: { assetType: "erc20" as const, priceFeed: { kind: "vaultshare" as const, version, underlying: USD_PEG } },
      },
    ];
    await expect(
      failing("vaultshare-wrong-v1", { adapterId: "vault", params: { vaultAddress: scenario.vault4626, version: "v2" } }, feed("v1")),
    ).rejects.toMatchObject({
      code: "feed-config-invalid",
      message: `vaultshare of vault ${scenario.vault4626}: could not read token() as version v1; use version v2 for an ERC-4626 vault`,
    });
    await expect(
      failing("vaultshare-wrong-v2", { adapterId: "vault", params: { vaultAddress: scenario.vaultV1, version: "v1" } }, feed("v2")),
    ).rejects.toMatchObject({
      code: "feed-config-invalid",
      message: `vaultshare of vault ${scenario.vaultV1}: could not read asset() (ERC-4626) as version v2; use version v1 for a vault with pricePerShare()`,
    });
  }, 60_000);

  it("stops pricing a pool whose balancerv2nav tokens are not exactly the pool's, naming the pool's tokens", async () => {
    const stranger = "0x00000000000000000000000000000000000000f7";
    const run = failing("balancer-wrong-tokens", { adapterId: "erc20-holdings", params: { tokenAddress: scenario.pool } }, [
      {
        match: { key: scenario.pool },
        config: { assetType: "erc20", priceFeed: { kind: "balancerv2nav", tokens: { [scenario.usd]: USD_PEG, [stranger]: USD_PEG } } },
      },
    ]);
    const pooled = [scenario.usd, scenario.eth].sort().join(", ");
    await expect(run).rejects.toMatchObject({
      code: "feed-config-invalid",
      message: `balancerv2nav of pool ${scenario.pool}: tokens must name exactly the pool's tokens ${pooled}; missing ${scenario.eth}; not in the pool ${stranger}`,
    });
  }, 60_000);
});
