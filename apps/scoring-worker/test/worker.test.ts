// The worker in this process against the real NATS JetStream and PostgreSQL: consuming, dead
// letters, score-change messages, a rule activation while events keep flowing, and stopping.
import { createLogger } from "@pointwise/logger";
import { parseRuleVersion, replayCampaign } from "@pointwise/rules";
import type { RawEventMessage } from "@pointwise/schemas";
import { createTestBus, createTestDatabase, testServiceEnv, uniqueName, waitUntil } from "@pointwise/testkit";
import type { Subscription } from "nats";
import { loadEnv } from "../src/env";
import type { RecomputeJob } from "../src/recompute";
import { startWorker, type Worker } from "../src/worker";
import { addRuleVersion, canonicalRow, createCampaign, logOf, message, queueJob, replayed, richRules, scoreTable } from "./support";

type Db = Awaited<ReturnType<typeof createTestDatabase>>;
type Bus = Awaited<ReturnType<typeof createTestBus>>;
const namespace = uniqueName("t_wk");
let db: Db;
let bus: Bus;
const logger = createLogger({ service: "scoring-worker-test", level: "silent" });
const workers: Worker[] = [];

beforeAll(async () => {
  db = await createTestDatabase(namespace);
  bus = await createTestBus(namespace);
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await bus?.drop();
  await db?.drop();
});

async function start(over: Record<string, string> = {}, afterRecomputeChunk?: (job: RecomputeJob) => Promise<void>): Promise<Worker> {
  const env = loadEnv({
    ...testServiceEnv(namespace),
    FETCH_EXPIRES_MS: "1000",
    ACK_WAIT_MS: "3000",
    RETRY_DELAY_MS: "50",
    RECOMPUTE_POLL_MS: "100",
    ...over,
  });
  const worker = await startWorker({ env, logger, db, bus, ...(afterRecomputeChunk ? { afterRecomputeChunk } : {}) });
  workers.push(worker);
  return worker;
}

async function stopAll(): Promise<void> {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
}

const logged = async (c: string) => Number((await db.pool.query("SELECT count(*) AS n FROM event_log WHERE campaign_id = $1", [c])).rows[0].n);

async function publishAll(events: RawEventMessage[]): Promise<void> {
  for (const e of events) await bus.publishRawEvent(e, e.event_id);
}

function traffic(c: string, n: number, from: number): RawEventMessage[] {
  return Array.from({ length: n }, (_, i) =>
    message(c, {
      account_id: `0x${String((from + i) % 7).padStart(40, "0")}`,
      amount: String(((from + i) * 37) % 200),
      received_at: new Date(Date.UTC(2026, 2, 2) + (from + i) * 600_000).toISOString(),
    }),
  );
}

function collect(sub: Subscription): unknown[] {
  const seen: unknown[] = [];
  void (async () => {
    for await (const m of sub) seen.push(JSON.parse(new TextDecoder().decode(m.data)));
  })();
  return seen;
}

describe("the durable consumer", () => {
  it("takes over a consumer created with other settings: the server never drops a message on its own", async () => {
    const { ensureEventsConsumer } = await import("@pointwise/bus");
    const { ensureConsumer } = await import("../src/intake");
    await ensureEventsConsumer(bus, { durable: "older", maxDeliver: 5, ackWaitMs: 30_000 });
    await ensureConsumer(bus, "older", 4000, 2000);
    const info = await bus.jsm.consumers.info(bus.names.eventsStream, "older");
    expect(info.config).toMatchObject({ max_deliver: -1, ack_wait: 4000 * 1_000_000, max_ack_pending: 2000 });
    await ensureConsumer(bus, "fresh", 4000, 2000);
    expect((await bus.jsm.consumers.info(bus.names.eventsStream, "fresh")).config).toMatchObject({ max_deliver: -1, durable_name: "fresh" });
    await bus.jsm.consumers.delete(bus.names.eventsStream, "older");
    await bus.jsm.consumers.delete(bus.names.eventsStream, "fresh");
  });
});

