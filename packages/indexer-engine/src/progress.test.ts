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
});
