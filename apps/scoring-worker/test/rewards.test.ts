// Redemptions in the worker: a recompute after a rule change keeps every spend; where the replay earns less than was spent, a shortfall, never a negative balance.
import { addSpent } from "@pointwise/db";
import { createLogger } from "@pointwise/logger";
import { parseRuleVersion, type RuleVersionInput, storedSpend } from "@pointwise/rules";
import { createTestDatabase, seedReward, uniqueName } from "@pointwise/testkit";
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
  db = await createTestDatabase(uniqueName("t_worker_rewards"));
});
afterAll(async () => {
  await db?.drop();
});

const BOB = `0x${"b".repeat(40)}`;

function swapRules(campaignId: string, version: number, points: string): RuleVersionInput {
  return {
    campaignId,
    version,
    primaryCurrency: "xp",
    currencies: { xp: { name: "Experience", decimals: 2 } },
    rules: [{ id: "swap", regEventId: SWAP, currency: "xp", base: { kind: "fixed", points } }],
  };
}

async function swaps(campaignId: string, n: number): Promise<void> {
  await stageMessages(
    db,
    Array.from({ length: n }, () => ({ stream: "RW", streamSeq: ++streamSeq, subject: "rw.events", event: message(campaignId, { account_id: BOB }) })),
  );
  await createApplier({
    db,
    logger,
    rules: new RuleVersionCache(),
    stream: "RW",
    batchSize: 10,
    maxAttempts: 3,
    retryDelayMs: 50,
    floor: async () => streamSeq,
  }).drainCampaign(campaignId, streamSeq);
}

const recompute = () => runNextJob({ db, logger, rules: new RuleVersionCache(), chunkSize: 2, sliceSize: 1, leaseMs: 60_000 });

