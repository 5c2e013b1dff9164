// The lending adapter on a real Aave V3 market: every window's balance equals the aToken's or variable debt token's
// balanceOf at the window's start block, interest included, across a restart; labels price positions; bad configs fail.
import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { IndexerConfig, IndexerConfigInput } from "@pointwise/indexer-engine";
import { Contract, formatUnits, id, zeroPadValue } from "ethers";
import { type AaveScenario, runAaveScenario } from "./support/aave";
import { type LocalChain, startChain } from "./support/chain";
import { parseCsv } from "./support/csv";
import { buildConfig, clearIndexer, REDIS_URL, runInProcess, testEnv, uniqueId } from "./support/harness";

/** The csv columns the tests read. */
type CsvRow = Record<"user" | "asset" | "activity" | "amount" | "startTs" | "endTs" | "startBlock" | "trigger" | "priceUsd" | "valueUsd", string>;

let chain: LocalChain;
let scenario: AaveScenario;
const configs: IndexerConfig[] = [];
const files: string[] = [];

beforeAll(async () => {
  chain = await startChain();
  scenario = await runAaveScenario(chain);
}, 180_000);
afterAll(async () => {
  for (const config of configs) await clearIndexer(config);
  for (const file of files) await rm(file, { force: true });
  await chain?.stop();
});

function csvConfig(label: string, input: Partial<IndexerConfigInput>): { config: IndexerConfig; csv: string } {
  const csv = join(tmpdir(), `${uniqueId(label)}.csv`);
  const config = buildConfig({
    kind: "evm",
    indexerId: uniqueId(label),
    flushMs: 3_600_000,
    stateStoreUrl: REDIS_URL,
    sinkConfig: { sinks: [{ sinkType: "csv", path: csv }] },
    network: { chainId: 31337, finality: 0 },
    range: { fromBlock: scenario.market.deployBlock, toBlock: scenario.endBlock },
    ...input,
  } as IndexerConfigInput);
  configs.push(config);
  files.push(csv);
  return { config, csv };
}

const lending = (params: Record<string, unknown>) => ({
  adapterConfig: { adapterId: "lending", params: { poolAddress: scenario.market.poolAddress, trackSupply: true, trackBorrow: true, ...params } },
});

async function indexAll(label: string, input: Partial<IndexerConfigInput> = {}): Promise<CsvRow[]> {
  const { config, csv } = csvConfig(label, { ...lending({}), ...input });
  const { result } = await runInProcess(config, testEnv({ RPC_URL: chain.url }));
  expect(result).toMatchObject({ finished: true, nextBlock: scenario.endBlock + 1 });
  return parseCsv(await readFile(csv, "utf8")) as CsvRow[];
}

/** What the token contract itself answers for the row's user at the row's start block, in token units. */
async function balanceAtStart(row: CsvRow): Promise<string> {
  const token = new Contract(row.asset, ["function balanceOf(address) view returns (uint256)"], chain.provider);
  const raw = (await token.getFunction("balanceOf").staticCall(row.user, { blockTag: Number(row.startBlock) })) as bigint;
  const decimals = row.asset === scenario.market.usdc.aToken || row.asset === scenario.market.usdc.debtToken ? 6 : 18;
  return formatUnits(raw, decimals).replace(/\.0$/, "");
}

/** A decimal with at most 18 places as an integer of 10^-18 units, for comparing sizes exactly. */
const units = (amount: string) => {
  const [whole, frac = ""] = amount.split(".");
  return `${whole}${frac.padEnd(18, "0")}`;
};

