import {
  type ApplyResult,
  applyEvents,
  type CampaignState,
  type LedgerEntry,
  needsGlobalOrder,
  type RawEvent,
  type RuleVersion,
  type UserState,
} from "@pointwise/rules";
import type { PoolClient } from "pg";

/**
 * Where an engine result is written: the served tables (score, user_state, campaign_state,
 * ledger_entry) or a recompute job's shadow copies of them, which the job switches in at the end.
 */
export type Target = { kind: "live"; campaignId: string } | { kind: "shadow"; campaignId: string; jobId: string };

interface Tables {
  score: string;
  state: string;
  /** The column that scopes rows to this target, and its value. */
  scope: string;
  scopeValue: string;
}

// Identifiers below are constants chosen here, never input.
function tables(t: Target): Tables {
  return t.kind === "live"
    ? { score: "score", state: "user_state", scope: "campaign_id", scopeValue: t.campaignId }
    : { score: "recompute_score", state: "recompute_user_state", scope: "job_id", scopeValue: t.jobId };
}

async function loadUsers(client: PoolClient, t: Target, userIds: readonly string[]): Promise<Record<string, UserState>> {
  const { state, scope, scopeValue } = tables(t);
  const { rows } = await client.query<{ user_id: string; state: UserState }>(
    `SELECT user_id, state FROM ${state} WHERE ${scope} = $1 AND user_id = ANY($2::uuid[])`,
    [scopeValue, [...userIds]],
  );
  return Object.fromEntries(rows.map((r) => [r.user_id, r.state]));
}

async function loadCampaign(client: PoolClient, t: Target): Promise<CampaignState | null> {
  const { rows } =
    t.kind === "live"
      ? await client.query<{ state: CampaignState }>("SELECT state FROM campaign_state WHERE campaign_id = $1", [t.campaignId])
      : await client.query<{ state: CampaignState }>("SELECT state FROM recompute_campaign_state WHERE job_id = $1", [t.jobId]);
  return rows[0]?.state ?? null;
}

async function writeScores(client: PoolClient, t: Target, result: ApplyResult): Promise<void> {
  const d = result.scoreDeltas;
  if (d.length === 0) return;
  const { score, scope, scopeValue } = tables(t);
  const updatedAt = t.kind === "live" ? ", updated_at" : "";
  // Deltas are additions (and GREATEST for reached_at), so they commute: the order batches land in
  // does not matter. Rows go in sorted so two writers touching the same rows lock them in one order.
  const rows = JSON.stringify(
    d.map((x) => ({
      user_id: x.userId,
      currency: x.currency,
      score: x.score,
      referral_score: x.referralScore,
      lifetime: x.lifetime,
      tier: x.tier ?? null,
      reached_at: x.reachedAt,
    })),
  );
  await client.query(
    `INSERT INTO ${score} AS s (${scope}, user_id, currency, score, referral_score, total, lifetime, tier, reached_at${updatedAt})
     SELECT $1, d.user_id, d.currency, d.score, d.referral_score, d.score + d.referral_score, d.lifetime, d.tier, d.reached_at${t.kind === "live" ? ", now()" : ""}
       FROM jsonb_to_recordset($2::jsonb)
            AS d(user_id uuid, currency text, score numeric, referral_score numeric, lifetime numeric, tier text, reached_at timestamptz)
      ORDER BY d.user_id, d.currency
     ON CONFLICT (${scope}, user_id, currency) DO UPDATE SET
       score = s.score + EXCLUDED.score,
       referral_score = s.referral_score + EXCLUDED.referral_score,
       total = s.total + EXCLUDED.score + EXCLUDED.referral_score,
       lifetime = s.lifetime + EXCLUDED.lifetime,
       tier = COALESCE(EXCLUDED.tier, s.tier),
       reached_at = GREATEST(s.reached_at, EXCLUDED.reached_at)${t.kind === "live" ? ", updated_at = now()" : ""}`,
    [scopeValue, rows],
  );
}

