// The lending adapter's start-up and edges: params messages, the Pool reads and their failures, labels, the reserve
// cache, the topics against Aave's own ABIs, the getReserveData fallback, restored holders and refused states.
import { type AdapterRuntime, applyEvent, type ChainLog, type IndexerEvent, WindowBook } from "@pointwise/indexer-engine";
import { AbiCoder, Interface, zeroPadValue } from "ethers";
import { BALANCE_TRANSFER_TOPIC, BURN_TOPIC, GET_RESERVE_DATA, GET_RESERVES_LIST, MINT_TOPIC, RESERVE_DATA_UPDATED_TOPIC } from "./abi";
import { BORROW_ACTIVITY, compoundedInterest, lendingAdapter, PROTOCOL_LABEL, PROTOCOL_PREFIX, RAY, SUPPLY_ACTIVITY } from "./index";

const POOL = "0x00000000000000000000000000000000000000b0";
const ASSET = "0x00000000000000000000000000000000000000c0";
const ATOKEN = "0x00000000000000000000000000000000000000c1";
const DEBT = "0x00000000000000000000000000000000000000c2";
const ALICE = "0x00000000000000000000000000000000000000a1";
const coder = AbiCoder.defaultAbiCoder();
const topic = (a: string) => zeroPadValue(a, 32);
const words = (...values: bigint[]) => coder.encode(values.map(() => "uint256") as string[], values);
/** A getReserveData answer: 15 words, the indices, rates and timestamp where Aave V3.0 puts them. */
const reserveData = (fields: { liquidityIndex?: bigint; liquidityRate?: bigint; variableBorrowIndex?: bigint; updatedAt?: bigint; aToken?: string } = {}) =>
  coder.encode(
    Array.from({ length: 15 }, (_, i) => (i === 8 || i === 10 ? "address" : "uint256")),
    Array.from(
      { length: 15 },
      (_, i) =>
        [
          0n,
          fields.liquidityIndex ?? RAY,
          fields.liquidityRate ?? 0n,
          fields.variableBorrowIndex ?? RAY,
          0n,
          0n,
          fields.updatedAt ?? 0n,
          0n,
          fields.aToken ?? ATOKEN,
          0n,
          DEBT,
        ][i] ?? 0n,
    ),
  );

interface Calls {
  log: { to: string; data: string; block?: number }[];
  labels: Map<string, Record<string, string>>;
  info: unknown[][];
}

function runtime(answer: (to: string, data: string, block?: number) => string | undefined = () => undefined, metrics = new Map<string, string>()) {
  const kv = new Map<string, string>();
  const calls: Calls = { log: [], labels: new Map(), info: [] };
  const rt: AdapterRuntime = {
    chainId: 1,
    chain: {
      call: async (to, data, block) => {
        calls.log.push({ to, data, ...(block === undefined ? {} : { block }) });
        const custom = answer(to, data, block);
        if (custom !== undefined) return custom;
        if (to === POOL && data === GET_RESERVES_LIST) return coder.encode(["address[]"], [[ASSET]]);
        if (to === POOL && data.startsWith(GET_RESERVE_DATA)) return reserveData();
        if (to === ASSET) return words(6n);
        throw new Error("execution reverted");
      },
    },
    store: { get: async (k) => kv.get(k), set: async (k, v) => void kv.set(k, v) },
    labels: { get: async (a) => calls.labels.get(a) ?? {}, set: async (a, l) => void calls.labels.set(a, l) },
    adapterConfigHash: "h",
    logger: { info: (...args: unknown[]) => void calls.info.push(args) } as never,
    metrics,
  };
  return { rt, calls, kv, metrics };
}

