// The amm-v3 adapter on the real Uniswap V3 contracts: every window's owner, liquidity, in-range status and value
// equal what the position manager's positions()/ownerOf() and the pool's slot0() give at each block (values via
// the V3 SDK's position math), and swap legs carry the pool's own signed amounts.
import { randomBytes } from "node:crypto";
import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { positionAsset } from "@pointwise/adapter-amm-v3";
import type { ROW_COLUMNS } from "@pointwise/indexer-engine";
import { Token } from "@uniswap/sdk-core";
import { FeeAmount, Pool, Position } from "@uniswap/v3-sdk";
import Decimal from "decimal.js";
import { formatUnits } from "ethers";
import JSBI from "jsbi";
import { type LocalChain, startChain } from "./support/chain";
import { parseCsv } from "./support/csv";
import { buildConfig, clearIndexer, REDIS_URL, runInProcess, testEnv } from "./support/harness";
import { runV3Scenario, type V3Scenario } from "./support/v3";

let chain: LocalChain;
let scenario: V3Scenario;
const csv = join(tmpdir(), `pw-amm-v3-${randomBytes(4).toString("hex")}.csv`);
let config: ReturnType<typeof buildConfig>;

beforeAll(async () => {
  chain = await startChain();
  scenario = await runV3Scenario(chain);
}, 120_000);
afterAll(async () => {
  if (config !== undefined) await clearIndexer(config);
  await rm(csv, { force: true });
  await chain?.stop();
});

const PRICE0 = new Decimal(1);
const PRICE1 = new Decimal(2);

interface ChainState {
  tick: number;
  sqrtPriceX96: bigint;
  positions: Map<bigint, { owner: string; liquidity: bigint; tickLower: number; tickUpper: number } | undefined>;
}

/** The pool's slot0 and every position's owner and liquidity at the end of `block`, read from the contracts. */
async function stateAt(block: number): Promise<ChainState> {
  // Before the pool and the position manager exist there is nothing to read.
  const code = await chain.provider.getCode(scenario.manager, block);
  if (code === "0x") return { tick: Number.NaN, sqrtPriceX96: 0n, positions: new Map() };
  const slot0 = (await scenario.poolContract.getFunction("slot0")({ blockTag: block })) as { sqrtPriceX96: bigint; tick: bigint };
  const positions = new Map<bigint, ChainState["positions"] extends Map<bigint, infer V> ? V : never>();
  for (const id of scenario.tokenIds) {
    try {
      const p = (await scenario.managerContract.getFunction("positions")(id, { blockTag: block })) as {
        liquidity: bigint;
        tickLower: bigint;
        tickUpper: bigint;
      };
      const owner = ((await scenario.managerContract.getFunction("ownerOf")(id, { blockTag: block })) as string).toLowerCase();
      positions.set(id, { owner, liquidity: p.liquidity, tickLower: Number(p.tickLower), tickUpper: Number(p.tickUpper) });
    } catch {
      positions.set(id, undefined); // not minted yet, or burned
    }
  }
  return { tick: Number(slot0.tick), sqrtPriceX96: slot0.sqrtPriceX96, positions };
}

/** USD value of a position's amounts by the V3 SDK, at the pegged prices. */
function sdkValue(liquidity: bigint, tickLower: number, tickUpper: number, state: ChainState): Decimal {
  const T0 = new Token(31337, scenario.token0, 18);
  const T1 = new Token(31337, scenario.token1, 18);
  const pool = new Pool(T0, T1, FeeAmount.MEDIUM, JSBI.BigInt(state.sqrtPriceX96.toString()), JSBI.BigInt(0), state.tick);
  const position = new Position({ pool, liquidity: JSBI.BigInt(liquidity.toString()), tickLower, tickUpper });
  const amount0 = new Decimal(position.amount0.quotient.toString()).div(1e18);
  const amount1 = new Decimal(position.amount1.quotient.toString()).div(1e18);
  return amount0.times(PRICE0).plus(amount1.times(PRICE1));
}

