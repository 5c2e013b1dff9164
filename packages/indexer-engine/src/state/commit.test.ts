// The state store's commit of many positions at once: every one stored or removed, a position named twice keeps its
// last state; how a position is stored in its hash field, and values written with the whole position still load.
import { testStore, withClient } from "../testing/fixtures";
import type { Position } from "../windows";
import type { StateStore } from "./store";

let store: StateStore;
beforeAll(async () => {
  store = await testStore("commit");
});
afterAll(async () => {
  await store.clearIndexer();
  await store.close();
});

const checkpoint = { fromBlock: 1, nextBlock: 2, prev: { block: 1, ts: 1_000 }, sinks: {}, rowsWritten: 0 };
const held = (i: number): Position => ({
  user: `0x${i.toString(16).padStart(40, "0")}`,
  asset: "0xa",
  activity: "hold",
  balance: `${i}.5`,
  active: true,
  openSince: { ts: 1_000 + i, block: i },
});
const emptied = (p: Position): Position => ({ user: p.user, asset: p.asset, activity: p.activity, balance: "0", active: true });
const byUser = (a: Position, b: Position) => (a.user < b.user ? -1 : 1);

describe("state store commit", () => {
  it("stores thousands of positions of one commit and removes those emptied by the next", async () => {
    const positions = Array.from({ length: 2_500 }, (_, i) => held(i + 1));
    await store.commit({ positions, metrics: new Map(), checkpoint });
    expect((await store.loadPositions()).sort(byUser)).toEqual([...positions].sort(byUser));
    const gone = positions.filter((_, i) => i % 3 === 0);
    await store.commit({ positions: gone.map(emptied), metrics: new Map(), checkpoint });
    expect((await store.loadPositions()).sort(byUser)).toEqual(positions.filter((_, i) => i % 3 !== 0).sort(byUser));
  });

  it("keeps the last state of a position named twice in one commit, as writing them in sequence would", async () => {
    const a = held(90_001);
    const b = held(90_002);
    await store.commit({ positions: [emptied(b)], metrics: new Map(), checkpoint });
    await store.commit({ positions: [a, emptied(a), emptied(b), { ...b, balance: "7" }], metrics: new Map(), checkpoint });
    const stored = (await store.loadPositions()).filter((p) => p.user === a.user || p.user === b.user);
    expect(stored).toEqual([{ ...b, balance: "7" }]);
  });

  it("stores a position's value without the user, asset and activity its field names, and loads it back whole", async () => {
    const p = held(91_001);
    await store.commit({ positions: [p], metrics: new Map(), checkpoint });
    const raw = await rawPositions();
    expect(raw[`${p.user}|0xa|hold`]).toBe('{"balance":"91001.5","active":true,"openSince":{"ts":92001,"block":91001}}');
    expect((await store.loadPositions()).find((q) => q.user === p.user)).toEqual(p);
  });

  it("stores a position without an open window without openSince, and loads it back without one", async () => {
    const { openSince: _open, ...closed } = { ...held(91_003), active: false };
    await store.commit({ positions: [closed], metrics: new Map(), checkpoint });
    expect((await rawPositions())[`${closed.user}|0xa|hold`]).toBe('{"balance":"91003.5","active":false}');
    const loaded = (await store.loadPositions()).find((q) => q.user === closed.user);
    expect(loaded).toStrictEqual(closed);
  });

  it("keeps the whole position in the value when its user or asset holds the field separator, and loads it back", async () => {
    const odd: Position = { user: "a|b", asset: "0xa|x", activity: "hold|lp", balance: "3", active: false };
    await store.commit({ positions: [odd], metrics: new Map(), checkpoint });
    expect(JSON.parse((await rawPositions())["a|b|0xa|x|hold|lp"] as string)).toEqual(odd);
    expect((await store.loadPositions()).find((q) => q.user === "a|b")).toEqual(odd);
  });

  it("keeps a position with nothing held when its window is open or it is inactive, and removes only the empty, active one", async () => {
    const base = { asset: "0xb", activity: "hold", balance: "0" };
    const open: Position = { ...base, user: "0xopen", active: true, openSince: { ts: 5, block: 1 } };
    const inactive: Position = { ...base, user: "0xinactive", active: false };
    const empty: Position = { ...base, user: "0xempty", active: true };
    await store.commit({ positions: [{ ...empty, balance: "1" }], metrics: new Map(), checkpoint });
    await store.commit({ positions: [open, inactive, empty], metrics: new Map(), checkpoint });
    const stored = (await store.loadPositions()).filter((p) => p.asset === "0xb").sort(byUser);
    expect(stored).toEqual([inactive, open]);
  });

  it.each([
    ["user", { user: "u|1", asset: "0xc" }],
    ["asset", { user: "0xu", asset: "0xc|2" }],
  ])("keeps the whole position in the value when only its %s holds the field separator", async (_name, who) => {
    const p: Position = { ...who, activity: "lp", balance: "4", active: true };
    await store.commit({ positions: [p], metrics: new Map(), checkpoint });
    expect(JSON.parse((await rawPositions())[`${p.user}|${p.asset}|lp`] as string)).toEqual(p);
    expect((await store.loadPositions()).find((q) => q.user === p.user && q.asset === p.asset)).toEqual(p);
  });

  it("writes metrics and the checkpoint in a commit that changes no position", async () => {
    const next = { ...checkpoint, nextBlock: 77 };
    await store.commit({ positions: [], metrics: new Map([["0xm|tvl", "5"]]), checkpoint: next });
    expect((await store.loadMetrics()).get("0xm|tvl")).toBe("5");
    expect(await store.loadCheckpoint()).toEqual(next);
  });

  it("loads a value that names the user, asset and activity itself, as positions were stored before", async () => {
    const old = held(91_002);
    await withClient((c) => c.hSet(store.key("positions"), `${old.user}|0xa|hold`, JSON.stringify(old)));
    expect((await store.loadPositions()).find((q) => q.user === old.user)).toEqual(old);
  });
});

/** The positions hash as Redis holds it. */
const rawPositions = () => withClient((c) => c.hGetAll(store.key("positions")));
