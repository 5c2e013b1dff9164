// The benchmark's pure helpers and its paced load, checked without a benchmark run.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { CSV_HEADER, csvLine, type OutputRow } from "@pointwise/indexer-engine";
import { pairedRatio } from "./measure";
import { pacedLoad } from "./paced-load";
import { formatNumber, mergePaths, type PathResult, readSection, replaceSection, runMarkdown } from "./report";
import { rowKindShares, rowsByKind } from "./row-kinds";

describe("pairedRatio", () => {
  it("is the geometric mean of each round's ratio to the baseline just before it", () => {
    expect(pairedRatio([100, 200], [200, 200])).toBeCloseTo(Math.SQRT2, 6);
  });

  it("drops the highest and lowest tenth of the rounds", () => {
    const baseline = Array.from({ length: 10 }, () => 100);
    const subject = [1, ...Array.from({ length: 8 }, () => 80), 10_000];
    expect(pairedRatio(baseline, subject)).toBeCloseTo(0.8, 6);
  });
});

describe("formatNumber", () => {
  it("prints three significant digits below 100 and separators above", () => {
    expect(formatNumber(0.84567)).toBe("0.846");
    expect(formatNumber(25_150.4)).toBe("25,150");
  });

  it("never prints a missed figure as meeting its target", () => {
    expect(formatNumber(0.79967, { met: false, target: ">= 0.8x baseline" })).toBe("0.799");
    expect(formatNumber(20.01, { met: false, target: "<= 20 ms" })).toBe("20.1");
  });
});

describe("replaceSection", () => {
  it("replaces what stands between the markers, and says when they are missing", () => {
    const doc = "a\n<!-- bench:results:start -->\nold\n<!-- bench:results:end -->\nb";
    expect(replaceSection(doc, "results", "new")).toBe("a\n<!-- bench:results:start -->\nnew\n<!-- bench:results:end -->\nb");
    expect(replaceSection("a", "results", "new")).toBeNull();
  });
});

const machine = { cpu: "Test CPU", cores: 2, memoryGiB: 24, node: "20.20.2" };
const result = (path: string, value: number, met: boolean): PathResult => ({
  path,
  figures: [{ name: `${path} figure`, unit: "req/s", value, baseline: 100, ratio: value / 100, target: ">= 1.0x baseline", met }],
  memory: [{ process: `${path}-app`, peakRssMb: 10 }],
  notes: [`${path} note`],
  bounds: [`${path} bound`],
});

describe("runMarkdown and mergePaths", () => {
  const full = runMarkdown({ startedAt: "2026-11-26T18:00:00Z", quick: false, machine, results: [result("ingest", 90, false), result("read", 120, true)] });

  it("writes a full run's header once and each path's section with its missed targets and bounds", () => {
    expect(full.startsWith("Run 2026-11-26 18:00 UTC on Test CPU, 2 cores, 24 GiB, Node 20.20.2.")).toBe(true);
    expect(full).toContain("<!-- bench:path:ingest -->\n### ingest");
    expect(full).toContain("- missed: ingest figure (>= 1.0x baseline)\n- what bounds it: ingest bound");
    // A path that met its target lists no bound.
    expect(full).not.toContain("read bound");
  });

  it("puts an --only run's path in place of its earlier section, dated as a run of its own, and keeps the others", () => {
    const only = { startedAt: "2026-11-29T10:00:00Z", quick: false, machine, results: [result("ingest", 130, true)], only: ["ingest"] };
    const merged = mergePaths(full, only);
    expect(merged.startsWith("Run 2026-11-26 18:00 UTC")).toBe(true);
    expect(merged).toContain("### ingest\nFrom a run of `npm run bench -- --only=ingest`, 2026-11-29 10:00 UTC on Test CPU");
    expect(merged).toContain("| ingest figure | 130 req/s |");
    expect(merged).not.toContain("| ingest figure | 90 req/s |");
    expect(merged).not.toContain("ingest bound");
    // The read section is untouched and still follows.
    expect(merged.slice(merged.indexOf("<!-- bench:path:read -->"))).toBe(full.slice(full.indexOf("<!-- bench:path:read -->")).replace(/\n+$/, ""));
  });

  it("adds a path the section did not have at its end, and merging the same run twice changes nothing", () => {
    const only = { startedAt: "2026-11-29T10:00:00Z", quick: false, machine, results: [result("backfill", 50, false)], only: ["backfill"] };
    const once = mergePaths(full, only);
    expect(once.indexOf("<!-- bench:path:backfill -->")).toBeGreaterThan(once.indexOf("<!-- bench:path:read -->"));
    expect(mergePaths(once, only)).toBe(once);
  });

  it("drops the full run's header once every section is dated as a run of its own, and not before", () => {
    const ingest = { startedAt: "2026-11-29T10:00:00Z", quick: false, machine, results: [result("ingest", 130, true)], only: ["ingest"] };
    const read = { startedAt: "2026-11-30T10:00:00Z", quick: false, machine, results: [result("read", 125, true)], only: ["read"] };
    const one = mergePaths(full, ingest);
    // read still comes from the full run, which the header dates.
    expect(one.startsWith("Run 2026-11-26 18:00 UTC")).toBe(true);
    const both = mergePaths(one, read);
    expect(both.startsWith("<!-- bench:path:ingest -->\n### ingest\nFrom a run of `npm run bench -- --only=ingest`")).toBe(true);
    expect(both).not.toContain("Run 2026-11-26");
    expect(both).toContain("### read\nFrom a run of `npm run bench -- --only=read`, 2026-11-30 10:00 UTC");
  });

  it("reads the section between the markers back, or null without them", () => {
    const doc = replaceSection("a\n<!-- bench:results:start -->\n<!-- bench:results:end -->\nb", "results", full) as string;
    expect(readSection(doc, "results")).toBe(full.trim());
    expect(readSection("a", "results")).toBeNull();
  });
});

