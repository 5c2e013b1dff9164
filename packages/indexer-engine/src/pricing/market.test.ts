// The market price client against a stand-in API: last sample at or before a time, shared fetches, refreshes, spacing, retries.
import type { ServerResponse } from "node:http";
import { createLogger } from "@pointwise/logger";
import { capturingLogger } from "../testing/fixtures";
import { json, startTestServer, type TestServer } from "../testing/http";
import { MarketPriceClient, type MarketPriceOptions } from "./market";

const DAY = 86_400_000;
const HOUR = 3_600_000;
const T0 = Date.UTC(2024, 0, 10);
const logger = createLogger({ service: "test", level: "silent" });

interface Received {
  path: string;
  key: string | undefined;
  proKey: string | undefined;
  accept: string | undefined;
}

/** A scripted answer: a status (with Retry-After 0) or a status with its own Retry-After header. */
type Scripted = number | { status: number; retryAfter: string };

let server: TestServer;
let requests: Received[] = [];
let script: Scripted[] = [];
/** When set, answers requests in place of the stand-in API (after the script). */
let respond: ((url: URL, res: ServerResponse) => void) | undefined;

/** One sample per hour from T0 on: price = 10 + hours since T0 / 4. */
function hourly(from: number, to: number): [number, number][] {
  const prices: [number, number][] = [];
  for (let t = Math.max(T0, Math.ceil(from / HOUR) * HOUR); t <= to; t += HOUR) prices.push([t, 10 + (t - T0) / HOUR / 4]);
  return prices;
}

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    requests.push({
      path: url.pathname + url.search,
      key: req.headers["x-cg-demo-api-key"] as string | undefined,
      proKey: req.headers["x-cg-pro-api-key"] as string | undefined,
      accept: req.headers.accept,
    });
    const scripted = script.shift();
    if (scripted !== undefined) {
      const { status, retryAfter } = typeof scripted === "number" ? { status: scripted, retryAfter: "0" } : scripted;
      return json(res, status, { error: "scripted" }, { "retry-after": retryAfter });
    }
    if (respond !== undefined) return respond(url, res);
    if (req.headers["x-cg-demo-api-key"] !== "good-key" && req.headers["x-cg-pro-api-key"] !== "good-key") return json(res, 401, { error: "bad key" });
    if (url.pathname !== "/coins/test-coin/market_chart/range") return json(res, 404, { error: "coin not found" });
    json(res, 200, { prices: hourly(Number(url.searchParams.get("from")) * 1000, Number(url.searchParams.get("to")) * 1000) });
  });
});
afterAll(() => server.close());
beforeEach(() => {
  requests = [];
  script = [];
  respond = undefined;
});
afterEach(() => jest.restoreAllMocks());

const client = (apiKey = "good-key", options: Partial<MarketPriceOptions> = {}) =>
  new MarketPriceClient({ baseUrl: server.url, apiKey, ratePerMinute: 60_000, retryBaseMs: 1, maxAttempts: 3, logger, ...options });

/** The range query the client sends for a UTC day: from an hour before it to its end, in seconds. */
const rangeQuery = (day: number) => `vs_currency=usd&from=${(day - HOUR) / 1000}&to=${(day + DAY) / 1000}`;

