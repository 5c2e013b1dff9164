// Spec rules of the indexer checked on a local chain: the block range is inclusive at both ends, the pool adapter
// reads only its pool's Transfer and Swap logs, a swap's user is its transaction's sender however senders are read,
// non-priceable actions are exported unpriced, and historical reads go to gatewayUrl while live calls go to
// network.rpcUrl (RPC_URL when the config has none).
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ammV2Adapter, decodeAddress, decodeTransferValue, SWAP_TOPIC, TRANSFER_TOPIC } from "@pointwise/adapter-amm-v2";
import {
  type AdapterDefinition,
  AdapterRegistry,
  type ChainLog,
  ChainReader,
  defineAdapter,
  type IndexerEvent,
  StateStore,
  unitsFromRaw,
} from "@pointwise/indexer-engine";
import { createLogger } from "@pointwise/logger";
import { id } from "ethers";
import { z } from "zod";
import { parseCsv } from "./support/csv";
import { REDIS_URL, runInProcess, testEnv, uniqueId } from "./support/harness";
import type { SentSwap } from "./support/scenario";
import { startIngestServer } from "./support/servers";
import { type ConfigInput, useScenarioChain } from "./support/suite";

const suite = useScenarioChain();
const { files, closers, proxy } = suite;
const silent = createLogger({ service: "test", level: "silent" });

/** A config with a csv sink of its own; `input` overrides the rest. */
const config = suite.csvConfig;

const csvRows = async (path: string) => parseCsv(await readFile(path, "utf8"));
const network = { chainId: 31337, finality: 0 };
const ammV2 = (params: Record<string, unknown>) => ({ adapterId: "amm-v2", params: { poolAddress: suite.scenario.pair, ...params } });
/** The swaps that become actions: amm-v2 skips a swap with a zero from- or to-amount. */
const makesAction = (s: SentSwap) => (s.amount0In > 0n ? s.amount1Out > 0n : s.amount1In > 0n && s.amount0Out > 0n);

describe("range: fromBlock and toBlock are both inclusive", () => {
  const swapBlocks = () => [...new Set(suite.scenario.swaps.filter(makesAction).map((s) => s.block))].sort((a, b) => a - b);

  async function actionHeights(fromBlock: number, toBlock: number, env: Record<string, string> = {}) {
    const { config: c, csv } = config("range", { network, range: { fromBlock, toBlock }, adapterConfig: ammV2({ trackSwaps: true }) });
    const { result } = await runInProcess(c, testEnv({ RPC_URL: suite.chain.url, ...env }));
    expect(result).toMatchObject({ finished: true, nextBlock: toBlock + 1 });
    return (await csvRows(csv)).map((r) => Number(r.height));
  }

  it("writes the actions of the very first and the very last block of the range, and none outside", async () => {
    const [b1, b2, b3] = swapBlocks() as [number, number, number];
    expect(b3).toBeGreaterThan(b2);
    expect(await actionHeights(b1, b2)).toEqual([b1, b2]);
    // One block before the first and after the last action block: both neighbours are left out.
    expect(await actionHeights(b1 + 1, b3 - 1, { INDEXER_MAX_BLOCK_RANGE: "2", INDEXER_INITIAL_BLOCK_RANGE: "2" })).toEqual([b2]);
    expect(await actionHeights(b3, b3)).toEqual([b3]);
  }, 30_000);

  it("applies balance changes of both edge blocks: a window opened at fromBlock is closed by a transfer at toBlock", async () => {
    const [mintA, , transfer] = suite.scenario.lpMoves as [(typeof suite.scenario.lpMoves)[0], unknown, (typeof suite.scenario.lpMoves)[0]];
    expect([mintA.to, transfer.from]).toEqual([suite.scenario.users.a, suite.scenario.users.a]);
    const { config: c, csv } = config("range-lp", {
      network,
      range: { fromBlock: mintA.block, toBlock: transfer.block },
      adapterConfig: ammV2({ trackLP: true }),
    });
    await runInProcess(c, testEnv({ RPC_URL: suite.chain.url }));
    const rows = await csvRows(csv);
    const ofA = rows.filter((r) => r.user === suite.scenario.users.a);
    // A's LP came from the mint in fromBlock; without it A would hold nothing and have no window at all.
    expect(Number(ofA[0]?.startBlock)).toBe(mintA.block);
    // The transfer in toBlock closed A's window.
    expect(ofA.at(-1)).toMatchObject({ trigger: "balanceDelta", txHash: transfer.txHash.toLowerCase(), endBlock: String(transfer.block) });
    expect(rows.every((r) => Number(r.startBlock) >= mintA.block && Number(r.endBlock) <= transfer.block)).toBe(true);
  }, 30_000);
});