describe("the scoring worker", () => {
  it("applies published events and announces the change on <namespace>.scores.<campaign_id>", async () => {
    const c = "wrkr-0001";
    await createCampaign(db, c);
    await addRuleVersion(db, richRules(c), "active");
    const changes = collect(bus.nc.subscribe(`${namespace}.scores.${c}`));
    await start();
    const events = traffic(c, 20, 0);
    await publishAll(events);
    await waitUntil(async () => (await logged(c)) === 20, 15_000, "20 events logged");
    expect(await scoreTable(db.pool, c)).toEqual(await replayed(db, c, richRules(c)));
    await waitUntil(() => changes.length > 0, 5000, "a score change message");
    expect(changes[0]).toMatchObject({ v: 1, campaign_id: c, reason: "events", rule_version: 1 });
    const named = new Set(changes.flatMap((m) => (m as { user_ids: string[] }).user_ids));
    const users = new Set((await scoreTable(db.pool, c)).map((r) => r.userId));
    expect(named).toEqual(users);
    await stopAll();
  });

  it("dead-letters an undecodable message at once and events PostgreSQL refuses after MAX_DELIVER attempts, applying the events around them", async () => {
    const c = "wrkr-0002";
    await createCampaign(db, c);
    await addRuleVersion(db, richRules(c), "active");
    await start({ MAX_DELIVER: "3" });
    const before = traffic(c, 5, 100);
    // Valid raw events that PostgreSQL refuses: a NUL in a text (fails staging), an amount beyond NUMERIC(48,18) (fails applying).
    const unstageable = message(c, { account_id: "bad\u0000account" });
    const poison = message(c, { amount: `9${"0".repeat(40)}` });
    const after = traffic(c, 5, 200);
    await publishAll(before);
    await bus.js.publish(`${namespace}.events.${c}`, new TextEncoder().encode("{not json"));
    await publishAll([unstageable, poison, ...after]);
    await waitUntil(async () => (await logged(c)) === 10, 15_000, "the 10 good events logged");
    const log = await logOf(db.pool, c);
    expect(log.map((e) => e.id)).toEqual([...before, ...after].map((e) => e.event_id));
    const { rows } = await db.pool.query("SELECT payload, error, deliveries FROM dead_letter WHERE stream = $1 ORDER BY stream_seq", [bus.names.eventsStream]);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({ payload: "{not json", error: "message is not JSON" });
    expect(JSON.parse(rows[1].payload)).toEqual(unstageable);
    expect(rows[1]).toMatchObject({ deliveries: 3 });
    expect(rows[1].error).toMatch(/0x00|invalid byte sequence|unsupported Unicode/);
    expect(JSON.parse(rows[2].payload)).toEqual(poison);
    expect(rows[2]).toMatchObject({ deliveries: 3 });
    expect(rows[2].error).toMatch(/numeric field overflow/);
    expect(await scoreTable(db.pool, c)).toEqual(await replayed(db, c, richRules(c)));
    await stopAll();
  });

  it("activates a rule version while events keep flowing: old scores until the switch, then a replay under the new version", async () => {
    const c = "wrkr-0003";
    await createCampaign(db, c);
    const v1 = richRules(c);
    const v2 = richRules(c, 2, { perUnit: "2.25" });
    await addRuleVersion(db, v1, "active");
    let paused: ((job: RecomputeJob) => void) | undefined;
    const reachedPause = new Promise<RecomputeJob>((resolve) => {
      paused = resolve;
    });
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let chunks = 0;
    await start({ RECOMPUTE_CHUNK: "25" }, async (job) => {
      if (++chunks === 1) {
        paused?.({ ...job });
        await released;
      }
    });
    const changes = collect(bus.nc.subscribe(`${namespace}.scores.${c}`));
    await publishAll(traffic(c, 100, 0));
    await waitUntil(async () => (await logged(c)) === 100, 20_000, "100 events logged");

    await addRuleVersion(db, v2);
    const jobId = await queueJob(db.pool, c, 2, "rule-activation");
    const job = await reachedPause;
    expect(job.eventsDone).toBe("25");
    const { rows: progress } = await db.pool.query("SELECT status, events_done::int, events_total::int FROM recompute_job WHERE id = $1", [jobId]);
    expect(progress[0]).toEqual({ status: "running", events_done: 25, events_total: 100 });

    // Traffic goes on while the job is paused mid-way; it is applied under the old version.
    await publishAll(traffic(c, 40, 100));
    await waitUntil(async () => (await logged(c)) === 140, 20_000, "140 events logged");
    const snapshot = await db.pool.connect();
    try {
      await snapshot.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
      const served = await scoreTable(snapshot, c);
      const log = await logOf(snapshot, c);
      expect(log).toHaveLength(140);
      expect(served).toEqual(replayCampaign(parseRuleVersion(v1), log).rows.map(canonicalRow));
      await snapshot.query("COMMIT");
    } finally {
      snapshot.release();
    }

    release();
    await publishAll(traffic(c, 30, 140));
    await waitUntil(
      async () => (await db.pool.query("SELECT status FROM recompute_job WHERE id = $1", [jobId])).rows[0].status === "done" && (await logged(c)) === 170,
      20_000,
      "the switch and 170 events logged",
    );
    // Events applied after the switch are scored under v2 as well.
    await waitUntil(
      async () => (await db.pool.query("SELECT count(*)::int AS n FROM event_inbox WHERE campaign_id = $1", [c])).rows[0].n === 0,
      5000,
      "an empty inbox",
    );
    expect(await scoreTable(db.pool, c)).toEqual(await replayed(db, c, v2));
    const { rows: versions } = await db.pool.query("SELECT version, status FROM rule_version WHERE campaign_id = $1 ORDER BY version", [c]);
    expect(versions).toEqual([
      { version: 1, status: "superseded" },
      { version: 2, status: "active" },
    ]);
    await waitUntil(() => changes.some((m) => (m as { reason: string }).reason === "recompute"), 5000, "a recompute change message");
    await stopAll();
  });

  it("stops cleanly mid-flow and a restarted worker picks up where it left off", async () => {
    const c = "wrkr-0004";
    await createCampaign(db, c);
    await addRuleVersion(db, richRules(c), "active");
    const first = await start({ BATCH_SIZE: "10", APPLY_BATCH_SIZE: "7" });
    const events = traffic(c, 150, 1000);
    const publishing = publishAll(events);
    await waitUntil(async () => (await logged(c)) > 0, 15_000, "the first events logged");
    await first.stop();
    workers.splice(workers.indexOf(first), 1);
    const partial = await logged(c);
    await publishing;
    await start({ BATCH_SIZE: "10", APPLY_BATCH_SIZE: "7" });
    await waitUntil(async () => (await logged(c)) === 150, 20_000, "all 150 events logged");
    expect(partial).toBeLessThanOrEqual(150);
    expect((await logOf(db.pool, c)).map((e) => e.id)).toEqual(events.map((e) => e.event_id));
    expect(await scoreTable(db.pool, c)).toEqual(await replayed(db, c, richRules(c)));
    await stopAll();
  });
});