async function started(params: Record<string, unknown>, answer?: Parameters<typeof runtime>[0], metrics?: Map<string, string>) {
  const r = runtime(answer, metrics);
  const adapter = await lendingAdapter.create(lendingAdapter.paramsSchema.parse({ poolAddress: POOL, ...params }), r.rt);
  await adapter.init?.();
  const handle = async (address: string, topics: string[], data: string, ts: number, blockNumber = 7) => {
    const events = await adapter.handle({ address, topics, data, blockNumber, transactionHash: "0x", logIndex: 0 } as ChainLog, {
      ts,
      height: blockNumber,
      txHash: "0x",
      logIndex: 0,
    });
    for (const e of events) applyEvent(new WindowBook(), r.metrics, e, { ts, height: blockNumber, txHash: "0x", logIndex: 0 });
    return events;
  };
  return { adapter, handle, ...r };
}
const deltas = (events: IndexerEvent[]) => events.filter((e) => e.type === "balanceDelta");

describe("lending params", () => {
  const issue = (p: Record<string, unknown>) => lendingAdapter.paramsSchema.safeParse({ poolAddress: POOL, ...p }).error?.issues[0]?.message;
  it("names what is wrong with each field", () => {
    expect(issue({ trackSupply: true, assets: "x" })).toBe("must be an array of addresses");
    expect(issue({ trackSupply: true, assets: [] })).toBe("must list at least one asset (omit it to track every reserve)");
    expect(issue({ trackSupply: "yes" })).toBe("must be a boolean");
    expect(issue({ trackSupply: true, trackBorrow: 1 })).toBe("must be a boolean");
    expect(issue({ trackSupply: false, trackBorrow: false })).toBe("At least one of trackSupply or trackBorrow must be enabled");
  });
  it("accepts either side alone, both, and distinct assets", () => {
    for (const p of [{ trackSupply: true }, { trackBorrow: true }, { trackSupply: true, trackBorrow: false, assets: [ASSET, ALICE] }])
      expect(lendingAdapter.paramsSchema.safeParse({ poolAddress: POOL, ...p }).success).toBe(true);
    expect(lendingAdapter.description).toMatch(/^Aave V3 lending market/);
  });
});

