import { testStore } from "../testing/fixtures";
import type { StateStore } from "./store";
import { redactUrl } from "./store";

let store: StateStore;
beforeAll(async () => {
  store = await testStore("state");
});
afterAll(async () => {
  await store.clearIndexer();
  await store.close();
});

describe("state store", () => {
  it("namespaces keys by prefix, indexerId and config hash", () => {
    expect(store.key("checkpoint")).toBe(`${store.options.keyPrefix}:idx:state:cfg:checkpoint`);
    expect(store.indexerKey("kv", "x")).toBe(`${store.options.keyPrefix}:idx:state:kv:x`);
  });

  it("commits positions, metrics and the checkpoint together and loads them back", async () => {
    const open = { user: "0xu", asset: "0xa", activity: "hold", balance: "2.5", active: true, openSince: { ts: 1_000, block: 7 } };
    const empty = { user: "0xv", asset: "0xa", activity: "hold", balance: "0", active: true };
    const checkpoint = { fromBlock: 1, nextBlock: 10, prev: { block: 9, ts: 9_000 }, sinks: { "0-csv": "123" }, rowsWritten: 4 };
    await store.commit({ positions: [open, { ...empty, balance: "1" }], metrics: new Map([["0xa|tvl", "100"]]), checkpoint });
    await store.commit({ positions: [empty], metrics: new Map(), checkpoint: { ...checkpoint, nextBlock: 11 } });
    expect(await store.loadPositions()).toEqual([open]);
    expect(await store.loadMetrics()).toEqual(new Map([["0xa|tvl", "100"]]));
    expect((await store.loadCheckpoint())?.nextBlock).toBe(11);
  });

  it("keeps labels and the adapter cache per indexer, and clears everything of the indexer", async () => {
    await store.labels.set("0xABC", { protocol: "amm-v2" });
    await store.labels.set("0xabc", { token0: "0x1" });
    expect(await store.labels.get("0xabc")).toEqual({ protocol: "amm-v2", token0: "0x1" });
    await store.kv.set("h:amm-v2:0xp:token0", "0x1");
    expect(await store.kv.get("h:amm-v2:0xp:token0")).toBe("0x1");
    expect(await store.clearIndexer()).toBeGreaterThan(0);
    expect(await store.kv.get("h:amm-v2:0xp:token0")).toBeUndefined();
    expect(await store.loadCheckpoint()).toBeUndefined();
  });

  it("hides passwords of store URLs", () => {
    expect(redactUrl("rediss://user:secret@cache:6380/0")).toBe("rediss://***@cache:6380/0");
  });
});
