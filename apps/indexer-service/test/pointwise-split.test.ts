// The pointwise sink against the real ingest API with BATCH_MAX_EVENTS or BATCH_BODY_LIMIT_BYTES below its chunks (smaller
// chunks, every event once) and with a rate limit its chunks outrun (each refused chunk resent after the API's Retry-After).
import { type EarnMapping, idempotencyKey, type OutputRow, PointwiseSink, StateStore } from "@pointwise/indexer-engine";
import { createLogger } from "@pointwise/logger";
import {
  type AppProcess,
  createTestBus,
  createTestDatabase,
  dropNamespace,
  type SeededCampaign,
  seedCampaignWithKey,
  seedProject,
  spawnApp,
  streamMessages,
  testServiceEnv,
  uniqueName,
} from "@pointwise/testkit";
import { LogCapture, REDIS_URL, uniqueId } from "./support/harness";
import { type LocalServer, listen, readBody } from "./support/net";

// Real processes (ingest-api) on real services.
jest.setTimeout(60_000);

/** The ingest API's limit in this file, below every batchSize the sinks use. */
const MAX_EVENTS = 3;
/** The body limit of the second ingest API (the least it allows): a chunk of 1000 swap events is far above it. */
const BODY_LIMIT = 65_536;
/** The third ingest API's rate limit per key: a bucket of one chunk, refilled at one chunk per second. */
const RATE_CHUNK = 10;
const SINK_ID = "0-pointwise";
const SPLIT = "earn events chunk too large for the Pointwise API, sending smaller chunks";

/** A sink's outbox in the state store. */
type SinkOutbox = ReturnType<StateStore["sinkOutbox"]>;

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let bus: Awaited<ReturnType<typeof createTestBus>>;
let schema: string;
let ingest: AppProcess;
/** An ingest API with the default BATCH_MAX_EVENTS (1000) and the least BATCH_BODY_LIMIT_BYTES. */
let bodyLimited: AppProcess;
/** An ingest API whose key's bucket holds one chunk of RATE_CHUNK events and refills it in a second. */
let rateLimited: AppProcess;
let project: string;
/** Recording pass-throughs in front of each ingest API (`requests` gets what they see). */
let proxy: LocalServer;
let bodyProxy: LocalServer;
let rateProxy: LocalServer;
/**
 * Each earn-events request's key, events and body bytes, when it arrived, and what it was answered: the error code and
 * Retry-After header, or `network: <cause>` when the ingest API's answer did not arrive (the sink's connection is then
 * destroyed, as a reset would).
 */
let requests: { key: string; size: number; bytes: number; code: string | undefined; replayed: boolean; at: number; retryAfter: string | null }[];
const stores: StateStore[] = [];

/** A pass-through to `target` that records every request in `requests`. */
function recordingProxy(target: AppProcess): Promise<LocalServer> {
  return listen(async (req, res) => {
    const body = await readBody(req);
    const headers = Object.fromEntries(
      ["authorization", "content-type", "idempotency-key", "x-pointwise-source"].flatMap((h) =>
        req.headers[h] === undefined ? [] : [[h, String(req.headers[h])]],
      ),
    );
    const record = {
      /** When the request arrived (ms, monotonic). */
      at: performance.now(),
      key: String(req.headers["idempotency-key"]),
      size: (JSON.parse(body) as { events: unknown[] }).events.length,
      bytes: Buffer.byteLength(body),
    };
    let answer: Response;
    let text: string;
    try {
      answer = await fetch(`${target.url}${req.url}`, { method: req.method, headers, body });
      text = await answer.text();
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      requests.push({ ...record, code: `network: ${cause?.code ?? cause?.message ?? (err as Error).message}`, replayed: false, retryAfter: null });
      res.destroy();
      return;
    }
    const parsed = JSON.parse(text) as { errors?: { extensions: { code: string } }[] };
    const retryAfter = answer.headers.get("retry-after");
    requests.push({ ...record, code: parsed.errors?.[0]?.extensions.code, replayed: answer.headers.get("idempotent-replayed") === "true", retryAfter });
    res.writeHead(answer.status, { "content-type": "application/json", ...(retryAfter === null ? {} : { "retry-after": retryAfter }) });
    res.end(text);
  });
}

