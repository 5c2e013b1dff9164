// Points-over-time series: consecutive UTC buckets with a running total that never drops for growing totals.
import fc from "fast-check";
import { bucketStart, buildSeries } from "./chart";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe("buildSeries", () => {
  const now = new Date("2026-03-10T15:30:00Z");

  it("lays out consecutive UTC buckets ending with the one that holds now", () => {
    const { buckets } = buildSeries([], [], "day", 3, now);
    expect(buckets).toEqual(["2026-03-08T00:00:00.000Z", "2026-03-09T00:00:00.000Z", "2026-03-10T00:00:00.000Z"]);
    expect(buildSeries([], [], "hour", 2, now).buckets).toEqual(["2026-03-10T14:00:00.000Z", "2026-03-10T15:00:00.000Z"]);
  });

  it("carries a running total through buckets without points and starts from the total reached before the window", () => {
    const rows = [
      { userId: "a", bucket: new Date("2026-03-01T00:00:00Z"), cumulative: "5" },
      { userId: "a", bucket: new Date("2026-03-09T00:00:00Z"), cumulative: "7.5" },
      { userId: "b", bucket: new Date("2026-03-10T00:00:00Z"), cumulative: "1" },
      { userId: "stranger", bucket: new Date("2026-03-10T00:00:00Z"), cumulative: "99" },
    ];
    expect(buildSeries(rows, ["b", "a"], "day", 3, now).series).toEqual([
      { userId: "b", values: ["0", "0", "1"] },
      { userId: "a", values: ["5", "7.5", "7.5"] },
    ]);
  });

  it("always ends on the latest running total at or before the last bucket, and never goes down for growing totals", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ dayOffset: fc.integer({ min: -60, max: 0 }), add: fc.integer({ min: 0, max: 1000 }) }), { maxLength: 30 }),
        fc.integer({ min: 2, max: 40 }),
        (raw, count) => {
          const byDay = new Map<number, number>();
          for (const r of raw) byDay.set(r.dayOffset, (byDay.get(r.dayOffset) ?? 0) + r.add);
          let running = 0;
          const rows = [...byDay.entries()]
            .sort((x, y) => x[0] - y[0])
            .map(([offset, add]) => {
              running += add;
              return { userId: "u", bucket: new Date(bucketStart(now, "day").getTime() + offset * DAY), cumulative: String(running) };
            });
          const { series } = buildSeries(rows, ["u"], "day", count, now);
          const values = (series[0]?.values ?? []).map(Number);
          expect(values).toHaveLength(count);
          expect(values.at(-1)).toBe(running);
          for (let i = 1; i < values.length; i += 1) expect(values[i]).toBeGreaterThanOrEqual(values[i - 1] as number);
        },
      ),
    );
  });
});
