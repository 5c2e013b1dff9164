// The built worker's /metrics as an operator scrapes it: events logged, batch sizes, apply passes,
// the consumer's pending and unacknowledged messages while PostgreSQL is away (and /readyz 503 then),
// the chunks and jobs of a real recompute job, and readiness while NATS is away. Run `npm run build` first (npm test does).
import { sampleValue } from "@pointwise/metrics";
import {
  type AppProcess,
  createTcpProxy,
  createTestBus,
  createTestDatabase,
  spawnApp,
  startNatsServer,
  type TcpProxy,
  testServiceEnv,
  testUrls,
  uniqueName,
  waitUntil,
} from "@pointwise/testkit";
import { addRuleVersion, createCampaign, message, queueJob, richRules } from "./support";

jest.setTimeout(90_000);

const CAMPAIGN = "metr-0001";
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let bus: Awaited<ReturnType<typeof createTestBus>>;
let proxy: TcpProxy;
let worker: AppProcess | undefined;

beforeAll(async () => {
  const ns = uniqueName("t_wm");
  db = await createTestDatabase(ns);
  bus = await createTestBus(ns);
  proxy = await createTcpProxy(testUrls.database);
  await proxy.start();
  await createCampaign(db, CAMPAIGN);
  await addRuleVersion(db, richRules(CAMPAIGN), "active");
  worker = await spawnApp("scoring-worker", {
    ...testServiceEnv(ns),
    DATABASE_URL: proxy.url,
    BATCH_SIZE: "20",
    APPLY_BATCH_SIZE: "1000",
    FETCH_EXPIRES_MS: "1000",
    ACK_WAIT_MS: "30000",
    RETRY_DELAY_MS: "50",
    RECOMPUTE_CHUNK: "7",
    RECOMPUTE_POLL_MS: "50",
  });
});
afterAll(async () => {
  await worker?.stop("SIGKILL");
  await proxy?.stop();
  await bus?.drop();
  await db?.drop();
});

