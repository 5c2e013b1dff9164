import { type HistoryEntry, historyEntry, type MachineKey, parseHistory, repeatability, spread } from "./history";

const machine: MachineKey = { cpu: "Test CPU @ 2.0GHz", cores: 2 };
const other: MachineKey = { cpu: "Other CPU", cores: 8 };

function entry(path: string, measuredAt: string, ratios: Record<string, number>, on = machine): HistoryEntry {
  return { path, measuredAt, commit: "abc1234", machine: on, ratios };
}

describe("historyEntry", () => {
  it("keeps the figures that stand beside a baseline and drops the rest", () => {
    const e = historyEntry(
      {
        path: "read",
        figures: [{ name: "leaderboard req/s", ratio: 1.1 }, { name: "rebuild ms" }, { name: "bad", ratio: Number.NaN }],
      },
      "2026-11-21T10:00:00.000Z",
      "abc1234",
      { ...machine, memoryGiB: 24 } as never,
    );
    expect(e).toEqual({ path: "read", measuredAt: "2026-11-21T10:00:00.000Z", commit: "abc1234", machine, ratios: { "leaderboard req/s": 1.1 } });
  });

  it("adds nothing for a run whose benchmark said its figures are not valid", () => {
    const figures = [{ name: "lb", ratio: 1.2 }];
    const at = "2026-11-22T00:54:00.000Z";
    expect(historyEntry({ path: "read", figures, invalid: "a fixed-rate run achieved only 654 of 2666 req/s" }, at, "x", machine)).toBeNull();
    expect(historyEntry({ path: "read", figures }, at, "x", machine)?.ratios).toEqual({ lb: 1.2 });
  });

  it("records the method a path measured with, and none for method 1", () => {
    const at = "2026-11-21T10:00:00.000Z";
    const figures = [{ name: "lb", ratio: 1 }];
    expect(historyEntry({ path: "read", method: 2, figures }, at, "x", machine)?.method).toBe(2);
    expect(historyEntry({ path: "read", method: 1, figures }, at, "x", machine)).not.toHaveProperty("method");
    expect(historyEntry({ path: "read", figures }, at, "x", machine)).not.toHaveProperty("method");
  });

  it("records each ratio's two sides where the figure has a value and a baseline", () => {
    const figures = [
      { name: "rps", value: 4800, baseline: 6600, ratio: 4800 / 6600 },
      { name: "paired", value: 10, ratio: 1.1 },
      { name: "rebuild ms", value: 49 },
    ];
    const e = historyEntry({ path: "ingest", figures }, "2026-11-21T10:00:00.000Z", "x", machine);
    expect(e?.sides).toEqual({ rps: { value: 4800, baseline: 6600 } });
    expect(e?.ratios).toEqual({ rps: 4800 / 6600, paired: 1.1 });
    expect(historyEntry({ path: "ingest", figures: [{ name: "paired", ratio: 1.1 }] }, "2026-11-21T10:00:00.000Z", "x", machine)).not.toHaveProperty("sides");
  });

  it("records the machine's boot when the run knows it", () => {
    const e = historyEntry({ path: "read", figures: [{ name: "lb", ratio: 1 }] }, "2026-11-21T10:00:00.000Z", "x", { ...machine, boot: "b1" });
    expect(e?.machine).toEqual({ ...machine, boot: "b1" });
  });

  it("records nothing for a path that failed, is missing or has no ratio", () => {
    const at = "2026-11-21T10:00:00.000Z";
    expect(historyEntry({ path: "read", failed: "exit 1" }, at, "x", machine)).toBeNull();
    expect(historyEntry({ path: "read", missing: true }, at, "x", machine)).toBeNull();
    expect(historyEntry({ path: "read", figures: [{ name: "rebuild ms" }] }, at, "x", machine)).toBeNull();
  });
});

