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

  it("names the key's campaign when it is not the configured one", () => {
    expect(keyMismatch(info(), EVENTS, "othr-0002")).toBe(
      "the key belongs to campaign camp-0001, not othr-0002 (sinkConfig campaignId); use the campaign's key",
    );
  });
});

describe("checkPointwiseKey against a stand-in", () => {
  let server: TestServer;
  let answers: ((n: number) => { status: number; body: unknown }) | undefined;
  let calls: { auth: string | undefined; url: string | undefined; method: string | undefined }[];
  beforeAll(async () => {
    server = await startTestServer((req, res) => {
      const n = calls.length;
      calls.push({ auth: req.headers.authorization, url: req.url, method: req.method });
      const answer = answers?.(n) ?? { status: 404, body: { error: { code: "not-found" } } };
      json(res, answer.status, answer.body);
    });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    calls = [];
    answers = undefined;
  });

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
    answers = (n) => (n === 0 ? error("internal") : { status: 200, body: { data: info() } });
    await expect(check()).resolves.toEqual(info());
  });

  it("gives up with pointwise-api-unavailable after maxAttempts transient answers", async () => {
    answers = () => error("service-unavailable");
    await expect(check(server.url, 3)).rejects.toMatchObject({
      code: "pointwise-api-unavailable",
      message: "Pointwise API key check failed 3 times: service-unavailable",
    });
    expect(calls.length).toBe(3);
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
});