describe("market price client", () => {
  it("prices a time by the last sample at or before it, sending the key header", async () => {
    const c = client();
    expect((await c.priceAt("test-coin", T0 + 90 * 60_000))?.toString()).toBe("10.25");
    expect((await c.priceAt("test-coin", T0 + 2 * 3_600_000))?.toString()).toBe("10.5");
    expect(await c.priceAt("test-coin", T0 - 1)).toBeUndefined();
    // T0 - 1 lies in the day before: two fetches, each with the demo key and asking for JSON.
    expect(requests.map((r) => [r.key, r.proKey, r.accept])).toEqual([
      ["good-key", undefined, "application/json"],
      ["good-key", undefined, "application/json"],
    ]);
  });

  it("fetches each asset-day once and shares concurrent lookups", async () => {
    const c = client();
    await Promise.all([c.priceAt("test-coin", T0 + 1), c.priceAt("test-coin", T0 + 5_000_000), c.priceAt("test-coin", T0 + 9_000_000)]);
    expect(requests.length).toBe(1);
    await c.priceAt("test-coin", T0 + DAY + 1);
    expect(requests.length).toBe(2);
    expect(c.requests).toBe(2);
    expect(requests[0]?.path).toBe(`/coins/test-coin/market_chart/range?vs_currency=usd&from=${(T0 - 3_600_000) / 1000}&to=${(T0 + DAY) / 1000}`);
  });

  it("asks for the whole UTC day of a time in the middle of it, from an hour before the day", async () => {
    const c = client();
    // 2024-01-11 13:20 UTC lies in the day starting at T0 + DAY.
    expect((await c.priceAt("test-coin", T0 + DAY + 13 * HOUR + 20 * 60_000))?.toString()).toBe(String(10 + (DAY + 13 * HOUR) / HOUR / 4));
    expect(requests.map((r) => r.path)).toEqual([`/coins/test-coin/market_chart/range?${rangeQuery(T0 + DAY)}`]);
  });

  it("keeps assets and days apart in its cache", async () => {
    respond = (url, res) => json(res, 200, { prices: [[T0 + (url.pathname.includes("/b/") ? 2 : 1) * HOUR, url.pathname.includes("/b/") ? 2 : 1]] });
    const c = client();
    expect((await c.priceAt("a", T0 + 3 * HOUR))?.toString()).toBe("1");
    expect((await c.priceAt("b", T0 + 3 * HOUR))?.toString()).toBe("2");
    expect((await c.priceAt("a", T0 + 4 * HOUR))?.toString()).toBe("1");
    expect(requests.map((r) => r.path)).toEqual([`/coins/a/market_chart/range?${rangeQuery(T0)}`, `/coins/b/market_chart/range?${rangeQuery(T0)}`]);
  });

  it("joins a base URL with a trailing slash and escapes the id in the path", async () => {
    respond = (_url, res) => json(res, 200, { prices: [[T0, 3]] });
    const c = client("good-key", { baseUrl: `${server.url}/api/v3/` });
    expect((await c.priceAt("usd coin/x", T0 + 1))?.toString()).toBe("3");
    expect(requests.map((r) => r.path)).toEqual([`/api/v3/coins/usd%20coin%2Fx/market_chart/range?${rangeQuery(T0)}`]);
  });

  it("sends the pro header, not the demo one, to CoinGecko's pro host", async () => {
    const realFetch = globalThis.fetch;
    const sent: string[] = [];
    jest.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
      sent.push(String(input));
      return realFetch(String(input).replace("https://pro-api.coingecko.com/api/v3", server.url), init);
    });
    const c = client("good-key", { baseUrl: "https://pro-api.coingecko.com/api/v3" });
    expect((await c.priceAt("test-coin", T0 + HOUR))?.toString()).toBe("10.25");
    expect(sent).toEqual([`https://pro-api.coingecko.com/api/v3/coins/test-coin/market_chart/range?${rangeQuery(T0)}`]);
    expect(requests.map((r) => [r.proKey, r.key])).toEqual([["good-key", undefined]]);
  });

  it("fetches a day again for a time after its fetch, while the day was still running, and not for a time before it", async () => {
    let clock = T0 + 6 * HOUR;
    const c = client("good-key", { now: () => clock });
    respond = (url, res) => {
      // The stand-in API only has samples up to the client's clock.
      const prices = hourly(Number(url.searchParams.get("from")) * 1000, Number(url.searchParams.get("to")) * 1000).filter(([t]) => t <= clock);
      json(res, 200, { prices });
    };
    expect((await c.priceAt("test-coin", T0 + HOUR))?.toString()).toBe("10.25");
    // Fetched at T0 + 6h: a time up to then is answered from the cache, the newest sample being T0 + 6h.
    expect((await c.priceAt("test-coin", T0 + 6 * HOUR))?.toString()).toBe("11.5");
    expect(requests.length).toBe(1);
    clock = T0 + 9 * HOUR;
    expect((await c.priceAt("test-coin", T0 + 8 * HOUR + 1))?.toString()).toBe("12");
    expect(requests.length).toBe(2);
    // The new fetch (at T0 + 9h) answers every earlier time.
    expect((await c.priceAt("test-coin", T0 + 2 * HOUR))?.toString()).toBe("10.5");
    expect((await c.priceAt("test-coin", T0 + 9 * HOUR))?.toString()).toBe("12.25");
    expect(requests.length).toBe(2);
    expect(c.requests).toBe(2);
  });

  it("keeps a newer fetch of a day cached when an older fetch of it fails afterwards", async () => {
    // One try each; 600 a minute spaces the second request 100 ms after the first, so the first is the one that fails.
    const c = client("good-key", { now: () => T0 + HOUR, maxAttempts: 1, ratePerMinute: 600 });
    script = [500];
    const older = c.priceAt("test-coin", T0 + 30 * 60_000);
    // A time after the first fetch (at T0 + 1h) starts a second fetch of the day, which replaces the first in the cache.
    const newer = c.priceAt("test-coin", T0 + 2 * HOUR);
    await expect(older).rejects.toMatchObject({ code: "price-api-unavailable" });
    expect((await newer)?.toString()).toBe("10.5");
    expect((await c.priceAt("test-coin", T0 + HOUR))?.toString()).toBe("10.25");
    expect(requests.length).toBe(2);
  });

  it("sends a request at once when the rate allows it, and waits for the next slot otherwise", () => {
    // 600 a minute: one request per 100 ms. The clock stands still, so the second request waits the whole interval.
    const c = client("good-key", { now: () => T0 + 2 * DAY, ratePerMinute: 600 });
    const first = c.priceAt("test-coin", T0);
    expect(c.requests).toBe(1);
    const second = c.priceAt("test-coin", T0 + DAY);
    expect(c.requests).toBe(1);
    return Promise.all([first, second]).then((prices) => {
      expect(prices.map((p) => p?.toString())).toEqual(["10", "16"]);
      expect(c.requests).toBe(2);
    });
  });

  it("spaces requests to the key's rate and waits out a retry's backoff", async () => {
    // 300 a minute is one request per 200 ms; the first retry's backoff is the base, 400 ms.
    const c = client("good-key", { ratePerMinute: 300, retryBaseMs: 400 });
    // Timed when the client sends, not when the stand-in receives: the first request's arrival also carries the
    // connection's set-up, which a busy machine can stretch past the slack.
    const sent: number[] = [];
    const realFetch = globalThis.fetch;
    jest.spyOn(globalThis, "fetch").mockImplementation((...args) => {
      sent.push(Date.now());
      return realFetch(...args);
    });
    await c.priceAt("test-coin", T0);
    await c.priceAt("test-coin", T0 + DAY);
    script = [500];
    await c.priceAt("test-coin", T0 + 3 * DAY);
    expect([sent.length, requests.length]).toEqual([4, 4]);
    const gaps = sent.slice(1).map((at, i) => at - (sent[i] as number));
    expect(gaps[0]).toBeGreaterThanOrEqual(190);
    expect(gaps[1]).toBeGreaterThanOrEqual(190);
    expect(gaps[2]).toBeGreaterThanOrEqual(390);
  });

  it("retries 429 and 5xx answers", async () => {
    script = [429, 503];
    expect((await client().priceAt("test-coin", T0))?.toString()).toBe("10");
    expect(requests.length).toBe(3);
  });

  it("waits Retry-After seconds after a 429, and backs off from the base after anything else, logging each retry", async () => {
    const { logger: capturing, lines } = capturingLogger();
    // A clock that moves an hour per reading: no delay ever needs a real sleep.
    let clock = T0;
    const c = new MarketPriceClient({ baseUrl: server.url, apiKey: "good-key", ratePerMinute: 60, logger: capturing, now: () => (clock += HOUR) });
    script = [
      { status: 503, retryAfter: "2" },
      { status: 429, retryAfter: "2" },
      { status: 429, retryAfter: "0" },
      { status: 429, retryAfter: "Infinity" },
      500,
    ];
    // Five attempts by default, then a retryable error naming the last failure.
    await expect(c.priceAt("test-coin", T0)).rejects.toMatchObject({
      code: "price-api-unavailable",
      retryable: true,
      message: "price API failed for test-coin after 5 attempts: HTTP 500",
    });
    expect(requests.length).toBe(5);
    const warnings = lines.filter((l) => l.msg === "price request failed, retrying");
    expect(warnings.map((l) => [l.level, l.id, l.attempt, l.failure])).toEqual([
      ["warn", "test-coin", 1, "HTTP 503"],
      ["warn", "test-coin", 2, "HTTP 429"],
      ["warn", "test-coin", 3, "HTTP 429"],
      ["warn", "test-coin", 4, "HTTP 429"],
    ]);
    const delays = warnings.map((l) => l.delayMs as number);
    // Attempt 1 (a 503, whose Retry-After does not count): the default base of 500 ms. Attempt 2: Retry-After 2 s.
    expect(delays.slice(0, 2)).toEqual([500, 2_000]);
    // Attempts 3 and 4 (Retry-After 0 and a non-finite one): a backoff of at least the base and below base * 2^attempt.
    expect(delays[2]).toBeGreaterThanOrEqual(500);
    expect(delays[2]).toBeLessThan(2_000);
    expect(delays[3]).toBeGreaterThanOrEqual(500);
    expect(delays[3]).toBeLessThan(4_000);
  });

  it("waits at most a minute whatever a 429's Retry-After asks, in seconds or as an HTTP date", async () => {
    const { logger: capturing, lines } = capturingLogger();
    let clock = T0;
    const c = new MarketPriceClient({ baseUrl: server.url, apiKey: "good-key", ratePerMinute: 60, logger: capturing, now: () => (clock += HOUR) });
    script = [
      { status: 429, retryAfter: "3600" },
      { status: 429, retryAfter: new Date(Date.now() + 45_000).toUTCString() },
    ];
    expect((await c.priceAt("test-coin", T0))?.toString()).toBe("10");
    const delays = lines.filter((l) => l.msg === "price request failed, retrying").map((l) => l.delayMs as number);
    expect(delays[0]).toBe(60_000);
    // The date is read against the real clock a moment after it was written: a little under 45 s.
    expect(delays[1]).toBeGreaterThan(40_000);
    expect(delays[1]).toBeLessThanOrEqual(45_000);
  });

  it("gives up after the attempts with a retryable error and does not cache the failure", async () => {
    script = [500, 500, 500];
    const c = client();
    await expect(c.priceAt("test-coin", T0)).rejects.toMatchObject({
      code: "price-api-unavailable",
      retryable: true,
      message: "price API failed for test-coin after 3 attempts: HTTP 500",
    });
    expect(requests.length).toBe(3);
    expect((await c.priceAt("test-coin", T0))?.toString()).toBe("10");
    expect(c.requests).toBe(4);
  });

  it("retries when the API cannot be reached, naming the network failure", async () => {
    const gone = await startTestServer(() => undefined);
    await gone.close();
    const c = new MarketPriceClient({ baseUrl: gone.url, apiKey: "good-key", ratePerMinute: 60_000, retryBaseMs: 1, maxAttempts: 2, logger });
    await expect(c.priceAt("test-coin", T0)).rejects.toMatchObject({
      code: "price-api-unavailable",
      message: "price API failed for test-coin after 2 attempts: fetch failed",
    });
    expect(c.requests).toBe(2);
  });

  it("logs and throws fetch's refusal of a base URL with credentials without the password", async () => {
    // PRICE_API_URL refuses such a URL; a caller that builds the client from elsewhere still keeps the password out of logs.
    const { logger: capturing, lines } = capturingLogger();
    const baseUrl = server.url.replace("http://", "http://user:s3cretpw@");
    const c = new MarketPriceClient({ baseUrl, apiKey: "good-key", ratePerMinute: 60_000, retryBaseMs: 1, maxAttempts: 2, logger: capturing });
    const refused = `Request cannot be constructed from a URL that includes credentials: ${server.url.replace("http://", "http://***@")}/coins/test-coin/market_chart/range?${rangeQuery(T0)}`;
    await expect(c.priceAt("test-coin", T0)).rejects.toMatchObject({
      code: "price-api-unavailable",
      message: `price API failed for test-coin after 2 attempts: ${refused}`,
    });
    expect(lines.filter((l) => l.msg === "price request failed, retrying").map((l) => l.failure)).toEqual([refused]);
    expect(JSON.stringify(lines)).not.toContain("s3cretpw");
    expect(requests).toEqual([]);
  });

  it("stops on a rejected key and on an unknown id", async () => {
    await expect(client("bad-key").priceAt("test-coin", T0)).rejects.toMatchObject({
      code: "price-api-key-rejected",
      message: "PRICE_API_KEY was rejected by the price API",
    });
    await expect(client().priceAt("no-such-coin", T0)).rejects.toMatchObject({
      code: "config-invalid",
      message: "market price id no-such-coin is unknown to the price API",
    });
    expect(requests.length).toBe(2);
  });

  it("stops at once on a 403 and on other 4xx answers", async () => {
    script = [403];
    await expect(client().priceAt("test-coin", T0)).rejects.toMatchObject({ code: "price-api-key-rejected", retryable: false });
    for (const status of [400, 499]) {
      script = [status];
      await expect(client().priceAt("test-coin", T0)).rejects.toMatchObject({
        code: "price-api-failed",
        retryable: false,
        message: `price API answered ${status} for test-coin`,
      });
    }
    expect(requests.length).toBe(3);
  });

  it("refuses an answer without a prices array, without retrying", async () => {
    for (const body of ["null", "{}", '{"prices":{"0":[1,2]}}']) {
      respond = (_url, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(body);
      };
      await expect(client().priceAt("test-coin", T0)).rejects.toMatchObject({
        code: "price-api-failed",
        message: "price API answer for test-coin has no prices array",
      });
    }
    expect(requests.length).toBe(3);
  });

  it("skips malformed and non-finite samples and orders the rest by time", async () => {
    respond = (_url, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      // 1e400 parses to Infinity.
      res.end(
        `{"prices":[[${T0 + 3 * HOUR},4],"x",null,{"0":${T0 + 4 * HOUR},"1":9},["${T0}",9],[${T0 + 5 * HOUR},"9"],[${T0 + 5 * HOUR},null],[${T0 + 6 * HOUR},1e400],[${T0 + HOUR},2],[${T0 + 2 * HOUR},3]]}`,
      );
    };
    const c = client();
    expect(await c.priceAt("test-coin", T0 + HOUR - 1)).toBeUndefined();
    expect((await c.priceAt("test-coin", T0 + HOUR))?.toString()).toBe("2");
    expect((await c.priceAt("test-coin", T0 + 2 * HOUR + 1))?.toString()).toBe("3");
    expect((await c.priceAt("test-coin", T0 + 10 * HOUR))?.toString()).toBe("4");
    expect(requests.length).toBe(1);
  });
});