beforeAll(async () => {
  schema = uniqueName("pwsplit");
  db = await createTestDatabase(schema);
  project = await seedProject(db);
  const rate = String(RATE_CHUNK);
  [ingest, bodyLimited, rateLimited] = await Promise.all([
    spawnApp("ingest-api", { ...testServiceEnv(schema), BATCH_MAX_EVENTS: String(MAX_EVENTS) }),
    spawnApp("ingest-api", { ...testServiceEnv(schema), BATCH_BODY_LIMIT_BYTES: String(BODY_LIMIT) }),
    spawnApp("ingest-api", { ...testServiceEnv(schema), BATCH_MAX_EVENTS: rate, RATE_LIMIT_BURST: rate, RATE_LIMIT_EVENTS_PER_SECOND: rate }),
  ]);
  bus = await createTestBus(schema);
  proxy = await recordingProxy(ingest);
  bodyProxy = await recordingProxy(bodyLimited);
  rateProxy = await recordingProxy(rateLimited);
}, 60_000);

beforeEach(() => {
  requests = [];
});

afterAll(async () => {
  await proxy?.close();
  await bodyProxy?.close();
  await rateProxy?.close();
  for (const store of stores) {
    await store.clearIndexer();
    await store.close();
  }
  await ingest?.stop("SIGKILL");
  await bodyLimited?.stop("SIGKILL");
  await rateLimited?.stop("SIGKILL");
  await bus?.close();
  await dropNamespace(schema).catch(() => undefined);
  await db?.drop();
});

/** A swap row worth `valueUsd`, a minute old, with an id of its own. */
function swapRow(indexerId: string, n: number): OutputRow {
  const ts = Date.now() - 60_000;
  return {
    indexerId,
    chainId: 31337,
    adapterId: "amm-v2",
    adapterVersion: "0.0.1",
    rowType: "action",
    id: `swap-${n}`,
    user: "0x00000000000000000000000000000000000000a1",
    asset: "0x00000000000000000000000000000000000000b1",
    activity: "swap",
    amount: "1",
    priceable: true,
    active: null,
    startTs: null,
    endTs: null,
    durationMs: null,
    startBlock: null,
    endBlock: null,
    ts,
    height: n,
    txHash: `0x${n.toString(16).padStart(64, "0")}`,
    logIndex: 0,
    trigger: null,
    priceUsd: "1",
    valueUsd: String(n),
    usdHours: null,
    meta: null,
  };
}

/** A campaign of its own, an index of its own in the state store, and a sink factory over that index's outbox. */
async function setup(label: string): Promise<{
  campaign: SeededCampaign;
  scope: string;
  rows: (count: number) => OutputRow[];
  outbox: SinkOutbox;
  sink: (batchSize: number, outbox?: SinkOutbox, baseUrl?: string) => { sink: PointwiseSink; logs: LogCapture };
}> {
  const campaign = await seedCampaignWithKey(db, { projectId: project, eventType: "swap" });
  const indexerId = uniqueId(label);
  const silent = createLogger({ service: "test", level: "silent" });
  const store = await StateStore.connect({ url: REDIS_URL, keyPrefix: "pwtest", indexerId, configHash: "cfg" }, silent);
  stores.push(store);
  const scope = `${indexerId}:cfg:index-1`;
  const events: Record<string, EarnMapping> = { swap: { regEventId: campaign.regEventId, amount: "usd", rowType: "action" } };
  const outbox = store.sinkOutbox(SINK_ID);
  return {
    campaign,
    scope,
    rows: (count) => Array.from({ length: count }, (_, i) => swapRow(indexerId, i + 1)),
    outbox,
    sink: (batchSize, own = outbox, baseUrl = proxy.url) => {
      const logs = new LogCapture();
      const logger = createLogger({ service: "indexer-service", level: "debug", destination: logs });
      const sink = new PointwiseSink({ id: SINK_ID, baseUrl, apiKey: campaign.key, batchSize, events, outbox: own, scope, logger, retryBaseMs: 5 });
      return { sink, logs };
    },
  };
}

/** What the ingest API published for a campaign: each message's amount, in order, and how many distinct event ids. */
async function published(campaignId: string): Promise<{ amounts: string[]; eventIds: number; source: Set<string> }> {
  const messages = (await streamMessages(bus)).filter((m) => m.campaign_id === campaignId);
  return { amounts: messages.map((m) => m.amount), eventIds: new Set(messages.map((m) => m.event_id)).size, source: new Set(messages.map((m) => m.source)) };
}

/** The Idempotency-Keys the ingest API keeps a request record for in a campaign, with how many events each covered. */
async function storedKeys(campaignId: string): Promise<Map<string, number>> {
  const { rows } = await db.query<{ key: string; n: number }>("SELECT key, cardinality(event_ids) AS n FROM idempotency_key WHERE campaign_id = $1", [
    campaignId,
  ]);
  return new Map(rows.map((r) => [r.key, Number(r.n)]));
}

