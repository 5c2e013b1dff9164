// The erc20-holdings adapter on a local chain: every window it writes carries the balance the token contract
// itself reports for that holder at the window's start, for the scenario's 6-decimal token whose mints,
// transfers, swaps and burns run over several hours.
import { readFile } from "node:fs/promises";
import { Contract, formatUnits } from "ethers";
import { parseCsv } from "./support/csv";
import { runInProcess, testEnv } from "./support/harness";
import { useScenarioChain } from "./support/suite";

const suite = useScenarioChain();

describe("erc20-holdings on a local chain", () => {
  it("writes windows whose balances equal the token's balanceOf at each window's start, in the token's decimals", async () => {
    const { chain, scenario } = suite;
    const { config, csv } = suite.csvConfig("erc20", {
      network: { chainId: 31337, finality: 0 },
      range: { fromBlock: 0, toBlock: scenario.endBlock },
      adapterConfig: { adapterId: "erc20-holdings", params: { tokenAddress: scenario.token0 } },
    });
    const { result, logs } = await runInProcess(config, testEnv({ RPC_URL: chain.url }));
    expect(result).toMatchObject({ finished: true, nextBlock: scenario.endBlock + 1 });
    expect(logs.messages()).toContain("erc20-holdings token decimals fetched");
    const rows = parseCsv(await readFile(csv, "utf8"));
    const token = new Contract(scenario.token0, ["function balanceOf(address) view returns (uint256)"], chain.provider);
    const compared = await Promise.all(
      rows.map(async (row) => {
        const raw = (await token.getFunction("balanceOf").staticCall(row.user, { blockTag: Number(row.startBlock) })) as bigint;
        return { user: row.user, startBlock: row.startBlock, window: row.amount, balanceOf: formatUnits(raw, 6).replace(/\.0$/, "") };
      }),
    );
    expect(compared.length).toBeGreaterThan(20);
    expect(compared.filter((c) => c.window !== c.balanceOf)).toEqual([]);
    // The scenario's three users and the pool all held the token at some point, and each window is the token's, held.
    const { a, b, c } = scenario.users;
    expect(new Set(rows.map((r) => r.user))).toEqual(new Set([a, b, c, scenario.pair]));
    expect(rows.every((r) => r.rowType === "window" && r.asset === scenario.token0 && r.activity === "hold" && r.adapterId === "erc20-holdings")).toBe(true);
    // Windows close both at balance changes and at hour boundaries.
    expect(new Set(rows.map((r) => r.trigger))).toEqual(new Set(["balanceDelta", "flush"]));
  }, 60_000);
});
