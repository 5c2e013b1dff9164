// The market price client against a stand-in API: last sample at or before a time, shared fetches, retries.
import { createLogger } from "@pointwise/logger";
import { json, startTestServer, type TestServer } from "../testing/http";
import { MarketPriceClient } from "./market";

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 10);
const logger = createLogger({ service: "test", level: "silent" });

let server: TestServer;
let requests: { path: string; key: string | undefined }[] = [];
let script: number[] = [];

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    requests.push({ path: url.pathname + url.search, key: req.headers["x-cg-demo-api-key"] as string | undefined });
    const status = script.shift();
    if (status !== undefined) return json(res, status, { error: "scripted" }, { "retry-after": "0" });
    if (req.headers["x-cg-demo-api-key"] !== "good-key") return json(res, 401, { error: "bad key" });
    if (url.pathname !== "/coins/test-coin/market_chart/range") return json(res, 404, { error: "coin not found" });
    const from = Number(url.searchParams.get("from")) * 1000;
    const to = Number(url.searchParams.get("to")) * 1000;
    const prices: [number, number][] = [];
    // One sample per hour from T0 on: price = 10 + hours since T0 / 4.
    for (let t = Math.max(T0, Math.ceil(from / 3_600_000) * 3_600_000); t <= to; t += 3_600_000) prices.push([t, 10 + (t - T0) / 3_600_000 / 4]);
    json(res, 200, { prices });
  });
});
afterAll(() => server.close());
beforeEach(() => {
  requests = [];
  script = [];
});

const client = (apiKey = "good-key") => new MarketPriceClient({ baseUrl: server.url, apiKey, ratePerMinute: 60_000, retryBaseMs: 1, maxAttempts: 3, logger });

describe("market price client", () => {
  it("prices a time by the last sample at or before it, sending the key header", async () => {
    const c = client();
    expect((await c.priceAt("test-coin", T0 + 90 * 60_000))?.toString()).toBe("10.25");
    expect((await c.priceAt("test-coin", T0 + 2 * 3_600_000))?.toString()).toBe("10.5");
    expect(await c.priceAt("test-coin", T0 - 1)).toBeUndefined();
    expect(requests.every((r) => r.key === "good-key")).toBe(true);
  });

  it("fetches each asset-day once and shares concurrent lookups", async () => {
    const c = client();
    await Promise.all([c.priceAt("test-coin", T0 + 1), c.priceAt("test-coin", T0 + 5_000_000), c.priceAt("test-coin", T0 + 9_000_000)]);
    expect(requests.length).toBe(1);
    await c.priceAt("test-coin", T0 + DAY + 1);
    expect(requests.length).toBe(2);
    expect(requests[0]?.path).toBe(`/coins/test-coin/market_chart/range?vs_currency=usd&from=${(T0 - 3_600_000) / 1000}&to=${(T0 + DAY) / 1000}`);
  });

  it("retries 429 and 5xx answers", async () => {
    script = [429, 503];
    expect((await client().priceAt("test-coin", T0))?.toString()).toBe("10");
    expect(requests.length).toBe(3);
  });

  it("gives up after the attempts with a retryable error and does not cache the failure", async () => {
    script = [500, 500, 500];
    const c = client();
    await expect(c.priceAt("test-coin", T0)).rejects.toMatchObject({ code: "price-api-unavailable", retryable: true });
    expect((await c.priceAt("test-coin", T0))?.toString()).toBe("10");
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
  });
});