const amounts = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));

describe("the pointwise sink against the real ingest API with BATCH_MAX_EVENTS below its batchSize", () => {
  it("sends the refused chunk in halves and later chunks at the learned size, publishing every event once", async () => {
    const { campaign, scope, rows, sink: make } = await setup("split");
    const key = (from: number, to: number) => idempotencyKey(scope, SINK_ID, from, to);
    const { sink, logs } = make(8);
    await sink.recover(undefined);
    await sink.committed(await sink.write(rows(11)));

    // 8 events are refused, then 4 (half of 8); 2 pass, and the 11 events go in chunks of 2: [1,2] .. [9,10], [11,11].
    expect(requests.map((r) => [r.key, r.size, r.code ?? "ok"])).toEqual([
      [key(1, 8), 8, "too-many-events"],
      [key(1, 4), 4, "too-many-events"],
      [key(1, 2), 2, "ok"],
      [key(3, 4), 2, "ok"],
      [key(5, 6), 2, "ok"],
      [key(7, 8), 2, "ok"],
      [key(9, 10), 2, "ok"],
      [key(11, 11), 1, "ok"],
    ]);
    expect(logs.lines.filter((l) => l.msg === SPLIT).map((l) => [l.level, l.from, l.to, l.events, l.code, l.chunkSize])).toEqual([
      ["warn", 1, 8, 8, "too-many-events", 4],
      ["warn", 1, 4, 4, "too-many-events", 2],
    ]);
    const out = await published(campaign.campaignId);
    expect(out.amounts).toEqual(amounts(11));
    expect(out.eventIds).toBe(11);
    expect(out.source).toEqual(new Set(["indexer"]));
    // The refused requests left no record: only the accepted chunks hold their keys.
    expect(await storedKeys(campaign.campaignId)).toEqual(
      new Map([
        [key(1, 2), 2],
        [key(3, 4), 2],
        [key(5, 6), 2],
        [key(7, 8), 2],
        [key(9, 10), 2],
        [key(11, 11), 1],
      ]),
    );
  });

  it("after the sink dies past the first smaller chunk, a new sink resends that chunk under its key and nothing is published twice", async () => {
    const { campaign, scope, rows, outbox, sink: make } = await setup("split-restart");
    const key = (from: number, to: number) => idempotencyKey(scope, SINK_ID, from, to);
    // The process dies once the first smaller chunk was accepted, before the outbox marks it sent.
    const dying: SinkOutbox = { ...outbox, finishChunk: () => Promise.reject(new Error("killed")) };
    const first = make(4, dying).sink;
    await first.recover(undefined);
    const cursor = await first.write(rows(6));
    await expect(first.committed(cursor)).rejects.toThrow("killed");
    expect(requests.map((r) => [r.key, r.code ?? "ok"])).toEqual([
      [key(1, 4), "too-many-events"],
      [key(1, 2), "ok"],
    ]);
    expect((await published(campaign.campaignId)).amounts).toEqual(["1", "2"]);

    const second = make(4).sink;
    await second.recover(cursor);
    // [1,2] again under its key, answered from the ingest API's record; the new run learns the limit again on [3,6].
    expect(requests.slice(2).map((r) => [r.key, r.size, r.code ?? "ok", r.replayed])).toEqual([
      [key(1, 2), 2, "ok", true],
      [key(3, 6), 4, "too-many-events", false],
      [key(3, 4), 2, "ok", false],
      [key(5, 6), 2, "ok", false],
    ]);
    const out = await published(campaign.campaignId);
    expect(out.amounts).toEqual(amounts(6));
    expect(out.eventIds).toBe(6);
    expect(await storedKeys(campaign.campaignId)).toEqual(
      new Map([
        [key(1, 2), 2],
        [key(3, 4), 2],
        [key(5, 6), 2],
      ]),
    );
    expect(await outbox.progress()).toEqual({ sent: 6, inflight: undefined });
  });
});