/** A redemption as portal-api makes it: the row and the spend from the score row, in one transaction. */
async function redeem(campaignId: string, userId: string, price: string, rules: RuleVersionInput, status = "pending"): Promise<string> {
  const rewardId = await seedReward(db, campaignId, { name: "mug", price });
  return db.transaction(async (tx) => {
    const now = new Date();
    expect(await addSpent(tx, campaignId, userId, "xp", storedSpend(parseRuleVersion(rules), "xp", price, now))).toBe(true);
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO redemption(campaign_id, reward_id, user_id, idempotency_key, request_hash, channel, kind, currency, price, balance_before, balance_after, status, created_at)
       SELECT $1, $2, $3, gen_random_uuid()::text, 'h', 'portal', 'manual', 'xp', $4, b, b - $4::numeric, $5, $6
         FROM (SELECT total - spent AS b FROM score WHERE campaign_id = $1 AND user_id = $3 AND currency = 'xp') s RETURNING id`,
      [campaignId, rewardId, userId, price, status, now],
    );
    return rows[0]?.id as string;
  });
}

async function row(campaignId: string, userId: string) {
  const { rows } = await db.query<{ total: string; spent: string; balance: string }>(
    "SELECT trim_scale(total)::text AS total, trim_scale(spent)::text AS spent, trim_scale(balance)::text AS balance FROM score WHERE campaign_id = $1 AND user_id = $2 AND currency = 'xp'",
    [campaignId, userId],
  );
  return rows[0] ?? null;
}

async function userOf(campaignId: string): Promise<string> {
  const { rows } = await db.query<{ user_id: string }>("SELECT user_id FROM identity WHERE campaign_id = $1 AND account_id = $2", [campaignId, BOB]);
  return rows[0]?.user_id as string;
}

describe("redemptions and recomputes", () => {
  it("a recompute after a rule change keeps every redemption: scores = replay + adjustments, balance = total - counted redemptions", async () => {
    const c = "rewd-0001";
    await createCampaign(db, c);
    const v1 = swapRules(c, 1, "10");
    await addRuleVersion(db, v1, "active");
    await swaps(c, 3);
    const bob = await userOf(c);
    await db.query(
      "INSERT INTO score_adjustment(campaign_id, user_id, currency, points, reason, operator_email) VALUES ($1, $2, 'xp', 20, 'bonus', 'ops@pointwise.test')",
      [c, bob],
    );
    await db.query("UPDATE score SET score = score + 20, total = total + 20, lifetime = lifetime + 20 WHERE campaign_id = $1 AND user_id = $2", [c, bob]);
    await redeem(c, bob, "25", v1);
    await redeem(c, bob, "12.5", v1);
    const rejected = await redeem(c, bob, "5", v1);
    // A rejected redemption is refunded (admin-api gives the points back) and no longer counts.
    await db.query("UPDATE redemption SET status = 'rejected' WHERE id = $1", [rejected]);
    await addSpent(db, c, bob, "xp", "-5");
    // 3 x 10 + 20 = 50 earned; 25 + 12.5 spent; 50 - 37.5 = 12.5 left.
    expect(await row(c, bob)).toEqual({ total: "50", spent: "37.5", balance: "12.5" });

    await addRuleVersion(db, swapRules(c, 2, "25"));
    await queueJob(db, c, 2, "rule-activation");
    expect(await recompute()).toBe(true);
    // 3 x 25 + 20 = 95 earned; the same 37.5 spent; 95 - 37.5 = 57.5.
    expect(await row(c, bob)).toEqual({ total: "95", spent: "37.5", balance: "57.5" });

    await addRuleVersion(db, swapRules(c, 3, "1"));
    await queueJob(db, c, 3, "rule-activation");
    expect(await recompute()).toBe(true);
    // 3 x 1 + 20 = 23 earned, less than the 37.5 spent: the balance stops at 0 and 37.5 - 23 = 14.5 is a shortfall.
    expect(await row(c, bob)).toEqual({ total: "23", spent: "37.5", balance: "0" });
    const { rows: kept } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM redemption WHERE campaign_id = $1 AND status <> 'rejected'", [c]);
    expect(kept[0]?.n).toBe(2);
    // Later earnings fill the shortfall first: 15 swaps x 1 = 38 earned, 38 - 37.5 = 0.5 left.
    await swaps(c, 15);
    expect(await row(c, bob)).toEqual({ total: "38", spent: "37.5", balance: "0.5" });
    // A spend that does not fit the stored balance changes nothing.
    expect(await addSpent(db, c, bob, "xp", "0.51")).toBe(false);
    expect(await row(c, bob)).toEqual({ total: "38", spent: "37.5", balance: "0.5" });
  });

  it("keeps redemption facts append-only: only the status moves, nothing is deleted", async () => {
    const c = "rewd-0002";
    await createCampaign(db, c);
    const v1 = swapRules(c, 1, "10");
    await addRuleVersion(db, v1, "active");
    await swaps(c, 1);
    const id = await redeem(c, await userOf(c), "4", v1);
    await expect(db.query("UPDATE redemption SET price = 1 WHERE id = $1", [id])).rejects.toThrow(/only its status may change/);
    await expect(db.query("UPDATE redemption SET balance_after = 100 WHERE id = $1", [id])).rejects.toThrow(/only its status may change/);
    await expect(db.query("DELETE FROM redemption WHERE id = $1", [id])).rejects.toThrow(/append-only/);
    await db.query("UPDATE redemption SET status = 'fulfilled', status_note = 'shipped' WHERE id = $1", [id]);
    // The balance lineage is checked by the table: before - price = after, after >= 0.
    await expect(
      db.query(
        `INSERT INTO redemption(campaign_id, reward_id, user_id, idempotency_key, request_hash, channel, kind, currency, price, balance_before, balance_after, status)
         SELECT campaign_id, reward_id, user_id, 'x', 'h', 'portal', 'manual', 'xp', 4, 3, -1, 'pending' FROM redemption WHERE id = $1`,
        [id],
      ),
    ).rejects.toThrow(/redemption_balance_check/);
  });
});
