import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { alternate, describeRounds, load, pairedRatio, rotate } from "./measure";

describe("rotate", () => {
  it("runs every side once per round in the order given", async () => {
    const calls: string[] = [];
    const side = (name: string) => async () => {
      calls.push(name);
      return calls.length;
    };
    const out = await rotate(3, { baseline: side("b"), subject: side("s"), tenfold: side("t") });
    expect(calls.join("")).toBe("bstbstbst");
    expect(out).toEqual({ baseline: [1, 4, 7], subject: [2, 5, 8], tenfold: [3, 6, 9] });
  });

  it("alternates baseline first", async () => {
    const calls: string[] = [];
    await alternate(
      2,
      async () => calls.push("b"),
      async () => calls.push("s"),
    );
    expect(calls.join("")).toBe("bsbs");
  });
});

describe("pairedRatio", () => {
  it("pairs each subject round with the baseline round before it, not the medians of both sides", () => {
    // The machine slowed down for the last three rounds: each round says 0.9, while the medians
    // of the two sides (0.9 and 2) would say 0.45.
    const baseline = [1, 1, 2, 2, 2];
    const subject = [0.9, 0.9, 1.8, 1.8, 1.8];
    const r = pairedRatio(baseline, subject);
    expect(r.ratio).toBeCloseTo(0.9, 12);
    expect(r.rounds.map((x) => Number(x.toFixed(12)))).toEqual([0.9, 0.9, 0.9, 0.9, 0.9]);
  });

  it("is a geometric mean, so a round at twice and one at half cancel", () => {
    expect(pairedRatio([1, 1, 1, 1], [2, 0.5, 2, 0.5]).ratio).toBeCloseTo(1, 12);
  });

  it("drops the highest and lowest tenth of the rounds", () => {
    const baseline = Array.from({ length: 10 }, () => 1);
    // One round hit by a burst each way; the other eight all say 1.1.
    const subject = [0.2, 1.1, 1.1, 1.1, 1.1, 1.1, 1.1, 1.1, 1.1, 9];
    expect(pairedRatio(baseline, subject).ratio).toBeCloseTo(1.1, 12);
  });

  it("rejects sides of different lengths and empty ones", () => {
    expect(() => pairedRatio([1, 2], [1])).toThrow("as many baseline as subject");
    expect(() => pairedRatio([], [])).toThrow("at least one");
  });
});

describe("describeRounds", () => {
  it("gives the number of rounds, their range and the middle half", () => {
    expect(describeRounds([1.2, 0.8, 1, 0.9, 1.1, 1.05, 0.95, 1])).toBe("8 rounds, 0.800-1.200, middle half 0.950-1.100");
  });
});

describe("load", () => {
  let server: Server;
  let url: string;
  const seen: string[] = [];
  // Requests a run had in flight when it stopped still reach the server; they belong to that run.
  const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => {
        body += d;
      });
      req.on("end", () => {
        seen.push(`${req.url} ${body}`);
        res.end("ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("hands every connection the next body of one shared list, and the next run goes on from there", async () => {
    // More bodies than a second of load sends, so the list does not wrap within a run.
    const bodies = Array.from({ length: 1_000_000 }, (_, i) => `b${i}`);
    const indices = () => seen.map((s) => Number(s.split(" ")[1]?.slice(1)));
    seen.length = 0;
    await load({ url, method: "POST", bodies, connections: 10, durationSec: 1 });
    await settle();
    const first = indices();
    expect(first.length).toBeGreaterThan(100);
    // Distinct bodies from the start of the list: with autocannon's own list every connection
    // would send b0, b1, ... and each body would arrive ten times.
    expect(new Set(first).size).toBe(first.length);
    expect(Math.min(...first)).toBe(0);
    seen.length = 0;
    await load({ url, method: "POST", bodies, connections: 10, durationSec: 1 });
    await settle();
    const next = Math.min(...indices());
    expect(next).toBeGreaterThan(Math.max(...first));
    // At most one request per connection was built but not sent when the first run stopped.
    expect(next).toBeLessThanOrEqual(Math.max(...first) + 1 + 10);
  });

  it("cycles paths the same way", async () => {
    const paths = Array.from({ length: 40 }, (_, i) => `/p${i}`);
    seen.length = 0;
    const r = await load({ url, paths, connections: 10, durationSec: 1 });
    await settle();
    // The run's own elapsed time, from which the ingest benchmark's accepted-events rate is computed.
    expect(r.seconds).toBeGreaterThanOrEqual(1);
    expect(r.seconds).toBeLessThan(3);
    const sent = new Set(seen.map((s) => s.split(" ")[0]));
    expect(paths.every((p) => sent.has(p))).toBe(true);
  });

  it("refuses a target that is not this machine", async () => {
    await expect(load({ url: "http://192.0.2.1/", connections: 1, durationSec: 1 })).rejects.toThrow("only target 127.0.0.1");
  });
});
