// The indexer's state store in Redis: key namespaces, atomic commits, immutable labels and redacted URLs.
import { ConfigError, ConflictError } from "@pointwise/errors";
import { createLogger, scrubUrlCredentials } from "@pointwise/logger";
import { testStore, withClient } from "../testing/fixtures";
import { LABEL_IMMUTABLE, StateStore } from "./store";

const silent = createLogger({ service: "test", level: "silent" });
const REDIS_SHAPE =
  "must be a well-formed URL with a host: redis[s]://[user:password@]host[:port][/db], special characters of user and password percent-encoded";
const REDIS_DB = "must end in a database number when it has a path: redis://host:6379/0";
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

  it("keeps labels immutable: the same value again is fine, another value is refused with label-immutable and writes nothing", async () => {
    const asset = "0x00000000000000000000000000000000000000c7";
    await store.labels.set(asset, { protocol: "amm-v2", decimals: "18" });
    // Writing a label again with its value, alone or beside a new label, is allowed (adapters do it on every start).
    await store.labels.set(asset, { protocol: "amm-v2", token0: "0x1" });
    const refused = store.labels.set(asset.toUpperCase().replace("0X", "0x"), { decimals: "6", role: "lp", protocol: "amm-v3" });
    await expect(refused).rejects.toBeInstanceOf(ConflictError);
    await expect(refused).rejects.toMatchObject({
      code: LABEL_IMMUTABLE,
      message:
        `label decimals of asset ${asset} is immutable: it is 18, refusing to change it to 6; ` +
        `label protocol of asset ${asset} is immutable: it is amm-v2, refusing to change it to amm-v3`,
      details: {
        asset,
        conflicts: [
          { label: "decimals", stored: "18", refused: "6" },
          { label: "protocol", stored: "amm-v2", refused: "amm-v3" },
        ],
      },
    });
    expect(LABEL_IMMUTABLE).toBe("label-immutable");
    // Nothing of the refused call was written, not even the new label beside the conflicting ones.
    const expected = { protocol: "amm-v2", decimals: "18", token0: "0x1" };
    expect(await store.labels.get(asset)).toEqual(expected);
    // Also not in Redis itself, past the process's read cache: a second connection has an empty cache.
    const fresh = await StateStore.connect(store.options, createLogger({ service: "test", level: "silent" }));
    try {
      expect(await fresh.labels.get(asset)).toEqual(expected);
    } finally {
      await fresh.close();
    }
  });

  it("hides passwords of store URLs", () => {
    expect(scrubUrlCredentials("rediss://user:secret@cache:6380/0")).toBe("rediss://***@cache:6380/0");
    expect(scrubUrlCredentials("redis://:secret@cache:6379")).toBe("redis://***@cache:6379");
    expect(scrubUrlCredentials("redis://@cache:6379")).toBe("redis://***@cache:6379");
  });

  it("hides the whole password when it holds an @, as the client reads it (up to the last @ before the host)", () => {
    // The Redis client takes this URL as user "user" with password "p@ss"; no part of the password may show.
    expect(scrubUrlCredentials("redis://user:p@ss@cache:6379/0")).toBe("redis://***@cache:6379/0");
    expect(scrubUrlCredentials("redis://user:p@ss@cache:6379/0?name=a@b")).toBe("redis://***@cache:6379/0?name=a@b");
  });

  it("leaves store URLs without credentials as they are, even with an @ after the host", () => {
    expect(scrubUrlCredentials("redis://cache:6379/0")).toBe("redis://cache:6379/0");
    expect(scrubUrlCredentials("redis://cache:6379/0?name=a@b")).toBe("redis://cache:6379/0?name=a@b");
  });

  it.each([
    ["a space in its host", "redis://default:s3cretpw@my redis:6379", REDIS_SHAPE],
    // Without the check the client took an empty host for 127.0.0.1 and connected to whatever Redis runs here.
    ["no host", "redis://", REDIS_SHAPE],
    ["a path that is not a database number", "redis://default:s3cretpw@127.0.0.1:6379/state", REDIS_DB],
    ["a password that is not percent-encoded", "redis://default:s3cret%pw@127.0.0.1:6379", REDIS_SHAPE],
  ])("refuses a URL with %s with config-invalid, before connecting and without showing the URL", async (_what, url, rule) => {
    const error: unknown = await StateStore.connect({ ...store.options, url }, silent).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ code: "config-invalid", message: `stateStoreUrl ${rule}` });
    // Nothing a log line would show of it (message, stack, cause, details, own fields) holds the password.
    const { message, stack, cause } = error as Error;
    expect(JSON.stringify({ error, message, stack, cause: String(cause) })).not.toContain("s3cret");
  });

  it("reads labels again after setting them, and serves reads in between from its cache", async () => {
    const asset = "0x00000000000000000000000000000000000000d1";
    const labelsKey = `${store.options.keyPrefix}:idx:state:labels:${asset}`;
    expect(await store.labels.get(asset)).toEqual({});
    // Written behind the store's back: the cached read does not see it.
    await withClient((c) => c.hSet(labelsKey, "role", "lp"));
    expect(await store.labels.get(asset)).toEqual({});
    // Setting no labels changes nothing, the cache included.
    await store.labels.set(asset, {});
    expect(await store.labels.get(asset)).toEqual({});
    await store.labels.set(asset, { protocol: "amm-v2" });
    expect(await store.labels.get(asset)).toEqual({ role: "lp", protocol: "amm-v2" });
  });

  it("clears only the keys of its own indexer and counts them", async () => {
    const mine = await StateStore.connect({ ...store.options, indexerId: "mine" }, silent);
    const other = await StateStore.connect({ ...store.options, indexerId: "other" }, silent);
    try {
      await mine.kv.set("a", "1");
      await mine.labels.set("0xa", { role: "lp" });
      await mine.commit({
        positions: [],
        metrics: new Map(),
        checkpoint: { fromBlock: 1, nextBlock: 2, prev: { block: 1, ts: 1 }, sinks: {}, rowsWritten: 0 },
      });
      await other.kv.set("a", "2");
      expect(await mine.clearIndexer()).toBe(3);
      expect(await mine.kv.get("a")).toBeUndefined();
      expect(await other.kv.get("a")).toBe("2");
      expect(await other.clearIndexer()).toBe(1);
    } finally {
      await mine.close();
      await other.close();
    }
  });

  it("closes its connection once, so a second close is harmless and later reads fail", async () => {
    const closing = await StateStore.connect(store.options, silent);
    await closing.close();
    await closing.close();
    await expect(closing.loadCheckpoint()).rejects.toThrow("The client is closed");
  });
});
