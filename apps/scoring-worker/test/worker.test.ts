// The worker in this process against the real NATS JetStream and PostgreSQL: consuming, dead
// letters, score-change messages, a rule activation while events keep flowing, and stopping.
import { createLogger } from "@pointwise/logger";
import { parseRuleVersion, replayCampaign } from "@pointwise/rules";
import type { RawEventMessage } from "@pointwise/schemas";
import { createTestBus, createTestDatabase, testServiceEnv, uniqueName, waitUntil } from "@pointwise/testkit";
import { loadEnv } from "../src/env";
import type { RecomputeJob } from "../src/recompute/recompute-job";
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

const logged = async (c: string) => Number((await db.query("SELECT count(*) AS n FROM event_log WHERE campaign_id = $1", [c])).rows[0].n);

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

/** Every "scores changed" message of a campaign from now on. */
function collect(campaignId: string): unknown[] {
  const seen: unknown[] = [];
  bus.subscribeScoresChanged((change) => void seen.push(change), { campaignId });
  return seen;
}

describe("the scoring worker", () => {
  it("applies published events and announces the change on <namespace>.scores.<campaign_id>", async () => {
    const c = "wrkr-0001";
    await createCampaign(db, c);
    await addRuleVersion(db, richRules(c), "active");
    const changes = collect(c);
    await start();
    const events = traffic(c, 20, 0);
    await publishAll(events);
    await waitUntil(async () => (await logged(c)) === 20, 15_000, "20 events logged");
    expect(await scoreTable(db, c)).toEqual(await replayed(db, c, richRules(c)));
    await waitUntil(() => changes.length > 0, 5000, "a score change message");
    expect(changes[0]).toMatchObject({ v: 1, campaign_id: c, reason: "events", rule_version: 1 });
    const named = new Set(changes.flatMap((m) => (m as { user_ids: string[] }).user_ids));
    const users = new Set((await scoreTable(db, c)).map((r) => r.userId));
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
    await bus.publishBytes(bus.names.eventSubject(c), "{not json");
    await publishAll([unstageable, poison, ...after]);
    await waitUntil(async () => (await logged(c)) === 10, 15_000, "the 10 good events logged");
    const log = await logOf(db, c);
    expect(log.map((e) => e.id)).toEqual([...before, ...after].map((e) => e.event_id));
    const { rows } = await db.query("SELECT payload, error, deliveries FROM dead_letter WHERE stream = $1 ORDER BY stream_seq", [bus.names.eventsStream]);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({ payload: "{not json", error: "message is not JSON" });
    expect(JSON.parse(rows[1].payload)).toEqual(unstageable);
    expect(rows[1]).toMatchObject({ deliveries: 3 });
    expect(rows[1].error).toMatch(/0x00|invalid byte sequence|unsupported Unicode/);
    expect(JSON.parse(rows[2].payload)).toEqual(poison);
    expect(rows[2]).toMatchObject({ deliveries: 3 });
    expect(rows[2].error).toMatch(/numeric field overflow/);
    expect(await scoreTable(db, c)).toEqual(await replayed(db, c, richRules(c)));
    await stopAll();
  });

  it("dead-letters at once a message holding NUL bytes and events whose campaign id or account id no index could hold, applying the events around them", async () => {
    const c = "wrkr-0005";
    await createCampaign(db, c);
    await addRuleVersion(db, richRules(c), "active");
    await start({ MAX_DELIVER: "3" });
    const before = traffic(c, 5, 300);
    const after = traffic(c, 5, 400);
    await publishAll(before);
    const subject = bus.names.eventSubject(c);
    // Published past ingest (publishRawEvent checks the schema): what a faulty or foreign publisher could put there.
    await bus.publishBytes(subject, "nul\u0000here");
    await bus.publishBytes(subject, JSON.stringify(message(c, { campaign_id: `${c}-${"x".repeat(3000)}` })));
    await bus.publishBytes(subject, JSON.stringify(message(c, { account_id: `0x${"ab".repeat(1500)}` })));
    await publishAll(after);
    await waitUntil(async () => (await logged(c)) === 10, 15_000, "the 10 good events logged");
    expect((await logOf(db, c)).map((e) => e.id)).toEqual([...before, ...after].map((e) => e.event_id));
    const { rows } = await db.query<{ payload: string; error: string; deliveries: number }>(
      "SELECT payload, error, deliveries FROM dead_letter WHERE stream = $1 AND subject = $2 ORDER BY stream_seq",
      [bus.names.eventsStream, subject],
    );
    expect(rows.map((r) => [r.error, r.deliveries])).toEqual([
      ["message is not JSON", 1],
      ["message is not a raw event (version 1 or 2): campaign_id must be a campaign id (xxxx-xxxx)", 1],
      ["message is not a raw event (version 1 or 2): account_id must be at most 512 characters", 1],
    ]);
    expect(rows[0]?.payload).toBe("nul\\u0000here");
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
    const changes = collect(c);
    await publishAll(traffic(c, 100, 0));
    await waitUntil(async () => (await logged(c)) === 100, 20_000, "100 events logged");

    await addRuleVersion(db, v2);
    const jobId = await queueJob(db, c, 2, "rule-activation");
    const job = await reachedPause;
    expect(job.eventsDone).toBe("25");
    const { rows: progress } = await db.query("SELECT status, events_done::int, events_total::int FROM recompute_job WHERE id = $1", [jobId]);
    expect(progress[0]).toEqual({ status: "running", events_done: 25, events_total: 100 });

    // Traffic goes on while the job is paused mid-way; it is applied under the old version.
    await publishAll(traffic(c, 40, 100));
    await waitUntil(async () => (await logged(c)) === 140, 20_000, "140 events logged");
    await db.transaction(
      async (snapshot) => {
        const served = await scoreTable(snapshot, c);
        const log = await logOf(snapshot, c);
        expect(log).toHaveLength(140);
        expect(served).toEqual(replayCampaign(parseRuleVersion(v1), log).rows.map(canonicalRow));
      },
      { isolation: "repeatable read" },
    );

    release();
    await publishAll(traffic(c, 30, 140));
    await waitUntil(
      async () => (await db.query("SELECT status FROM recompute_job WHERE id = $1", [jobId])).rows[0].status === "done" && (await logged(c)) === 170,
      20_000,
      "the switch and 170 events logged",
    );
    // Events applied after the switch are scored under v2 as well.
    await waitUntil(
      async () => (await db.query("SELECT count(*)::int AS n FROM event_inbox WHERE campaign_id = $1", [c])).rows[0].n === 0,
      5000,
      "an empty inbox",
    );
    expect(await scoreTable(db, c)).toEqual(await replayed(db, c, v2));
    const { rows: versions } = await db.query("SELECT version, status FROM rule_version WHERE campaign_id = $1 ORDER BY version", [c]);
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
    expect((await logOf(db, c)).map((e) => e.id)).toEqual(events.map((e) => e.event_id));
    expect(await scoreTable(db, c)).toEqual(await replayed(db, c, richRules(c)));
    await stopAll();
  });
});