describe("amm-v2 log filtering: only the pool's Transfer and Swap logs", () => {
  it("turns every log of the chain into nothing unless it is a Transfer or Swap of the pool", async () => {
    const indexerId = uniqueId("filter");
    const store = await StateStore.connect({ url: REDIS_URL, keyPrefix: "pwtest", indexerId, configHash: "cfg" }, silent);
    const reader = new ChainReader({ rpcUrl: suite.chain.url, chainId: 31337, logger: silent });
    try {
      const adapter = await ammV2Adapter.create(
        { poolAddress: suite.scenario.pair, trackSwaps: true, trackLP: true },
        { chainId: 31337, chain: reader, store: store.kv, labels: store.labels, adapterConfigHash: randomBytes(4).toString("hex"), logger: silent },
      );
      await adapter.init?.();
      expect(adapter.filters.map((f) => [f.address, f.topics])).toEqual([
        [suite.scenario.pair, [TRANSFER_TOPIC]],
        [suite.scenario.pair, [SWAP_TOPIC]],
      ]);

      // Every log the scenario produced, from every contract: token Transfers and Approvals, the pool's Mint, Burn,
      // Sync and Approval as well as its Transfer and Swap logs.
      const raw = await suite.chain.rpc<{ address: string; topics: string[]; data: string; blockNumber: string; transactionHash: string; logIndex: string }[]>(
        "eth_getLogs",
        [{ fromBlock: "0x0", toBlock: "latest" }],
      );
      const kinds = new Map<string, number>();
      let producing = 0;
      for (const r of raw) {
        const log: ChainLog = {
          address: r.address.toLowerCase(),
          topics: r.topics.map((t) => t.toLowerCase()),
          data: r.data,
          blockNumber: Number(r.blockNumber),
          transactionHash: r.transactionHash.toLowerCase(),
          logIndex: Number(r.logIndex),
        };
        const from = await reader.transactionFrom(log.transactionHash);
        const ctx = {
          ts: 0,
          height: log.blockNumber,
          txHash: log.transactionHash,
          logIndex: log.logIndex,
          ...(from === undefined ? {} : { transaction: { from } }),
        };
        const events: IndexerEvent[] = await adapter.handle(log, ctx);
        const ofPool = log.address === suite.scenario.pair;
        const kind = `${ofPool ? "pool" : "other"}:${EVENT_NAMES.get(log.topics[0] ?? "") ?? log.topics[0]}`;
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
        if (events.length > 0) producing++;
        if (ofPool && log.topics[0] === TRANSFER_TOPIC) expect(events.map((e) => e.type)).toEqual(["balanceDelta", "balanceDelta"]);
        else if (ofPool && log.topics[0] === SWAP_TOPIC) expect(events.every((e) => e.type === "action" && e.activity === "swap")).toBe(true);
        else expect({ kind, events }).toEqual({ kind, events: [] });
      }
      // The chain holds every kind of log the rule is about, so the loop above checked each of them.
      for (const kind of ["pool:Transfer", "pool:Swap", "pool:Sync", "pool:Mint", "pool:Burn", "pool:Approval", "other:Transfer", "other:Approval"])
        expect({ kind, seen: (kinds.get(kind) ?? 0) > 0 }).toEqual({ kind, seen: true });
      expect(producing).toBe(suite.scenario.lpMoves.length + suite.scenario.swaps.filter(makesAction).length);
    } finally {
      reader.destroy();
      await store.clearIndexer();
      await store.close();
    }
  }, 30_000);

  it("asks the node only for the pool's Transfer and Swap logs", async () => {
    const counting = await proxy();
    const { config: c } = config("filter-rpc", {
      network,
      range: { fromBlock: suite.scenario.pairDeployBlock, toBlock: suite.scenario.endBlock },
      adapterConfig: ammV2({ trackSwaps: true, trackLP: true }),
    });
    await runInProcess(c, testEnv({ RPC_URL: counting.url }));
    const filters = counting.calls.filter((call) => call.method === "eth_getLogs").map((call) => call.params[0] as { address: string[]; topics: string[][] });
    expect(filters.length).toBeGreaterThan(0);
    for (const f of filters) {
      expect(f.address).toEqual([suite.scenario.pair]);
      expect([...(f.topics[0] ?? [])].sort()).toEqual([SWAP_TOPIC, TRANSFER_TOPIC].sort());
      expect(f.topics.length).toBe(1);
    }
  }, 30_000);
});

