// Recompute jobs: rule activation and identity links, checkpoints, failures, run by the worker.
import { activateRuleVersion } from "@pointwise/db";
import { RetryableError } from "@pointwise/errors";
import { createLogger } from "@pointwise/logger";
import { parseRuleVersion, replayCampaign } from "@pointwise/rules";
import { backendPid, createTestDatabase, uniqueName, waitUntilBlockedBy } from "@pointwise/testkit";
import { createApplier } from "../src/apply/inbox-drainer";
import { stageMessages } from "../src/intake/inbox";
import { type RecomputeDeps, runNextJob } from "../src/recompute/recompute-job";
import { RuleVersionCache } from "../src/scoring/rule-version-cache";
import { addRuleVersion, canonicalRow, createCampaign, logOf, message, queueJob, replayed, richRules, scoreTable } from "./support";

type Db = Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
const logger = createLogger({ service: "test", level: "silent" });
let streamSeq = 0;

beforeAll(async () => {
  db = await createTestDatabase(uniqueName("t_worker_recompute"));
});
afterAll(async () => {
  await db?.drop();
});

const deps = (over: Partial<RecomputeDeps> = {}): RecomputeDeps => ({
  db,
  logger,
  rules: new RuleVersionCache(),
  chunkSize: 3,
  // Chunks are scored in slices of two events, so carrying state from slice to slice is tested too.
  sliceSize: 2,
  leaseMs: 60_000,
  ...over,
});

/** A campaign with v1 active and `n` swaps of users 0..3 applied live. */
async function campaignWithEvents(id: string, n: number): Promise<void> {
  await createCampaign(db, id);
  await addRuleVersion(db, richRules(id), "active");
  const staged = Array.from({ length: n }, (_, i) => ({
    stream: "RC",
    streamSeq: ++streamSeq,
    subject: "rc.events",
    event: message(id, {
      account_id: `0x${String(i % 4).padStart(40, "0")}`,
      amount: String(10 + i),
      received_at: new Date(Date.UTC(2026, 2, 2, 0, i)).toISOString(),
    }),
  }));
  await stageMessages(db, staged);
  await createApplier({
    db,
    logger,
    rules: new RuleVersionCache(),
    stream: "RC",
    batchSize: 50,
    maxAttempts: 3,
    retryDelayMs: 50,
    floor: async () => streamSeq,
  }).drainCampaign(id, streamSeq);
}

async function job(id: string) {
  const { rows } = await db.query(
    "SELECT status, rule_version, events_total::int, events_done::int, error, applied_seq::text FROM recompute_job WHERE id = $1",
    [id],
  );
  return rows[0];
}