describe("lending adapter on an Aave V3 market", () => {
  let rows: CsvRow[];
  beforeAll(async () => {
    const { usdc, weth } = scenario.market;
    rows = await indexAll("lending", {
      assetFeedConfig: [
        {
          match: { matchLabels: { protocol: "aave-v3", reserve: usdc.asset, side: "supply" } },
          config: { assetType: "erc20", priceFeed: { kind: "pegged", usdPegValue: 1 } },
        },
        {
          match: {
            matchExpressions: [
              { key: "protocol", operator: "In", values: ["aave-v3"] },
              { key: "reserve", operator: "In", values: [weth.asset] },
            ],
          },
          config: { assetType: "erc20", priceFeed: { kind: "pegged", usdPegValue: 3000 } },
        },
      ],
    } as Partial<IndexerConfigInput>);
  }, 120_000);

  it("writes windows whose balances equal balanceOf of the aToken or debt token at each window's start block", async () => {
    const { market, users } = scenario;
    expect(rows.length).toBeGreaterThan(300);
    const compared = await Promise.all(
      rows.map(async (r) => ({ user: r.user, asset: r.asset, startBlock: r.startBlock, window: r.amount, balanceOf: await balanceAtStart(r) })),
    );
    expect(compared.filter((c) => c.window !== c.balanceOf)).toEqual([]);
    // Supply windows are `lend` on the aTokens, debt windows `borrow` on the variable debt tokens.
    const kinds = new Set(rows.map((r) => `${r.asset}:${r.activity}`));
    expect(kinds).toEqual(
      new Set([`${market.usdc.aToken}:lend`, `${market.weth.aToken}:lend`, `${market.usdc.debtToken}:borrow`, `${market.weth.debtToken}:borrow`]),
    );
    expect(new Set(rows.map((r) => r.user))).toEqual(new Set([users.a, users.b, users.c, market.treasury]));
    expect(new Set(rows.map((r) => r.trigger))).toEqual(new Set(["balanceDelta", "flush"]));
  }, 120_000);

  it("shows interest accrued with no user action: an idle position's flush windows grow hour by hour", () => {
    const { market, users } = scenario;
    // C held aUSDC and B owed USDC through the 20 idle hours after the aToken transfer: consecutive flush windows rise.
    for (const [user, asset] of [
      [users.c, market.usdc.aToken],
      [users.b, market.usdc.debtToken],
    ] as const) {
      const own = rows.filter((r) => r.user === user && r.asset === asset).sort((x, y) => Number(x.startTs) - Number(y.startTs));
      // A window closed by a flush and the next one opened there: the balance grew with nothing done by the user.
      const grownAtFlush = own.filter((r, i) => {
        const next = own[i + 1];
        return r.trigger === "flush" && next !== undefined && next.startTs === r.endTs && BigInt(units(next.amount)) > BigInt(units(r.amount));
      });
      expect(grownAtFlush.length).toBeGreaterThan(40);
    }
  });

  it("moves every supplier's balance in the block of a flash loan, whose premium raises the liquidity index", () => {
    const { market, users } = scenario;
    const at = String(scenario.flashLoanBlock);
    for (const user of [users.a, users.b, users.c])
      expect(rows.some((r) => r.user === user && r.asset === market.usdc.aToken && r.startBlock === at)).toBe(true);
  });

  it("prices positions by the feed rules matching their protocol, reserve and side labels", () => {
    const { usdc, weth } = scenario.market;
    const priceOf = (asset: string) => new Set(rows.filter((r) => r.asset === asset).map((r) => r.priceUsd));
    expect(priceOf(usdc.aToken)).toEqual(new Set(["1"]));
    expect(priceOf(weth.aToken)).toEqual(new Set(["3000"]));
    expect(priceOf(weth.debtToken)).toEqual(new Set(["3000"]));
    // The USDC rule matches side=supply only: USDC debt stays unpriced.
    expect(priceOf(usdc.debtToken)).toEqual(new Set([""]));
    const wethRow = rows.find((r) => r.asset === weth.debtToken) as CsvRow;
    expect(BigInt(units(wethRow.valueUsd))).toBe(BigInt(units(wethRow.amount)) * 3000n);
  });

  it("resumes after stopping mid-range with the same rows as one uninterrupted run", async () => {
    const middle = scenario.flashLoanBlock + 3;
    const indexerId = uniqueId("lending-resume");
    const csv = join(tmpdir(), `${indexerId}.csv`);
    files.push(csv);
    const input = (toBlock: number) =>
      buildConfig({
        kind: "evm",
        indexerId,
        flushMs: 3_600_000,
        stateStoreUrl: REDIS_URL,
        sinkConfig: { sinks: [{ sinkType: "csv", path: csv }] },
        network: { chainId: 31337, finality: 0 },
        range: { fromBlock: scenario.market.deployBlock, toBlock },
        ...lending({}),
      } as IndexerConfigInput);
    configs.push(input(middle));
    await runInProcess(input(middle), testEnv({ RPC_URL: chain.url }));
    await runInProcess(input(scenario.endBlock), testEnv({ RPC_URL: chain.url }));
    const strip = (r: CsvRow) => ({ ...r, id: "", indexerId: "", priceUsd: "", valueUsd: "", usdHours: "" });
    const resumed = (parseCsv(await readFile(csv, "utf8")) as CsvRow[]).map(strip);
    expect(resumed).toEqual(rows.map(strip));
  }, 120_000);
});

