// The Pointwise sink against a stand-in ingest API: earn-event mapping, chunks, Idempotency-Keys and retries.
import type { EarnMapping } from "../config/schema";
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
let calls: { key: string; size: number; auth: string | undefined; contentType: string | undefined; source: string | string[] | undefined }[];
let responses: Map<string, unknown>;
/** What the stand-in does with the n-th call: a whole-request error code, "drop" (record, then cut the connection) or nothing. */
let plan: (n: number) => string | undefined;
let rejectItem: (e: Received) => string | undefined;

beforeAll(async () => {
  store = await testStore("pointwise");
  server = await startTestServer((req, res, body) => {
    const key = String(req.headers["idempotency-key"]);
    const events = (JSON.parse(body) as { events: Received[] }).events;
    const n = calls.length;
    calls.push({
      key,
      size: events.length,
      auth: req.headers.authorization,
      contentType: req.headers["content-type"],
      source: req.headers["x-pointwise-source"],
    });
    if (req.headers.authorization !== "Bearer right-key") {
      const code = req.headers.authorization === undefined || req.headers.authorization.trim() === "Bearer" ? "missing-api-key" : "invalid-api-key";
      return json(res, 200, { data: null, errors: [{ message: "bad key", extensions: { code } }] });
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
});

let sinkCount = 0;
function sink(options: { apiKey?: string; batchSize?: number; maxAttempts?: number; outbox?: string; onError?: () => void } = {}) {
  const { logger, lines } = capturingLogger();
  const s = new PointwiseSink({
    id: "1-pointwise",
    baseUrl: server.url,
    apiKey: options.apiKey ?? "right-key",
    batchSize: options.batchSize ?? 2,
    events: EVENTS,
    outbox: store.sinkOutbox(options.outbox ?? `t${++sinkCount}`),
    scope: "idx:cfg",
    logger,
    retryBaseMs: 1,
    retryMaxMs: 4,
    maxAttempts: options.maxAttempts ?? 5,
    ...(options.onError === undefined ? {} : { onError: options.onError }),
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

  it("retries rate-limited, bus-unavailable, idempotency-key-in-progress and service-unavailable with the same Idempotency-Key", async () => {
    const transient = ["rate-limited", "bus-unavailable", "idempotency-key-in-progress", "service-unavailable"];
    plan = (n) => transient[n];
    const { s } = sink();
    await s.recover(undefined);
    await s.committed(await s.write([swap(U1, "5")]));
    expect(calls.length).toBe(5);
    expect(new Set(calls.map((c) => c.key)).size).toBe(1);
    expect(recorded.length).toBe(1);
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
    expect(dropped.map((l) => [l.code, (l.event as Received).account_id])).toEqual([["validation-failed", U2]]);
  });

  it("after a restart, drops uncommitted events and resends an unanswered chunk with the same key so nothing counts twice", async () => {
    const outbox = "restart";
    const first = sink({ outbox, maxAttempts: 1 }).s;
    await first.recover(undefined);
    const committed = await first.write([swap(U1, "1"), swap(U1, "2")]);
    // The service records the chunk but the answer is lost; the process dies before it can retry.
    plan = (n) => (n === 0 ? "drop" : undefined);
    await expect(first.committed(committed)).rejects.toMatchObject({ code: "pointwise-api-unavailable" });
    // A later batch was staged but its checkpoint never committed.
    await first.write([swap(U2, "99")]);

    const second = sink({ outbox }).s;
    await second.recover(committed);
    expect(calls.map((c) => c.key)).toEqual([idempotencyKey("idx:cfg", "1-pointwise", 1, 2), idempotencyKey("idx:cfg", "1-pointwise", 1, 2)]);
    expect(recorded.map((e) => e.amount)).toEqual(["1", "2"]);
    // The next committed event takes the sequence number the uncommitted one had.
    await second.committed(await second.write([swap(U2, "7")]));
    expect(recorded.map((e) => e.amount)).toEqual(["1", "2", "7"]);
  });
});