async function scrape(): Promise<string> {
  const res = await fetch(`${worker?.url}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
}

async function publish(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const e = message(CAMPAIGN, { account_id: `0x${String(i % 5).padStart(40, "0")}`, amount: "10" });
    await bus.publishRawEvent(e, e.event_id);
  }
}

const value = async (name: string, labels: Record<string, string> = {}) => sampleValue(await scrape(), name, labels);

describe("scoring-worker /metrics", () => {
  it("counts what it applied: 30 events logged, staged and applied 30 in all, the consumer drained", async () => {
    await publish(30);
    await waitUntil(async () => (await value("pointwise_worker_events_logged_total")) === 30, 30_000, "30 events logged");
    await waitUntil(async () => (await value("pointwise_worker_consumer_messages", { state: "ack_pending" })) === 0, 10_000, "every message acknowledged");
    const text = await scrape();
    expect(sampleValue(text, "pointwise_worker_consumer_messages", { state: "pending" })).toBe(0);
    // Every message is staged once (no redelivery here) in transactions of at most BATCH_SIZE = 20.
    expect(sampleValue(text, "pointwise_worker_staged_batch_size_sum")).toBe(30);
    expect(sampleValue(text, "pointwise_worker_staged_batch_size_count")).toBeGreaterThanOrEqual(2);
    expect(sampleValue(text, "pointwise_worker_staged_batch_size_bucket", { le: "25" })).toBe(sampleValue(text, "pointwise_worker_staged_batch_size_count"));
    expect(sampleValue(text, "pointwise_worker_apply_batch_size_sum")).toBe(30);
    const passes = sampleValue(text, "pointwise_worker_apply_pass_seconds_count") ?? 0;
    expect(passes).toBeGreaterThanOrEqual(1);
    expect(passes).toBeLessThanOrEqual(sampleValue(text, "pointwise_worker_apply_batch_size_count") ?? 0);
    expect(sampleValue(text, "pointwise_dependency_up", { dependency: "postgres" })).toBe(1);
    expect(sampleValue(text, "pointwise_dependency_up", { dependency: "nats" })).toBe(1);
    const { rows } = await db.query<{ n: string }>("SELECT count(*)::text AS n FROM event_log WHERE campaign_id = $1", [CAMPAIGN]);
    expect(rows[0]?.n).toBe("30");
    // Nothing is held back while every campaign's events apply.
    expect(sampleValue(text, "pointwise_worker_campaigns_held", {})).toBe(0);
  });

  it("counts dead letters by stage: none while all is well, then the undecodable message, the unstageable one and the unappliable event", async () => {
    for (const stage of ["decode", "stage", "apply"]) expect(await value("pointwise_worker_dead_letters_total", { stage })).toBe(0);
    await bus.publishBytes(bus.names.eventSubject(CAMPAIGN), "{not json");
    // Valid raw events PostgreSQL refuses: a NUL in a text (staging fails), an amount beyond NUMERIC(48,18) (applying fails).
    for (const e of [message(CAMPAIGN, { account_id: "bad\u0000account" }), message(CAMPAIGN, { amount: `9${"0".repeat(40)}` })])
      await bus.publishRawEvent(e, e.event_id);
    await waitUntil(
      async () => {
        const text = await scrape();
        return ["decode", "stage", "apply"].every((stage) => sampleValue(text, "pointwise_worker_dead_letters_total", { stage }) === 1);
      },
      60_000,
      "one dead letter at each stage",
    );
    const { rows } = await db.query<{ n: string }>("SELECT count(*)::text AS n FROM dead_letter");
    expect(rows[0]?.n).toBe("3");
  });

  it("reports a recompute job of the 30 logged events in chunks of 7: 5 chunks, one job switched, progress back to 0", async () => {
    const job = await queueJob(db, CAMPAIGN, 1, "rule-activation");
    await waitUntil(
      async () => (await db.query<{ status: string }>("SELECT status FROM recompute_job WHERE id = $1", [job])).rows[0]?.status === "done",
      30_000,
      "the recompute job to finish",
    );
    const text = await scrape();
    expect(sampleValue(text, "pointwise_worker_recompute_chunks_total")).toBe(Math.ceil(30 / 7));
    expect(sampleValue(text, "pointwise_worker_recompute_jobs_total")).toBe(1);
    expect(sampleValue(text, "pointwise_worker_recompute_events_done")).toBe(0);
  });

  it("while PostgreSQL is away: /readyz is 503 naming it, postgres is down in the metrics, and the 12 new messages wait in the consumer", async () => {
    await proxy.stop();
    await waitUntil(async () => (await fetch(`${worker?.url}/readyz`)).status === 503, 10_000, "/readyz 503");
    const ready = (await (await fetch(`${worker?.url}/readyz`)).json()) as Record<string, unknown>;
    expect(ready).toMatchObject({ status: "unavailable", checks: { postgres: false, nats: true } });
    await publish(12);
    await waitUntil(
      async () => {
        const text = await scrape();
        const pending = sampleValue(text, "pointwise_worker_consumer_messages", { state: "pending" }) ?? -1;
        const held = sampleValue(text, "pointwise_worker_consumer_messages", { state: "ack_pending" }) ?? -1;
        return pending + held === 12;
      },
      15_000,
      "pending + ack_pending = 12",
    );
    const text = await scrape();
    expect(sampleValue(text, "pointwise_dependency_up", { dependency: "postgres", optional: "false" })).toBe(0);
    expect(sampleValue(text, "pointwise_worker_events_logged_total")).toBe(30);

    await proxy.start();
    await waitUntil(async () => (await value("pointwise_worker_events_logged_total")) === 42, 40_000, "the 12 events applied once PostgreSQL is back");
    await waitUntil(async () => (await fetch(`${worker?.url}/readyz`)).status === 200, 10_000, "/readyz 200 again");
    await waitUntil(
      async () =>
        (await value("pointwise_worker_consumer_messages", { state: "pending" })) === 0 &&
        (await value("pointwise_worker_consumer_messages", { state: "ack_pending" })) === 0,
      10_000,
      "the consumer drained",
    );
  });
});

describe("scoring-worker readiness while NATS is away", () => {
  it("answers /readyz 503 naming nats, scrapes at once with it down and the consumer's lag absent, and is ready with the lag again when NATS is back", async () => {
    const nats = await startNatsServer();
    const ns = uniqueName("t_wmn");
    const own = await createTestDatabase(ns);
    const app = await spawnApp("scoring-worker", { ...testServiceEnv(ns, { natsUrl: nats.url }), FETCH_EXPIRES_MS: "1000" });
    try {
      await nats.stop();
      await waitUntil(async () => (await fetch(`${app.url}/readyz`)).status === 503, 15_000, "/readyz 503");
      expect(await (await fetch(`${app.url}/readyz`)).json()).toMatchObject({ status: "unavailable", checks: { postgres: true, nats: false } });
      expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
      // A scrape answers well within Prometheus's usual 10 s timeout; before, the consumer's lag held it for the NATS request timeout (5 s).
      const started = Date.now();
      const text = await (await fetch(`${app.url}/metrics`)).text();
      expect(Date.now() - started).toBeLessThan(2000);
      expect(sampleValue(text, "pointwise_dependency_up", { dependency: "nats", optional: "false" })).toBe(0);
      expect(sampleValue(text, "pointwise_worker_consumer_messages", { state: "pending" })).toBeUndefined();
      expect(sampleValue(text, "pointwise_worker_consumer_messages", { state: "ack_pending" })).toBeUndefined();
      await nats.start();
      await waitUntil(async () => (await fetch(`${app.url}/readyz`)).status === 200, 30_000, "/readyz 200 again");
      const back = await (await fetch(`${app.url}/metrics`)).text();
      expect(sampleValue(back, "pointwise_worker_consumer_messages", { state: "pending" })).toBe(0);
      expect(sampleValue(back, "pointwise_worker_consumer_messages", { state: "ack_pending" })).toBe(0);
    } finally {
      await app.stop("SIGKILL");
      await nats.destroy();
      await own.drop();
    }
  });
});
