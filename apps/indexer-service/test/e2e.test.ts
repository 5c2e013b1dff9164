// amm-v2 on a local chain: windows and swap actions match an independent ledger; finality and live mode.
import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { IndexerConfig } from "@pointwise/indexer-engine";
import { Contract } from "ethers";
import { type LocalChain, startChain } from "./support/chain";
import { parseCsv } from "./support/csv";
import { D, type ExpectedAction, type ExpectedWindow, expectedRows } from "./support/expected";
import { blockTimestamps, buildConfig, clearIndexer, REDIS_URL, runInProcess, testEnv, uniqueId } from "./support/harness";
import { runScenario, type ScenarioResult } from "./support/scenario";
import { gridFloor, type IngestServer, type PriceServer, startIngestServer, startPriceServer } from "./support/servers";

const FLUSH_MS = 3_600_000;
const SWAP_EVENT = "11111111-1111-4111-8111-111111111111";
const HOLD_EVENT = "22222222-2222-4222-8222-222222222222";

let chain: LocalChain;
let scenario: ScenarioResult;
let prices: PriceServer;
let ingest: IngestServer;
let blockTs: Map<number, number>;
let marketAvailableFrom: number;
const configs: IndexerConfig[] = [];
const files: string[] = [];

beforeAll(async () => {
  chain = await startChain();
  scenario = await runScenario(chain);
  blockTs = await blockTimestamps(chain.rpc, scenario.endBlock);
  // The market has no samples until just after the first T1 -> T0 swap: that swap's sold leg cannot be priced.
  marketAvailableFrom = gridFloor(scenario.marks.firstT1SwapTs) + 900_000;
  prices = await startPriceServer({ apiKey: "price-test-key", availableFrom: marketAvailableFrom, failFirst: 1 });
  ingest = await startIngestServer({ apiKey: "pw_test_key", failCall: (n) => (n === 0 ? "rate-limited" : n === 1 ? "bus-unavailable" : undefined) });
}, 120_000);

afterAll(async () => {
  for (const config of configs) await clearIndexer(config);
  for (const file of files) await rm(file, { force: true });
  await prices?.close();
  await ingest?.close();
  await chain?.stop();
});

function scenarioConfig(indexerId: string, csvPath: string, extra: Partial<Record<"range", unknown>> = {}): IndexerConfig {
  const config = buildConfig({
    kind: "evm",
    indexerId,
    flushMs: FLUSH_MS,
    stateStoreUrl: REDIS_URL,
    network: { chainId: 31337, rpcUrl: chain.url, finality: 0 },
    range: { toBlock: scenario.endBlock },
    pricingRange: { type: "block", fromBlock: scenario.marks.bMint },
    sinkConfig: {
      sinks: [
        { sinkType: "csv", path: csvPath },
        {
          sinkType: "pointwise",
          baseUrl: ingest.url,
          batchSize: 7,
          events: { swap: { regEventId: SWAP_EVENT, amount: "usd" }, hold: { regEventId: HOLD_EVENT, amount: "usdHours" } },
        },
      ],
    },
    adapterConfig: { adapterId: "amm-v2", params: { poolAddress: scenario.pair, trackSwaps: true, trackLP: true } },
    assetFeedConfig: [
      { match: { key: scenario.token0 }, config: { assetType: "erc20", priceFeed: { kind: "pegged", usdPegValue: 1 } } },
      {
        match: { matchLabels: { protocol: "amm-v2" } },
        config: { assetType: "erc20", priceFeed: { kind: "ammv2nav", token0: { kind: "pegged", usdPegValue: 1 }, token1: { kind: "market", id: "test-eth" } } },
      },
      {
        match: { matchExpressions: [{ key: "decimals", operator: "In", values: ["18"] }] },
        config: { assetType: "erc20", priceFeed: { kind: "market", id: "test-eth" } },
      },
    ],
    ...extra,
  } as never);
  configs.push(config);
  files.push(csvPath);
  return config;
}

function close(actual: string, expected: InstanceType<typeof D> | null, what: string): void {
  if (expected === null) {
    expect({ what, actual }).toEqual({ what, actual: "" });
    return;
  }
  const diff = new D(actual === "" ? "NaN" : actual).minus(expected).abs();
  if (!diff.lte("1e-12")) throw new Error(`${what}: expected ${expected.toFixed()} got ${actual}`);
}