describe("the pointwise sink against the real ingest API with BATCH_BODY_LIMIT_BYTES below its chunk's body", () => {
  it("sends a chunk refused with payload-too-large in halves until its body fits, publishing every event once", async () => {
    const { campaign, scope, rows, sink: make } = await setup("split-bytes");
    const key = (from: number, to: number) => idempotencyKey(scope, SINK_ID, from, to);
    const { sink, logs } = make(1000, undefined, bodyProxy.url);
    await sink.recover(undefined);
    await sink.committed(await sink.write(rows(1000)));

    // A swap event is 281 bytes of JSON plus its amount's digits, in a body of 13 bytes more and a comma between events:
    // 250 events (amounts 1..250, 9 + 90 x 2 + 151 x 3 = 642 digits) are 13 + 250 x 281 + 642 + 249 = 71154 bytes, over
    // 64 KiB, and 125 (9 + 180 + 26 x 3 = 267 digits) are 13 + 125 x 281 + 267 + 124 = 35529. The real API answers each
    // refused body: no request fails on the network, none is sent twice.
    expect(requests.map((r) => [r.key, r.size, r.code ?? "ok", r.bytes > BODY_LIMIT])).toEqual([
      [key(1, 1000), 1000, "payload-too-large", true],
      [key(1, 500), 500, "payload-too-large", true],
      [key(1, 250), 250, "payload-too-large", true],
      ...Array.from({ length: 8 }, (_, i) => [key(1 + 125 * i, 125 * (i + 1)), 125, "ok", false]),
    ]);
    expect([requests[2]?.bytes, requests[3]?.bytes]).toEqual([71_154, 35_529]);
    expect(logs.lines.filter((l) => l.msg === SPLIT).map((l) => [l.level, l.from, l.to, l.events, l.code, l.chunkSize])).toEqual([
      ["warn", 1, 1000, 1000, "payload-too-large", 500],
      ["warn", 1, 500, 500, "payload-too-large", 250],
      ["warn", 1, 250, 250, "payload-too-large", 125],
    ]);
    expect(logs.messages()).not.toContain("earn events not accepted yet, retrying with the same Idempotency-Key");
    const out = await published(campaign.campaignId);
    expect(out.amounts).toEqual(amounts(1000));
    expect(out.eventIds).toBe(1000);
    expect(out.source).toEqual(new Set(["indexer"]));
    // The refused requests left no record: only the eight accepted chunks of 125 hold their keys.
    expect(await storedKeys(campaign.campaignId)).toEqual(new Map(Array.from({ length: 8 }, (_, i) => [key(1 + 125 * i, 125 * (i + 1)), 125])));
  });
});

describe("the pointwise sink against the real ingest API with a rate limit its chunks outrun", () => {
  it("resends each chunk refused with rate-limited under its key after the Retry-After the API asked, publishing every event once", async () => {
    const { campaign, scope, rows, sink: make } = await setup("rate");
    const key = (from: number, to: number) => idempotencyKey(scope, SINK_ID, from, to);
    // The sink's own backoff is 5 ms (retryBaseMs), far below the second the API asks for.
    const { sink, logs } = make(RATE_CHUNK, undefined, rateProxy.url);
    await sink.recover(undefined);
    await sink.committed(await sink.write(rows(3 * RATE_CHUNK)));

    // The bucket holds one chunk: the first passes, the second finds it empty, and so does the third after the second
    // took the refill. Each refusal costs nothing and is answered with a whole second to wait (the API rounds up).
    expect(requests.map((r) => [r.key, r.size, r.code ?? "ok", r.retryAfter])).toEqual([
      [key(1, 10), 10, "ok", null],
      [key(11, 20), 10, "rate-limited", "1"],
      [key(11, 20), 10, "ok", null],
      [key(21, 30), 10, "rate-limited", "1"],
      [key(21, 30), 10, "ok", null],
    ]);
    for (const refused of [1, 3]) {
      const [answer, retry] = [requests[refused], requests[refused + 1]];
      expect((retry?.at ?? 0) - (answer?.at ?? 0)).toBeGreaterThanOrEqual(1000);
    }
    expect(
      logs.lines.filter((l) => l.msg === "earn events not accepted yet, retrying with the same Idempotency-Key").map((l) => [l.failure, l.delayMs]),
    ).toEqual([
      ["rate-limited", 1000],
      ["rate-limited", 1000],
    ]);
    const out = await published(campaign.campaignId);
    expect(out.amounts).toEqual(amounts(3 * RATE_CHUNK));
    expect(out.eventIds).toBe(3 * RATE_CHUNK);
    // A refused request leaves no record: each key covers its chunk once.
    expect(await storedKeys(campaign.campaignId)).toEqual(
      new Map([
        [key(1, 10), 10],
        [key(11, 20), 10],
        [key(21, 30), 10],
      ]),
    );
  });
});
