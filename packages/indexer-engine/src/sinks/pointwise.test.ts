// The Pointwise sink against a stand-in ingest API: earn-event mapping, chunks, Idempotency-Keys and retries.
import { createHash } from "node:crypto";
import type { EarnMapping } from "../config/schema";
import type { SinkOutbox } from "../state/outbox";
import type { StateStore } from "../state/store";
import { capturingLogger, row, testStore } from "../testing/fixtures";
import { json, startTestServer, type TestServer } from "../testing/http";
import { toEarnEvent } from "./earn";
import { idempotencyKey, PointwiseSink } from "./pointwise";

interface Received {
  account_id: string;
  amount: string;
  reg_event_id: string;
  identity_type: string;
}

const SWAP = "11111111-1111-4111-8111-111111111111";
const HOLD = "22222222-2222-4222-8222-222222222222";
const EVENTS: Record<string, EarnMapping> = {
  swap: { regEventId: SWAP, amount: "usd", rowType: "action" },
  hold: { regEventId: HOLD, amount: "usdHours", rowType: "window" },
};

let server: TestServer;
let store: StateStore;
let recorded: Received[];
let calls: {
  key: string;
  size: number;
  body: string;
  auth: string | undefined;
  contentType: string | undefined;
  source: string | string[] | undefined;
  method: string | undefined;
  path: string | undefined;
}[];
let responses: Map<string, unknown>;
/** What the stand-in does with the n-th call: a whole-request error code, "drop" (record, then cut the connection) or nothing. */
let plan: (n: number) => string | undefined;
let rejectItem: (e: Received) => string | undefined;
/** A raw answer for the n-th call (status, body text and headers), sent instead of the stand-in's own. */
let reply: (n: number) => { status: number; text: string; headers?: Record<string, string> } | undefined;
/**
 * The stand-in's limits, checked before the Idempotency-Key as ingest does: body bytes (BATCH_BODY_LIMIT_BYTES, refused
 * with payload-too-large) and then events per batch (BATCH_MAX_EVENTS, refused with too-many-events).
 */
let limit: { events: number; bytes: number };

beforeAll(async () => {
  store = await testStore("pointwise");
  server = await startTestServer((req, res, body) => {
    const key = String(req.headers["idempotency-key"]);
    const events = (JSON.parse(body) as { events: Received[] }).events;
    const n = calls.length;
    calls.push({
      key,
      size: events.length,
      body,
      auth: req.headers.authorization,
      contentType: req.headers["content-type"],
      source: req.headers["x-pointwise-source"],
      method: req.method,
      path: req.url,
    });
    if (req.headers.authorization !== "Bearer right-key") {
      const code = req.headers.authorization === undefined || req.headers.authorization.trim() === "Bearer" ? "missing-api-key" : "invalid-api-key";
      return json(res, 200, { data: null, errors: [{ message: "bad key", extensions: { code } }] });
    }
    const raw = reply(n);
    if (raw !== undefined) {
      res.writeHead(raw.status, { "content-type": "text/plain", ...raw.headers });
      return res.end(raw.text);
    }
    if (Buffer.byteLength(body) > limit.bytes) {
      return json(res, 200, { data: null, errors: [{ message: `body is larger than ${limit.bytes} bytes`, extensions: { code: "payload-too-large" } }] });
    }
    if (events.length > limit.events) {
      const message = `events must hold at most ${limit.events} items, got ${events.length}`;
      return json(res, 200, { data: null, errors: [{ message, extensions: { code: "too-many-events" } }] });
    }
    if (responses.has(key)) return json(res, 200, responses.get(key));
    const action = plan(n);
    if (action !== undefined && action !== "drop") return json(res, 200, { data: null, errors: [{ message: action, extensions: { code: action } }] });
    const results = events.map((e) => {
      const code = rejectItem(e);
      if (code !== undefined) return { ok: false, errors: [{ message: `bad ${code}`, extensions: { code } }] };
      recorded.push(e);
      return { ok: true, event_id: `ev-${recorded.length}` };
    });
    responses.set(key, { data: { results } });
    // "drop": the service recorded the batch but the answer never arrives.
    if (action === "drop") return res.destroy();
    json(res, 200, { data: { results } });
  });
});
afterAll(async () => {
  await server.close();
  await store.clearIndexer();
  await store.close();
});
beforeEach(() => {
  recorded = [];
  calls = [];
  responses = new Map();
  plan = () => undefined;
  rejectItem = () => undefined;
  reply = () => undefined;
  limit = { events: Number.POSITIVE_INFINITY, bytes: Number.POSITIVE_INFINITY };
});