async function writeStates(client: PoolClient, t: Target, rules: RuleVersion, result: ApplyResult): Promise<void> {
  const users = Object.entries(result.users).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (users.length > 0) {
    // One JSON document of all states: far cheaper than an array of jsonb texts for thousands of users.
    const states = JSON.stringify(users.map(([user_id, state]) => ({ user_id, state })));
    if (t.kind === "live") {
      await client.query(
        `INSERT INTO user_state(campaign_id, user_id, rule_version, state, updated_at)
         SELECT $1, x.user_id, $2, x.state, now() FROM jsonb_to_recordset($3::jsonb) AS x(user_id uuid, state jsonb)
         ON CONFLICT (campaign_id, user_id) DO UPDATE SET rule_version = EXCLUDED.rule_version, state = EXCLUDED.state, updated_at = now()`,
        [t.campaignId, rules.version, states],
      );
    } else {
      await client.query(
        `INSERT INTO recompute_user_state(job_id, user_id, state) SELECT $1, x.user_id, x.state FROM jsonb_to_recordset($2::jsonb) AS x(user_id uuid, state jsonb)
         ON CONFLICT (job_id, user_id) DO UPDATE SET state = EXCLUDED.state`,
        [t.jobId, states],
      );
    }
  }
  if (result.campaign) {
    const state = JSON.stringify(result.campaign);
    if (t.kind === "live") {
      await client.query(
        `INSERT INTO campaign_state(campaign_id, rule_version, state, updated_at) VALUES ($1, $2, $3, now())
         ON CONFLICT (campaign_id) DO UPDATE SET rule_version = EXCLUDED.rule_version, state = EXCLUDED.state, updated_at = now()`,
        [t.campaignId, rules.version, state],
      );
    } else {
      await client.query("INSERT INTO recompute_campaign_state(job_id, state) VALUES ($1, $2) ON CONFLICT (job_id) DO UPDATE SET state = EXCLUDED.state", [
        t.jobId,
        state,
      ]);
    }
  }
}

/**
 * The lineage kept in the ledger's jsonb column: what the columns do not already say. Always the
 * base points, the multipliers and the limits that cut the award; the rest only when it adds
 * something (a referral's source, a milestone, a decay-scaled amount that differs from the paid one).
 */
export function lineageOf(x: LedgerEntry): Record<string, unknown> {
  const out: Record<string, unknown> = { seq: x.seq, basePoints: x.basePoints, multipliers: x.multipliers, cappedBy: x.cappedBy, paid: x.paid };
  if (x.sourceUserId !== x.userId) out.sourceUserId = x.sourceUserId;
  if (x.milestoneId !== null) out.milestoneId = x.milestoneId;
  if (x.scaledPaid !== x.paid) out.scaledPaid = x.scaledPaid;
  return out;
}

async function writeLedger(client: PoolClient, t: Target, rules: RuleVersion, result: ApplyResult): Promise<void> {
  if (result.entries.length === 0) return;
  // `points` is the award before caps and `capped_points` what a cap withheld (paid = points - capped_points).
  // One JSON document instead of ten arrays: serialising and parsing it is much cheaper for thousands of rows.
  const rows = JSON.stringify(
    result.entries.map((x, ord) => ({
      ord,
      seq: x.seq,
      entry_key: x.key,
      user_id: x.userId,
      event_id: x.eventId,
      rule_id: x.ruleId,
      currency: x.currency,
      kind: x.kind,
      points: x.points,
      capped: x.capped,
      lineage: lineageOf(x),
    })),
  );
  const input = `jsonb_to_recordset($2::jsonb) AS x(ord int, seq bigint, entry_key text, user_id uuid, event_id uuid, rule_id text, currency text, kind text,
                                                  points numeric, capped numeric, lineage jsonb)`;
  if (t.kind === "live") {
    await client.query(
      `INSERT INTO ledger_entry(campaign_id, rule_version, entry_key, user_id, event_id, rule_id, currency, kind, points, capped_points, lineage)
       SELECT $1, $3, entry_key, user_id, event_id, rule_id, currency, kind, points, capped, lineage FROM ${input} ORDER BY ord
       ON CONFLICT (campaign_id, rule_version, entry_key) DO NOTHING`,
      [t.campaignId, rows, rules.version],
    );
  } else {
    await client.query(
      `INSERT INTO recompute_ledger_entry(job_id, entry_key, seq, ord, user_id, event_id, rule_id, currency, kind, points, capped_points, lineage)
       SELECT $1, entry_key, seq, ord, user_id, event_id, rule_id, currency, kind, points, capped, lineage FROM ${input}
       ON CONFLICT (job_id, entry_key) DO NOTHING`,
      [t.jobId, rows],
    );
  }
}

/**
 * Runs the engine over events (ascending seq) with the target's stored state and writes what it
 * returns (ledger entries, score deltas, user and campaign state) in the caller's transaction.
 * Events already covered by a user's state are skipped by the engine, so repeating a batch is harmless.
 */
export async function scoreEvents(client: PoolClient, t: Target, rules: RuleVersion, events: readonly RawEvent[]): Promise<ApplyResult | null> {
  if (events.length === 0) return null;
  const userIds = [...new Set(events.map((e) => e.userId))];
  const users = await loadUsers(client, t, userIds);
  const campaign = needsGlobalOrder(rules) ? await loadCampaign(client, t) : null;
  const result = applyEvents({ rules, events, users, campaign });
  await writeLedger(client, t, rules, result);
  await writeScores(client, t, result);
  await writeStates(client, t, rules, result);
  return result;
}
