// A sink's outbox in Redis: its two keys, staging and dropping events, reading ranges and the chunk in flight.
import { createClient } from "redis";
import { REDIS_URL, testStore } from "../testing/fixtures";
import type { StateStore } from "./store";

let store: StateStore;
let client: ReturnType<typeof createClient>;
beforeAll(async () => {
  store = await testStore("outbox");
  client = createClient({ url: REDIS_URL });
  await client.connect();
});
afterAll(async () => {
  await client.quit();
  await store.clearIndexer();
  await store.close();
});

/** The outbox's keys as the layout documents them: `<prefix>:idx:<indexer>:<config>:sink:<sink>:outbox|state`. */
const keys = (sinkId: string) => {
  const base = `${store.options.keyPrefix}:idx:outbox:cfg:sink:${sinkId}`;
  return { outbox: `${base}:outbox`, state: `${base}:state` };
};
const staged = (n: number) => Array.from({ length: n }, (_, i) => ({ seq: i + 1, value: `e${i + 1}` }));

describe("sink outbox", () => {
  it("stages events in a sorted set scored by sequence under the sink's key", async () => {
    const outbox = store.sinkOutbox("a");
    await outbox.append([
      { seq: 2, value: "two" },
      { seq: 1, value: "one" },
    ]);
    expect(await client.zRangeWithScores(keys("a").outbox, 0, -1)).toEqual([
      { value: "one", score: 1 },
      { value: "two", score: 2 },
    ]);
    expect(await outbox.read(1, 2)).toEqual(["one", "two"]);
    expect(await outbox.read(2, 5)).toEqual(["two"]);
  });

  it("stages nothing, and creates no key, for no events", async () => {
    await store.sinkOutbox("none").append([]);
    expect(await client.exists(keys("none").outbox)).toBe(0);
  });

  it("drops only the events after a sequence and says how many", async () => {
    const outbox = store.sinkOutbox("drop");
    await outbox.append(staged(4));
    expect(await outbox.dropAfter(2)).toBe(2);
    expect(await outbox.read(1, 10)).toEqual(["e1", "e2"]);
    expect(await outbox.dropAfter(2)).toBe(0);
  });

  it("starts with nothing sent and no chunk in flight", async () => {
    expect(await store.sinkOutbox("fresh").progress()).toEqual({ sent: 0, inflight: undefined });
  });

  it("records a chunk in flight, then marks it sent and removes its events, leaving later ones", async () => {
    const outbox = store.sinkOutbox("chunk");
    await outbox.append(staged(3));
    await outbox.beginChunk(1, 2);
    expect(await outbox.progress()).toEqual({ sent: 0, inflight: { from: 1, to: 2 } });
    expect(await client.hGetAll(keys("chunk").state)).toEqual({ inflightFrom: "1", inflightTo: "2" });
    await outbox.finishChunk(2);
    expect(await outbox.progress()).toEqual({ sent: 2, inflight: undefined });
    expect(await client.hGetAll(keys("chunk").state)).toEqual({ sent: "2" });
    expect(await outbox.read(1, 10)).toEqual(["e3"]);
  });

  it("keeps one sink's outbox apart from another's", async () => {
    await store.sinkOutbox("left").append(staged(1));
    expect(await store.sinkOutbox("right").read(1, 1)).toEqual([]);
  });

  it.each([
    ["only its start", { inflightFrom: "3" }],
    ["only its end", { inflightTo: "4" }],
  ])("reads an in-flight record with %s as no chunk in flight", async (_name, fields) => {
    await client.hSet(keys("half").state, { sent: "2", ...fields });
    expect(await store.sinkOutbox("half").progress()).toEqual({ sent: 2, inflight: undefined });
    await client.del(keys("half").state);
  });
});
