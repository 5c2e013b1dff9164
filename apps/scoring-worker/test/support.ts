// Shared pieces of the worker's tests: campaigns and rule versions in a test schema, bus-shaped
// events, and the reference every test compares with: the engine's replay of the stored log.
import { randomUUID } from "node:crypto";
import type { Database, Queryable } from "@pointwise/db";
import { type CampaignWindow, type RawEvent, type RuleVersionInput, replayCampaign, type ScoreRow } from "@pointwise/rules";
import type { RawEventMessage } from "@pointwise/schemas";
import { type SeedDb, seedCampaign, seedEventType, seedRuleVersion } from "@pointwise/testkit";
import Decimal from "decimal.js";

export const SWAP = "6f1c2a4e-8d3b-4c1a-9e7f-2b5d8a9c0e11";
export const LOGIN = "0b7e4d21-53a9-4f6c-8a10-7c3e2f9d4b22";

/**
 * A rule version that exercises every kind of state the worker stores: per-unit and fixed base,
 * a minimum amount, milestones, a cooldown, multipliers (identity type, tier), tiers, rule and
 * currency caps, decay, and referral shares. With `budget`, gems get a campaign-wide budget, which
 * makes the campaign depend on global log order.
 */
export function richRules(campaignId: string, version = 1, opts: { budget?: string; perUnit?: string } = {}): RuleVersionInput {
  return {
    campaignId,
    version,
    primaryCurrency: "xp",
    currencies: {
      xp: {
        name: "Experience",
        decimals: 2,
        tiers: [
          { key: "bronze", name: "Bronze", minLifetime: "0" },
          { key: "silver", name: "Silver", minLifetime: "100", multiplier: "1.1" },
          { key: "gold", name: "Gold", minLifetime: "400", multiplier: "1.25" },
        ],
        caps: [{ period: "day", limit: "700" }],
      },
      gems: { name: "Gems", decimals: 0, decay: { halfLifeSeconds: 86_400, epoch: "2026-01-01T00:00:00Z" }, ...(opts.budget ? { budget: opts.budget } : {}) },
    },
    rules: [
      {
        id: "swap-volume",
        regEventId: SWAP,
        currency: "xp",
        base: { kind: "perUnit", points: opts.perUnit ?? "1.5" },
        minAmount: "2",
        milestones: [
          { id: "volume-200", metric: "amount", level: "200", points: "50" },
          { id: "swaps-5", metric: "count", level: "5", points: "20" },
        ],
        multipliers: [{ kind: "identityType", factors: { EMAIL: "0.5" } }],
        caps: [{ period: "week", limit: "900" }],
      },
      { id: "swap-gems", regEventId: SWAP, currency: "gems", base: { kind: "fixed", points: "3" } },
      { id: "daily-login", regEventId: LOGIN, currency: "xp", base: { kind: "fixed", points: "10" }, cooldownSeconds: 3600 },
    ],
    referral: { shares: { xp: "0.1", gems: "0.5" } },
  };
}

/** Creates a project, a campaign and the two event types. */
export async function createCampaign(db: SeedDb, campaignId: string): Promise<void> {
  await seedCampaign(db, { id: campaignId, name: "Test", currencies: { xp: "Experience", gems: "Gems" }, primary: "xp" });
  // The worker does not look event types up (ingest checks them); the rows are here for completeness,
  // owned by the first campaign of the schema since their ids are fixed.
  await seedEventType(db, campaignId, { id: SWAP, name: "swap" });
  await seedEventType(db, campaignId, { id: LOGIN, name: "login" });
}

/** Stores a rule version row (as admin-api does); `active` makes it the version in force right away. */
export async function addRuleVersion(db: SeedDb, rules: RuleVersionInput, status: "draft" | "active" = "draft"): Promise<void> {
  await seedRuleVersion(db, rules.campaignId, rules, { version: rules.version, status });
}

