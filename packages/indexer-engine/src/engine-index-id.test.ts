// The index id end to end: IndexerEngine against a stand-in JSON-RPC chain, a real Redis state store and a stand-in ingest
// API. A new index keeps an id in its checkpoint; the pointwise sink's chunk Idempotency-Keys hold it, so a resumed run
// resends an in-flight chunk under its key, a cleared store's next run uses other keys, and an old checkpoint keeps its own.
import { createHash, randomBytes } from "node:crypto";
import { createLogger } from "@pointwise/logger";
import { configHash } from "./config/hash";
import type { IndexerConfig } from "./config/schema";
import { unwrapConfig, validateConfig } from "./config/validate";
import { IndexerEngine } from "./engine";
import { AdapterRegistry } from "./registry";
import { type Checkpoint, StateStore } from "./state/store";
import { runToEnd, STAND_IN, startStandInChain, swapTest } from "./testing/chain";
import { REDIS_URL } from "./testing/fixtures";
import { json, startTestServer, type TestServer } from "./testing/http";

const CONTRACT = STAND_IN.contract;
const SWAP = "11111111-1111-4111-8111-111111111111";
const LAST_BLOCK = 5;
const HEAD = 10;
const silent = createLogger({ service: "test", level: "silent" });
/** Block `b`'s time: 12 seconds apart. */
const blockSeconds = (b: number) => 1_700_000_000 + b * 12;

let chain: TestServer;
let ingest: TestServer;
/** Every request the ingest stand-in got: its Idempotency-Key and its events' own idempotency keys. */
let requests: { key: string; events: string[] }[];
/** Whether the n-th request (0-based, over the test) is refused; refusing one also stops the run, as SIGTERM would. */
let refuse: (n: number) => boolean;
let stop: AbortController;
const stores: StateStore[] = [];

beforeAll(async () => {
  // One swap log in each block from 1 to LAST_BLOCK.
  chain = await startStandInChain({
    head: HEAD,
    blockSeconds,
    blockHash: (b) => `0x${b.toString(16).padStart(64, "0")}`,
    hasLog: (b) => b >= 1 && b <= LAST_BLOCK,
  });
  ingest = await startTestServer((req, res, body) => {
    const events = (JSON.parse(body) as { events: { idempotency_key: string }[] }).events;
    const n = requests.length;
    requests.push({ key: String(req.headers["idempotency-key"]), events: events.map((e) => e.idempotency_key) });
    if (refuse(n)) {
      stop.abort();
      return json(res, 200, { data: null, errors: [{ message: "unavailable", extensions: { code: "service-unavailable" } }] });
    }
    json(res, 200, { data: { results: events.map((_, i) => ({ ok: true, event_id: `ev-${i}` })) } });
  });
});
afterAll(async () => {
  for (const store of stores) {
    await store.clearIndexer();
    await store.close();
  }
  await chain.close();
  await ingest.close();
});
beforeEach(() => {
  requests = [];
  refuse = () => false;
});

/** A config of its own indexerId: one swap per block from 1 to LAST_BLOCK, each sent to the ingest stand-in in a chunk of its own. */
function configFor(label: string): IndexerConfig {
  return unwrapConfig(
    validateConfig(
      {
        kind: "evm",
        indexerId: `${label}-${randomBytes(4).toString("hex")}`,
        flushMs: 3_600_000,
        stateStoreUrl: REDIS_URL,
        network: { chainId: 31337, finality: 0 },
        range: { fromBlock: 1, toBlock: LAST_BLOCK },
        sinkConfig: { sinks: [{ sinkType: "pointwise", baseUrl: ingest.url, batchSize: 1, events: { swap: { regEventId: SWAP, amount: "count" } } }] },
        adapterConfig: { adapterId: "swap-test", params: { contract: CONTRACT } },
      },
      new AdapterRegistry([swapTest]),
    ),
  );
}

/** The state store the engine uses for `config`, opened beside it to read and write its checkpoint. */
async function storeOf(config: IndexerConfig, keyPrefix: string): Promise<StateStore> {
  const store = await StateStore.connect({ url: REDIS_URL, keyPrefix, indexerId: config.indexerId, configHash: configHash(config) }, silent);
  stores.push(store);
  return store;
}

