import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { formatNumber, hasSection, loadRecord, mergeResults, type RunRecord, replaceSection, roundingFor, saveRecord } from "./report";

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