/** Queues a recompute job the way admin-api does on activation or identity link. */
export async function queueJob(
  pool: Queryable,
  campaignId: string,
  version: number,
  reason: "rule-activation" | "identity-link" | "campaign-dates" | "exclusion",
): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO recompute_job(campaign_id, rule_version, reason, status, events_total)
     SELECT $1, $2, $3, 'queued', count(*) FROM event_log WHERE campaign_id = $1 RETURNING id`,
    [campaignId, version, reason],
  );
  return rows[0]?.id as string;
}

/** A raw event message as ingest publishes it. */
export function message(campaignId: string, over: Partial<RawEventMessage> = {}): RawEventMessage {
  return {
    v: 1,
    event_id: randomUUID(),
    campaign_id: campaignId,
    reg_event_id: SWAP,
    identity_type: "EVM_ADDRESS",
    account_id: "0x0000000000000000000000000000000000000001",
    amount: "10",
    received_at: "2026-03-02T10:00:00.000Z",
    source: "api",
    ...over,
  };
}

/** The campaign's log as the engine's input, read with SQL of its own (not the worker's). */
export async function logOf(pool: Queryable, campaignId: string): Promise<RawEvent[]> {
  const { rows } = await pool.query(
    `SELECT e.seq::text AS seq, e.id, coalesce(i.user_id, e.user_id) AS user_id, e.reg_event_id, e.identity_type, e.amount::text AS amount,
            to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS occurred_at, e.referrer_id
       FROM event_log e
       LEFT JOIN identity i ON (i.campaign_id, i.identity_type, i.account_id) = (e.campaign_id, e.identity_type, e.account_id)
      WHERE e.campaign_id = $1 ORDER BY e.seq`,
    [campaignId],
  );
  return rows.map((r) => ({
    id: r.id,
    seq: r.seq,
    campaignId,
    userId: r.user_id,
    regEventId: r.reg_event_id,
    identityType: r.identity_type,
    amount: r.amount,
    occurredAt: r.occurred_at,
    referrerId: r.referrer_id,
  }));
}

const canon = (v: string) => new Decimal(v).toFixed();

/** A score row in a form two sources can be compared in (exact decimals without trailing zeros). */
export function canonicalRow(r: ScoreRow): ScoreRow {
  return {
    userId: r.userId,
    currency: r.currency,
    score: canon(r.score),
    referralScore: canon(r.referralScore),
    total: canon(r.total),
    lifetime: canon(r.lifetime),
    tier: r.tier,
    reachedAt: r.reachedAt === null ? null : new Date(r.reachedAt).toISOString(),
  };
}

/** The served score rows of a campaign, sorted by user then currency. */
export async function scoreTable(pool: Queryable, campaignId: string): Promise<ScoreRow[]> {
  const { rows } = await pool.query(
    `SELECT user_id, currency, score::text, referral_score::text, total::text, lifetime::text, tier, reached_at FROM score
      WHERE campaign_id = $1 ORDER BY user_id, currency`,
    [campaignId],
  );
  return rows
    .map((r) =>
      canonicalRow({
        userId: r.user_id,
        currency: r.currency,
        score: r.score,
        referralScore: r.referral_score,
        total: r.total,
        lifetime: r.lifetime,
        tier: r.tier,
        reachedAt: r.reached_at.toISOString(),
      }),
    )
    .sort((a, b) => (a.userId === b.userId ? (a.currency < b.currency ? -1 : 1) : a.userId < b.userId ? -1 : 1));
}

/** What a full replay of the stored log under `rules` (and a campaign window) gives, in the same form as scoreTable. */
export async function replayed(db: Database, campaignId: string, rules: RuleVersionInput, window?: CampaignWindow): Promise<ScoreRow[]> {
  const { parseRuleVersion } = await import("@pointwise/rules");
  return replayCampaign(parseRuleVersion(rules), await logOf(db, campaignId), window).rows.map(canonicalRow);
}

/**
 * The campaign's ledger entry keys in id order beside the keys a full replay of the log gives: equal
 * lists mean no award was lost or written twice (the ledger has no unique index to stop a repeat).
 */
export async function ledgerBesideReplay(db: Database, campaignId: string, rules: RuleVersionInput): Promise<{ ledger: string[]; replay: string[] }> {
  const { parseRuleVersion } = await import("@pointwise/rules");
  const { rows } = await db.query<{ entry_key: string }>("SELECT entry_key FROM ledger_entry WHERE campaign_id = $1 ORDER BY id", [campaignId]);
  const replay = replayCampaign(parseRuleVersion(rules), await logOf(db, campaignId));
  return { ledger: rows.map((r) => r.entry_key), replay: replay.entries.map((e) => e.key) };
}
