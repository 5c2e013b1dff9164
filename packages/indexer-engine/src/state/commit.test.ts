// The state store's commit of many positions at once: every one stored or removed, a position named twice keeps its last state.

import { testStore } from "../testing/fixtures";
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
});
