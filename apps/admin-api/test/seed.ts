// Test support for admin-api: logs events and activates rule versions as the scoring worker would.
import { activateRuleVersion, type Database, readCampaignLog } from "@pointwise/db";
import { parseRuleVersion, replayCampaign } from "@pointwise/rules";

/** One raw event as a test logs it. */
export interface TestEvent {
  identityType: string;
  accountId: string;
  amount: string;
  regEventId: string;
  /** When ingest received it; now when absent. */
  receivedAt?: string;
  /** When it happened; its receivedAt when absent (an event reported without occurred_at). */
  occurredAt?: string;
  source?: string;
}

/**
 * Logs events the way the scoring worker does (identity -> user, creating both when new; then the
 * append-only log, each event with its user's referrer), so admin-api is tested against the rows it will
 * really find. Returns each event's user.
 */
export async function logEvents(db: Database, campaignId: string, events: readonly TestEvent[]): Promise<string[]> {
  const users: string[] = [];
  for (const e of events) {
    const receivedAt = e.receivedAt ?? new Date().toISOString();
    const found = await db.query<{ user_id: string }>("SELECT user_id FROM identity WHERE campaign_id = $1 AND identity_type = $2 AND account_id = $3", [
      campaignId,
      e.identityType,
      e.accountId,
    ]);
    let userId = found.rows[0]?.user_id;
    if (!userId) {
      const created = await db.query<{ id: string }>("INSERT INTO app_user(campaign_id) VALUES ($1) RETURNING id", [campaignId]);
      userId = created.rows[0]?.id as string;
      await db.query("INSERT INTO identity(campaign_id, user_id, identity_type, account_id) VALUES ($1, $2, $3, $4)", [
        campaignId,
        userId,
        e.identityType,
        e.accountId,
      ]);
    }
    // Stamped with the user's referrer at this moment, as the worker logs it.
    await db.query(
      `INSERT INTO event_log(id, campaign_id, reg_event_id, user_id, identity_type, account_id, amount, source, received_at, occurred_at, referrer_id)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, $8, $9, (SELECT referrer_id FROM app_user WHERE id = $3))`,
      [campaignId, e.regEventId, userId, e.identityType, e.accountId, e.amount, e.source ?? "api", receivedAt, e.occurredAt ?? receivedAt],
    );
    users.push(userId);
  }
  return users;
}

/**
 * Stands in for the scoring worker finishing an activation: replays the log under the version with
 * the real engine, writes its ledger entries and score rows, and makes the version the active one.
 */
export async function activateAsWorker(db: Database, campaignId: string, version: number): Promise<void> {
  const { rows: docs } = await db.query<{ document: unknown }>("SELECT document FROM rule_version WHERE campaign_id = $1 AND version = $2", [
    campaignId,
    version,
  ]);
  const rules = parseRuleVersion(docs[0]?.document);
  const events = await readCampaignLog(db, campaignId);
  const replay = replayCampaign(rules, events);
  await db.query("DELETE FROM score WHERE campaign_id = $1", [campaignId]);
  for (const e of replay.entries) {
    await db.query(
      `INSERT INTO ledger_entry(campaign_id, user_id, event_id, rule_version, rule_id, currency, kind, points, capped_points, lineage)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        campaignId,
        e.userId,
        e.eventId,
        version,
        e.ruleId,
        e.currency,
        e.kind,
        e.points,
        e.capped,
        JSON.stringify({ basePoints: e.basePoints, multipliers: e.multipliers, cappedBy: e.cappedBy }),
      ],
    );
  }
  for (const r of replay.rows) {
    await db.query("INSERT INTO score(campaign_id, user_id, currency, score, referral_score, total, lifetime, tier) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", [
      campaignId,
      r.userId,
      r.currency,
      r.score,
      r.referralScore,
      r.total,
      r.lifetime,
      r.tier,
    ]);
  }
  await db.transaction((tx) => activateRuleVersion(tx, campaignId, version));
}
