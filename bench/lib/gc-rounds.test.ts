import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describeGcRounds, GC_FULL, GC_YOUNG, gcPerRound, parseGcLog } from "./gc-rounds";
import { withTempDir } from "./temp-dir";

describe("gc-observer.cjs", () => {
  it("logs the collections of the process it is preloaded into, with their wall-clock time, only while switched on by SIGUSR2", async () => {
    await withTempDir("pw-gc-test-", async (dir) => {
      const log = path.join(dir, "gc.jsonl");
      const before = Date.now();
      // A forced full collection before the observer is on, one while it is on, and one after it is
      // off again; each switch and each batch of reports gets a turn of the event loop.
      const script = `
        const turn = () => new Promise((r) => setTimeout(r, 50));
        (async () => {
          global.gc(); await turn();
          process.kill(process.pid, "SIGUSR2"); await turn();
          const on = Date.now(); global.gc(); const done = Date.now(); await turn();
          process.kill(process.pid, "SIGUSR2"); await turn();
          global.gc(); await turn();
          process.stdout.write(JSON.stringify({ on, done }));
        })();`;
      const out = execFileSync(process.execPath, ["--expose-gc", "--require", path.join(__dirname, "gc-observer.cjs"), "-e", script], {
        env: { PATH: process.env.PATH ?? "", PW_GC_LOG: log },
        encoding: "utf8",
      });
      const after = Date.now();
      const { on, done } = JSON.parse(out) as { on: number; done: number };
      const full = parseGcLog(readFileSync(log, "utf8")).filter((e) => e.kind === GC_FULL);
      expect(full.length).toBeGreaterThanOrEqual(1);
      for (const e of full) {
        expect(e.at).toBeGreaterThanOrEqual(before);
        expect(e.at).toBeLessThanOrEqual(after);
        expect(e.ms).toBeGreaterThan(0);
        // Only the collection forced while the observer was on.
        expect(e.at).toBeGreaterThanOrEqual(on);
        expect(e.at).toBeLessThanOrEqual(done);
      }
    });
  });
});

describe("parseGcLog", () => {
  it("reads one event a line and skips blank lines", () => {
    expect(parseGcLog('{"at":1000.5,"ms":1.2,"kind":1}\n\n{"at":1002,"ms":7,"kind":4}\n')).toEqual([
      { at: 1000.5, ms: 1.2, kind: 1 },
      { at: 1002, ms: 7, kind: 4 },
    ]);
  });

  it("names the line that is not JSON", () => {
    expect(() => parseGcLog('{"at":1,"ms":1,"kind":1}\n{"at":2,')).toThrow(/line 2 is not JSON/);
  });

  it("names the line whose fields are not numbers", () => {
    expect(() => parseGcLog('{"at":1,"ms":"1","kind":1}')).toThrow(/line 1 needs numeric at, ms and kind/);
  });
});

describe("gcPerRound", () => {
  const rounds = [
    { start: 1000, end: 2000, p99Ms: 25 },
    { start: 2000, end: 3000, p99Ms: 9 },
  ];

  it("counts the full and young collections that started within each round, its start included and its end not", () => {
    const events = [
      { at: 999, ms: 50, kind: GC_FULL }, // before the first round
      { at: 1000, ms: 2, kind: GC_YOUNG },
      { at: 1500, ms: 11, kind: GC_FULL },
      { at: 1600, ms: 6, kind: GC_FULL },
      { at: 1700, ms: 0.4, kind: 8 }, // an incremental marking step: neither
      { at: 2000, ms: 3, kind: GC_YOUNG },
      { at: 2500, ms: 4, kind: GC_YOUNG },
      { at: 3000, ms: 9, kind: GC_FULL }, // after the last round
    ];
    expect(gcPerRound(rounds, events)).toEqual([
      { p99Ms: 25, full: 2, fullMaxMs: 11, young: 1, youngMaxMs: 2, pauseMs: 19.4 },
      { p99Ms: 9, full: 0, fullMaxMs: 0, young: 2, youngMaxMs: 4, pauseMs: 7 },
    ]);
  });
});

describe("describeGcRounds", () => {
  it("sets the p99s of rounds with a full collection beside those without one, and of the half that paused longest beside the rest", () => {
    const per = [
      { p99Ms: 21.1, full: 1, fullMaxMs: 4.7, young: 13, youngMaxMs: 3, pauseMs: 40 },
      { p99Ms: 34.1, full: 2, fullMaxMs: 13, young: 15, youngMaxMs: 13, pauseMs: 80 },
      { p99Ms: 7, full: 0, fullMaxMs: 0, young: 14, youngMaxMs: 5, pauseMs: 20 },
      { p99Ms: 9, full: 0, fullMaxMs: 0, young: 14, youngMaxMs: 4, pauseMs: 25.5 },
    ];
    expect(describeGcRounds("read-api", per)).toBe(
      "read-api's garbage collections in its 4 fixed-rate rounds (bench/lib/gc-observer.cjs): 2 had a full (mark-compact) collection, " +
        "their p99s 21.1-34.1 ms (median 27.6); 2 had young-generation collections only, their p99s 7.0-9.0 ms (median 8.0). " +
        "The longest full pause in a round was 4.7-13.0 ms; each round had 13-15 young collections, the longest pausing 13.0 ms. " +
        "In all, the rounds paused 20.0-80.0 ms for collections; the 2 that paused longest had p99s 21.1-34.1 ms (median 27.6), the other 2 7.0-9.0 ms (median 8.0)",
    );
  });

  it("tells rounds apart by their pause time when every round had a full collection", () => {
    const per = [
      { p99Ms: 30, full: 1, fullMaxMs: 15, young: 33, youngMaxMs: 6, pauseMs: 90 },
      { p99Ms: 10, full: 1, fullMaxMs: 3, young: 32, youngMaxMs: 5, pauseMs: 45 },
      { p99Ms: 12, full: 1, fullMaxMs: 4, young: 34, youngMaxMs: 4, pauseMs: 50 },
    ];
    const text = describeGcRounds("read-api", per);
    expect(text).toContain("3 had a full (mark-compact) collection, their p99s 10.0-30.0 ms (median 12.0); none had young-generation collections only.");
    expect(text).toContain(
      "the rounds paused 45.0-90.0 ms for collections; the 1 that paused longest had a p99 of 30.0 ms, the other 2 10.0-12.0 ms (median 11.0)",
    );
  });

  it("says so when no round had a full collection", () => {
    const text = describeGcRounds("read-api", [{ p99Ms: 8, full: 0, fullMaxMs: 0, young: 4, youngMaxMs: 1, pauseMs: 3 }]);
    expect(text).toContain("none had a full (mark-compact) collection; 1 had young-generation collections only, its p99 8.0 ms.");
    expect(text).not.toContain("full pause");
    expect(text).toContain("in its 1 fixed-rate round (");
    expect(text).toContain("its p99 8.0 ms. Each round had 4 young collections, the longest pausing 1.0 ms");
    expect(text).not.toContain("paused longest");
  });
});