describe("a swap's user is the sender of its transaction", () => {
  /** The scenario indexed through a recording proxy with the given environment: its rows and the calls the node received. */
  const index = async (label: string, env: Record<string, string>) => {
    const counting = await proxy();
    const { config: c, csv } = config(label, {
      network,
      range: { fromBlock: suite.scenario.pairDeployBlock, toBlock: suite.scenario.endBlock },
      adapterConfig: ammV2({ trackSwaps: true, trackLP: true }),
    });
    await runInProcess(c, testEnv({ RPC_URL: counting.url, ...env }));
    return { rows: await csvRows(csv), calls: counting.calls };
  };
  const wholeBlocks = (calls: { method: string; params: unknown[] }[]) =>
    calls.filter((c) => c.method === "eth_getBlockByNumber" && c.params[1] === true).map((c) => Number(c.params[0]));
  const lookups = (calls: { method: string; params: unknown[] }[]) => calls.filter((c) => c.method === "eth_getTransactionByHash").map((c) => c.params[0]);
  /** The rows without the columns that name the run (indexerId, and the ids hashed from it). */
  const content = (rows: Record<string, string>[]) => rows.map(({ indexerId: _indexerId, id: _id, ...rest }) => rest);

  it("reads senders with the whole blocks holding them while blocks are small, or one by one with INDEXER_RPC_WHOLE_BLOCK_TXS=0, to the same rows", async () => {
    const whole = await index("senders-whole", {});
    const lookedUp = await index("senders-lookup", { INDEXER_RPC_WHOLE_BLOCK_TXS: "0" });
    const swaps = whole.rows.filter((r) => r.rowType === "action" && r.activity === "swap");
    expect(swaps).toHaveLength(suite.scenario.swaps.filter(makesAction).length);
    const swapTxs = [...new Set(swaps.map((r) => r.txHash as string))];
    const senders = new Map(
      await Promise.all(swapTxs.map(async (hash) => [hash, ((await suite.chain.provider.getTransaction(hash))?.from ?? "").toLowerCase()] as const)),
    );
    expect(swaps.filter((r) => r.user !== senders.get(r.txHash as string))).toEqual([]);
    expect(content(lookedUp.rows)).toEqual(content(whole.rows));
    // The adapter wants the sender of every Swap log of the pool (a zero swap's too, skipped only after). Whole blocks:
    // one read of each block holding one, no lookups; one by one: a lookup per such transaction, no whole block.
    const swapLogs = await suite.chain.provider.getLogs({
      address: suite.scenario.pair,
      topics: [SWAP_TOPIC],
      fromBlock: suite.scenario.pairDeployBlock,
      toBlock: suite.scenario.endBlock,
    });
    const sorted = <T>(values: Iterable<T>) => [...new Set(values)].sort();
    expect(sorted(wholeBlocks(whole.calls))).toEqual(sorted(swapLogs.map((l) => l.blockNumber)));
    expect(lookups(whole.calls)).toEqual([]);
    expect(wholeBlocks(lookedUp.calls)).toEqual([]);
    expect(sorted(lookups(lookedUp.calls))).toEqual(sorted(swapLogs.map((l) => l.transactionHash.toLowerCase())));
  }, 60_000);
});

