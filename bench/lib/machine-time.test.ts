import os from "node:os";
import { combineShares, describeShares, parseProcStat, readMachineTimes, sharesBetween, sparedParts, withMachineShares } from "./machine-time";

// The first lines of /proc/stat as a 2-core Linux 6.x guest prints them.
const STAT = `cpu  252872 0 35883 216984 4533 0 9483 51392 0 0
cpu0 126000 0 18000 108000 2200 0 4700 25600 0 0
cpu1 126872 0 17883 108984 2333 0 4783 25792 0 0
intr 123456 0 0
`;

describe("parseProcStat", () => {
  it("reads the aggregate cpu line, not a single core's", () => {
    expect(parseProcStat(STAT)).toEqual({
      user: 252872,
      nice: 0,
      system: 35883,
      idle: 216984,
      iowait: 4533,
      irq: 0,
      softirq: 9483,
      steal: 51392,
    });
  });

  it("takes the columns an older kernel leaves out as zero", () => {
    expect(parseProcStat("cpu  10 1 5 100\n")).toEqual({ user: 10, nice: 1, system: 5, idle: 100, iowait: 0, irq: 0, softirq: 0, steal: 0 });
  });

  it("returns null for text without a cpu line or with one it cannot read", () => {
    expect(parseProcStat("intr 1 2 3\n")).toBeNull();
    expect(parseProcStat("cpu  10 x 5 100\n")).toBeNull();
    expect(parseProcStat("cpu  10 5\n")).toBeNull();
  });
});

describe("sharesBetween", () => {
  const before = { user: 100, nice: 0, system: 50, idle: 500, iowait: 10, irq: 0, softirq: 0, steal: 40 };

  it("splits the time between two readings into busy, steal and iowait", () => {
    // 200 ticks passed: 60 user, 20 system, 20 softirq (busy 100), 50 idle, 10 iowait, 40 steal.
    const after = { ...before, user: 160, system: 70, softirq: 20, idle: 550, iowait: 20, steal: 80 };
    expect(sharesBetween(before, after)).toEqual({ busy: 0.5, steal: 0.2, iowait: 0.05 });
  });

  it("returns null when no time passed", () => {
    expect(sharesBetween(before, before)).toBeNull();
  });

  it("never reports a negative share when a counter steps back (a CPU taken offline)", () => {
    const after = { ...before, user: 200, iowait: 5 };
    expect(sharesBetween(before, after)).toEqual({ busy: 1, steal: 0, iowait: 0 });
  });
});

describe("sparedParts", () => {
  const part = (name: string, steal: number | null) => ({ name, shares: steal === null ? null : { busy: 0.5, steal, iowait: 0 } });
  const names = (parts: readonly { name: string }[]) => parts.map((p) => p.name);

  it("keeps the parts in which the hypervisor took at most the limit and leaves out the rest, in their order", () => {
    const parts = [part("a", 0), part("b", 0.3), part("c", 0.05), part("d", 0.051), part("e", 0.01)];
    const spared = sparedParts(parts, (p) => p.shares, 0.05, 2);
    expect(names(spared.kept)).toEqual(["a", "c", "e"]);
    expect(names(spared.left)).toEqual(["b", "d"]);
    expect(spared.spared).toBe(3);
    expect(spared.fellBack).toBe(false);
  });

  it("counts a part without a reading as spared", () => {
    const spared = sparedParts([part("a", null), part("b", 0.2)], (p) => p.shares, 0.05, 1);
    expect(names(spared.kept)).toEqual(["a"]);
    expect(names(spared.left)).toEqual(["b"]);
  });

  it("keeps every part, and says so, when fewer than the minimum were spared", () => {
    const parts = [part("a", 0.2), part("b", 0.01), part("c", 0.4)];
    const spared = sparedParts(parts, (p) => p.shares, 0.05, 2);
    expect(names(spared.kept)).toEqual(["a", "b", "c"]);
    expect(spared.left).toEqual([]);
    expect(spared.spared).toBe(1);
    expect(spared.fellBack).toBe(true);
  });

  it("does not call keeping every part a fall-back when none was stolen from", () => {
    const spared = sparedParts([part("a", 0)], (p) => p.shares, 0.05, 5);
    expect(names(spared.kept)).toEqual(["a"]);
    expect(spared.fellBack).toBe(false);
  });
});

describe("combineShares", () => {
  it("weights each stretch by its seconds and skips stretches without a reading", () => {
    const combined = combineShares([
      { shares: { busy: 0.5, steal: 0.1, iowait: 0 }, seconds: 3 },
      { shares: { busy: 0.9, steal: 0.5, iowait: 0.2 }, seconds: 1 },
      { shares: null, seconds: 10 },
    ]);
    expect(combined?.busy).toBeCloseTo(0.6);
    expect(combined?.steal).toBeCloseTo(0.2);
    expect(combined?.iowait).toBeCloseTo(0.05);
  });

  it("returns null when no stretch had a reading", () => {
    expect(combineShares([{ shares: null, seconds: 2 }])).toBeNull();
    expect(combineShares([])).toBeNull();
  });
});

describe("describeShares", () => {
  it("names each share as a whole percentage", () => {
    expect(describeShares({ busy: 0.544, steal: 0.14, iowait: 0.006 }, "Over this benchmark")).toBe(
      "Over this benchmark the machine's cores were 54% busy, 14% of their time was taken by the hypervisor (steal) and 1% idle waiting on the disk (iowait)",
    );
  });

  it("says when there was nothing to read", () => {
    expect(describeShares(null, "Over this benchmark")).toBe("Over this benchmark the machine's CPU time by state could not be read (no /proc/stat)");
  });
});

describe("on this machine", () => {
  it("reads /proc/stat and sees CPU time this process spends", async () => {
    const before = readMachineTimes();
    expect(before).not.toBeNull();
    const { value, shares, seconds } = await withMachineShares(async () => {
      const end = performance.now() + 200;
      let spins = 0;
      while (performance.now() < end) spins++;
      return spins;
    });
    expect(value).toBeGreaterThan(0);
    expect(seconds).toBeGreaterThanOrEqual(0.2);
    // One core spun the whole time: a 1/cores share of the machine, less what the hypervisor took.
    expect(shares?.busy).toBeGreaterThan(0.4 / os.cpus().length);
    const after = readMachineTimes();
    expect((after?.user ?? 0) + (after?.system ?? 0)).toBeGreaterThan((before?.user ?? 0) + (before?.system ?? 0));
  });
});