describe("lending adapter started after the market's last ReserveDataUpdated of a reserve", () => {
  it("reads the reserve's state with getReserveData at the first log and carries the treasury's interest from it", async () => {
    const { market } = scenario;
    const [mintTopic, rduTopic] = ["Mint(address,address,uint256,uint256,uint256)", "ReserveDataUpdated(address,uint256,uint256,uint256,uint256,uint256)"].map(
      id,
    );
    // mintToTreasury mints the treasury's first aUSDC with a Mint and no ReserveDataUpdated: starting there, the
    // adapter has seen no index of the USDC reserve and must ask the Pool for it.
    const [treasuryMint] = await chain.provider.getLogs({
      address: market.usdc.aToken,
      topics: [mintTopic as string, null, zeroPadValue(market.treasury, 32)],
      fromBlock: market.deployBlock,
      toBlock: scenario.endBlock,
    });
    const fromBlock = (treasuryMint as { blockNumber: number }).blockNumber;
    const later = await chain.provider.getLogs({
      address: market.poolAddress,
      topics: [rduTopic as string, zeroPadValue(market.usdc.asset, 32)],
      fromBlock,
      toBlock: scenario.endBlock,
    });
    expect(later).toEqual([]);
    const { config, csv } = csvConfig("lending-fallback", {
      ...lending({ assets: [market.usdc.asset], trackBorrow: false }),
      range: { fromBlock, toBlock: scenario.endBlock },
    });
    const { result } = await runInProcess(config, testEnv({ RPC_URL: chain.url }));
    expect(result).toMatchObject({ finished: true });
    const rows = parseCsv(await readFile(csv, "utf8")) as CsvRow[];
    // 46 idle hours after the mint: every hourly window's balance is the interest the fallback state carries.
    expect(rows.filter((r) => r.trigger === "flush").length).toBeGreaterThan(40);
    expect(new Set(rows.map((r) => `${r.user}:${r.asset}`))).toEqual(new Set([`${market.treasury}:${market.usdc.aToken}`]));
    const compared = await Promise.all(rows.map(async (r) => ({ startBlock: r.startBlock, window: r.amount, balanceOf: await balanceAtStart(r) })));
    expect(compared.filter((c) => c.window !== c.balanceOf)).toEqual([]);
    expect(BigInt(units((rows.at(-1) as CsvRow).amount))).toBeGreaterThan(BigInt(units((rows[0] as CsvRow).amount)));
  }, 120_000);
});

describe("lending adapter configs that cannot run", () => {
  it("refuses params without a side to track, with an empty asset list, or with a bad address", () => {
    const build = (params: Record<string, unknown>) => () => csvConfig("bad", { adapterConfig: { adapterId: "lending", params } });
    const pool = scenario.market.poolAddress;
    expect(build({ poolAddress: pool })).toThrow("Invalid indexer config: At least one of trackSupply or trackBorrow must be enabled");
    expect(build({ poolAddress: pool, trackSupply: true, assets: [] })).toThrow(
      "adapterConfig.params.assets must list at least one asset (omit it to track every reserve)",
    );
    expect(build({ poolAddress: "0x12", trackSupply: true })).toThrow("adapterConfig.params.poolAddress must be a 0x-prefixed 20-byte hex address");
    expect(build({ poolAddress: pool, trackBorrow: "yes" })).toThrow("adapterConfig.params.trackBorrow must be a boolean");
  });

  it("fails with Contract Not Found for a pool address without code, or a contract that is not an Aave V3 Pool", async () => {
    const run = (params: Record<string, unknown>) => runInProcess(csvConfig("bad-pool", lending(params)).config, testEnv({ RPC_URL: chain.url }));
    await expect(run({ poolAddress: "0x00000000000000000000000000000000deadbeef" })).rejects.toMatchObject({
      message: "Contract Not Found",
      code: "contract-not-found",
      details: { address: "0x00000000000000000000000000000000deadbeef" },
    });
    const token = scenario.market.usdc.asset;
    await expect(run({ poolAddress: token })).rejects.toMatchObject({
      message: "Contract Not Found",
      code: "contract-not-found",
      details: { reason: `${token} is not an Aave V3 Pool: getReservesList() failed`, address: token },
    });
    await expect(run({ poolAddress: token, assets: [token] })).rejects.toMatchObject({
      message: "Contract Not Found",
      details: { reason: `${token} is not an Aave V3 Pool: getReserveData(address) failed` },
    });
  }, 60_000);

  it("fails naming the asset when an asset is not a reserve of the pool", async () => {
    const stranger = "0x00000000000000000000000000000000000000aa";
    const { config } = csvConfig("bad-asset", lending({ assets: [stranger] }));
    await expect(runInProcess(config, testEnv({ RPC_URL: chain.url }))).rejects.toMatchObject({
      code: "reserve-not-found",
      message: `lending: ${stranger} is not a reserve of the Aave V3 Pool ${scenario.market.poolAddress}`,
    });
  });
});
