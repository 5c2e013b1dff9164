// createSinks: sink ids and kinds from the config, the stdout and csv settings, and the pointwise sink's key, scope, pacing and signals.
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { ConfigError } from "@pointwise/errors";
import type { SinkConfig } from "../config/schema";
import type { StateStore } from "../state/store";
import { capturingLogger, row, testStore } from "../testing/fixtures";
import { json, startTestServer, type TestServer } from "../testing/http";
import { CsvSink } from "./csv";
import { createSinks, type SinkDeps } from "./index";
import { PointwiseSink } from "./pointwise";
import { StdoutSink } from "./stdout";

const SWAP = "11111111-1111-4111-8111-111111111111";
const USER = "0x00000000000000000000000000000000000000aa";

let store: StateStore;
let server: TestServer;
let dir: string;
let calls: { auth: string | undefined; key: string | undefined; amounts: string[] }[];
/** The n-th request's whole-request error code, or undefined to accept it. */
let plan: (n: number) => string | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pw-sinks-"));
  server = await startTestServer((req, res, body) => {
    const events = (JSON.parse(body) as { events: { amount: string }[] }).events;
    const n = calls.length;
    calls.push({ auth: req.headers.authorization, key: req.headers["idempotency-key"] as string | undefined, amounts: events.map((e) => e.amount) });
    const code = plan(n);
    if (code !== undefined) return json(res, 200, { data: null, errors: [{ message: code, extensions: { code } }] });
    json(res, 200, { data: { results: events.map((_, i) => ({ ok: true, event_id: `ev-${i}` })) } });
  });
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});
// A store of its own per test: the pointwise sinks' outboxes are keyed by sink id, which repeats across tests.
beforeEach(async () => {
  store = await testStore("sinks-index");
  calls = [];
  plan = () => undefined;
});
afterEach(async () => {
  jest.restoreAllMocks();
  await store.clearIndexer();
  await store.close();
});

let outboxes = 0;
/** A pointwise sink config for the stand-in, placed at `index` in a config of stdout sinks before it. */
function pointwiseAt(index: number, batchSize = 2): SinkConfig[] {
  const before: SinkConfig[] = Array.from({ length: index }, () => ({ sinkType: "stdout", json: false }));
  return [...before, { sinkType: "pointwise", baseUrl: server.url, batchSize, events: { swap: { regEventId: SWAP, amount: "usd", rowType: "action" } } }];
}

/** Rows of swaps worth `values` USD each. */
const swaps = (...values: string[]) => values.map((valueUsd, i) => row({ id: `s${++outboxes}-${i}`, activity: "swap", user: USER, valueUsd }));

function depsWith(overrides: Partial<SinkDeps> = {}) {
  const { logger, lines } = capturingLogger();
  return { deps: { store, logger, pointwiseApiKey: "pw_key", ...overrides }, lines };
}

const warnings = (lines: Record<string, unknown>[]) => lines.filter((l) => l.level === "warn");

