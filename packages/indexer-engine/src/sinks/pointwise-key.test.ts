// The key check's handling of every answer: fit and mismatch, transient failures retried, a wrong baseUrl named.
// The check against the real ingest API is apps/indexer-service/test/key-check.test.ts.
import { createServer } from "node:net";
import type { EarnMapping } from "../config/schema";
import { capturingLogger } from "../testing/fixtures";
import { json, startTestServer, type TestServer } from "../testing/http";
import { type ApiKeyInfo, checkPointwiseKey, keyMismatch } from "./pointwise-key";

const SWAP = "11111111-1111-4111-8111-111111111111";
const HOLD = "22222222-2222-4222-8222-222222222222";
const EVENTS: Record<string, EarnMapping> = {
  swap: { regEventId: SWAP, amount: "count", rowType: "action" },
  hold: { regEventId: HOLD.toUpperCase(), amount: "usdHours", rowType: "window" },
};
const info = (overrides: Partial<ApiKeyInfo> = {}): ApiKeyInfo => ({ campaign_id: "camp-0001", backfill: false, event_types: [SWAP, HOLD], ...overrides });

describe("keyMismatch", () => {
  it("accepts a key whose campaign has every mapped event type (case-insensitively), with or without the same campaignId", () => {
    expect(keyMismatch(info(), EVENTS, undefined)).toBeUndefined();
    expect(keyMismatch(info(), EVENTS, "camp-0001")).toBeUndefined();
  });

  it("names each mapping whose event type the key's campaign lacks", () => {
    expect(keyMismatch(info({ event_types: [SWAP] }), EVENTS, undefined)).toBe(
      `campaign camp-0001 of this key has no active event type for events.hold.regEventId ${HOLD.toUpperCase()}; use the key of the campaign that registered them`,
    );
  });

  it("names every mapping the campaign lacks, in config order", () => {
    expect(keyMismatch(info({ event_types: [] }), EVENTS, undefined)).toBe(
      `campaign camp-0001 of this key has no active event type for events.swap.regEventId ${SWAP}, events.hold.regEventId ${HOLD.toUpperCase()}; use the key of the campaign that registered them`,
    );
  });

  it("matches event type ids whatever their case on either side", () => {
    const lower = "abcdef01-2345-4678-9abc-def012345678";
    const upper = lower.toUpperCase();
    expect(keyMismatch(info({ event_types: [upper] }), { bridge: { regEventId: lower, amount: "count", rowType: "action" } }, undefined)).toBeUndefined();
    expect(keyMismatch(info({ event_types: [lower] }), { bridge: { regEventId: upper, amount: "count", rowType: "action" } }, undefined)).toBeUndefined();
  });

  it("names the key's campaign when it is not the configured one", () => {
    expect(keyMismatch(info(), EVENTS, "othr-0002")).toBe(
      "the key belongs to campaign camp-0001, not othr-0002 (sinkConfig campaignId); use the campaign's key",
    );
  });
});

