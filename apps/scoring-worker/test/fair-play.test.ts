// Fair play in the worker: excluded users earn nothing live or on recompute, and operator adjustments survive every recompute.
import { addAdjustmentScores, readAdjustments } from "@pointwise/db";
import { createLogger } from "@pointwise/logger";
import { adjustmentDeltas, parseRuleVersion, type RuleVersionInput } from "@pointwise/rules";
import { createTestDatabase, uniqueName } from "@pointwise/testkit";
import { createApplier } from "../src/apply/inbox-drainer";
import { stageMessages } from "../src/intake/inbox";
import { runNextJob } from "../src/recompute/recompute-job";
import { RuleVersionCache } from "../src/scoring/rule-version-cache";
import { addRuleVersion, createCampaign, message, queueJob, SWAP } from "./support";

type Db = Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
const logger = createLogger({ service: "test", level: "silent" });
let streamSeq = 0;

beforeAll(async () => {
  db = await createTestDatabase(uniqueName("t_worker_fair"));
});
afterAll(async () => {
  await db?.drop();
});

const ALICE = `0x${"a".repeat(40)}`;
const BOB = `0x${"b".repeat(40)}`;
const CAROL = `0x${"c".repeat(40)}`;

/** `points` xp per swap; a referrer earns half of what their referees are paid. */
function swapRules(campaignId: string, version: number, points: string, decay = false): RuleVersionInput {
  return {
    campaignId,
    version,
    primaryCurrency: "xp",
    currencies: { xp: { name: "Experience", decimals: 2, ...(decay ? { decay: { halfLifeSeconds: 86_400, epoch: "2026-01-01T00:00:00Z" } } : {}) } },
    rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "fixed", points } }],
    referral: { shares: { xp: "0.5" } },
  };
}

async function applyLive(campaignId: string, accounts: string[]): Promise<void> {
  await stageMessages(
    db,
    accounts.map((account) => ({ stream: "FP", streamSeq: ++streamSeq, subject: "fp.events", event: message(campaignId, { account_id: account }) })),
  );
  await createApplier({
    db,
    logger,
    rules: new RuleVersionCache(),
    stream: "FP",
    batchSize: 2,
    maxAttempts: 3,
    retryDelayMs: 50,
    floor: async () => streamSeq,
  }).drainCampaign(campaignId, streamSeq);
}

const recompute = () => runNextJob({ db, logger, rules: new RuleVersionCache(), chunkSize: 2, sliceSize: 1, leaseMs: 60_000 });

async function userOf(campaignId: string, account: string): Promise<string> {
  const { rows } = await db.query<{ user_id: string }>("SELECT user_id FROM identity WHERE campaign_id = $1 AND account_id = $2", [campaignId, account]);
  return rows[0]?.user_id as string;
}

/** Each account's xp row as stored: total and referral part, or null when the user has no row. */
async function xp(campaignId: string, account: string): Promise<{ total: string; referral: string; lifetime: string } | null> {
  const { rows } = await db.query<{ total: string; referral: string; lifetime: string }>(
    `SELECT trim_scale(s.total)::text AS total, trim_scale(s.referral_score)::text AS referral, trim_scale(s.lifetime)::text AS lifetime
       FROM score s JOIN identity i ON i.user_id = s.user_id AND i.campaign_id = s.campaign_id
      WHERE s.campaign_id = $1 AND i.account_id = $2 AND s.currency = 'xp'`,
    [campaignId, account],
  );
  return rows[0] ?? null;
}