describe("lending adapter start-up", () => {
  it("uses the event topics and call selectors of Aave V3's own ABIs", () => {
    const pool = new Interface([
      "event ReserveDataUpdated(address indexed reserve, uint256 liquidityRate, uint256 stableBorrowRate, uint256 variableBorrowRate, uint256 liquidityIndex, uint256 variableBorrowIndex)",
      "function getReservesList() view returns (address[])",
      "function getReserveData(address asset) view",
    ]);
    const token = new Interface([
      "event Mint(address indexed caller, address indexed onBehalfOf, uint256 value, uint256 balanceIncrease, uint256 index)",
      "event Burn(address indexed from, address indexed target, uint256 value, uint256 balanceIncrease, uint256 index)",
      "event BalanceTransfer(address indexed from, address indexed to, uint256 value, uint256 index)",
    ]);
    expect(RESERVE_DATA_UPDATED_TOPIC).toBe(pool.getEvent("ReserveDataUpdated")?.topicHash);
    expect([MINT_TOPIC, BURN_TOPIC, BALANCE_TRANSFER_TOPIC]).toEqual(["Mint", "Burn", "BalanceTransfer"].map((n) => token.getEvent(n)?.topicHash));
    expect(GET_RESERVES_LIST).toBe(pool.getFunction("getReservesList")?.selector);
    expect(GET_RESERVE_DATA).toBe(pool.getFunction("getReserveData")?.selector);
  });

  it("labels the asset, its aToken and debt token by protocol, pool, reserve and side, and logs the reserves", async () => {
    const { calls } = await started({ trackSupply: true, trackBorrow: true });
    const common = { protocol: PROTOCOL_LABEL, pool: POOL, reserve: ASSET, decimals: "6" };
    expect(PROTOCOL_LABEL).toBe("aave-v3");
    expect(Object.fromEntries(calls.labels)).toEqual({
      [ASSET]: { decimals: "6" },
      [ATOKEN]: { ...common, side: "supply" },
      [DEBT]: { ...common, side: "borrow" },
    });
    expect(calls.info).toEqual([[{ pool: POOL, reserves: [ASSET] }, "lending reserves loaded"]]);
    // getReserveData is asked for the asset itself.
    expect(calls.log.find((c) => c.data.startsWith(GET_RESERVE_DATA))?.data).toBe(GET_RESERVE_DATA + topic(ASSET).slice(2));
  });

  it("follows only the side asked for", async () => {
    const supply = await started({ trackSupply: true });
    expect(supply.adapter.filters.map((f) => f.address)).toEqual([POOL, ATOKEN]);
    expect([...supply.calls.labels.keys()]).toEqual([ASSET, ATOKEN]);
    expect(await supply.handle(DEBT, [MINT_TOPIC, topic(ALICE), topic(ALICE)], words(1n, 0n, RAY), 1_000)).toEqual([]);
    const borrow = await started({ trackBorrow: true });
    expect(borrow.adapter.filters.map((f) => f.address)).toEqual([POOL, DEBT]);
    expect(await borrow.handle(ATOKEN, [MINT_TOPIC, topic(ALICE), topic(ALICE)], words(1n, 0n, RAY), 1_000)).toEqual([]);
    const events = await borrow.handle(DEBT, [MINT_TOPIC, topic(ALICE), topic(ALICE)], words(2_000_000n, 0n, RAY), 1_000);
    expect(deltas(events)).toEqual([{ type: "balanceDelta", user: ALICE, asset: DEBT, amount: "2", activity: BORROW_ACTIVITY }]);
    expect(SUPPLY_ACTIVITY).toBe("lend");
  });

  it("reads the reserves once and keeps them under the adapter-config hash", async () => {
    const first = await started({ trackSupply: true });
    expect(PROTOCOL_PREFIX).toBe("lending");
    expect(first.kv.get(`h:lending:${POOL}:reserves`)).toBe(JSON.stringify([{ asset: ASSET, aToken: ATOKEN, debtToken: DEBT, decimals: 6 }]));
    const second = runtime();
    for (const [k, v] of first.kv) second.kv.set(k, v);
    const adapter = await lendingAdapter.create({ poolAddress: POOL, trackSupply: true }, second.rt);
    await adapter.init?.();
    expect(second.calls.log).toEqual([]);
    expect(adapter.filters.map((f) => f.address)).toEqual([POOL, ATOKEN]);
  });

  it("refuses a pool with no reserves, a listed asset that is no reserve, a short answer and bad decimals, naming each", async () => {
    const fail = (answer: Parameters<typeof runtime>[0], params: Record<string, unknown> = {}) => started({ trackSupply: true, ...params }, answer);
    await expect(fail((_to, d) => (d === GET_RESERVES_LIST ? coder.encode(["address[]"], [[]]) : undefined))).rejects.toMatchObject({
      code: "adapter-init-failed",
      message: `lending: the Aave V3 Pool ${POOL} lists no reserves`,
      details: { pool: POOL },
    });
    await expect(
      fail((_to, d) => (d.startsWith(GET_RESERVE_DATA) ? reserveData({ aToken: "0x0000000000000000000000000000000000000000" }) : undefined)),
    ).rejects.toMatchObject({
      code: "reserve-not-found",
      message: `lending: ${ASSET} is not a reserve of the Aave V3 Pool ${POOL}`,
      details: { pool: POOL, asset: ASSET },
    });
    // A reserve whose aToken merely starts or ends with zeros is a reserve.
    await expect(
      fail((_to, d) => (d.startsWith(GET_RESERVE_DATA) ? reserveData({ aToken: "0x0000000000000000000000000000000000000001" }) : undefined)),
    ).resolves.toBeDefined();
    await expect(
      fail((_to, d) => (d.startsWith(GET_RESERVE_DATA) ? reserveData({ aToken: "0x1000000000000000000000000000000000000000" }) : undefined)),
    ).resolves.toBeDefined();
    await expect(fail((_to, d) => (d.startsWith(GET_RESERVE_DATA) ? "0xzz" : undefined))).rejects.toMatchObject({ code: "contract-not-found" });
    const reverted = new Error("execution reverted");
    const thrown = await started({ trackSupply: true }, (_to, d) => {
      if (d.startsWith(GET_RESERVE_DATA)) throw reverted;
      return undefined;
    }).catch((e: unknown) => e);
    expect(thrown).toMatchObject({
      code: "contract-not-found",
      details: { reason: `${POOL} is not an Aave V3 Pool: getReserveData(address) failed`, address: POOL },
    });
    const short = reserveData().slice(0, 2 + 14 * 64);
    await expect(fail((_to, d) => (d.startsWith(GET_RESERVE_DATA) ? short : undefined))).rejects.toMatchObject({
      code: "contract-not-found",
      details: { reason: `${POOL} is not an Aave V3 Pool: getReserveData(address) gave no ReserveData`, address: POOL },
    });
    await expect(fail((_to, d) => (d.startsWith(GET_RESERVE_DATA) ? `${short}${"0".repeat(64)}` : undefined))).resolves.toBeDefined();
    await expect(fail((to) => (to === ASSET ? "0x" : undefined))).rejects.toMatchObject({
      code: "adapter-init-failed",
      message: `lending: could not read decimals() of reserve asset ${ASSET}`,
      details: { asset: ASSET },
    });
    await expect(fail((to) => (to === ASSET ? words(78n) : undefined))).rejects.toMatchObject({
      code: "adapter-init-failed",
      message: `lending: reserve asset ${ASSET} answered decimals() with 78, which no ERC-20 uses`,
      details: { asset: ASSET },
    });
    await expect(fail((to) => (to === ASSET ? words(77n) : undefined))).resolves.toBeDefined();
    await expect(fail((to) => (to === ASSET ? words(2n ** 64n) : undefined))).rejects.toMatchObject({ code: "adapter-init-failed" });
  });

  it("refuses to start without the engine's metrics", async () => {
    const { rt } = runtime();
    expect(() => lendingAdapter.create({ poolAddress: POOL, trackSupply: true }, { ...rt, metrics: undefined })).toThrow(
      expect.objectContaining({ code: "adapter-init-failed", message: "lending: the engine gives this adapter no metrics to keep its state in" }),
    );
  });
});