describe("amm-v3 on the real Uniswap V3 contracts", () => {
  it("writes position windows that match positions(), ownerOf() and slot0() at every block, and swap legs with the pool's amounts", async () => {
    const { pool, manager, token0, token1 } = scenario;
    config = buildConfig({
      kind: "evm",
      indexerId: `t-amm-v3-${randomBytes(4).toString("hex")}`,
      flushMs: 3_600_000,
      stateStoreUrl: REDIS_URL,
      network: { chainId: 31337, finality: 0 },
      range: { fromBlock: 0, toBlock: scenario.endBlock },
      sinkConfig: { sinks: [{ sinkType: "csv", path: csv }] },
      adapterConfig: { adapterId: "amm-v3", params: { poolAddress: pool, positionManagerAddress: manager, trackSwaps: true, trackLP: true } },
      assetFeedConfig: [
        { match: { key: token0 }, config: { assetType: "erc20", priceFeed: { kind: "pegged", usdPegValue: 1 } } },
        { match: { key: token1 }, config: { assetType: "erc20", priceFeed: { kind: "pegged", usdPegValue: 2 } } },
        {
          match: { matchLabels: { protocol: "amm-v3", role: "position" } },
          config: {
            assetType: "erc721",
            priceFeed: { kind: "ammv3position", token0: { kind: "pegged", usdPegValue: 1 }, token1: { kind: "pegged", usdPegValue: 2 } },
          },
        },
      ],
    });
    const { result } = await runInProcess(config, testEnv({ RPC_URL: chain.url }));
    expect(result).toMatchObject({ finished: true, nextBlock: scenario.endBlock + 1 });
    const rows = parseCsv(await readFile(csv, "utf8")) as Record<(typeof ROW_COLUMNS)[number], string>[];

    const assets = new Map(scenario.tokenIds.map((id) => [positionAsset(manager, id), id]));
    const windows = rows.filter((r) => r.rowType === "window");
    expect(windows.length).toBeGreaterThan(10);
    const states = new Map<number, ChainState>();
    for (let b = 0; b <= scenario.endBlock; b++) states.set(b, await stateAt(b));

    // Each window: at every block it spans, the contracts say this owner held this liquidity, with this status.
    const mismatches: unknown[] = [];
    const covered = new Map<string, number>();
    for (const w of windows) {
      const tokenId = assets.get(w.asset);
      expect(tokenId).toBeDefined();
      const [start, end] = [Number(w.startBlock), Number(w.endBlock)];
      for (let b = start; b < Math.max(end, start + 1); b++) {
        const state = states.get(b) as ChainState;
        const p = state.positions.get(tokenId as bigint);
        const active = p !== undefined && p.tickLower <= state.tick && state.tick < p.tickUpper;
        if (p?.owner !== w.user || String(p?.liquidity) !== w.amount || active !== (w.active === "true"))
          mismatches.push({ block: b, window: w, chain: p, tick: state.tick });
        if (b < end) covered.set(`${tokenId}|${b}`, (covered.get(`${tokenId}|${b}`) ?? 0) + 1);
      }
      // Value: the liquidity times the TWAP of the per-liquidity price at both ends, as the SDK values the position there.
      const p = states.get(start)?.positions.get(tokenId as bigint);
      const expected = sdkValue(BigInt(w.amount), p?.tickLower as number, p?.tickUpper as number, states.get(start) as ChainState)
        .plus(sdkValue(BigInt(w.amount), p?.tickLower as number, p?.tickUpper as number, states.get(end) as ChainState))
        .div(2);
      // The SDK rounds each token amount down to a whole raw unit; the window values the exact amounts.
      if (new Decimal(w.valueUsd).minus(expected).abs().greaterThan("1e-16")) mismatches.push({ value: w.valueUsd, expected: expected.toFixed(), window: w });
    }
    expect(mismatches).toEqual([]);

    // In-range time is exact to the block: every block in which a position held liquidity lies in exactly one of
    // its windows, up to the last window's end (the window still open at the end of the range is not written).
    const lastEnd = Math.max(...windows.map((w) => Number(w.endBlock)));
    for (const id of scenario.tokenIds) {
      for (let b = 0; b < lastEnd; b++) {
        const p = states.get(b)?.positions.get(id);
        const expectedCount = p !== undefined && p.liquidity > 0n ? 1 : 0;
        const windowsOfToken = windows.filter((w) => assets.get(w.asset) === id);
        const open = Math.max(...windowsOfToken.map((w) => Number(w.endBlock)));
        if (b >= open) continue;
        expect([id, b, covered.get(`${id}|${b}`) ?? 0]).toEqual([id, b, expectedCount]);
      }
    }
    // Both statuses occur, status changes cut windows, the burned position stops, and and position 2 ends.
    expect(new Set(windows.map((w) => w.active))).toEqual(new Set(["true", "false"]));
    expect(windows.some((w) => w.trigger === "statusChange")).toBe(true);
    // The burned position 2 has no window after its burn (the coverage check above counts zero there).
    expect(states.get(scenario.endBlock)?.positions.get(2n)).toBeUndefined();

    // Swap legs: one row per swap (the sold leg, which prices first), with the pool's own amounts and the sender.
    const actions = rows.filter((r) => r.rowType === "action");
    expect(actions).toHaveLength(scenario.swaps.length);
    for (const s of scenario.swaps) {
      const row = actions.find((a) => a.txHash === s.txHash);
      const zeroForOne = s.amount0 > 0n;
      const [sold, bought] = zeroForOne ? [s.amount0, -s.amount1] : [s.amount1, -s.amount0];
      const meta = JSON.parse(row?.meta ?? "{}") as Record<string, string>;
      expect([row?.user, row?.asset, row?.amount, meta.fromTkAmount, meta.toTkAmount, meta.toTkAddress]).toEqual([
        s.sender,
        zeroForOne ? token0 : token1,
        formatUnits(sold, 18).replace(/\.0$/, ""),
        formatUnits(sold, 18).replace(/\.0$/, ""),
        formatUnits(bought, 18).replace(/\.0$/, ""),
        zeroForOne ? token1 : token0,
      ]);
    }
  }, 300_000);
});