async function excludeIdentity(campaignId: string, account: string, scope: "campaign" | "project" = "campaign"): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO exclusion(project_id, campaign_id, identity_type, account_id, reason)
     SELECT project_id, CASE WHEN $3 = 'campaign' THEN id END, 'EVM_ADDRESS', $2, 'sybil' FROM campaign WHERE id = $1 RETURNING id`,
    [campaignId, account, scope],
  );
  return rows[0]?.id as string;
}

/** Makes an adjustment as admin-api does: the append-only row, then the served score row under the active rules. */
async function adjust(campaignId: string, userId: string, points: string, rules: RuleVersionInput): Promise<void> {
  await db.query(
    "INSERT INTO score_adjustment(campaign_id, user_id, currency, points, reason, operator_email) VALUES ($1, $2, 'xp', $3, 'test', 'op@pointwise.test')",
    [campaignId, userId, points],
  );
  const all = await readAdjustments(db, campaignId);
  const last = all.at(-1);
  if (last) await addAdjustmentScores(db, campaignId, adjustmentDeltas(parseRuleVersion(rules), [last]));
}

describe("exclusions in the scoring worker", () => {
  it("logs an excluded identity's events but scores none of them; lifting the exclusion and recomputing pays them", async () => {
    const c = "fair-0001";
    await createCampaign(db, c);
    await addRuleVersion(db, swapRules(c, 1, "10"), "active");
    const exclusion = await excludeIdentity(c, ALICE);
    await applyLive(c, [ALICE, BOB, ALICE]);
    expect(await xp(c, ALICE)).toBeNull();
    expect(await xp(c, BOB)).toEqual({ total: "10", referral: "0", lifetime: "10" });
    const { rows: log } = await db.query<{ n: string }>("SELECT count(*)::text AS n FROM event_log WHERE campaign_id = $1", [c]);
    expect(log[0]?.n).toBe("3");
    const { rows: ledger } = await db.query("SELECT 1 FROM ledger_entry WHERE campaign_id = $1 AND user_id = $2", [c, await userOf(c, ALICE)]);
    expect(ledger).toEqual([]);

    await db.query("DELETE FROM exclusion WHERE id = $1", [exclusion]);
    await queueJob(db, c, 1, "exclusion");
    expect(await recompute()).toBe(true);
    // Two swaps of 10 xp each.
    expect(await xp(c, ALICE)).toEqual({ total: "20", referral: "0", lifetime: "20" });
    expect(await xp(c, BOB)).toEqual({ total: "10", referral: "0", lifetime: "10" });
  });

  it("applies a project-wide exclusion to the project's campaign too", async () => {
    const c = "fair-0002";
    await createCampaign(db, c);
    await addRuleVersion(db, swapRules(c, 1, "10"), "active");
    await excludeIdentity(c, CAROL, "project");
    await applyLive(c, [CAROL, BOB]);
    expect(await xp(c, CAROL)).toBeNull();
    expect(await xp(c, BOB)).toEqual({ total: "10", referral: "0", lifetime: "10" });
  });

  it("pays an excluded referrer no share, live or on recompute, and a recompute drops every row of an excluded user", async () => {
    const c = "fair-0003";
    await createCampaign(db, c);
    await addRuleVersion(db, swapRules(c, 1, "10"), "active");
    await applyLive(c, [ALICE, BOB]);
    const [alice, bob] = [await userOf(c, ALICE), await userOf(c, BOB)];
    await db.query("UPDATE app_user SET referrer_id = $2, referred_at = now() WHERE id = $1", [bob, alice]);
    await applyLive(c, [BOB]);
    // Alice: her own 10 and half of Bob's second 10 (a referral share is not part of lifetime).
    expect(await xp(c, ALICE)).toEqual({ total: "15", referral: "5", lifetime: "10" });
    await db.query("INSERT INTO exclusion(project_id, campaign_id, user_id, reason) SELECT project_id, id, $2, 'farm' FROM campaign WHERE id = $1", [c, alice]);
    await applyLive(c, [BOB]);
    expect(await xp(c, ALICE)).toEqual({ total: "15", referral: "5", lifetime: "10" });
    expect(await xp(c, BOB)).toEqual({ total: "30", referral: "0", lifetime: "30" });
    await queueJob(db, c, 1, "exclusion");
    expect(await recompute()).toBe(true);
    expect(await xp(c, ALICE)).toBeNull();
    expect(await xp(c, BOB)).toEqual({ total: "30", referral: "0", lifetime: "30" });
  });
});

describe("adjustments in the scoring worker", () => {
  it("adds grants and deductions back on top of a rule activation's replay, for users with and without events", async () => {
    const c = "fair-0004";
    await createCampaign(db, c);
    const v1 = swapRules(c, 1, "10");
    await addRuleVersion(db, v1, "active");
    await applyLive(c, [BOB, BOB, ALICE]);
    const bob = await userOf(c, BOB);
    const { rows: created } = await db.query<{ id: string }>("INSERT INTO app_user(campaign_id) VALUES ($1) RETURNING id", [c]);
    const carol = created[0]?.id as string;
    await adjust(c, bob, "100", v1);
    await adjust(c, bob, "-30.5", v1);
    await adjust(c, carol, "50", v1);
    // Bob: 2 x 10 + 100 - 30.5.
    expect(await xp(c, BOB)).toEqual({ total: "89.5", referral: "0", lifetime: "89.5" });
    const v2 = swapRules(c, 2, "25");
    await addRuleVersion(db, v2);
    await queueJob(db, c, 2, "rule-activation");
    expect(await recompute()).toBe(true);
    // Bob: 2 x 25 + 100 - 30.5; Alice: 25; Carol: 50 from the grant alone.
    expect(await xp(c, BOB)).toEqual({ total: "119.5", referral: "0", lifetime: "119.5" });
    expect(await xp(c, ALICE)).toEqual({ total: "25", referral: "0", lifetime: "25" });
    const { rows: carolRow } = await db.query<{ total: string }>("SELECT trim_scale(total)::text AS total FROM score WHERE campaign_id = $1 AND user_id = $2", [
      c,
      carol,
    ]);
    expect(carolRow).toEqual([{ total: "50" }]);
    // The ledger of operator adjustments is append-only.
    await expect(db.query("UPDATE score_adjustment SET points = 1 WHERE campaign_id = $1", [c])).rejects.toThrow(/append-only/);
    await expect(db.query("DELETE FROM score_adjustment WHERE campaign_id = $1", [c])).rejects.toThrow(/append-only/);
  });

  it("keeps an excluded user's adjustments out of the scores until the exclusion is lifted", async () => {
    const c = "fair-0005";
    await createCampaign(db, c);
    const v1 = swapRules(c, 1, "10");
    await addRuleVersion(db, v1, "active");
    await applyLive(c, [ALICE]);
    const alice = await userOf(c, ALICE);
    await adjust(c, alice, "40", v1);
    const exclusion = await excludeIdentity(c, ALICE);
    await queueJob(db, c, 1, "exclusion");
    expect(await recompute()).toBe(true);
    expect(await xp(c, ALICE)).toBeNull();
    await db.query("DELETE FROM exclusion WHERE id = $1", [exclusion]);
    await queueJob(db, c, 1, "exclusion");
    expect(await recompute()).toBe(true);
    expect(await xp(c, ALICE)).toEqual({ total: "50", referral: "0", lifetime: "50" });
  });

  it("stores a grant in a decaying currency scaled by its own time, and its reversal cancels it to the last digit", async () => {
    const c = "fair-0006";
    await createCampaign(db, c);
    const v1 = swapRules(c, 1, "10", true);
    await addRuleVersion(db, v1, "active");
    const { rows: created } = await db.query<{ id: string }>("INSERT INTO app_user(campaign_id) VALUES ($1) RETURNING id", [c]);
    const dave = created[0]?.id as string;
    // Two half-lives after the epoch, 7 points are stored as 7 x 2^2 = 28.
    const at = new Date("2026-01-03T00:00:00Z");
    const delta = adjustmentDeltas(parseRuleVersion(v1), [{ userId: dave, currency: "xp", points: "7", createdAt: at }]);
    expect(delta).toEqual([{ userId: dave, currency: "xp", score: "28", lifetime: "7", at: at.toISOString() }]);
    const both = adjustmentDeltas(parseRuleVersion(v1), [
      { userId: dave, currency: "xp", points: "3.33", createdAt: new Date("2026-02-07T05:13:00Z") },
      { userId: dave, currency: "xp", points: "-3.33", createdAt: new Date("2026-02-07T05:13:00Z") },
    ]);
    expect(both[0]?.score).toBe("0");
  });
});