describe("checkPointwiseKey against a stand-in", () => {
  let server: TestServer;
  let answers: ((n: number) => { status: number; body: unknown; headers?: Record<string, string> }) | undefined;
  /** Called with each request's number before it is answered. */
  let onRequest: ((n: number) => void) | undefined;
  let calls: { auth: string | undefined; url: string | undefined; method: string | undefined }[];
  beforeAll(async () => {
    server = await startTestServer((req, res) => {
      const n = calls.length;
      calls.push({ auth: req.headers.authorization, url: req.url, method: req.method });
      onRequest?.(n);
      const answer = answers?.(n) ?? { status: 404, body: { error: { code: "not-found" } } };
      if (typeof answer.body === "string") {
        res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers });
        res.end(answer.body);
        return;
      }
      json(res, answer.status, answer.body, answer.headers);
    });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    calls = [];
    answers = undefined;
    onRequest = undefined;
  });
  afterEach(() => jest.restoreAllMocks());

  const check = (baseUrl = server.url, maxAttempts = 4) =>
    checkPointwiseKey({ baseUrl, apiKey: "pw_key", events: EVENTS, logger: capturingLogger().logger, retryBaseMs: 1, maxAttempts });
  const error = (code: string) => ({ status: 200, body: { data: null, errors: [{ message: code, extensions: { code } }] } });

  it("asks GET {baseUrl}/api/rest/api-key with the Bearer key and returns the answer", async () => {
    answers = () => ({ status: 200, body: { data: info({ backfill: true }) } });
    await expect(check(`${server.url}/`)).resolves.toEqual(info({ backfill: true }));
    expect(calls).toEqual([{ auth: "Bearer pw_key", url: "/api/rest/api-key", method: "GET" }]);
  });

  it.each(["missing-api-key", "invalid-api-key", "campaign-archived"])("stops with Invalid API Key on %s, at once", async (code) => {
    answers = () => error(code);
    await expect(check()).rejects.toMatchObject({ message: "Invalid API Key", code: "invalid-api-key", details: { code } });
    expect(calls.length).toBe(1);
  });

  it("stops with Invalid API Key (wrong-campaign) when the campaign lacks a mapped event type", async () => {
    answers = () => ({ status: 200, body: { data: info({ event_types: [HOLD] }) } });
    await expect(check()).rejects.toMatchObject({ message: "Invalid API Key", details: { code: "wrong-campaign", campaign_id: "camp-0001" } });
  });

  it("retries starting, rate-limited, service-unavailable and internal, then goes on", async () => {
    const transient = ["starting", "rate-limited", "service-unavailable"];
    answers = (n) => (n < transient.length ? error(transient[n] as string) : { status: 200, body: { data: info() } });
    await expect(check()).resolves.toEqual(info());
    expect(calls.length).toBe(4);
    calls = [];
    answers = (n) => (n === 0 ? error("internal") : { status: 200, body: { data: info() } });
    await expect(check()).resolves.toEqual(info());
    expect(calls.length).toBe(2);
  });

  it("gives up with pointwise-api-unavailable after maxAttempts transient answers", async () => {
    answers = () => error("service-unavailable");
    await expect(check(server.url, 3)).rejects.toMatchObject({
      code: "pointwise-api-unavailable",
      message: "Pointwise API key check failed 3 times: service-unavailable",
    });
    expect(calls.length).toBe(3);
  });

  it("retries a gateway's 502, 503, 429 and Cloudflare's 520-524 pages in front of the API, then goes on", async () => {
    const pages = [
      { status: 502, body: "<html><body><h1>502 Bad Gateway</h1></body></html>" },
      { status: 503, body: "Service Unavailable" },
      { status: 429, body: { message: "slow down" } },
      ...[520, 521, 522, 523, 524].map((status) => ({ status, body: `<html><body>Error ${status}</body></html>` })),
    ];
    answers = (n) => pages[n] ?? { status: 200, body: { data: info() } };
    const { logger, lines } = capturingLogger();
    await expect(checkPointwiseKey({ baseUrl: server.url, apiKey: "pw_key", events: EVENTS, logger, retryBaseMs: 1, maxAttempts: 9 })).resolves.toEqual(info());
    expect(calls.length).toBe(9);
    expect(lines.filter((l) => l.level === "warn").map((l) => l.failure)).toEqual(
      [502, 503, 429, 520, 521, 522, 523, 524].map((status) => `HTTP ${status}, not an answer of the ingest API`),
    );
  });

  it("waits as long as an answer's Retry-After asks when that is longer than its backoff, the API's or a gateway's", async () => {
    const limited = { ...error("rate-limited"), headers: { "retry-after": "1" } };
    const pages = [
      limited,
      { status: 503, body: "Service Unavailable", headers: { "retry-after": "1" } },
      { ...error("starting"), headers: { "retry-after": "0" } },
    ];
    answers = (n) => pages[n] ?? { status: 200, body: { data: info() } };
    // Backoffs without jitter: the base, 1 ms, every time.
    jest.spyOn(Math, "random").mockReturnValue(0);
    const { logger, lines } = capturingLogger();
    const started = Date.now();
    await expect(checkPointwiseKey({ baseUrl: server.url, apiKey: "pw_key", events: EVENTS, logger, retryBaseMs: 1, maxAttempts: 4 })).resolves.toEqual(info());
    expect(lines.filter((l) => l.level === "warn").map((l) => [l.failure, l.delayMs])).toEqual([
      ["rate-limited", 1000],
      ["HTTP 503, not an answer of the ingest API", 1000],
      ["starting", 1],
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
  });

  it("gives up with pointwise-api-unavailable, naming the status, after maxAttempts gateway timeouts", async () => {
    answers = () => ({ status: 504, body: "<html><body><h1>504 Gateway Time-out</h1></body></html>" });
    await expect(check(server.url, 3)).rejects.toMatchObject({
      code: "pointwise-api-unavailable",
      message: "Pointwise API key check failed 3 times: HTTP 504, not an answer of the ingest API",
    });
    expect(calls.length).toBe(3);
  });

  it.each([
    ["404 page", { status: 404, body: "<html>Not Found</html>" }],
    ["401 without the API's code", { status: 401, body: { error: "unauthorized" } }],
    ["500 page", { status: 500, body: "<html>Internal Server Error</html>" }],
    ["503 carrying an API code that is not transient", { status: 503, body: error("validation-failed").body }],
  ])("stops with pointwise-api-key-check-failed after one request on a %s", async (_name, answer) => {
    answers = () => answer;
    await expect(check()).rejects.toMatchObject({ code: "pointwise-api-key-check-failed", details: { status: answer.status } });
    expect(calls.length).toBe(1);
  });

  it("gives up with pointwise-api-unavailable when nothing listens", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port: p } = probe.address() as { port: number };
        probe.close(() => resolve(p));
      });
    });
    await expect(check(`http://127.0.0.1:${port}`, 2)).rejects.toMatchObject({ code: "pointwise-api-unavailable" });
  });

  it("names the URL with pointwise-api-key-check-failed for an endpoint that is not the ingest API (HTTP 404, another shape)", async () => {
    await expect(check()).rejects.toMatchObject({
      code: "pointwise-api-key-check-failed",
      message: `${server.url}/api/rest/api-key did not answer the API key check (HTTP 404): check the pointwise sink's baseUrl`,
    });
    answers = () => ({ status: 200, body: { data: { campaign_id: "camp-0001" } } });
    await expect(check()).rejects.toMatchObject({ code: "pointwise-api-key-check-failed", details: { status: 200 } });
    answers = () => error("validation-failed");
    await expect(check()).rejects.toMatchObject({ code: "pointwise-api-key-check-failed", details: { code: "validation-failed" } });
  });

  it("logs the campaign, backfill and number of event types of a key that fits", async () => {
    answers = () => ({ status: 200, body: { data: info({ backfill: true }) } });
    const { logger, lines } = capturingLogger();
    await checkPointwiseKey({ baseUrl: server.url, apiKey: "pw_key", events: EVENTS, logger, retryBaseMs: 1, maxAttempts: 1 });
    expect(lines.map((l) => [l.level, l.msg, l.campaign_id, l.backfill, l.event_types])).toEqual([["info", "Pointwise API key checked", "camp-0001", true, 2]]);
  });

  it("takes the key info even when the answer carries an empty or code-less error list", async () => {
    answers = (n) => ({ status: 200, body: { data: info(), errors: n === 0 ? [] : [{ message: "note" }] } });
    await expect(check()).resolves.toEqual(info());
    await expect(check()).resolves.toEqual(info());
    expect(calls.length).toBe(2);
  });

  it("gives the API's reason with Invalid API Key, and the mismatch as the reason for a wrong campaign", async () => {
    answers = () => ({ status: 200, body: { data: null, errors: [{ message: "key revoked", extensions: { code: "invalid-api-key" } }] } });
    await expect(check()).rejects.toMatchObject({ details: { code: "invalid-api-key", reason: "key revoked" } });
    answers = () => ({ status: 200, body: { data: info({ event_types: [SWAP] }) } });
    await expect(check()).rejects.toMatchObject({
      details: {
        code: "wrong-campaign",
        campaign_id: "camp-0001",
        reason: `campaign camp-0001 of this key has no active event type for events.hold.regEventId ${HOLD.toUpperCase()}; use the key of the campaign that registered them`,
      },
    });
  });

  it("stops with pointwise-api-key-check-failed at once for answers that are not key info", async () => {
    const notInfo: unknown[] = [
      { data: null },
      { data: "camp-0001" },
      { data: { campaign_id: 1, backfill: false, event_types: [] } },
      { data: { campaign_id: "camp-0001", backfill: "no", event_types: [] } },
      { data: { campaign_id: "camp-0001", backfill: false, event_types: "all" } },
      { data: { campaign_id: "camp-0001", backfill: false, event_types: [SWAP, 7] } },
    ];
    for (const body of notInfo) {
      calls = [];
      answers = () => ({ status: 200, body });
      await expect(check()).rejects.toMatchObject({ code: "pointwise-api-key-check-failed" });
      expect(calls.length).toBe(1);
    }
  });

  it("names the status, and the code when there is one, of an answer that is not the ingest API's", async () => {
    answers = () => ({ status: 500, body: "<html>server error</html>" });
    const withoutCode = await check().catch((err: unknown) => err);
    expect(withoutCode).toMatchObject({
      code: "pointwise-api-key-check-failed",
      message: `${server.url}/api/rest/api-key did not answer the API key check (HTTP 500): check the pointwise sink's baseUrl`,
    });
    expect((withoutCode as { details: unknown }).details).toStrictEqual({ status: 500 });
    answers = () => error("validation-failed");
    await expect(check()).rejects.toMatchObject({
      message: `${server.url}/api/rest/api-key did not answer the API key check (HTTP 200, validation-failed): check the pointwise sink's baseUrl`,
    });
  });

  it("names the network failure when nothing answers", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port: p } = probe.address() as { port: number };
        probe.close(() => resolve(p));
      });
    });
    await expect(check(`http://127.0.0.1:${port}`, 2)).rejects.toMatchObject({ message: "Pointwise API key check failed 2 times: fetch failed" });
  });

  it("logs and throws fetch's refusal of a URL with credentials without the password", async () => {
    // The config refuses such a baseUrl; a caller that builds the check from elsewhere still keeps the password out of logs.
    const { logger, lines } = capturingLogger();
    const baseUrl = server.url.replace("http://", "http://user:s3cretpw@");
    const refused = `Request cannot be constructed from a URL that includes credentials: ${server.url.replace("http://", "http://***@")}/api/rest/api-key`;
    const err = await checkPointwiseKey({ baseUrl, apiKey: "pw_key", events: EVENTS, logger, retryBaseMs: 1, maxAttempts: 2 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "pointwise-api-unavailable", message: `Pointwise API key check failed 2 times: ${refused}` });
    expect(lines.filter((l) => l.level === "warn").map((l) => l.failure)).toEqual([refused]);
    expect(JSON.stringify(lines)).not.toContain("s3cretpw");
    expect(calls).toEqual([]);
  });

  it("backs off from retryBaseMs, doubling up to 16 times it, with jitter", async () => {
    jest.spyOn(Math, "random").mockReturnValue(0.999);
    answers = () => error("rate-limited");
    const { logger, lines } = capturingLogger();
    await expect(checkPointwiseKey({ baseUrl: server.url, apiKey: "pw_key", events: EVENTS, logger, retryBaseMs: 1, maxAttempts: 7 })).rejects.toMatchObject({
      code: "pointwise-api-unavailable",
    });
    // 1 + floor(0.999 * (min(16, 2^attempt) - 1)) for attempts 0 to 5.
    expect(lines.filter((l) => l.level === "warn").map((l) => [l.msg, l.attempt, l.failure, l.delayMs])).toEqual(
      [1, 1, 3, 7, 15, 15].map((delay, i) => ["Pointwise API key check not answered yet, retrying", i + 1, "rate-limited", delay]),
    );
  });

  it("tries 6 times by default, waiting 500 ms at the least", async () => {
    jest.spyOn(Math, "random").mockReturnValue(0);
    answers = () => error("starting");
    const { logger, lines } = capturingLogger();
    await expect(checkPointwiseKey({ baseUrl: server.url, apiKey: "pw_key", events: EVENTS, logger })).rejects.toMatchObject({
      message: "Pointwise API key check failed 6 times: starting",
    });
    expect(lines.filter((l) => l.level === "warn").map((l) => l.delayMs)).toEqual([500, 500, 500, 500, 500]);
  });

  it("stops with pointwise-api-interrupted once its signal is aborted, cutting a wait short", async () => {
    answers = () => error("service-unavailable");
    const aborted = new AbortController();
    aborted.abort();
    const { logger } = capturingLogger();
    const options = { baseUrl: server.url, apiKey: "pw_key", events: EVENTS, logger, retryBaseMs: 1 };
    await expect(checkPointwiseKey({ ...options, signal: aborted.signal })).rejects.toMatchObject({
      code: "pointwise-api-interrupted",
      message: "stopped while checking the Pointwise API key",
    });
    expect(calls.length).toBe(1);
    // Aborted during a one-minute wait: the wait and the check end at once, without another request.
    const during = new AbortController();
    onRequest = (n) => {
      if (n === 0) setTimeout(() => during.abort(), 50);
    };
    calls = [];
    await expect(checkPointwiseKey({ ...options, retryBaseMs: 60_000, signal: during.signal })).rejects.toMatchObject({ code: "pointwise-api-interrupted" });
    expect(calls.length).toBe(1);
  });
});