const EVENT_NAMES = new Map(
  [
    "Transfer(address,address,uint256)",
    "Approval(address,address,uint256)",
    "Mint(address,uint256,uint256)",
    "Burn(address,uint256,uint256,address)",
    "Swap(address,uint256,uint256,uint256,uint256,address)",
    "Sync(uint112,uint112)",
  ].map((signature) => [id(signature), signature.slice(0, signature.indexOf("("))]),
);

/**
 * A test adapter (as an integrator would write one) that turns each LP Transfer of a pool into one action of each
 * pricing kind: a non-priceable claim without an amount, a non-priceable mint with an amount, a priceable custom
 * action with the same amount, and an action of a kind the spec does not list.
 */
const kindsAdapter = defineAdapter({
  id: "test-kinds",
  version: "0.0.1",
  description: "Test adapter: LP Transfers of a pool as actions of each pricing kind.",
  paramsSchema: z.object({ poolAddress: z.string().transform((v) => v.toLowerCase()) }).strict(),
  create: ({ poolAddress }) => ({
    filters: [{ address: poolAddress, topics: [TRANSFER_TOPIC], withTransaction: false }],
    contracts: [poolAddress],
    handle: (log): IndexerEvent[] => {
      const user = decodeAddress(log.topics[2] ?? "0x");
      const amount = { asset: poolAddress, amount: unitsFromRaw(decodeTransferValue(log.data), 18) };
      const key = `${log.transactionHash}:${log.logIndex}`;
      return [
        { type: "action", key: `claim:${key}`, activity: "claim", user, priceable: false },
        { type: "action", key: `mint:${key}`, activity: "mint", user, priceable: false, amount },
        { type: "action", key: `custom:${key}`, activity: "custom", user, priceable: true, amount },
        // Not one of swap, mint, bridge, claim, custom: an adapter written without the types could still send it.
        { type: "action", key: `stake:${key}`, activity: "stake" as never, user, priceable: false },
      ];
    },
  }),
});

describe("non-priceable actions", () => {
  it("are exported to the sinks without a price or USD value, while priceable ones of the same asset are priced", async () => {
    const registry = new AdapterRegistry([ammV2Adapter, kindsAdapter] as AdapterDefinition[]);
    const ingest = await startIngestServer({ apiKey: "pw_test_key" });
    closers.push(ingest);
    const csv = join(tmpdir(), `${uniqueId("kinds")}.csv`);
    const { config: c } = config(
      "kinds",
      {
        network,
        range: { fromBlock: suite.scenario.pairDeployBlock, toBlock: suite.scenario.endBlock },
        sinkConfig: {
          sinks: [
            { sinkType: "csv", path: csv },
            {
              sinkType: "pointwise",
              baseUrl: ingest.url,
              events: {
                claim: { regEventId: "33333333-3333-4333-8333-333333333333", amount: "count" },
                mint: { regEventId: "44444444-4444-4444-8444-444444444444", amount: "usd" },
              },
            },
          ],
        },
        adapterConfig: { adapterId: "test-kinds", params: { poolAddress: suite.scenario.pair } },
        // The pool would price at 2 USD: only priceability decides which rows carry a value.
        assetFeedConfig: [{ match: { key: suite.scenario.pair }, config: { assetType: "erc20", priceFeed: { kind: "pegged", usdPegValue: 2 } } }],
      },
      registry,
    );
    files.push(csv);
    const { logs } = await runInProcess(c, testEnv({ RPC_URL: suite.chain.url }), { registry });
    const rows = await csvRows(csv);
    const columns = (activity: string) =>
      rows.filter((r) => r.activity === activity).map((r) => [r.user, r.priceable, r.asset, r.amount, r.priceUsd, r.valueUsd]);
    const moves = suite.scenario.lpMoves;
    const units = (v: bigint) => unitsFromRaw(v, 18);
    const double = (v: bigint) => unitsFromRaw(2n * v, 18);

    expect(columns("claim")).toEqual(moves.map((m) => [m.to, "false", "", "", "", ""]));
    expect(columns("mint")).toEqual(moves.map((m) => [m.to, "false", suite.scenario.pair, units(m.value), "", ""]));
    expect(columns("custom")).toEqual(moves.map((m) => [m.to, "true", suite.scenario.pair, units(m.value), "2", double(m.value)]));
    // Exported for happened-analytics: each claim still reaches the Pointwise API when counted; mints mapped by USD
    // value have none, so they send nothing.
    expect(ingest.recorded.map((e) => [e.account_id, e.amount, e.reg_event_id])).toEqual(moves.map((m) => [m.to, "1", "33333333-3333-4333-8333-333333333333"]));

    // The action of an unlisted kind was refused at validation, once per log, with the field and the rule.
    expect(rows.some((r) => r.activity === "stake")).toBe(false);
    const dropped = logs.lines.filter((l) => l.msg === "dropped invalid item");
    expect(dropped.map((l) => [l.code, l.reason])).toEqual(
      moves.map(() => ["validation-failed", "action.activity must be one of swap, mint, bridge, claim, custom"]),
    );
  }, 30_000);
});