/** Starts the engine on `config` and runs it until the range is done or a refused request stops it. */
async function runOnce(config: IndexerConfig, keyPrefix: string): Promise<{ finished: boolean; error?: unknown }> {
  stop = new AbortController();
  const engine = await IndexerEngine.start({
    config,
    registry: new AdapterRegistry([swapTest]),
    logger: silent,
    rpcUrl: chain.url,
    pointwiseApiKey: "pw_key",
    keyPrefix,
    signal: stop.signal,
    tuning: { initialBlockRange: 1, maxBlockRange: 1, readAhead: 1, pointwiseRetryBaseMs: 1, rpcRetryBaseMs: 1 },
  });
  return runToEnd(engine);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const keys = () => requests.map((r) => r.key);

describe("the index id of the pointwise sink's chunk keys", () => {
  it("is made for a new index and kept in its checkpoint; a resumed run resends the in-flight chunk under the same key", async () => {
    const config = configFor("index-id-resume");
    const prefix = `pwt-${randomBytes(4).toString("hex")}`;
    const store = await storeOf(config, prefix);
    // The third chunk (block 3) is refused and the run stopped while it is in flight.
    refuse = (n) => n === 2;
    const first = await runOnce(config, prefix);
    expect(first.error).toMatchObject({ code: "pointwise-api-interrupted" });
    const stopped = (await store.loadCheckpoint()) as Checkpoint;
    expect(stopped.indexId).toMatch(UUID);
    expect(stopped.nextBlock).toBe(4);
    const sentFirst = [...requests];
    expect(sentFirst).toHaveLength(3);

    refuse = () => false;
    requests = [];
    expect(await runOnce(config, prefix)).toEqual({ finished: true });
    const resumed = (await store.loadCheckpoint()) as Checkpoint;
    expect(resumed.indexId).toBe(stopped.indexId);
    // The refused chunk again, with its key and its events, then blocks 4 and 5.
    expect(requests).toHaveLength(3);
    expect(requests[0]).toEqual(sentFirst[2]);
    // One key per chunk: the five blocks' chunks never share one.
    expect(new Set([...sentFirst, ...requests].map((r) => r.key)).size).toBe(5);
  });

  it("is made again when the store is cleared, so the same chunks go out under other keys", async () => {
    const config = configFor("index-id-cleared");
    const prefix = `pwt-${randomBytes(4).toString("hex")}`;
    const store = await storeOf(config, prefix);
    expect(await runOnce(config, prefix)).toEqual({ finished: true });
    const before = { keys: keys(), events: requests.map((r) => r.events), indexId: (await store.loadCheckpoint())?.indexId };
    expect(before.keys).toHaveLength(5);

    await store.clearIndexer();
    requests = [];
    expect(await runOnce(config, prefix)).toEqual({ finished: true });
    const after = (await store.loadCheckpoint()) as Checkpoint;
    expect(after.indexId).toMatch(UUID);
    expect(after.indexId).not.toBe(before.indexId);
    // The same events in the same chunks, each chunk under a key the first index never used.
    expect(requests.map((r) => r.events)).toEqual(before.events);
    expect(keys().filter((k) => before.keys.includes(k))).toEqual([]);
  });

  it("is absent from a checkpoint written before it existed, whose chunks keep the keys they were sent under", async () => {
    const config = configFor("index-id-legacy");
    const prefix = `pwt-${randomBytes(4).toString("hex")}`;
    const store = await storeOf(config, prefix);
    // What an earlier version committed on starting a new index: no indexId.
    await store.commit({
      positions: [],
      metrics: new Map(),
      checkpoint: { fromBlock: 1, nextBlock: 1, prev: { block: 0, ts: blockSeconds(0) * 1000 }, sinks: {}, rowsWritten: 0 },
    });
    refuse = (n) => n === 1;
    expect((await runOnce(config, prefix)).error).toMatchObject({ code: "pointwise-api-interrupted" });
    const sentFirst = [...requests];
    refuse = () => false;
    requests = [];
    expect(await runOnce(config, prefix)).toEqual({ finished: true });
    expect((await store.loadCheckpoint())?.indexId).toBeUndefined();
    // The keys an earlier version sends for chunks [b, b] of sink 0-pointwise: SHA-256 of
    // "<indexerId>:<configHash>|<sink id>|<from>|<to>", as "sends a pointwise sink's events with the key..." pins it.
    const earlier = (b: number) =>
      createHash("sha256")
        .update(`${config.indexerId}:${configHash(config)}|0-pointwise|${b}|${b}`)
        .digest("hex");
    expect(sentFirst.map((r) => r.key)).toEqual([earlier(1), earlier(2)]);
    // The refused chunk (block 2) is resent under its key, and the rest follow the same rule.
    expect(keys()).toEqual([earlier(2), earlier(3), earlier(4), earlier(5)]);
  });
});