describe("parseHistory", () => {
  it("reads one entry per line and skips blank lines", () => {
    const a = entry("ingest", "2026-11-20T10:00:00.000Z", { rps: 0.9 });
    const b = entry("ingest", "2026-11-21T10:00:00.000Z", { rps: 0.92 });
    expect(parseHistory(`${JSON.stringify(a)}\n\n${JSON.stringify(b)}\n`)).toEqual([a, b]);
  });

  it("names the line that is not JSON or not an entry", () => {
    expect(() => parseHistory(`${JSON.stringify(entry("ingest", "2026-11-20T10:00:00.000Z", {}))}\n{oops`)).toThrow("line 2 is not JSON");
    expect(() => parseHistory('{"path":"ingest"}')).toThrow("line 1 is not a history entry");
  });

  it("reads recorded sides and names a figure whose sides are not two finite numbers", () => {
    const good = { ...entry("ingest", "2026-11-20T10:00:00.000Z", { rps: 0.9 }), sides: { rps: { value: 900, baseline: 1000 } } };
    expect(parseHistory(JSON.stringify(good))).toEqual([good]);
    const withSides = (sides: unknown) => JSON.stringify({ ...entry("ingest", "2026-11-20T10:00:00.000Z", { rps: 0.9, p99: 1 }), sides });
    expect(() => parseHistory(`\n${withSides({ rps: { value: 900, baseline: 1000 }, p99: { value: "12" } })}`)).toThrow(
      "line 2: sides.p99 needs a finite value and baseline",
    );
    expect(() => parseHistory(withSides({ rps: null }))).toThrow("sides.rps needs");
    expect(() => parseHistory(withSides([1]))).toThrow("line 1: sides must be an object with one entry per figure");
  });
});