describe("labels are immutable", () => {
  it("stops the run with label-immutable when the adapter would change a label the pool already has", async () => {
    const { config: c } = config("labels", {
      network,
      range: { fromBlock: suite.scenario.pairDeployBlock, toBlock: suite.scenario.endBlock },
      adapterConfig: ammV2({ trackLP: true }),
    });
    // Another adapter of this indexer labelled the pool first; amm-v2 labels it protocol=amm-v2 and role=lp.
    const store = await StateStore.connect({ url: REDIS_URL, keyPrefix: "pwtest", indexerId: c.indexerId, configHash: "any" }, silent);
    await store.labels.set(suite.scenario.pair, { protocol: "amm-v3", decimals: "18" });
    await store.close();
    await expect(runInProcess(c, testEnv({ RPC_URL: suite.chain.url }))).rejects.toMatchObject({
      code: "label-immutable",
      message: `label protocol of asset ${suite.scenario.pair} is immutable: it is amm-v3, refusing to change it to amm-v2`,
    });
    // Nothing of amm-v2's labels was written (not even role=lp, which did not conflict): the pool keeps its own.
    const after = await StateStore.connect({ url: REDIS_URL, keyPrefix: "pwtest", indexerId: c.indexerId, configHash: "any" }, silent);
    expect(await after.labels.get(suite.scenario.pair)).toEqual({ protocol: "amm-v3", decimals: "18" });
    await after.close();
  }, 30_000);
});

describe("historical calls go to gatewayUrl, live calls to RPC_URL", () => {
  const tagOf = (call: { method: string; params: unknown[] }) => (call.method === "eth_call" || call.method === "eth_getCode" ? call.params[1] : undefined);

  it("reads logs, blocks, transactions and past state from the gateway, and only head, chain id and latest state from the RPC", async () => {
    // The live endpoint prunes old state, as many hosted RPCs do: the run only works if history goes to the gateway.
    const live = await proxy({ noHistoricalState: true });
    const archive = await proxy();
    const input = (gatewayUrl?: string): ConfigInput => ({
      network: { ...network, ...(gatewayUrl === undefined ? {} : { gatewayUrl }) },
      // No fromBlock: the deployment block is found by historical eth_getCode.
      range: { toBlock: suite.scenario.endBlock },
      adapterConfig: ammV2({ trackSwaps: true, trackLP: true }),
      assetFeedConfig: [
        { match: { key: suite.scenario.token0 }, config: { assetType: "erc20", priceFeed: { kind: "pegged", usdPegValue: 1 } } },
        { match: { key: suite.scenario.token1 }, config: { assetType: "erc20", priceFeed: { kind: "pegged", usdPegValue: 2000 } } },
        // Net asset value per LP token: reserves and supply are read by eth_call at each window's blocks.
        {
          match: { key: suite.scenario.pair },
          config: {
            assetType: "erc20",
            priceFeed: { kind: "ammv2nav", token0: { kind: "pegged", usdPegValue: 1 }, token1: { kind: "pegged", usdPegValue: 2000 } },
          },
        },
      ],
    });
    const routed = config("gateway", input(archive.url));
    const { result } = await runInProcess(routed.config, testEnv({ RPC_URL: live.url }));
    expect(result.finished).toBe(true);

    const liveMethods = new Set(live.calls.map((c) => c.method));
    expect([...liveMethods].sort()).toEqual(["eth_blockNumber", "eth_call", "eth_chainId", "eth_getCode"]);
    expect(live.calls.filter((c) => tagOf(c) !== undefined).every((c) => tagOf(c) === "latest")).toBe(true);

    const archiveMethods = new Set(archive.calls.map((c) => c.method));
    for (const method of ["eth_getLogs", "eth_getBlockByNumber", "eth_call", "eth_getCode"]) expect(archiveMethods).toContain(method);
    // Swap senders come with whole blocks (the local node's blocks are small), read from the gateway too.
    expect(archive.calls.some((c) => c.method === "eth_getBlockByNumber" && c.params[1] === true)).toBe(true);
    expect(archiveMethods.has("eth_blockNumber") || archiveMethods.has("eth_chainId")).toBe(false);
    const archiveTags = archive.calls.map(tagOf).filter((t) => t !== undefined);
    expect(archiveTags.length).toBeGreaterThan(0);
    expect(archiveTags.every((t) => typeof t === "string" && /^0x[0-9a-f]+$/.test(t))).toBe(true);

    // Without a gateway the RPC serves everything, and the output is the same (ids hash the indexerId, which differs).
    const direct = config("gateway-none", input());
    await runInProcess(direct.config, testEnv({ RPC_URL: suite.chain.url }));
    // LP windows were valued from reserves read at past blocks, which only the gateway could answer.
    expect((await csvRows(routed.csv)).some((r) => r.rowType === "window" && r.valueUsd !== "")).toBe(true);
    const text = async (path: string) => (await readFile(path, "utf8")).replace(/^(\w+),[^,]*,[^,]*,/gm, "$1,ID,ID,");
    expect(await text(routed.csv)).toBe(await text(direct.csv));
  }, 45_000);
});

