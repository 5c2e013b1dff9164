// The benchmark's pure helpers and its paced load, checked without a benchmark run.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { pairedRatio } from "./measure";
import { pacedLoad } from "./paced-load";
import { formatNumber, replaceSection } from "./report";

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

describe("pacedLoad", () => {
  it("sends the offered rate and counts latency from when each request was due", async () => {
    const bodies: string[] = [];
    const server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (d) => {
        body += d;
      });
      req.on("end", () => {
        bodies.push(body);
        res.writeHead(req.method === "POST" ? 202 : 200, { "content-length": "2" }).end("ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
    const result = await pacedLoad({ url, rate: 200, durationSec: 0.5, connections: 4, bodies: ["a", "b"], headers: { "content-type": "text/plain" } });
    server.close();
    expect(result.total).toBe(100);
    expect(result.non2xx).toBe(0);
    expect(new Set(bodies)).toEqual(new Set(["a", "b"]));
    expect(result.p99Ms).toBeLessThan(1000);
  });
});