describe("amm-v2 end to end on a local chain", () => {
  let rows: Record<string, string>[];
  let windows: ExpectedWindow[];
  let actions: ExpectedAction[];
  let logs: string[];
  let config: IndexerConfig;

  beforeAll(async () => {
    const csv = join(tmpdir(), `${uniqueId("e2e")}.csv`);
    config = scenarioConfig(uniqueId("e2e"), csv);
    const env = testEnv({
      RPC_URL: chain.url,
      PRICE_API_URL: prices.url,
      PRICE_API_RATE_PER_MINUTE: "6000",
      INDEXER_MAX_BLOCK_RANGE: "7",
      INDEXER_INITIAL_BLOCK_RANGE: "3",
    });
    const run = await runInProcess(config, env);
    expect(run.result.finished).toBe(true);
    logs = run.logs.messages();
    rows = parseCsv(await readFile(csv, "utf8"));
    ({ windows, actions } = expectedRows(scenario, blockTs, config.indexerId, FLUSH_MS, { pricingFromBlock: scenario.marks.bMint, marketAvailableFrom }));
  }, 60_000);

  it("logs the healthy start-up and progress lines", () => {
    expect(logs).toContain("Indexer started");
    expect(logs).toContain("Connected to RPC");
    expect(logs.some((m) => /^Processing block \d+$/.test(m))).toBe(true);
    expect(logs).toContain("Indexer finished the range");
  });

  it("writes exactly the expected time-weighted balance windows", () => {
    const actual = rows.filter((r) => r.rowType === "window");
    const order = (a: { user?: string; startTs?: number | string }, b: { user?: string; startTs?: number | string }) =>
      String(a.user).localeCompare(String(b.user)) || Number(a.startTs) - Number(b.startTs);
    actual.sort(order);
    const expected = [...windows].sort(order);
    expect(expected.length).toBeGreaterThan(10);
    expect(
      actual.map((r) => [r.user, r.asset, r.activity, r.amount, Number(r.startTs), Number(r.endTs), Number(r.startBlock), Number(r.endBlock), r.trigger, r.id]),
    ).toEqual(expected.map((w) => [w.user, w.asset, "hold", w.balance, w.startTs, w.endTs, w.startBlock, w.endBlock, w.trigger, w.id]));
    expected.forEach((w, i) => {
      const row = actual[i] as Record<string, string>;
      expect(Number(row.durationMs)).toBe(w.endTs - w.startTs);
      close(row.priceUsd ?? "", w.priceUsd, `window ${i} priceUsd`);
      close(row.valueUsd ?? "", w.valueUsd, `window ${i} valueUsd`);
      close(row.usdHours ?? "", w.usdHours, `window ${i} usdHours`);
    });
    // Both kinds of pricing outcome occur: before pricingRange or the first market sample, and after.
    expect(expected.some((w) => w.priceUsd === null)).toBe(true);
    expect(expected.some((w) => w.priceUsd !== null)).toBe(true);
  });

  it("never merges windows of different balances and gives an idle balance one window per flush interval", () => {
    const perUser = new Map<string, Record<string, string>[]>();
    for (const r of rows.filter((x) => x.rowType === "window")) perUser.set(r.user ?? "", [...(perUser.get(r.user ?? "") ?? []), r]);
    let idle = 0;
    for (const list of perUser.values()) {
      for (const r of list) {
        const start = Number(r.startTs);
        const end = Number(r.endTs);
        // No window crosses a flush boundary.
        expect(Math.floor(start / FLUSH_MS)).toBe(Math.floor((end - 1) / FLUSH_MS));
        if (r.trigger === "flush" && end - start === FLUSH_MS) idle++;
      }
    }
    expect(idle).toBeGreaterThan(3);
  });

  it("writes one priceable swap action per non-zero swap, keeping the first leg that prices", () => {
    const actual = rows.filter((r) => r.rowType === "action").sort((a, b) => Number(a.height) - Number(b.height));
    // Five Swap logs were emitted; two of them had a zero from- or to-amount and are skipped.
    expect(scenario.swaps.length).toBe(5);
    expect(actions.length).toBe(3);
    expect(
      actual.map((r) => [
        r.id,
        r.user,
        r.asset,
        r.amount,
        r.activity,
        r.priceable,
        Number(r.height),
        Number(r.ts),
        r.txHash,
        Number(r.logIndex),
        JSON.parse(r.meta ?? "{}"),
      ]),
    ).toEqual(actions.map((a) => [a.id, a.user, a.asset, a.amount, "swap", "true", a.height, a.ts, a.txHash, a.logIndex, a.meta]));
    actions.forEach((a, i) => {
      close(actual[i]?.priceUsd ?? "", a.priceUsd, `action ${i} priceUsd`);
      close(actual[i]?.valueUsd ?? "", a.valueUsd, `action ${i} valueUsd`);
    });
    // The first T1 -> T0 swap happened before the market had prices: its bought (T0) leg was kept.
    const first = actions.find((a) => a.height === scenario.marks.firstT1Swap);
    expect(first?.asset).toBe(scenario.token0);
    // The user is the transaction sender, not the router (Swap.sender) nor the recipient.
    expect(actual.every((r) => r.user !== scenario.router)).toBe(true);
  });

  it("writes the csv header once and no torn row", async () => {
    const text = await readFile(config.sinkConfig.sinks[0]?.sinkType === "csv" ? config.sinkConfig.sinks[0].path : "", "utf8");
    expect(text.split("\n").filter((l) => l.startsWith("rowType,")).length).toBe(1);
    expect(text.endsWith("\n")).toBe(true);
  });

  it("sends each priced row once as an earn event, retrying rate-limited and bus-unavailable with the same key", () => {
    const expected = [
      ...actions
        .filter((a) => a.valueUsd?.gt(0) === true)
        .map((a) => ({ account_id: a.user, reg_event_id: SWAP_EVENT, amount: a.valueUsd as InstanceType<typeof D> })),
      ...windows
        .filter((w) => w.usdHours?.gt(0) === true)
        .map((w) => ({ account_id: w.user, reg_event_id: HOLD_EVENT, amount: w.usdHours as InstanceType<typeof D> })),
    ];
    const key = (e: { account_id: string; reg_event_id: string; amount: { toString(): string } }) =>
      `${e.reg_event_id}|${e.account_id}|${new D(e.amount.toString()).toFixed(9)}`;
    expect(ingest.recorded.map(key).sort()).toEqual(expected.map(key).sort());
    expect(ingest.recorded.every((e) => e.identity_type === "EVM_ADDRESS")).toBe(true);
    expect(ingest.calls[0]?.key).toBe(ingest.calls[1]?.key);
    expect(ingest.calls[1]?.key).toBe(ingest.calls[2]?.key);
    expect(ingest.calls.every((c) => c.size <= 7 && c.authorization === "Bearer pw_test_key")).toBe(true);
  });

  it("found the pool's deployment block when range.fromBlock was omitted", () => {
    expect(Math.min(...rows.map((r) => Number(r.startBlock || r.height)))).toBeGreaterThanOrEqual(scenario.pairDeployBlock);
  });
});