let sinkCount = 0;
interface SinkOptions {
  apiKey?: string;
  baseUrl?: string;
  batchSize?: number;
  /** null: leave the setting out, so the sink's default applies. */
  maxAttempts?: number | null;
  retryBaseMs?: number | null;
  retryMaxMs?: number | null;
  outbox?: string;
  /** An outbox to use as it is (one that fails on purpose), instead of the store's outbox named `outbox`. */
  outboxImpl?: SinkOutbox;
  onError?: () => void;
  signal?: AbortSignal;
}
function sink(options: SinkOptions = {}) {
  const { logger, lines } = capturingLogger();
  const optional = (name: string, value: number | null | undefined, fallback: number) => (value === null ? {} : { [name]: value ?? fallback });
  const s = new PointwiseSink({
    id: "1-pointwise",
    baseUrl: options.baseUrl ?? server.url,
    apiKey: options.apiKey ?? "right-key",
    batchSize: options.batchSize ?? 2,
    events: EVENTS,
    outbox: options.outboxImpl ?? store.sinkOutbox(options.outbox ?? `t${++sinkCount}`),
    scope: "idx:cfg",
    logger,
    ...optional("retryBaseMs", options.retryBaseMs, 1),
    ...optional("retryMaxMs", options.retryMaxMs, 4),
    ...optional("maxAttempts", options.maxAttempts, 5),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  return { s, lines };
}

const swap = (user: string, valueUsd: string | null) => row({ rowType: "action", activity: "swap", user, valueUsd });
const hold = (user: string, usdHours: string | null, active = true) =>
  row({ rowType: "window", activity: "hold", user, usdHours, active, durationMs: 3_600_000 });
const U1 = "0x00000000000000000000000000000000000000a1";
const U2 = "0x00000000000000000000000000000000000000a2";

describe("earn event mapping", () => {
  it("maps rows by activity and row type, skipping unpriced, zero, inactive and unmapped rows", () => {
    // Event time and the per-row key are checked on real rows in earn.test.ts.
    const timed = { occurred_at: "2023-11-14T22:13:20.000Z", idempotency_key: expect.stringMatching(/^[0-9a-f]{64}$/) };
    expect(toEarnEvent(swap(U1, "12.5"), EVENTS)).toEqual({ account_id: U1, identity_type: "EVM_ADDRESS", amount: "12.5", reg_event_id: SWAP, ...timed });
    expect(toEarnEvent(hold(U1, "3.25"), EVENTS)).toEqual({ account_id: U1, identity_type: "EVM_ADDRESS", amount: "3.25", reg_event_id: HOLD, ...timed });
    expect(toEarnEvent(swap(U1, null), EVENTS)).toBeUndefined();
    expect(toEarnEvent(swap(U1, "0"), EVENTS)).toBeUndefined();
    expect(toEarnEvent(hold(U1, "3", false), EVENTS)).toBeUndefined();
    expect(toEarnEvent(row({ activity: "claim" }), EVENTS)).toBeUndefined();
    expect(toEarnEvent(row({ rowType: "window", activity: "swap" }), EVENTS)).toBeUndefined();
    const hours = { hold: { regEventId: HOLD, amount: "amountHours", rowType: "window" } } as const;
    expect(toEarnEvent(row({ rowType: "window", activity: "hold", amount: "4", durationMs: 5_400_000, active: true }), hours)?.amount).toBe("6");
  });
});

describe("pointwise sink", () => {
  it("sends only committed events, in chunks of batchSize with deterministic Idempotency-Keys and the contract headers", async () => {
    const { s } = sink();
    await s.recover(undefined);
    const cursor = await s.write([swap(U1, "1"), hold(U2, "2"), swap(U2, null), swap(U1, "3")]);
    expect(cursor).toBe("3");
    expect(calls).toEqual([]);
    await s.committed(cursor);
    expect(recorded.map((e) => e.amount)).toEqual(["1", "2", "3"]);
    expect(calls.map((c) => [c.key, c.size])).toEqual([
      [idempotencyKey("idx:cfg", "1-pointwise", 1, 2), 2],
      [idempotencyKey("idx:cfg", "1-pointwise", 3, 3), 1],
    ]);
    expect(calls.every((c) => c.auth === "Bearer right-key" && c.contentType === "application/json" && c.source === "indexer")).toBe(true);
  });

  it("retries rate-limited, bus-unavailable, idempotency-key-in-progress, service-unavailable, starting and internal with the same Idempotency-Key", async () => {
    const transient = ["rate-limited", "bus-unavailable", "idempotency-key-in-progress", "service-unavailable", "starting", "internal"];
    plan = (n) => transient[n];
    const { s } = sink({ maxAttempts: 7 });
    await s.recover(undefined);
    await s.committed(await s.write([swap(U1, "5")]));
    expect(calls.length).toBe(7);
    expect(new Set(calls.map((c) => c.key)).size).toBe(1);
    expect(recorded.length).toBe(1);
  });

  it("stops with pointwise-api-unavailable, not earn-batch-rejected, after maxAttempts internal answers", async () => {
    // The ingest API answers internal when nothing was accepted, so each attempt resends the same chunk under the same key.
    plan = () => "internal";
    const { s } = sink({ maxAttempts: 3 });
    await s.recover(undefined);
    await expect(s.committed(await s.write([swap(U1, "5")]))).rejects.toMatchObject({
      code: "pointwise-api-unavailable",
      message: "Pointwise API failed 3 times: internal",
      retryable: true,
    });
    expect(calls.map((c) => c.key)).toEqual(Array(3).fill(idempotencyKey("idx:cfg", "1-pointwise", 1, 1)));
    expect(recorded).toEqual([]);
  });

  it("reports every failed attempt to onError (the sink-errors metric), retried ones included", async () => {
    plan = (n) => (n < 3 ? "bus-unavailable" : undefined);
    let errors = 0;
    const { s } = sink({ onError: () => errors++ });
    await s.recover(undefined);
    await s.committed(await s.write([swap(U1, "5")]));
    expect(calls.length).toBe(4);
    expect(errors).toBe(3);
    expect(recorded.length).toBe(1);
  });

  it("fails with Invalid API Key on invalid-api-key and missing-api-key", async () => {
    const { s } = sink({ apiKey: "wrong-key" });
    await s.recover(undefined);
    await expect(s.committed(await s.write([swap(U1, "5")]))).rejects.toMatchObject({
      message: "Invalid API Key",
      code: "invalid-api-key",
      details: { code: "invalid-api-key" },
    });
    const empty = sink({ apiKey: "" }).s;
    await empty.recover(undefined);
    await expect(empty.committed(await empty.write([swap(U1, "5")]))).rejects.toMatchObject({
      message: "Invalid API Key",
      details: { code: "missing-api-key" },
    });
    expect(recorded).toEqual([]);
  });

  it("logs and drops items the API rejects, keeping the rest", async () => {
    rejectItem = (e) => (e.account_id === U2 ? "validation-failed" : undefined);
    const { s, lines } = sink({ batchSize: 10 });
    await s.recover(undefined);
    await s.committed(await s.write([swap(U1, "1"), swap(U2, "2"), swap(U1, "3")]));
    expect(recorded.map((e) => e.amount)).toEqual(["1", "3"]);
    const dropped = lines.filter((l) => l.msg === "earn event dropped by the Pointwise API");
    expect(dropped.map((l) => [l.sink, l.code, l.reason, (l.event as Received).account_id, (l.event as Received).amount])).toEqual([
      ["1-pointwise", "validation-failed", "bad validation-failed", U2, "2"],
    ]);
  });

  it("after a restart, drops uncommitted events and resends an unanswered chunk with the same key so nothing counts twice", async () => {
    const outbox = "restart";
    const first = sink({ outbox, maxAttempts: 1 }).s;
    await first.recover(undefined);
    const committed = await first.write([swap(U1, "1"), swap(U1, "2")]);
    // The service records the chunk but the answer is lost; the process dies before it can retry.
    plan = (n) => (n === 0 ? "drop" : undefined);
    await expect(first.committed(committed)).rejects.toMatchObject({
      code: "pointwise-api-unavailable",
      message: "Pointwise API failed 1 times: fetch failed",
    });
    // A later batch was staged but its checkpoint never committed.
    await first.write([swap(U2, "99")]);

    const { s: second, lines } = sink({ outbox });
    await second.recover(committed);
    expect(lines.filter((l) => l.msg === "pointwise sink dropped uncommitted outbox events").map((l) => [l.sink, l.removed])).toEqual([["1-pointwise", 1]]);
    expect(calls.map((c) => c.key)).toEqual([idempotencyKey("idx:cfg", "1-pointwise", 1, 2), idempotencyKey("idx:cfg", "1-pointwise", 1, 2)]);
    expect(recorded.map((e) => e.amount)).toEqual(["1", "2"]);
    // The next committed event takes the sequence number the uncommitted one had.
    await second.committed(await second.write([swap(U2, "7")]));
    expect(recorded.map((e) => e.amount)).toEqual(["1", "2", "7"]);
  });
});

describe("pointwise sink requests and answers", () => {
  const key = (from: number, to: number) => idempotencyKey("idx:cfg", "1-pointwise", from, to);
  const failures = (lines: Record<string, unknown>[]) => lines.filter((l) => l.msg === "earn events not accepted yet, retrying with the same Idempotency-Key");

  it("derives the Idempotency-Key as the SHA-256 hex of scope|sink|from|to", () => {
    expect(key(1, 2)).toBe(createHash("sha256").update("idx:cfg|1-pointwise|1|2").digest("hex"));
    expect(key(1, 2)).toMatch(/^[0-9a-f]{64}$/);
    expect(key(1, 3)).not.toBe(key(1, 2));
  });

  it("posts to /api/rest/earn-events below a base URL with a trailing slash and logs each sent chunk", async () => {
    const { s, lines } = sink({ baseUrl: `${server.url}/`, batchSize: 2 });
    await s.recover(undefined);
    await s.committed(await s.write([swap(U1, "1"), swap(U1, "2"), swap(U2, "3")]));
    expect(calls.map((c) => [c.method, c.path])).toEqual([
      ["POST", "/api/rest/earn-events"],
      ["POST", "/api/rest/earn-events"],
    ]);
    const sent = lines.filter((l) => l.msg === "earn events sent");
    expect(sent.map((l) => [l.level, l.sink, l.from, l.to, l.events])).toEqual([
      ["info", "1-pointwise", 1, 2, 2],
      ["info", "1-pointwise", 3, 3, 1],
    ]);
  });

  it("logs nothing about dropped events when a restart finds none uncommitted", async () => {
    const outbox = "clean-restart";
    const first = sink({ outbox }).s;
    await first.recover(undefined);
    const cursor = await first.write([swap(U1, "1")]);
    await first.committed(cursor);
    const { s: second, lines } = sink({ outbox });
    await second.recover(cursor);
    expect(lines.filter((l) => l.msg === "pointwise sink dropped uncommitted outbox events")).toEqual([]);
    expect(calls.length).toBe(1);
  });

  it("sends nothing while no checkpoint has committed an event", async () => {
    const { s } = sink();
    await s.recover(undefined);
    await s.write([swap(U1, "1")]);
    await s.committed(undefined);
    expect(calls).toEqual([]);
  });

  it("closes an in-flight chunk whose events are gone without calling the API", async () => {
    const outbox = store.sinkOutbox("empty-inflight");
    await outbox.beginChunk(1, 2);
    const { s } = sink({ outbox: "empty-inflight" });
    await s.recover(undefined);
    expect(calls).toEqual([]);
    expect(await outbox.progress()).toEqual({ sent: 2, inflight: undefined });
  });

  it("stops after maxAttempts failed attempts, logging each retry with its attempt, failure and delay", async () => {
    plan = () => "rate-limited";
    let errors = 0;
    const { s, lines } = sink({ maxAttempts: 3, retryBaseMs: 2, retryMaxMs: 2, onError: () => errors++ });
    await s.recover(undefined);
    await expect(s.committed(await s.write([swap(U1, "5")]))).rejects.toMatchObject({
      code: "pointwise-api-unavailable",
      message: "Pointwise API failed 3 times: rate-limited",
    });
    expect(calls.length).toBe(3);
    expect(errors).toBe(3);
    expect(failures(lines).map((l) => [l.level, l.sink, l.attempt, l.failure, l.delayMs])).toEqual([
      ["warn", "1-pointwise", 1, "rate-limited", 2],
      ["warn", "1-pointwise", 2, "rate-limited", 2],
    ]);
  });

  it("makes 10 attempts when maxAttempts is not set", async () => {
    plan = () => "service-unavailable";
    const { s } = sink({ maxAttempts: null, retryBaseMs: 1, retryMaxMs: 1 });
    await s.recover(undefined);
    await expect(s.committed(await s.write([swap(U1, "5")]))).rejects.toMatchObject({
      message: "Pointwise API failed 10 times: service-unavailable",
    });
    expect(calls.length).toBe(10);
  });

  it("logs and throws fetch's refusal of a base URL with credentials without the password", async () => {
    // The config refuses such a baseUrl; a sink built from elsewhere still keeps the password out of logs.
    const baseUrl = server.url.replace("http://", "http://user:s3cretpw@");
    const refused = `Request cannot be constructed from a URL that includes credentials: ${server.url.replace("http://", "http://***@")}/api/rest/earn-events`;
    const { s, lines } = sink({ baseUrl, maxAttempts: 2 });
    await s.recover(undefined);
    await expect(s.committed(await s.write([swap(U1, "5")]))).rejects.toMatchObject({
      code: "pointwise-api-unavailable",
      message: `Pointwise API failed 2 times: ${refused}`,
    });
    expect(failures(lines).map((l) => [l.level, l.attempt, l.failure])).toEqual([["warn", 1, refused]]);
    expect(JSON.stringify(lines)).not.toContain("s3cretpw");
    expect(calls).toEqual([]);
  });

  it("waits 500 ms before the first retry when no retry delays are set", async () => {
    plan = (n) => (n === 0 ? "starting" : undefined);
    const { s, lines } = sink({ retryBaseMs: null, retryMaxMs: null });
    await s.recover(undefined);
    await s.committed(await s.write([swap(U1, "5")]));
    expect(failures(lines).map((l) => [l.attempt, l.failure, l.delayMs])).toEqual([[1, "starting", 500]]);
    expect(recorded.map((e) => e.amount)).toEqual(["5"]);
  });

  it("retries answers without a JSON object body, naming the HTTP status", async () => {
    reply = (n) =>
      [
        { status: 502, text: "Bad gateway" },
        { status: 200, text: "42" },
      ][n];
    const { s, lines } = sink();
    await s.recover(undefined);
    await s.committed(await s.write([swap(U1, "5")]));
    expect(failures(lines).map((l) => l.failure)).toEqual(["HTTP 502 without a JSON body", "HTTP 200 without a JSON body"]);
    expect(calls.length).toBe(3);
    expect(recorded.map((e) => e.amount)).toEqual(["5"]);
  });

  it("retries a gateway's JSON answers without an API code (429, 502-504, Cloudflare's 520-524) and stops on one with another status", async () => {
    const statuses = [429, 502, 503, 504, 520, 521, 522, 523, 524];
    reply = (n) => statuses.map((status) => ({ status, text: JSON.stringify({ message: "Too Many Requests" }) }))[n];
    const { s, lines } = sink({ maxAttempts: statuses.length + 1 });
    await s.recover(undefined);
    await s.committed(await s.write([swap(U1, "5")]));
    expect(failures(lines).map((l) => l.failure)).toEqual(statuses.map((status) => `HTTP ${status}, not an answer of the ingest API`));
    expect(recorded.map((e) => e.amount)).toEqual(["5"]);
    reply = (n) => (n === statuses.length + 1 ? { status: 403, text: JSON.stringify({ message: "Forbidden" }) } : undefined);
    await expect(s.committed(await s.write([swap(U1, "6")]))).rejects.toMatchObject({ code: "earn-batch-rejected" });
  });

  it("waits as long as an answer's Retry-After asks when that is longer than its backoff, the API's or a gateway's", async () => {
    const rateLimited = JSON.stringify({ data: null, errors: [{ message: "slow down", extensions: { code: "rate-limited" } }] });
    reply = (n) =>
      [
        { status: 200, text: rateLimited, headers: { "retry-after": "1" } },
        { status: 503, text: "<html>Service Unavailable</html>", headers: { "retry-after": "1" } },
        { status: 200, text: rateLimited, headers: { "retry-after": "0" } },
      ][n];
    const { s, lines } = sink({ retryBaseMs: 2, retryMaxMs: 2 });
    await s.recover(undefined);
    const started = Date.now();
    await s.committed(await s.write([swap(U1, "5")]));
    expect(failures(lines).map((l) => [l.failure, l.delayMs])).toEqual([
      ["rate-limited", 1000],
      ["HTTP 503 without a JSON body", 1000],
      ["rate-limited", 2],
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(recorded.map((e) => e.amount)).toEqual(["5"]);
  });

  it("retries an answer whose number of results differs from the events sent", async () => {
    const { s, lines } = sink();
    await s.recover(undefined);
    responses.set(key(1, 2), { data: { results: [{ ok: true }] } });
    reply = (n) => (n === 1 ? { status: 200, text: JSON.stringify({ data: {} }) } : undefined);
    await expect(s.committed(await s.write([swap(U1, "1"), swap(U1, "2")]))).rejects.toMatchObject({
      message: "Pointwise API failed 5 times: expected 2 results, got 1",
    });
    expect(failures(lines).map((l) => l.failure)).toEqual([
      "expected 2 results, got 1",
      "expected 2 results, got 0",
      "expected 2 results, got 1",
      "expected 2 results, got 1",
    ]);
  });

  it("retries a transient error code even when the answer also carries data", async () => {
    const { s } = sink({ maxAttempts: 1 });
    await s.recover(undefined);
    responses.set(key(1, 1), { data: { results: [{ ok: true }] }, errors: [{ message: "slow down", extensions: { code: "rate-limited" } }] });
    await expect(s.committed(await s.write([swap(U1, "1")]))).rejects.toMatchObject({
      code: "pointwise-api-unavailable",
      message: "Pointwise API failed 1 times: rate-limited",
    });
  });

  it.each([
    [
      "an error code that cannot succeed",
      { data: null, errors: [{ message: "amount must be positive", extensions: { code: "validation-failed" } }] },
      "validation-failed",
      "Pointwise API rejected the batch: validation-failed: amount must be positive",
    ],
    ["an error without a code", { data: null, errors: [{ message: "boom" }] }, "unknown", "Pointwise API rejected the batch: unknown: boom"],
    ["an answer with neither data nor errors", {}, "unknown", "Pointwise API rejected the batch: unknown: no message"],
    ["null data without errors", { data: null }, "unknown", "Pointwise API rejected the batch: unknown: no message"],
  ])("fails at once, without retrying or counting an error, on %s", async (_name, answer, code, message) => {
    let errors = 0;
    const { s } = sink({ onError: () => errors++ });
    await s.recover(undefined);
    responses.set(key(1, 1), answer);
    await expect(s.committed(await s.write([swap(U1, "1")]))).rejects.toMatchObject({ code: "earn-batch-rejected", message, details: { code } });
    expect(calls.length).toBe(1);
    expect(errors).toBe(0);
  });

  it("logs events dropped without an error code or reason, and accepts the chunk", async () => {
    const { s, lines } = sink({ batchSize: 3 });
    await s.recover(undefined);
    responses.set(key(1, 3), { data: { results: [{ ok: false }, { ok: false, errors: [{ message: "too small" }] }, { ok: true }] } });
    await s.committed(await s.write([swap(U1, "1"), swap(U1, "2"), swap(U2, "3")]));
    const dropped = lines.filter((l) => l.msg === "earn event dropped by the Pointwise API");
    expect(dropped.map((l) => [l.level, l.code, l.reason, (l.event as Received).amount])).toEqual([
      ["warn", undefined, undefined, "1"],
      ["warn", undefined, "too small", "2"],
    ]);
    expect(lines.filter((l) => l.msg === "earn events sent").map((l) => [l.from, l.to])).toEqual([[1, 3]]);
  });

  it("stops as interrupted, without further attempts or a retry warning, once its signal is aborted after a failed attempt", async () => {
    plan = () => "rate-limited";
    const stop = new AbortController();
    const { s, lines } = sink({ signal: stop.signal, onError: () => stop.abort() });
    await s.recover(undefined);
    await expect(s.committed(await s.write([swap(U1, "5")]))).rejects.toMatchObject({
      code: "pointwise-api-interrupted",
      message: "stopped while sending earn events; the batch is resent on restart",
    });
    expect(calls.length).toBe(1);
    expect(lines.filter((l) => l.msg === "earn events not accepted yet, retrying with the same Idempotency-Key")).toEqual([]);
  });

  it("ends a retry wait early when its signal is aborted, stopping as interrupted without another attempt", async () => {
    const stop = new AbortController();
    // The abort comes while the sink waits a minute before its retry; a wait that ignored it would outlast the test.
    plan = () => {
      setTimeout(() => stop.abort(), 20);
      return "rate-limited";
    };
    const { s } = sink({ signal: stop.signal, retryBaseMs: 60_000, retryMaxMs: 60_000 });
    await s.recover(undefined);
    await expect(s.committed(await s.write([swap(U1, "5")]))).rejects.toMatchObject({
      code: "pointwise-api-interrupted",
      message: "stopped while sending earn events; the batch is resent on restart",
    });
    // No attempt after the wait was cut short.
    expect(calls.map((c) => c.key)).toEqual([key(1, 1)]);
  });
});

describe("pointwise sink and a chunk too large for the ingest API", () => {
  const key = (from: number, to: number) => idempotencyKey("idx:cfg", "1-pointwise", from, to);
  const splits = (lines: Record<string, unknown>[]) =>
    lines
      .filter((l) => l.msg === "earn events chunk too large for the Pointwise API, sending smaller chunks")
      .map((l) => [l.level, l.sink, l.from, l.to, l.events, l.code, l.chunkSize]);
  const amounts = (n: number, first = 1) => Array.from({ length: n }, (_, i) => String(first + i));
  /** Every Idempotency-Key the stand-in saw came with one body only (ingest refuses a key reused with another body). */
  const oneBodyPerKey = () => {
    const bodies = new Map<string, Set<string>>();
    for (const c of calls) bodies.set(c.key, (bodies.get(c.key) ?? new Set()).add(c.body));
    return [...bodies.values()].every((b) => b.size === 1);
  };

  it("sends a chunk refused with too-many-events in halves under the keys of their own bounds, and later chunks at the smaller size", async () => {
    limit = { events: 2, bytes: Number.POSITIVE_INFINITY };
    let errors = 0;
    const { s, lines } = sink({ batchSize: 5, onError: () => errors++ });
    await s.recover(undefined);
    await s.committed(await s.write(amounts(5).map((a) => swap(U1, a))));
    // 5 events are refused, then 3 (half of 5, rounded up), then 2 pass: [1,2], [3,4], [5,5].
    expect(calls.map((c) => [c.key, c.size])).toEqual([
      [key(1, 5), 5],
      [key(1, 3), 3],
      [key(1, 2), 2],
      [key(3, 4), 2],
      [key(5, 5), 1],
    ]);
    expect(recorded.map((e) => e.amount)).toEqual(amounts(5));
    expect(splits(lines)).toEqual([
      ["warn", "1-pointwise", 1, 5, 5, "too-many-events", 3],
      ["warn", "1-pointwise", 1, 3, 3, "too-many-events", 2],
    ]);
    // Each refusal was a failed attempt.
    expect(errors).toBe(2);

    // The next batch is sized right away: no refusal, no further split.
    await s.committed(await s.write(amounts(4, 6).map((a) => swap(U2, a))));
    expect(calls.slice(5).map((c) => [c.key, c.size])).toEqual([
      [key(6, 7), 2],
      [key(8, 9), 2],
    ]);
    expect(recorded.map((e) => e.amount)).toEqual(amounts(9));
    expect(splits(lines).length).toBe(2);
    expect(oneBodyPerKey()).toBe(true);
  });

  it("splits a chunk refused with payload-too-large the same way", async () => {
    // An event here is 282 bytes of JSON (one-digit amount), a body 13 bytes and a comma between events more:
    // 4 events are 13 + 4 x 282 + 3 = 1144 bytes, 2 are 13 + 2 x 282 + 1 = 578.
    limit = { events: Number.POSITIVE_INFINITY, bytes: 600 };
    const { s, lines } = sink({ batchSize: 4 });
    await s.recover(undefined);
    await s.committed(await s.write(amounts(4).map((a) => swap(U1, a))));
    expect(calls.map((c) => [c.key, c.size, Buffer.byteLength(c.body)])).toEqual([
      [key(1, 4), 4, 1144],
      [key(1, 2), 2, 578],
      [key(3, 4), 2, 578],
    ]);
    expect(recorded.map((e) => e.amount)).toEqual(amounts(4));
    expect(splits(lines)).toEqual([["warn", "1-pointwise", 1, 4, 4, "payload-too-large", 2]]);
  });

  it("splits a chunk a proxy in front of the API refuses with 413 and a page of its own, as payload-too-large", async () => {
    // nginx's client_max_body_size answers 413 with HTML: the first request (4 events) is refused so, the halves pass.
    reply = (n) => (n === 0 ? { status: 413, text: "<html><body><h1>413 Request Entity Too Large</h1></body></html>" } : undefined);
    const { s, lines } = sink({ batchSize: 4 });
    await s.recover(undefined);
    await s.committed(await s.write(amounts(4).map((a) => swap(U1, a))));
    expect(calls.map((c) => [c.key, c.size])).toEqual([
      [key(1, 4), 4],
      [key(1, 2), 2],
      [key(3, 4), 2],
    ]);
    expect(recorded.map((e) => e.amount)).toEqual(amounts(4));
    expect(splits(lines)).toEqual([["warn", "1-pointwise", 1, 4, 4, "payload-too-large", 2]]);
  });

  it("stops with earn-event-too-large, after one request per size, when even a single event is refused as too large", async () => {
    // A body of one event is 13 + 282 = 295 bytes, over this limit (BATCH_MAX_EVENTS is at least 1, so only the
    // body limit can refuse a single event).
    limit = { events: Number.POSITIVE_INFINITY, bytes: 200 };
    const { s } = sink({ batchSize: 2 });
    await s.recover(undefined);
    await expect(s.committed(await s.write([swap(U1, "1"), swap(U1, "2")]))).rejects.toMatchObject({
      code: "earn-event-too-large",
      message:
        "Pointwise API refused a single earn event (sequence 1) as too large (payload-too-large); check the ingest API's BATCH_MAX_EVENTS and BATCH_BODY_LIMIT_BYTES",
      details: { code: "payload-too-large", from: 1, to: 1 },
      retryable: false,
    });
    expect(calls.map((c) => [c.key, c.size, Buffer.byteLength(c.body)])).toEqual([
      [key(1, 2), 2, 578],
      [key(1, 1), 1, 295],
    ]);
    expect(recorded).toEqual([]);
  });

  it("after a restart in the middle of a split chunk, resends the smaller chunk in flight under its key and counts every event once", async () => {
    limit = { events: 2, bytes: Number.POSITIVE_INFINITY };
    const real = store.sinkOutbox("split-restart");
    // The process dies once the first smaller chunk was accepted, before it is marked sent.
    const dying: SinkOutbox = {
      ...real,
      finishChunk: () => Promise.reject(new Error("killed")),
    };
    const first = sink({ outboxImpl: dying, batchSize: 4 }).s;
    await first.recover(undefined);
    const cursor = await first.write(amounts(6).map((a) => swap(U1, a)));
    await expect(first.committed(cursor)).rejects.toThrow("killed");
    expect(calls.map((c) => c.key)).toEqual([key(1, 4), key(1, 2)]);
    expect(await real.progress()).toEqual({ sent: 0, inflight: { from: 1, to: 2 } });

    const second = sink({ outbox: "split-restart", batchSize: 4 }).s;
    await second.recover(cursor);
    // [1,2] again under its key (the stand-in answers it from its record); the new run learns the limit again on [3,6].
    expect(calls.slice(2).map((c) => [c.key, c.size])).toEqual([
      [key(1, 2), 2],
      [key(3, 6), 4],
      [key(3, 4), 2],
      [key(5, 6), 2],
    ]);
    expect(recorded.map((e) => e.amount)).toEqual(amounts(6));
    expect(oneBodyPerKey()).toBe(true);
    expect(await real.progress()).toEqual({ sent: 6, inflight: undefined });
  });
});
