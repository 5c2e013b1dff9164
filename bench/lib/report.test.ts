import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  formatNumber,
  formatRange,
  hasSection,
  loadRecord,
  mergeResults,
  type RunRecord,
  replaceSection,
  roundingFor,
  runMarkdown,
  saveRecord,
} from "./report";

describe("formatNumber", () => {
  it("prints whole numbers with separators from 100 up and three significant digits below, nothing for a missing figure", () => {
    expect(formatNumber(62_600.4)).toBe("62,600");
    expect(formatNumber(0.050812)).toBe("0.0508");
    expect(formatNumber(12.536)).toBe("12.5");
    expect(formatNumber(undefined)).toBe("");
  });

  it("rounds down or up when told, at every size", () => {
    expect(formatNumber(0.59967, "down")).toBe("0.599");
    expect(formatNumber(0.59967)).toBe("0.6");
    expect(formatNumber(20.04, "up")).toBe("20.1");
    expect(formatNumber(19_999.6, "down")).toBe("19,999");
    expect(formatNumber(0.0484, "down")).toBe("0.0484");
    expect(formatNumber(0.6, "up")).toBe("0.6");
    expect(formatNumber(0, "down")).toBe("0");
  });
});

describe("formatRange", () => {
  it("prints the smallest and largest value, each as the caller formats it", () => {
    expect(formatRange([3.04, 1.26, 2], (n) => n.toFixed(1))).toBe("1.3-3.0");
  });

  it("prints one value when both ends format alike", () => {
    expect(formatRange([0.051, 0.049], (n) => String(Math.round(100 * n)))).toBe("5");
    expect(formatRange([14], String)).toBe("14");
  });
});

describe("roundingFor", () => {
  it("never lets a missed figure print as meeting its target", () => {
    const missed = { value: 0.59967, met: false, target: ">= 0.60 x baseline" };
    expect(formatNumber(missed.value, roundingFor(missed))).toBe("0.599");
    const slow = { value: 20.04, met: false, target: "<= 20 ms" };
    expect(formatNumber(slow.value, roundingFor(slow))).toBe("20.1");
  });

  it("rounds to the nearest where the target was met or there is none", () => {
    expect(roundingFor({ met: true, target: ">= 0.60 x baseline" })).toBe("nearest");
    expect(roundingFor({})).toBe("nearest");
    expect(roundingFor({ met: false, target: "0" })).toBe("nearest");
  });
});

describe("runMarkdown", () => {
  const machine = { cpu: "Intel(R) Xeon(R) Processor", cores: 2, boot: "c25332e482e4", memoryGiB: 24, node: "20.20.2", loadAverageAtStart: "0.89 1.00 1.55" };
  const md = runMarkdown({
    startedAt: "2026-11-22T00:54:57.029Z",
    quick: false,
    machine,
    results: [
      {
        path: "ingest",
        measuredAt: "2026-11-22T00:54:57.029Z",
        figures: [
          { name: "earn-event requests/s", unit: "req/s", value: 2484.8, baseline: 3954.3, ratio: 0.59967, target: ">= 0.60 x baseline", met: false },
          { name: "batch events/s", unit: "events/s", value: 33333.3, target: ">= 20,000 events/s", met: true },
        ],
        memory: [{ process: "ingest-api", peakRssMb: 279.1 }],
        notes: ["a note"],
        machineTime: { busy: 0.544, steal: 0.2, iowait: 0.004 },
      },
      { path: "scoring", figures: [{ name: "events/s", unit: "events/s", value: 4116.3 }], memory: [], notes: [] },
      { path: "read", failed: "exit 1" },
      { path: "indexer", missing: true },
    ],
  });
  const lines = md.split("\n");

  it("describes the machine first", () => {
    expect(lines[0]).toBe(
      "Run 2026-11-22T00:54:57.029Z on Intel(R) Xeon(R) Processor, 2 cores, 24 GiB (boot c25332e482e4), Node 20.20.2; load average at start 0.89 1.00 1.55.",
    );
  });

  it("prints a missed figure rounded away from its target and a met one to the nearest", () => {
    expect(lines).toContain("| earn-event requests/s | 2,484 req/s | 3,954 req/s | 0.599x | >= 0.60 x baseline | **no** |");
    expect(lines).toContain("| batch events/s | 33,333 events/s |  |  | >= 20,000 events/s | yes |");
  });

  it("gives each path's peak RSS, how the machine spent it and its notes, and says nothing of machine time where none was recorded", () => {
    expect(lines).toContain("Peak RSS: ingest-api 279.1 MiB.");
    expect(lines).toContain(
      "Over this benchmark the machine's cores were 54% busy, 20% of their time was taken by the hypervisor (steal) and 0% idle waiting on the disk (iowait).",
    );
    expect(lines).toContain("- a note");
    expect(md.match(/Over this benchmark/g)).toHaveLength(1);
  });

  it("says which paths failed or have no benchmark", () => {
    expect(lines).toContain("The benchmark failed (exit 1); see the run's output.");
    expect(lines).toContain("No benchmark script yet.");
  });
});

describe("replaceSection", () => {
  it("replaces only what stands between the named markers", () => {
    const doc = "a\n<!-- bench:x:start -->\nold\n<!-- bench:x:end -->\nb\n<!-- bench:y:start -->\nkeep\n<!-- bench:y:end -->\n";
    expect(replaceSection(doc, "x", "new")).toBe(
      "a\n<!-- bench:x:start -->\nnew\n<!-- bench:x:end -->\nb\n<!-- bench:y:start -->\nkeep\n<!-- bench:y:end -->\n",
    );
  });

  it("leaves a document without both markers unchanged, and hasSection says which sections are there", () => {
    expect(replaceSection("no markers", "x", "new")).toBe("no markers");
    const endFirst = "<!-- bench:x:end -->\n<!-- bench:x:start -->";
    expect(replaceSection(endFirst, "x", "new")).toBe(endFirst);
    expect(hasSection("<!-- bench:x:start -->\n<!-- bench:x:end -->", "x")).toBe(true);
    expect(hasSection(endFirst, "x")).toBe(false);
  });
});

describe("run records", () => {
  const ORDER = ["ingest", "scoring", "read", "indexer"];
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "pw-bench-record-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const record = (quick: boolean, paths: string[], at: string): RunRecord => ({
    startedAt: at,
    quick,
    results: paths.map((p) => ({ path: p, measuredAt: at })),
  });

  it("keeps a quick run's record apart, so an --only run of a full path still keeps every other path", () => {
    saveRecord(dir, record(false, ORDER, "full"), "# full");
    saveRecord(dir, record(true, ORDER, "quick"), "# quick");
    const merged = mergeResults(loadRecord(dir, false), [{ path: "scoring", measuredAt: "again" }], false, ORDER);
    expect(merged.map((r) => `${r.path}@${r.measuredAt}`)).toEqual(["ingest@full", "scoring@again", "read@full", "indexer@full"]);
    expect(loadRecord(dir, true)?.startedAt).toBe("quick");
  });

  it("shows only what was measured when there is no earlier record of the same kind", () => {
    expect(loadRecord(dir, false)).toBeNull();
    expect(mergeResults(null, [{ path: "read" }], false, ORDER)).toEqual([{ path: "read" }]);
    expect(mergeResults(record(true, ORDER, "quick"), [{ path: "read" }], false, ORDER)).toEqual([{ path: "read" }]);
  });
});