describe("recompute jobs", () => {
  it("activates a version: recomputes every score from the log, switches scores, ledger, state and statuses at once", async () => {
    const c = "rcmp-0001";
    await campaignWithEvents(c, 10);
    const v2 = richRules(c, 2, { perUnit: "4" });
    await addRuleVersion(db, v2);
    const id = await queueJob(db, c, 2, "rule-activation");
    const switched: unknown[] = [];
    expect(await runNextJob(deps({ onSwitched: (m) => switched.push(m) }))).toBe(true);

    expect(await job(id)).toMatchObject({ status: "done", rule_version: 2, events_total: 10, events_done: 10, error: null });
    expect(await scoreTable(db, c)).toEqual(await replayed(db, c, v2));
    const { rows: versions } = await db.query(
      "SELECT version, status, activated_at IS NOT NULL AS activated FROM rule_version WHERE campaign_id = $1 ORDER BY version",
      [c],
    );
    expect(versions).toEqual([
      { version: 1, status: "superseded", activated: true },
      { version: 2, status: "active", activated: true },
    ]);
    // The ledger keeps v1's entries as history and has v2's entries exactly as a replay gives them.
    const { rows: ledger } = await db.query("SELECT rule_version, entry_key FROM ledger_entry WHERE campaign_id = $1 ORDER BY id", [c]);
    const replay = replayCampaign(parseRuleVersion(v2), await logOf(db, c));
    expect(ledger.filter((l) => l.rule_version === 2).map((l) => l.entry_key)).toEqual(replay.entries.map((e) => e.key));
    expect(ledger.filter((l) => l.rule_version === 1).length).toBeGreaterThan(0);
    const { rows: states } = await db.query("SELECT DISTINCT rule_version FROM user_state WHERE campaign_id = $1", [c]);
    expect(states).toEqual([{ rule_version: 2 }]);
    expect(switched).toEqual([expect.objectContaining({ v: 1, campaign_id: c, reason: "recompute", rule_version: 2, currencies: ["gems", "xp"] })]);
    for (const table of ["recompute_score", "recompute_user_state", "recompute_ledger_entry"]) {
      expect((await db.query(`SELECT count(*)::int AS n FROM ${table} WHERE job_id = $1`, [id])).rows[0].n).toBe(0);
    }
  });

  it("moves an identity's history to the user it was linked to when an identity-link job runs", async () => {
    const c = "rcmp-0002";
    await campaignWithEvents(c, 8);
    const owner = async (account: string) =>
      (await db.query("SELECT user_id FROM identity WHERE campaign_id = $1 AND account_id = $2", [c, account])).rows[0].user_id as string;
    const to = await owner(`0x${"0".repeat(40)}`);
    const from = await owner(`0x${"1".padStart(40, "0")}`);
    await db.query("UPDATE identity SET user_id = $3 WHERE campaign_id = $1 AND account_id = $2", [c, `0x${"1".padStart(40, "0")}`, to]);
    const id = await queueJob(db, c, 1, "identity-link");
    await runNextJob(deps());

    expect(await job(id)).toMatchObject({ status: "done", rule_version: 1 });
    const scores = await scoreTable(db, c);
    expect(scores).toEqual(await replayed(db, c, richRules(c)));
    expect(scores.some((r) => r.userId === from)).toBe(false);
  });

  it("resumes an interrupted job from its checkpoint without counting a chunk twice", async () => {
    const c = "rcmp-0003";
    await campaignWithEvents(c, 10);
    const v2 = richRules(c, 2, { perUnit: "2" });
    await addRuleVersion(db, v2);
    const id = await queueJob(db, c, 2, "rule-activation");
    let chunks = 0;
    await runNextJob(
      deps({
        async afterChunk() {
          if (++chunks === 2) throw new RetryableError("worker-stopping", "stopping for the test");
        },
      }),
    );
    expect(await job(id)).toMatchObject({ status: "running", events_done: 6, applied_seq: expect.not.stringMatching(/^0$/) });
    // Old scores are still the ones served.
    expect(await scoreTable(db, c)).toEqual(await replayed(db, c, richRules(c)));

    expect(await runNextJob(deps())).toBe(true);
    expect(await job(id)).toMatchObject({ status: "done", events_total: 10, events_done: 10 });
    expect(await scoreTable(db, c)).toEqual(await replayed(db, c, v2));
  });

  it("fails a job whose rules cannot score the log and keeps serving the old scores", async () => {
    const c = "rcmp-0004";
    await campaignWithEvents(c, 4);
    const before = await scoreTable(db, c);
    // Decay with a 1-hour half-life and an epoch decades before the events: beyond what can be stored.
    const broken = richRules(c, 2);
    broken.currencies.gems = { name: "Gems", decimals: 0, decay: { halfLifeSeconds: 3600, epoch: "2000-01-01T00:00:00Z" } };
    await addRuleVersion(db, broken);
    const id = await queueJob(db, c, 2, "rule-activation");
    await runNextJob(deps());

    const failed = await job(id);
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/half-lives|decay/);
    expect(await scoreTable(db, c)).toEqual(before);
    const { rows } = await db.query("SELECT version, status FROM rule_version WHERE campaign_id = $1 ORDER BY version", [c]);
    expect(rows).toEqual([
      { version: 1, status: "active" },
      { version: 2, status: "draft" },
    ]);
  });

  it("fails an activation whose switch loses to a version made active meanwhile without the apply lock, keeping the old scores and one active version", async () => {
    const c = "rcmp-0006";
    await campaignWithEvents(c, 4);
    const before = await scoreTable(db, c);
    await addRuleVersion(db, richRules(c, 2, { perUnit: "4" }));
    await addRuleVersion(db, richRules(c, 3, { perUnit: "5" }));
    const id = await queueJob(db, c, 2, "rule-activation");
    let commitOther!: () => void;
    const otherMayCommit = new Promise<void>((resolve) => {
      commitOther = resolve;
    });
    let otherPid!: number;
    let otherSwitched!: () => void;
    const otherHasSwitched = new Promise<void>((resolve) => {
      otherSwitched = resolve;
    });
    // Another writer retires version 1 and activates version 3 in a transaction still open when the worker's switch runs.
    const other = db.transaction(async (tx) => {
      otherPid = await backendPid(tx);
      await activateRuleVersion(tx, c, 3);
      otherSwitched();
      await otherMayCommit;
    });
    await otherHasSwitched;
    const running = runNextJob(deps());
    try {
      // The switch retires version 1 too, so it waits for the other writer's row lock.
      await waitUntilBlockedBy(db, otherPid, "the switch to wait for the other writer");
    } finally {
      commitOther();
    }
    await other;
    expect(await running).toBe(true);

    expect(await job(id)).toMatchObject({
      status: "failed",
      error: `concurrent-activation: rule version 2 of campaign ${c} cannot become active: another version of the campaign became active at the same time, and a campaign has at most one active rule version`,
    });
    expect(await scoreTable(db, c)).toEqual(before);
    const { rows } = await db.query("SELECT version, status FROM rule_version WHERE campaign_id = $1 ORDER BY version", [c]);
    expect(rows).toEqual([
      { version: 1, status: "superseded" },
      { version: 2, status: "draft" },
      { version: 3, status: "active" },
    ]);
  });

  it("runs one campaign's jobs one at a time in the order they were queued", async () => {
    const c = "rcmp-0005";
    await campaignWithEvents(c, 3);
    await addRuleVersion(db, richRules(c, 2, { perUnit: "5" }));
    const link = await queueJob(db, c, 1, "identity-link");
    const activation = await queueJob(db, c, 2, "rule-activation");
    // The queue order holds when the clock does not: the later job's created_at a second earlier
    // (a clock step back).
    await db.query("UPDATE recompute_job SET created_at = created_at - interval '1 second' WHERE id = $1", [activation]);
    await runNextJob(deps());
    expect((await job(link)).status).toBe("done");
    expect((await job(activation)).status).toBe("queued");
    await runNextJob(deps());
    expect((await job(activation)).status).toBe("done");
    expect(await scoreTable(db, c)).toEqual((await replayed(db, c, richRules(c, 2, { perUnit: "5" }))).map(canonicalRow));
  });
});