describe("network.rpcUrl, when the config sets it, is the endpoint for live calls", () => {
  it("sends the live calls to network.rpcUrl and none to RPC_URL, history still to gatewayUrl", async () => {
    const fromFile = await proxy();
    const fromEnv = await proxy();
    const archive = await proxy();
    const { config: c } = config("rpc-url", {
      network: { ...network, rpcUrl: fromFile.url, gatewayUrl: archive.url },
      range: { fromBlock: suite.scenario.pairDeployBlock, toBlock: suite.scenario.endBlock },
      adapterConfig: ammV2({ trackSwaps: true, trackLP: true }),
    });
    const { result } = await runInProcess(c, testEnv({ RPC_URL: fromEnv.url }));
    expect(result.finished).toBe(true);
    expect(fromEnv.calls).toEqual([]);
    const live = new Set(fromFile.calls.map((call) => call.method));
    expect(live.has("eth_blockNumber") && live.has("eth_chainId")).toBe(true);
    expect(live.has("eth_getLogs")).toBe(false);
    expect(archive.calls.some((call) => call.method === "eth_getLogs")).toBe(true);
  });

  it("leaves the live calls to RPC_URL when the config has no rpcUrl", async () => {
    const fromEnv = await proxy();
    const { config: c } = config("rpc-env", {
      network,
      range: { fromBlock: suite.scenario.pairDeployBlock, toBlock: suite.scenario.endBlock },
      adapterConfig: ammV2({ trackSwaps: true }),
    });
    await runInProcess(c, testEnv({ RPC_URL: fromEnv.url }));
    expect(fromEnv.calls.some((call) => call.method === "eth_blockNumber")).toBe(true);
    expect(fromEnv.calls.some((call) => call.method === "eth_getLogs")).toBe(true);
  });

  it("refuses an example rpcUrl in the config with RPC Connection Failed before any call", async () => {
    const fromEnv = await proxy();
    const { config: c } = config("rpc-example", {
      network: { ...network, rpcUrl: "https://rpc.example.invalid/v2/REPLACE_WITH_YOUR_RPC_KEY" },
      range: { fromBlock: suite.scenario.pairDeployBlock },
      adapterConfig: ammV2({ trackSwaps: true }),
    });
    await expect(runInProcess(c, testEnv({ RPC_URL: fromEnv.url }))).rejects.toMatchObject({ message: "RPC Connection Failed" });
    expect(fromEnv.calls).toEqual([]);
  });
});