async function csvRows(path: string): Promise<Record<string, string>[]> {
  return parseCsv(await readFile(path, "utf8").catch(() => ""));
}

function csvOnlyConfig(label: string, network: Record<string, unknown>, range: Record<string, unknown>): { config: IndexerConfig; csv: string } {
  const csv = join(tmpdir(), `${uniqueId(label)}.csv`);
  const config = buildConfig({
    kind: "evm",
    indexerId: uniqueId(label),
    flushMs: FLUSH_MS,
    stateStoreUrl: REDIS_URL,
    network: { chainId: 31337, rpcUrl: chain.url, ...network },
    range,
    sinkConfig: { sinks: [{ sinkType: "csv", path: csv }] },
    adapterConfig: { adapterId: "amm-v2", params: { poolAddress: scenario.pair, trackSwaps: true, trackLP: true } },
  });
  configs.push(config);
  files.push(csv);
  return { config, csv };
}

describe("finality and live following", () => {
  const env = () => testEnv({ RPC_URL: chain.url, PRICE_API_URL: prices.url, INDEXER_POLL_INTERVAL_MS: "50" });

  it("indexes nothing newer than head - finality until those blocks are final", async () => {
    const lastSwap = Math.max(...scenario.swaps.map((s) => s.block));
    const head = await chain.provider.getBlockNumber();
    const finality = head - lastSwap + 1;
    const { config, csv } = csvOnlyConfig("finality", { finality }, { fromBlock: scenario.pairDeployBlock });

    const first = await runInProcess(config, env(), { untilCaughtUp: true });
    expect(first.result.nextBlock).toBe(head - finality + 1);
    const before = await csvRows(csv);
    expect(Math.max(...before.map((r) => Number(r.height)))).toBeLessThanOrEqual(head - finality);
    expect(before.some((r) => r.rowType === "action" && Number(r.height) === lastSwap)).toBe(false);

    for (let i = 0; i < finality; i++) await chain.rpc("evm_mine");
    const second = await runInProcess(config, env(), { untilCaughtUp: true });
    expect(second.result.nextBlock).toBe(head + 1);
    expect((await csvRows(csv)).some((r) => r.rowType === "action" && Number(r.height) === lastSwap)).toBe(true);
  }, 30_000);

  it("follows the chain live when toBlock is absent and stops cleanly when asked", async () => {
    const { config, csv } = csvOnlyConfig("live", { finality: 0 }, { fromBlock: scenario.pairDeployBlock });
    const controller = new AbortController();
    const running = runInProcess(config, env(), { signal: controller.signal });
    const waitFor = async (what: (rows: Record<string, string>[]) => boolean) => {
      for (let i = 0; i < 200; i++) {
        if (what(await csvRows(csv))) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error("indexer did not catch up");
    };
    await waitFor((rows) => rows.some((r) => r.rowType === "action"));

    const pair = new Contract(scenario.pair, ["function transfer(address to, uint256 value) returns (bool)"], await chain.provider.getSigner(scenario.users.c));
    const tx = await (await pair.getFunction("transfer")(scenario.users.a, 1000n)).wait();
    // The new transfer closes c's open window at its block: a row the indexer can only write by following the chain.
    await waitFor((rows) => rows.some((r) => r.rowType === "window" && r.txHash === tx?.hash.toLowerCase() && r.user === scenario.users.c));
    controller.abort();
    const { result } = await running;
    expect(result.finished).toBe(false);
  }, 30_000);
});