describe("repeatability", () => {
  it("compares the last runs of each path on the same kind of machine only", () => {
    const history = [
      entry("read", "2026-11-18T10:00:00.000Z", { lb: 5 }),
      entry("read", "2026-11-19T10:00:00.000Z", { lb: 1.0 }),
      entry("read", "2026-11-20T10:00:00.000Z", { lb: 1.02 }),
      entry("read", "2026-11-21T10:00:00.000Z", { lb: 1.04 }),
      entry("read", "2026-11-21T11:00:00.000Z", { lb: 9 }, other),
    ];
    const r = repeatability(history, machine);
    // The oldest of four runs and the other machine's run are left out: 1.04 / 1.0 over all three.
    expect(r.markdown).toContain("| lb | 1x | 1.02x | 1.04x | 4.0% | 2.0% |");
    expect(r.markdown).not.toContain("5x");
    expect(r.markdown).not.toContain("9x");
    expect(r.moved).toEqual([]);
    expect(r.markdown).toContain("Every ratio of the last two runs is within 5.0% of the run before.");
  });

  it("compares only runs measured the way the newest run was, and counts the others", () => {
    const history = [
      entry("read", "2026-11-19T10:00:00.000Z", { lb: 2 }),
      entry("read", "2026-11-20T10:00:00.000Z", { lb: 3 }),
      { ...entry("read", "2026-11-21T10:00:00.000Z", { lb: 1 }), method: 2 },
      { ...entry("read", "2026-11-21T11:00:00.000Z", { lb: 1.01 }), method: 2 },
    ];
    const r = repeatability(history, machine);
    expect(r.markdown).toContain("Measured with method 2; 2 earlier run(s) measured another way are not compared.");
    expect(r.markdown).toContain("| lb | 1x | 1.01x | 1.0% | 1.0% |");
    expect(r.markdown).not.toContain("3x");
    expect(r.moved).toEqual([]);
  });

  it("does not claim a comparison when the newest method has one run", () => {
    const history = [entry("read", "2026-11-20T10:00:00.000Z", { lb: 3 }), { ...entry("read", "2026-11-21T10:00:00.000Z", { lb: 1 }), method: 2 }];
    const r = repeatability(history, machine);
    expect(r.markdown).toContain("Each path has one full run measured this way recorded");
    expect(r.moved).toEqual([]);
  });

  it("flags a figure whose last two runs differ by more than the tolerance", () => {
    const history = [
      entry("ingest", "2026-11-20T10:00:00.000Z", { rps: 0.8, batch: 0.05 }),
      entry("ingest", "2026-11-21T10:00:00.000Z", { rps: 0.9, batch: 0.05 }),
    ];
    const r = repeatability(history, machine);
    expect(r.moved).toEqual([{ path: "ingest", figure: "rps", spread: 0.9 / 0.8 }]);
    expect(r.markdown).toContain("| rps | 0.8x | 0.9x | 12.5% | **12.5%** |");
    expect(r.markdown).toContain('Moved more than 5.0% between the last two runs: ingest "rps" (12.5%).');
  });

  it("says how each side of a moved ratio changed when both runs recorded their sides", () => {
    const before = { ...entry("scoring", "2026-11-20T10:00:00.000Z", { eps: 5990 / 409 }), sides: { eps: { value: 5990, baseline: 409 } } };
    const after = { ...entry("scoring", "2026-11-21T10:00:00.000Z", { eps: 6576 / 479 }), sides: { eps: { value: 6576, baseline: 479 } } };
    const r = repeatability([before, after], machine);
    expect(r.moved).toEqual([{ path: "scoring", figure: "eps", spread: 5990 / 409 / (6576 / 479), sides: { value: 6576 / 5990, baseline: 479 / 409 } }]);
    expect(r.markdown).toContain('scoring "eps" (6.7%; from the run before, the figure +9.8% and its baseline +17.1%).');
    const slower = { ...entry("scoring", "2026-11-22T10:00:00.000Z", { eps: 5000 / 300 }), sides: { eps: { value: 5000, baseline: 300 } } };
    expect(repeatability([after, slower], machine).markdown).toContain("the figure -24.0% and its baseline -37.4%");
  });

  it("says only how far a moved ratio went when a run before sides were recorded is one of the two", () => {
    const before = entry("scoring", "2026-11-20T10:00:00.000Z", { eps: 14.6 });
    const after = { ...entry("scoring", "2026-11-21T10:00:00.000Z", { eps: 13.7 }), sides: { eps: { value: 6576, baseline: 479 } } };
    const r = repeatability([before, after], machine);
    expect(r.moved[0]).not.toHaveProperty("sides");
    expect(r.markdown).toContain('scoring "eps" (6.6%).');
  });

  it("leaves a figure blank in a run that did not measure it", () => {
    const history = [entry("indexer", "2026-11-20T10:00:00.000Z", { logs: 4 }), entry("indexer", "2026-11-21T10:00:00.000Z", { logs: 4.1, tenfold: 4 })];
    const r = repeatability(history, machine);
    expect(r.markdown).toContain("| tenfold |  | 4x |  |  |");
  });

  it("does not claim a comparison when each path has run once", () => {
    const r = repeatability([entry("read", "2026-11-20T10:00:00.000Z", { lb: 1 }), entry("ingest", "2026-11-20T10:00:00.000Z", { rps: 0.9 })], machine);
    expect(r.markdown).toContain("Each path has one full run measured this way recorded");
    expect(r.markdown).not.toContain("Every ratio");
  });

  it("compares only this boot's runs when the machine's boot is known, and counts the others of its kind", () => {
    const here = { ...machine, boot: "b2" };
    const history = [
      entry("scoring", "2026-11-20T10:00:00.000Z", { rate: 17 }),
      entry("scoring", "2026-11-21T09:00:00.000Z", { rate: 16 }, { ...machine, boot: "b1" }),
      entry("scoring", "2026-11-21T10:00:00.000Z", { rate: 13 }, here),
      entry("scoring", "2026-11-21T11:00:00.000Z", { rate: 13.5 }, here),
      entry("scoring", "2026-11-21T12:00:00.000Z", { rate: 30 }, { ...other, boot: "b2" }),
    ];
    const r = repeatability(history, here);
    // The runs of the same CPU on another boot (or with no boot) are left out, so 13 and 13.5 are compared only.
    expect(r.markdown).toContain(
      "on this machine (Test CPU @ 2.0GHz, 2 cores, boot b2), from bench/history.jsonl; 2 path result(s) of this kind of machine from other boots, or from before boots were recorded, are not compared.",
    );
    expect(r.markdown).toContain("| rate | 13x | 13.5x | 3.8% | 3.8% |");
    expect(r.markdown).not.toContain("17x");
    expect(r.markdown).not.toContain("16x");
    expect(r.moved).toEqual([]);
  });

  it("says so when this machine has no run yet though others of its kind have", () => {
    const r = repeatability([entry("read", "2026-11-20T10:00:00.000Z", { lb: 1 }, { ...machine, boot: "b1" })], { ...machine, boot: "b2" });
    expect(r.markdown).toBe(
      "No full run on this machine is recorded in bench/history.jsonl yet; 1 path result(s) of this kind of machine from other boots, or from before boots were recorded, are not compared.",
    );
  });

  it("says so when nothing was measured on this kind of machine", () => {
    expect(repeatability([entry("read", "2026-11-20T10:00:00.000Z", { lb: 1 }, other)], machine).markdown).toMatch(/No full run/);
  });
});

describe("spread", () => {
  it("is largest over smallest", () => {
    expect(spread([1.2, 1, 1.1])).toBeCloseTo(1.2, 10);
  });
});
