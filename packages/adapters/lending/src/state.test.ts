// The lending adapter's view of the engine's metrics: reads see this call's own writes, each write one measureDelta.
import { StateView } from "./state";

const TOKEN = "0x00000000000000000000000000000000000000c1";
const ASSET = "0x00000000000000000000000000000000000000c0";

describe("lending state view", () => {
  it("reads the committed value until this call changes it, then its own change, and 0 for a metric never set", () => {
    const view = new StateView(new Map([[`${TOKEN}|scaled:a`, "1000"]]));
    expect(view.get(TOKEN, "scaled:a")).toBe(1000n);
    expect(view.get(TOKEN, "scaled:b")).toBe(0n);
    view.set(TOKEN, "scaled:a", 600n);
    expect(view.get(TOKEN, "scaled:a")).toBe(600n);
    // The change is kept per asset and metric: the same metric of another asset, and another metric, still read committed.
    expect(view.get(ASSET, "scaled:a")).toBe(0n);
    expect(view.get(TOKEN, "scaled:b")).toBe(0n);
  });

  it("emits each change as the difference from what the view read before it, and nothing for a write of the same value", () => {
    const view = new StateView(new Map([[`${TOKEN}|scaled:a`, "1000"]]));
    view.set(TOKEN, "scaled:a", 600n); // 1000 -> 600
    view.set(TOKEN, "scaled:a", 1_400n); // 600 -> 1400, not 1000 -> 1400
    view.set(TOKEN, "scaled:a", 1_400n);
    view.set(TOKEN, "scaled:b", 0n);
    expect(view.events).toEqual([
      { type: "measureDelta", asset: TOKEN, metric: "scaled:a", amount: "-400" },
      { type: "measureDelta", asset: TOKEN, metric: "scaled:a", amount: "800" },
    ]);
  });

  // The metric names are committed state a restart reads back, so they are written out here.
  it("knows no reserve before one is recorded, and reads back every field of one that is", () => {
    const view = new StateView(new Map());
    expect(view.reserve(ASSET)).toBeUndefined();
    const state = { liquidityIndex: 11n, liquidityRate: 12n, variableBorrowIndex: 13n, variableBorrowRate: 14n, updatedAt: 15n };
    view.setReserve(ASSET, state);
    expect(view.reserve(ASSET)).toEqual(state);
    expect(view.events.map((e) => e.type === "measureDelta" && [e.metric, e.amount])).toEqual([
      ["aave:liquidityIndex", "11"],
      ["aave:liquidityRate", "12"],
      ["aave:variableBorrowIndex", "13"],
      ["aave:variableBorrowRate", "14"],
      ["aave:updatedAt", "15"],
    ]);
  });
});
