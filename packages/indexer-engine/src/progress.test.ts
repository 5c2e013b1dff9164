// Backfill progress: blocks per second and time left, a bar on a terminal, and log lines without one.
import { createProgressReporter, formatDuration, progressSnapshot, renderBar } from "./progress";
import { capturingLogger } from "./testing/fixtures";

describe("backfill progress", () => {
  it("computes blocks per second and time left", () => {
    expect(progressSnapshot(600, 1_000, 100, 10_000)).toEqual({ done: 600, total: 1_000, blocksPerSecond: 50, etaSeconds: 8 });
    expect(progressSnapshot(0, 1_000, 0, 0).etaSeconds).toBeUndefined();
  });

  it("renders a bar with done of total, rate and ETA", () => {
    expect(renderBar({ done: 500, total: 1_000, blocksPerSecond: 12.5, etaSeconds: 40 }, 10)).toBe("[#####-----]  50% 500/1000 blocks 12.5 blocks/s ETA 40s");
    expect(formatDuration(3_723)).toBe("1h02m03s");
    expect(formatDuration(245)).toBe("4m05s");
  });

  it("has no negative time left once done passes total, and no rate before time has passed", () => {
    expect(progressSnapshot(1_200, 1_000, 0, 10_000)).toEqual({ done: 1_200, total: 1_000, blocksPerSecond: 120, etaSeconds: 0 });
    expect(progressSnapshot(50, 100, 10, 0)).toEqual({ done: 50, total: 100, blocksPerSecond: 0, etaSeconds: undefined });
    expect(progressSnapshot(10, 100, 10, 5_000)).toEqual({ done: 10, total: 100, blocksPerSecond: 0, etaSeconds: undefined });
  });

  it.each([
    [0, "0s"],
    [6, "6s"],
    [6.4, "6s"],
    [59.5, "1m00s"],
    [60, "1m00s"],
    [3_599, "59m59s"],
    [3_600, "1h00m00s"],
    [3_605, "1h00m05s"],
    [90_061, "25h01m01s"],
  ])("formats %d seconds as %s", (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it("draws a full bar for a range of no blocks or done past total, rounds the fill and floors the percentage", () => {
    expect(renderBar({ done: 0, total: 0, blocksPerSecond: 0, etaSeconds: undefined }, 4)).toBe("[####] 100% 0/0 blocks 0.0 blocks/s ETA --");
    expect(renderBar({ done: 12, total: 10, blocksPerSecond: 1, etaSeconds: 0 }, 4)).toBe("[####] 100% 12/10 blocks 1.0 blocks/s ETA 0s");
    // 55/100 of 10 cells is 5.5, drawn as 6; 999/1000 is 99.9%, shown as 99%.
    expect(renderBar({ done: 55, total: 100, blocksPerSecond: 2.25, etaSeconds: 20 }, 10)).toBe("[######----]  55% 55/100 blocks 2.3 blocks/s ETA 20s");
    expect(renderBar({ done: 999, total: 1_000, blocksPerSecond: 3, etaSeconds: 1 }, 10)).toBe("[##########]  99% 999/1000 blocks 3.0 blocks/s ETA 1s");
    expect(renderBar({ done: 1, total: 2, blocksPerSecond: 0.5, etaSeconds: 2 })).toBe(
      `[${"#".repeat(15)}${"-".repeat(15)}]  50% 1/2 blocks 0.5 blocks/s ETA 2s`,
    );
  });

  it("logs every 10 seconds by default", () => {
    const { logger, lines } = capturingLogger();
    let now = 0;
    const reporter = createProgressReporter({ logger, now: () => now });
    for (const [at, done] of [
      [0, 1],
      [9_999, 2],
      [10_000, 3],
      [19_999, 4],
    ] as const) {
      now = at;
      reporter.update(done, 100);
    }
    expect(lines.filter((l) => l.msg === "Backfill progress").map((l) => l.done)).toEqual([1, 3]);
    reporter.finish();
    expect(lines.filter((l) => l.msg === "Backfill progress")).toHaveLength(2);
  });

  it("logs progress lines when there is no terminal, at most once per interval and at the end", () => {
    const { logger, lines } = capturingLogger();
    let now = 0;
    const reporter = createProgressReporter({ logger, logIntervalMs: 10_000, now: () => now });
    reporter.update(10, 100);
    now = 5_000;
    reporter.update(20, 100);
    now = 10_000;
    reporter.update(60, 100);
    now = 11_000;
    reporter.update(100, 100);
    const progress = lines.filter((l) => l.msg === "Backfill progress");
    expect(progress.map((l) => [l.done, l.total, l.blocksPerSecond, l.etaSeconds])).toEqual([
      [10, 100, 0, null],
      [60, 100, 5, 8],
      [100, 100, 8.18, 0],
    ]);
  });

  it("draws the bar on a terminal", () => {
    const { logger, lines } = capturingLogger();
    let written = "";
    const write = (s: string) => {
      written += s;
      return true;
    };
    const tty = { write, isTTY: true } as unknown as NodeJS.WriteStream;
    let now = 0;
    const reporter = createProgressReporter({ logger, tty, now: () => now });
    reporter.update(0, 10);
    now = 1_000;
    reporter.update(10, 10);
    reporter.finish();
    expect(written).toContain("\r[------------------------------]   0% 0/10 blocks");
    expect(written).toContain("\r[##############################] 100% 10/10 blocks 10.0 blocks/s ETA 0s");
    expect(written.endsWith("\n")).toBe(true);
    expect(lines).toEqual([]);
  });

  it("redraws the bar at most every 100 ms, and ends the line only once and only after drawing", () => {
    const { logger } = capturingLogger();
    const writes: string[] = [];
    const tty = { write: (s: string) => writes.push(s) > 0, isTTY: true } as unknown as NodeJS.WriteStream;
    let now = 0;
    const reporter = createProgressReporter({ logger, tty, logIntervalMs: 1, now: () => now });
    reporter.finish();
    expect(writes).toEqual([]);
    for (const [at, done] of [
      [0, 1],
      [99, 2],
      [100, 3],
    ] as const) {
      now = at;
      reporter.update(done, 10);
    }
    expect(writes.map((w) => w.slice(0, 4))).toEqual(["\r[##", "\r[##"]);
    expect(writes[1]).toContain(" 3/10 blocks");
    reporter.finish();
    reporter.finish();
    expect(writes.filter((w) => w === "\n")).toHaveLength(1);
  });

  it("measures the rate from the first update's time on a clock that does not start at zero", () => {
    const { logger, lines } = capturingLogger();
    let now = 1_764_460_800_000;
    const reporter = createProgressReporter({ logger, logIntervalMs: 1, now: () => now });
    reporter.update(0, 100);
    now += 4_000;
    reporter.update(20, 100);
    // 20 blocks in 4 s: 5 blocks/s, 80 blocks left: 16 s.
    expect(lines.filter((l) => l.msg === "Backfill progress").map((l) => [l.done, l.blocksPerSecond, l.etaSeconds])).toEqual([
      [0, 0, null],
      [20, 5, 16],
    ]);
  });
});