describe("createSinks", () => {
  it("builds the sink each config names, with the id <index>-<sinkType>", () => {
    const sinks = createSinks(
      [{ sinkType: "stdout", json: true }, { sinkType: "csv", path: join(dir, "ids.csv") }, ...pointwiseAt(0), { sinkType: "stdout", json: false }],
      depsWith().deps,
    );
    expect(sinks.map((s) => s.id)).toEqual(["0-stdout", "1-csv", "2-pointwise", "3-stdout"]);
    expect(sinks.map((s) => s.constructor)).toEqual([StdoutSink, CsvSink, PointwiseSink, StdoutSink]);
  });

  it("prints stdout sinks to the given stream, as JSON lines or text as each config says", async () => {
    const out = new PassThrough();
    let text = "";
    out.on("data", (d: Buffer) => {
      text += d.toString();
    });
    const [asJson, asText] = createSinks(
      [
        { sinkType: "stdout", json: true },
        { sinkType: "stdout", json: false },
      ],
      depsWith({ stdout: out }).deps,
    );
    const one = [row({ id: "r1", meta: null })];
    for (const sink of [asJson, asText]) {
      await sink?.write(one, { from: 1, to: 2 });
      await sink?.committed(undefined);
    }
    const [first, second] = text.split("\n");
    expect(JSON.parse(first ?? "")).toMatchObject({ rowType: "action", id: "r1", indexerId: "idx" });
    expect(second?.startsWith("action id=r1 indexerId=idx chainId=1 ")).toBe(true);
  });

  it("writes a csv sink to the configured path and logs with the given logger", async () => {
    const path = join(dir, "nested", "out.csv");
    const { deps, lines } = depsWith();
    const [sink] = createSinks([{ sinkType: "csv", path }], deps);
    await sink?.recover(undefined);
    await sink?.close();
    expect((await readFile(path, "utf8")).startsWith("rowType,id,indexerId,")).toBe(true);
    expect(lines).toEqual([expect.objectContaining({ sink: "0-csv", path, msg: "csv sink started a new file" })]);
  });

  it("refuses a pointwise sink without an API key, empty or absent, and needs none without one", () => {
    for (const pointwiseApiKey of [undefined, ""]) {
      const { deps } = depsWith({ pointwiseApiKey });
      expect(() => createSinks(pointwiseAt(1), deps)).toThrow(ConfigError);
      expect(() => createSinks(pointwiseAt(1), deps)).toThrow("POINTWISE_API_KEY is required for the pointwise sink");
    }
    const { deps } = depsWith({ pointwiseApiKey: undefined });
    expect(createSinks([{ sinkType: "stdout", json: false }], deps).map((s) => s.id)).toEqual(["0-stdout"]);
  });

  it("sends a pointwise sink's events with the key, in chunks of batchSize, keyed by its id and the store's indexer and config", async () => {
    const { deps } = depsWith();
    const [, sink] = createSinks(pointwiseAt(1), deps);
    await sink?.recover(undefined);
    const cursor = await sink?.write(swaps("1", "2", "3"), { from: 1, to: 2 });
    await sink?.committed(cursor);
    const key = (from: number, to: number) => createHash("sha256").update(`sinks-index:cfg|1-pointwise|${from}|${to}`).digest("hex");
    expect(calls).toEqual([
      { auth: "Bearer pw_key", key: key(1, 2), amounts: ["1", "2"] },
      { auth: "Bearer pw_key", key: key(3, 3), amounts: ["3"] },
    ]);
    // The outbox lives in the state store under the sink's id.
    expect(await store.sinkOutbox("1-pointwise").progress()).toMatchObject({ sent: 3 });
  });

  /** The Idempotency-Key of each request a fresh store's pointwise sink makes for one committed swap, under `indexId`. */
  const keysOf = async (indexId: string | undefined) => {
    calls = [];
    const [, sink] = createSinks(pointwiseAt(1), depsWith(indexId === undefined ? {} : { indexId }).deps);
    await sink?.recover(undefined);
    await sink?.committed(await sink?.write(swaps("1"), { from: 1, to: 1 }));
    // Cleared, so the next call's chunk has the same bounds [1, 1].
    await store.clearIndexer();
    return calls.map((c) => c.key);
  };

  it("keys a pointwise sink's chunk the same for the same index id, and another way for another index id", async () => {
    const first = await keysOf("first-index");
    expect(first).toHaveLength(1);
    expect(await keysOf("first-index")).toEqual(first);
    // The same chunk bounds of another index (a state store cleared and indexed again) get another key.
    const second = await keysOf("second-index");
    expect(second).toHaveLength(1);
    expect(second).not.toEqual(first);
  });

  it("keys a pointwise sink's chunk without an index id (a checkpoint written before it existed) as before, unlike any index id's", async () => {
    // The key the test "sends a pointwise sink's events with the key..." pins for chunk [1, 1].
    const before = createHash("sha256").update("sinks-index:cfg|1-pointwise|1|1").digest("hex");
    expect(await keysOf(undefined)).toEqual([before]);
    expect(await keysOf("first-index")).not.toEqual([before]);
  });

  it("paces a pointwise sink's retries from pointwiseRetryBaseMs up to 8 times it, and reports each failed attempt with the sink's id", async () => {
    jest.spyOn(Math, "random").mockReturnValue(0.999);
    plan = (n) => (n < 5 ? "rate-limited" : undefined);
    const failed: string[] = [];
    const { deps, lines } = depsWith({ pointwiseRetryBaseMs: 1, onSinkError: (id) => failed.push(id) });
    const [sink] = createSinks(pointwiseAt(0, 10), deps);
    await sink?.recover(undefined);
    await sink?.committed(await sink?.write(swaps("4"), { from: 1, to: 1 }));
    // Full jitter at the top of each range: 1 + floor(0.999 * (min(8, 2^attempt) - 1)).
    expect(warnings(lines).map((l) => l.delayMs)).toEqual([1, 1, 3, 7, 7]);
    expect(failed).toEqual(["0-pointwise", "0-pointwise", "0-pointwise", "0-pointwise", "0-pointwise"]);
    expect(calls.map((c) => c.amounts)).toEqual([["4"], ["4"], ["4"], ["4"], ["4"], ["4"]]);
  });

  it("waits 500 ms before a pointwise sink's first retry when no pacing is given", async () => {
    plan = (n) => (n === 0 ? "starting" : undefined);
    const { deps, lines } = depsWith();
    const [sink] = createSinks(pointwiseAt(0), deps);
    await sink?.recover(undefined);
    await sink?.committed(await sink?.write(swaps("6"), { from: 1, to: 1 }));
    expect(warnings(lines).map((l) => [l.attempt, l.failure, l.delayMs])).toEqual([[1, "starting", 500]]);
    expect(calls).toHaveLength(2);
  });

  it("stops a pointwise sink's retries once the given signal is aborted", async () => {
    plan = () => "service-unavailable";
    const controller = new AbortController();
    controller.abort();
    const { deps } = depsWith({ pointwiseRetryBaseMs: 1, signal: controller.signal });
    const [sink] = createSinks(pointwiseAt(0), deps);
    await sink?.recover(undefined);
    const cursor = await sink?.write(swaps("7"), { from: 1, to: 1 });
    await expect(sink?.committed(cursor)).rejects.toMatchObject({ code: "pointwise-api-interrupted" });
    expect(calls).toHaveLength(1);
  });
});