/** A local server answering every request after `holdMs`; its URL and the bodies it received. */
async function holdingServer(holdMs: number): Promise<{ url: string; bodies: string[]; close(): void }> {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d) => {
      body += d;
    });
    req.on("end", () => {
      bodies.push(body);
      setTimeout(() => res.writeHead(req.method === "POST" ? 202 : 200, { "content-length": "2" }).end("ok"), holdMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`, bodies, close: () => server.close() };
}

describe("pacedLoad", () => {
  it("sends the offered rate, each body in turn", async () => {
    const server = await holdingServer(0);
    const result = await pacedLoad({
      url: server.url,
      rate: 200,
      durationSec: 0.5,
      connections: 4,
      bodies: ["a", "b"],
      headers: { "content-type": "text/plain" },
    });
    server.close();
    expect(result.total).toBe(100);
    expect(result.non2xx).toBe(0);
    expect(server.bodies).toHaveLength(100);
    expect(new Set(server.bodies)).toEqual(new Set(["a", "b"]));
  });

  it("counts latency from when each request was due, so a server that falls behind shows its queue", async () => {
    // 2 sockets and 50 ms per answer serve at most 40 requests/s; 100/s for 0.5 s offers 50. The 50th answer comes
    // at least 25 x 50 = 1,250 ms after the start and its request was due at 490 ms: at least 760 ms late, while no
    // request takes much over 50 ms from the moment it is sent. p99 of 50 samples is the largest.
    const server = await holdingServer(50);
    const result = await pacedLoad({ url: server.url, rate: 100, durationSec: 0.5, connections: 2 });
    server.close();
    expect(result.total).toBe(50);
    expect(result.p99Ms).toBeGreaterThanOrEqual(760);
  });

  it("refuses a target other than this machine", () => {
    expect(() => pacedLoad({ url: "http://10.0.0.1:80/x", rate: 1, durationSec: 1, connections: 1 })).toThrow("load tests only target 127.0.0.1");
  });
});

describe("rowsByKind and rowKindShares", () => {
  const base = {
    rowType: "window",
    id: "w",
    indexerId: "bench",
    chainId: 1,
    adapterId: "amm-v3",
    adapterVersion: "0.0.1",
    user: "0x00000000000000000000000000000000000000a1",
    asset: "0x00000000000000000000000000000000000000b1",
    activity: "hold",
    amount: "1.5",
    priceable: null,
    active: true,
    startTs: 0,
    endTs: 1000,
    durationMs: 1000,
    startBlock: 1,
    endBlock: 2,
    ts: 1000,
    height: 2,
    txHash: null,
    logIndex: null,
    trigger: "flush",
    priceUsd: null,
    valueUsd: null,
    usdHours: null,
    meta: null,
  } satisfies OutputRow;
  // An action's meta is JSON with commas and quotes: the one quoted column, after the trigger.
  const action: OutputRow = { ...base, rowType: "action", trigger: null, active: null, priceable: true, meta: '{"fromTkAddress":"0x1","kind":"a, \\"b\\""}' };

  it("counts a csv sink's rows as actions and windows by what closed them, and puts them as shares", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "pw-bench-kinds-"));
    try {
      const file = path.join(dir, "rows.csv");
      const windows = (trigger: string, n: number) => Array.from({ length: n }, () => csvLine({ ...base, trigger }));
      writeFileSync(file, [CSV_HEADER, ...windows("statusChange", 5), csvLine(action), ...windows("flush", 3), csvLine(action)].join(""));
      const counts = await rowsByKind(file);
      expect(counts).toEqual({ "window statusChange": 5, action: 2, "window flush": 3 });
      expect(rowKindShares(counts)).toBe("window statusChange 50%, window flush 30%, action 20%");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
