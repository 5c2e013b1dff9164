// The lending adapter on encoded logs: scaled balances times the index, interest at flush boundaries, index jumps.
import { type AdapterRuntime, applyEvent, type ChainLog, type IndexerEvent, WindowBook } from "@pointwise/indexer-engine";
import { AbiCoder, zeroPadValue } from "ethers";
import { BALANCE_TRANSFER_TOPIC, BURN_TOPIC, GET_RESERVE_DATA, GET_RESERVES_LIST, MINT_TOPIC, RESERVE_DATA_UPDATED_TOPIC } from "./abi";
import { lendingAdapter } from "./index";

const POOL = "0x00000000000000000000000000000000000000b0";
const ASSET = "0x00000000000000000000000000000000000000c0";
const ATOKEN = "0x00000000000000000000000000000000000000c1";
const DEBT = "0x00000000000000000000000000000000000000c2";
const ALICE = "0x00000000000000000000000000000000000000a1";
const BOB = "0x00000000000000000000000000000000000000b2";
const RAY = 10n ** 27n;
const YEAR_MS = 365 * 24 * 3600 * 1000;
const T0 = 1_700_000_000_000;
const coder = AbiCoder.defaultAbiCoder();
const topic = (a: string) => zeroPadValue(a, 32);
const words = (...values: bigint[]) =>
  coder.encode(
    values.map(() => "uint256"),
    values,
  );

function runtime(): AdapterRuntime {
  const kv = new Map<string, string>();
  const reserveData = coder.encode(
    Array.from({ length: 15 }, (_, i) => (i === 8 || i === 10 ? "address" : "uint256")),
    Array.from({ length: 15 }, (_, i) => (i === 8 ? ATOKEN : i === 10 ? DEBT : 0n)),
  );
  return {
    chainId: 1,
    chain: {
      call: async (to, data) => {
        if (to === POOL && data === GET_RESERVES_LIST) return coder.encode(["address[]"], [[ASSET]]);
        if (to === POOL && data.startsWith(GET_RESERVE_DATA)) return reserveData;
        if (to === ASSET) return words(6n);
        throw new Error("execution reverted");
      },
    },
    store: { get: async (k) => kv.get(k), set: async (k, v) => void kv.set(k, v) },
    labels: { get: async () => ({}), set: async () => {} },
    adapterConfigHash: "h",
    logger: { info: () => {} } as never,
    metrics: new Map(),
  };
}

/** The adapter wired to a WindowBook and the metrics the way the engine applies its events. */
async function setUp() {
  const rt = runtime();
  const metrics = rt.metrics as Map<string, string>;
  const adapter = await lendingAdapter.create({ poolAddress: POOL, trackSupply: true, trackBorrow: true }, rt);
  await adapter.init?.();
  const book = new WindowBook();
  let logIndex = 0;
  const apply = (events: IndexerEvent[], ts: number) => {
    for (const e of events) applyEvent(book, metrics, e, { ts, height: ts / 1000, txHash: "0x", logIndex });
    return events;
  };
  const log = async (address: string, topics: string[], data: string, ts: number) => {
    const l: ChainLog = { address, topics, data, blockNumber: ts / 1000, transactionHash: "0x", logIndex: logIndex++ };
    return apply(await adapter.handle(l, { ts, height: l.blockNumber, txHash: "0x", logIndex: l.logIndex }), ts);
  };
  const reserveUpdated = (ts: number, liquidityRate: bigint, variableRate: bigint, liquidityIndex: bigint, variableIndex: bigint) =>
    log(POOL, [RESERVE_DATA_UPDATED_TOPIC, topic(ASSET)], words(liquidityRate, 0n, variableRate, liquidityIndex, variableIndex), ts);
  const flush = (ts: number) => apply(adapter.onFlush?.({ ts, block: ts / 1000 }, ts) ?? [], ts);
  const balance = (user: string, asset: string) => book.get(user, asset, asset === ATOKEN ? "lend" : "borrow")?.balance;
  return { adapter, log, reserveUpdated, flush, balance, metrics };
}

