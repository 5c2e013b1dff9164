// The lending adapter on a real Aave V3 market: every window's balance equals the aToken's or variable debt token's
// balanceOf at the window's start block, interest included, across a restart; labels price positions; bad configs fail.
import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { IndexerConfig, IndexerConfigInput } from "@pointwise/indexer-engine";
import { Contract, formatUnits } from "ethers";
import { type AaveScenario, runAaveScenario } from "./support/aave";
import { type LocalChain, startChain } from "./support/chain";
import { type CsvRow, parseCsv } from "./support/csv";
import { buildConfig, clearIndexer, REDIS_URL, runInProcess, testEnv, uniqueId } from "./support/harness";

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
  return parseCsv(await readFile(csv, "utf8"));
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
    rows = await indexAll("lending");
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
});