describe("lending adapter state", () => {
  it("reads the reserve from getReserveData at the log's block when no ReserveDataUpdated came first, and flushes from it", async () => {
    const state = { liquidityIndex: 2n * RAY, liquidityRate: RAY / 10n, updatedAt: 1_000n };
    const { handle, adapter, calls } = await started({ trackSupply: true }, (_to, d, block) =>
      d.startsWith(GET_RESERVE_DATA) && block !== undefined ? reserveData(state) : undefined,
    );
    const events = await handle(ATOKEN, [MINT_TOPIC, topic(ALICE), topic(ALICE)], words(2_000_000n, 0n, 2n * RAY), 1_000_000, 42);
    expect(deltas(events)).toEqual([{ type: "balanceDelta", user: ALICE, asset: ATOKEN, amount: "2", activity: SUPPLY_ACTIVITY }]);
    expect(calls.log.filter((c) => c.block !== undefined)).toEqual([{ to: POOL, data: GET_RESERVE_DATA + topic(ASSET).slice(2), block: 42 }]);
    // A year on at 10%: 2 x 1.1.
    const year = 1_000_000 + 31_536_000_000;
    expect(deltas(adapter.onFlush?.({ ts: year, block: 99 }, year) ?? [])).toEqual([
      { type: "balanceDelta", user: ALICE, asset: ATOKEN, amount: "0.2", activity: SUPPLY_ACTIVITY },
    ]);
    // The reserve is known now: the next log reads nothing.
    await handle(ATOKEN, [MINT_TOPIC, topic(ALICE), topic(ALICE)], words(1n, 0n, 2n * RAY), 1_000_000, 43);
    expect(calls.log.filter((c) => c.block !== undefined)).toHaveLength(1);
  });

  it("burns value + interest in scaled units, and a Mint of exactly the interest changes no scaled balance", async () => {
    const { handle, metrics } = await started({ trackBorrow: true });
    await handle(POOL, [RESERVE_DATA_UPDATED_TOPIC, topic(ASSET)], words(0n, 0n, 0n, RAY, RAY), 1_000);
    await handle(DEBT, [MINT_TOPIC, topic(ALICE), topic(ALICE)], words(1_000n, 0n, RAY), 1_000);
    await handle(DEBT, [BURN_TOPIC, topic(ALICE), topic(ALICE)], words(300n, 100n, RAY), 1_000);
    expect(metrics.get(`${DEBT}|scaled:${ALICE}`)).toBe("600");
    await handle(DEBT, [MINT_TOPIC, topic(ALICE), topic(ALICE)], words(50n, 50n, RAY), 1_000);
    expect(metrics.get(`${DEBT}|scaled:${ALICE}`)).toBe("600");
  });

  it("refuses a burn or transfer below zero, and drops a holder whose scaled balance reaches zero from later flushes", async () => {
    const { handle, adapter } = await started({ trackSupply: true });
    await handle(POOL, [RESERVE_DATA_UPDATED_TOPIC, topic(ASSET)], words(RAY / 10n, 0n, 0n, RAY, RAY), 1_000);
    await expect(handle(ATOKEN, [BURN_TOPIC, topic(ALICE), topic(ALICE)], words(1n, 0n, RAY), 1_000)).rejects.toMatchObject({
      code: "adapter-failed",
      message: `lending: scaled balance of ${ALICE} in ${ATOKEN} would go below zero`,
      details: { token: ATOKEN, user: ALICE },
    });
    // Burning exactly the whole balance is allowed (zero is not below zero); the holder then leaves the flushes.
    await handle(ATOKEN, [MINT_TOPIC, topic(ALICE), topic(ALICE)], words(5n, 0n, RAY), 1_000);
    await handle(ATOKEN, [BURN_TOPIC, topic(ALICE), topic(ALICE)], words(5n, 0n, RAY), 1_000);
    expect(adapter.onFlush?.({ ts: 10_000_000_000, block: 9 }, 10_000_000_000)).toEqual([]);
    // A transfer out of the emptied balance is refused like a burn.
    await expect(handle(ATOKEN, [BALANCE_TRANSFER_TOPIC, topic(ALICE), topic(ASSET)], words(1n, RAY), 1_000)).rejects.toMatchObject({ code: "adapter-failed" });
  });

  it("revalues debt holders on a debt-index jump only, and only for tracked sides", async () => {
    const { handle } = await started({ trackSupply: true, trackBorrow: true });
    await handle(POOL, [RESERVE_DATA_UPDATED_TOPIC, topic(ASSET)], words(0n, 0n, 0n, RAY, RAY), 1_000);
    await handle(DEBT, [MINT_TOPIC, topic(ALICE), topic(ALICE)], words(1_000_000n, 0n, RAY), 1_000);
    await handle(ATOKEN, [MINT_TOPIC, topic(ALICE), topic(ALICE)], words(1_000_000n, 0n, RAY), 1_000);
    const jump = await handle(POOL, [RESERVE_DATA_UPDATED_TOPIC, topic(ASSET)], words(0n, 0n, 0n, RAY, (RAY * 3n) / 2n), 1_000);
    expect(deltas(jump)).toEqual([{ type: "balanceDelta", user: ALICE, asset: DEBT, amount: "0.5", activity: BORROW_ACTIVITY }]);
    // Time explains the next update exactly (zero rates, same indices): nothing moves.
    expect(deltas(await handle(POOL, [RESERVE_DATA_UPDATED_TOPIC, topic(ASSET)], words(0n, 0n, 0n, RAY, (RAY * 3n) / 2n), 5_000))).toEqual([]);
    // A Pool log that is not ReserveDataUpdated, and a token log of another topic, are nothing.
    expect(await handle(POOL, [MINT_TOPIC, topic(ASSET)], words(0n, 0n, 0n, 2n * RAY, 2n * RAY), 5_000)).toEqual([]);
    expect(await handle(ATOKEN, [RESERVE_DATA_UPDATED_TOPIC, topic(ALICE)], words(1n, 0n, RAY), 5_000)).toEqual([]);
  });

  it("restores holders from committed metrics, so a restart's first flush revalues the same positions", async () => {
    const metrics = new Map<string, string>([
      [`${ASSET}|aave:liquidityIndex`, String(RAY)],
      [`${ASSET}|aave:liquidityRate`, String(RAY / 10n)],
      [`${ASSET}|aave:variableBorrowIndex`, String(RAY)],
      [`${ASSET}|aave:variableBorrowRate`, "0"],
      [`${ASSET}|aave:updatedAt`, "1"],
      [`${ATOKEN}|scaled:${ALICE}`, "1000000"],
      [`${ATOKEN}|balance:${ALICE}`, "1000000"],
      // A zero scaled balance is no holder: a leftover balance metric beside it is not revalued.
      [`${ATOKEN}|scaled:${POOL}`, "0"],
      [`${ATOKEN}|balance:${POOL}`, "5"],
    ]);
    const { adapter } = await started({ trackSupply: true }, undefined, metrics);
    const year = (1 + 31_536_000) * 1000;
    expect(deltas(adapter.onFlush?.({ ts: year, block: 9 }, year) ?? [])).toEqual([
      { type: "balanceDelta", user: ALICE, asset: ATOKEN, amount: "0.1", activity: SUPPLY_ACTIVITY },
    ]);
  });

  it("starts beside committed balances of a token this config does not follow, and never revalues them", async () => {
    const metrics = new Map<string, string>([
      [`${ASSET}|aave:liquidityIndex`, String(RAY)],
      [`${ASSET}|aave:liquidityRate`, String(RAY / 10n)],
      [`${ASSET}|aave:variableBorrowIndex`, String(RAY)],
      [`${ASSET}|aave:variableBorrowRate`, String(RAY / 10n)],
      [`${ASSET}|aave:updatedAt`, "1"],
      // Debt of an index that tracked both sides; this one follows only the supply side.
      [`${DEBT}|scaled:${ALICE}`, "1000000"],
      [`${DEBT}|balance:${ALICE}`, "1000000"],
    ]);
    const { adapter } = await started({ trackSupply: true }, undefined, metrics);
    const year = (1 + 31_536_000) * 1000;
    expect(adapter.onFlush?.({ ts: year, block: 9 }, year)).toEqual([]);
  });

  it("flushes nothing for a token whose reserve was never seen", async () => {
    const metrics = new Map<string, string>([[`${ATOKEN}|scaled:${ALICE}`, "1000000"]]);
    const { adapter } = await started({ trackSupply: true }, undefined, metrics);
    expect(adapter.onFlush?.({ ts: 9_000_000, block: 9 }, 9_000_000)).toEqual([]);
  });

  it("moves balances at a ReserveDataUpdated only when time does not explain the index, on the supply and the debt side", async () => {
    const rate = RAY / 10n;
    const YEAR_MS = 31_536_000_000;
    const { handle } = await started({ trackSupply: true, trackBorrow: true });
    await handle(POOL, [RESERVE_DATA_UPDATED_TOPIC, topic(ASSET)], words(rate, 0n, rate, RAY, RAY), 1_000);
    await handle(ATOKEN, [MINT_TOPIC, topic(ALICE), topic(ALICE)], words(1_000_000n, 0n, RAY), 1_000);
    await handle(DEBT, [MINT_TOPIC, topic(ALICE), topic(ALICE)], words(1_000_000n, 0n, RAY), 1_000);
    // A year later the indices are exactly what the rates say: the interest waits for the next flush.
    const debtIndex = compoundedInterest(rate, 31_536_000n);
    const explained = await handle(POOL, [RESERVE_DATA_UPDATED_TOPIC, topic(ASSET)], words(rate, 0n, rate, RAY + rate, debtIndex), 1_000 + YEAR_MS);
    expect(deltas(explained)).toEqual([]);
    // The same update again changes no state at all.
    expect(await handle(POOL, [RESERVE_DATA_UPDATED_TOPIC, topic(ASSET)], words(rate, 0n, rate, RAY + rate, debtIndex), 1_000 + YEAR_MS)).toEqual([]);
  });

  it("ignores index jumps of the side it does not track", async () => {
    for (const [side, token] of [
      ["trackSupply", DEBT],
      ["trackBorrow", ATOKEN],
    ] as const) {
      const { handle } = await started({ [side]: true });
      await handle(POOL, [RESERVE_DATA_UPDATED_TOPIC, topic(ASSET)], words(0n, 0n, 0n, RAY, RAY), 1_000);
      const jump = await handle(POOL, [RESERVE_DATA_UPDATED_TOPIC, topic(ASSET)], words(0n, 0n, 0n, 2n * RAY, 2n * RAY), 2_000);
      expect(jump.filter((e) => e.type === "balanceDelta" && e.asset === token)).toEqual([]);
      expect(jump.filter((e) => e.type === "balanceDelta")).toEqual([]);
    }
  });

  it("values debt at flushes with compounded interest, and revalues holders in address order", async () => {
    const rate = RAY / 10n;
    const { handle, adapter } = await started({ trackBorrow: true });
    await handle(POOL, [RESERVE_DATA_UPDATED_TOPIC, topic(ASSET)], words(0n, 0n, rate, RAY, RAY), 1_000);
    const BOB = "0x00000000000000000000000000000000000000b2";
    await handle(DEBT, [MINT_TOPIC, topic(BOB), topic(BOB)], words(10n ** 12n, 0n, RAY), 1_000);
    await handle(DEBT, [MINT_TOPIC, topic(ALICE), topic(ALICE)], words(10n ** 12n, 0n, RAY), 1_000);
    const at = 1_000 + 31_536_000_000;
    const owed = (10n ** 12n * compoundedInterest(rate, 31_536_000n) + RAY / 2n) / RAY - 10n ** 12n;
    const amount = `${owed / 1_000_000n}.${String(owed % 1_000_000n).padStart(6, "0")}`.replace(/\.?0+$/, "");
    expect(deltas(adapter.onFlush?.({ ts: at, block: 9 }, at) ?? [])).toEqual([
      { type: "balanceDelta", user: ALICE, asset: DEBT, amount, activity: BORROW_ACTIVITY },
      { type: "balanceDelta", user: BOB, asset: DEBT, amount, activity: BORROW_ACTIVITY },
    ]);
  });

  it("keeps a self-transfer's balance: the receiving side reads the sending side's change", async () => {
    const { handle, metrics } = await started({ trackSupply: true });
    await handle(POOL, [RESERVE_DATA_UPDATED_TOPIC, topic(ASSET)], words(0n, 0n, 0n, RAY, RAY), 1_000);
    await handle(ATOKEN, [MINT_TOPIC, topic(ALICE), topic(ALICE)], words(1_000n, 0n, RAY), 1_000);
    // Out and back in: two deltas that cancel.
    const moved = deltas(await handle(ATOKEN, [BALANCE_TRANSFER_TOPIC, topic(ALICE), topic(ALICE)], words(400n, RAY), 1_000));
    expect(moved.map((e) => e.type === "balanceDelta" && e.amount)).toEqual(["-0.0004", "0.0004"]);
    expect(metrics.get(`${ATOKEN}|scaled:${ALICE}`)).toBe("1000");
  });

  it("values a self-transfer's way back in from the balance its way out left, so rounding cannot create units", async () => {
    const index = (105n * RAY) / 100n; // 1.05
    const { handle, metrics } = await started({ trackSupply: true });
    await handle(POOL, [RESERVE_DATA_UPDATED_TOPIC, topic(ASSET)], words(0n, 0n, 0n, index, RAY), 1_000);
    // 1 USDC at 1.05: scaled round(1_000_000 / 1.05) = 952_381, balance round(952_381 x 1.05) = round(1_000_000.05) = 1_000_000.
    await handle(ATOKEN, [MINT_TOPIC, topic(ALICE), topic(ALICE)], words(1_000_000n, 0n, index), 1_000);
    // Out: 476_191 scaled left, round(500_000.55) = 500_001, so -499_999; back in: 952_381 again, 1_000_000, so +499_999.
    const moved = deltas(await handle(ATOKEN, [BALANCE_TRANSFER_TOPIC, topic(ALICE), topic(ALICE)], words(476_190n, index), 1_000));
    expect(moved.map((e) => e.type === "balanceDelta" && e.amount)).toEqual(["-0.499999", "0.499999"]);
    expect([metrics.get(`${ATOKEN}|scaled:${ALICE}`), metrics.get(`${ATOKEN}|balance:${ALICE}`)]).toEqual(["952381", "1000000"]);
  });
});