describe("lending adapter", () => {
  it("is registered as lending 0.0.1 and validates its params with clear messages", () => {
    expect([lendingAdapter.id, lendingAdapter.version]).toEqual(["lending", "0.0.1"]);
    const issue = (p: unknown) => lendingAdapter.paramsSchema.safeParse(p).error?.issues[0];
    expect(issue({})).toMatchObject({ path: ["poolAddress"] });
    expect(issue({ poolAddress: POOL })?.message).toBe("At least one of trackSupply or trackBorrow must be enabled");
    expect(issue({ poolAddress: POOL, trackSupply: true, assets: [ASSET, ASSET] })?.message).toBe("must not list an asset twice");
    expect(issue({ poolAddress: POOL, trackSupply: true, extra: 1 })?.code).toBe("unrecognized_keys");
  });

  it("reads the Pool's reserves at init and asks for its ReserveDataUpdated and the tokens' scaled-balance events", async () => {
    const { adapter } = await setUp();
    expect(adapter.filters).toEqual([
      { address: POOL, topics: [RESERVE_DATA_UPDATED_TOPIC], withTransaction: false },
      { address: ATOKEN, topics: [MINT_TOPIC, BURN_TOPIC, BALANCE_TRANSFER_TOPIC], withTransaction: false },
      { address: DEBT, topics: [MINT_TOPIC, BURN_TOPIC], withTransaction: false },
    ]);
    expect(adapter.contracts).toEqual([POOL]);
  });

  it("turns Mint, Burn and BalanceTransfer into balances of scaled balance x index, rounded half up", async () => {
    const { log, reserveUpdated, balance } = await setUp();
    const index = (105n * RAY) / 100n; // 1.05
    await reserveUpdated(T0, 0n, 0n, index, RAY);
    // Supply of 1 USDC at index 1.05: scaled = round(1_000_000 / 1.05) = 952_381; balance = round(952_381 x 1.05) = 1_000_000.
    await log(ATOKEN, [MINT_TOPIC, topic(ALICE), topic(ALICE)], words(1_000_000n, 0n, index), T0);
    expect(balance(ALICE, ATOKEN)).toBe("1");
    // Transfer of 476_190 scaled (0.5 USDC): Alice keeps 476_191 scaled = 500_000.55 -> 500_001; Bob 476_190 = 499_999.5 -> 500_000.
    await log(ATOKEN, [BALANCE_TRANSFER_TOPIC, topic(ALICE), topic(BOB)], words(476_190n, index), T0);
    expect([balance(ALICE, ATOKEN), balance(BOB, ATOKEN)]).toEqual(["0.500001", "0.5"]);
    // A withdrawal smaller than the interest since the user's last action is logged as a Mint of interest - amount.
    await log(ATOKEN, [MINT_TOPIC, topic(BOB), topic(BOB)], words(100n, 300n, index), T0);
    // -200 units: scaled -= round(200 / 1.05) = 190 -> 476_000 x 1.05 = 499_800.
    expect(balance(BOB, ATOKEN)).toBe("0.4998");
    // Burn(value 100_000, balanceIncrease 0): scaled -= round(100_000 / 1.05) = 95_238 -> 380_762 x 1.05 = 399_800.1 -> 399_800.
    await log(ATOKEN, [BURN_TOPIC, topic(BOB), topic(BOB)], words(100_000n, 0n, index), T0);
    expect(balance(BOB, ATOKEN)).toBe("0.3998");
  });

  it("moves balances to what the market reports at each flush boundary, so idle windows carry their interest", async () => {
    const { log, reserveUpdated, flush, balance } = await setUp();
    // 10% a year, linear for supply: after exactly one year the income index is 1.1.
    await reserveUpdated(T0, RAY / 10n, 0n, RAY, RAY);
    await log(ATOKEN, [MINT_TOPIC, topic(ALICE), topic(ALICE)], words(2_000_000n, 0n, RAY), T0);
    expect(flush(T0 + YEAR_MS).filter((e) => e.type === "balanceDelta")).toEqual([
      { type: "balanceDelta", user: ALICE, asset: ATOKEN, amount: "0.2", activity: "lend" },
    ]);
    expect(balance(ALICE, ATOKEN)).toBe("2.2");
    // A second flush at the same time changes nothing.
    expect(flush(T0 + YEAR_MS)).toEqual([]);
  });

  it("revalues every holder when a ReserveDataUpdated shows an index jump time does not explain (flash-loan premium)", async () => {
    const { log, reserveUpdated, balance } = await setUp();
    await reserveUpdated(T0, 0n, 0n, RAY, RAY);
    await log(ATOKEN, [MINT_TOPIC, topic(ALICE), topic(ALICE)], words(1_000_000n, 0n, RAY), T0);
    await log(DEBT, [MINT_TOPIC, topic(BOB), topic(BOB)], words(500_000n, 0n, RAY), T0);
    await reserveUpdated(T0, 0n, 0n, (1001n * RAY) / 1000n, RAY);
    expect(balance(ALICE, ATOKEN)).toBe("1.001");
    expect(balance(BOB, DEBT)).toBe("0.5");
  });

  it("ignores other reserves' updates, other topics and untracked contracts", async () => {
    const { log } = await setUp();
    const other = "0x00000000000000000000000000000000000000ee";
    expect(await log(POOL, [RESERVE_DATA_UPDATED_TOPIC, topic(other)], words(0n, 0n, 0n, RAY, RAY), T0)).toEqual([]);
    expect(await log(other, [MINT_TOPIC, topic(ALICE), topic(ALICE)], words(1n, 0n, RAY), T0)).toEqual([]);
    expect(await log(DEBT, [BALANCE_TRANSFER_TOPIC, topic(ALICE), topic(BOB)], words(1n, RAY), T0)).toEqual([]);
  });

  it("fails at init with Contract Not Found when the pool does not answer as an Aave V3 Pool", async () => {
    const rt = runtime();
    const adapter = await lendingAdapter.create({ poolAddress: ALICE, trackSupply: true }, rt);
    await expect(adapter.init?.()).rejects.toMatchObject({
      code: "contract-not-found",
      message: "Contract Not Found",
      details: { reason: `${ALICE} is not an Aave V3 Pool: getReservesList() failed` },
    });
    expect(() => adapter.filters).toThrow(expect.objectContaining({ code: "adapter-failed", message: "lending: filters are known after init" }));
  });
});
