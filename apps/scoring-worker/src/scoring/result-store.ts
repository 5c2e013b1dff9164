// Reads and writes what the engine keeps per target (live tables or a recompute's shadow copies): state, scores, ledger.
import { copyRow, type StatementQueue } from "@pointwise/db";
import type { ApplyResult, CampaignState, LedgerEntry, RuleVersion, UserState } from "@pointwise/rules";

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

/** What the engine remembers for a target: the users' states and the campaign's (null when not kept). */
export interface StoredState {
  users: Record<string, UserState>;
  campaign: CampaignState | null;
}

/**
 * Queues the reads of the target's stored state for these users, and of the campaign state when
 * the rule version needs it; resolves once both have answered.
 */
export function loadState(p: StatementQueue, t: Target, userIds: readonly string[], withCampaign: boolean): Promise<StoredState> {
  const { state, scope, scopeValue } = tables(t);
  const users = p.query<{ user_id: string; state: UserState }>(`SELECT user_id, state FROM ${state} WHERE ${scope} = $1 AND user_id = ANY($2::uuid[])`, [
    scopeValue,
    userIds,
  ]);
  const campaign = !withCampaign
    ? null
    : t.kind === "live"
      ? p.query<{ state: CampaignState }>("SELECT state FROM campaign_state WHERE campaign_id = $1", [t.campaignId])
      : p.query<{ state: CampaignState }>("SELECT state FROM recompute_campaign_state WHERE job_id = $1", [t.jobId]);
  return Promise.all([users, campaign]).then(([u, c]) => {
    const out: Record<string, UserState> = {};
    for (const r of u.rows) out[r.user_id] = r.state;
    return { users: out, campaign: c?.rows[0]?.state ?? null };
  });
}

/** Queues the upsert of score deltas (additions, so they commute with any other batch's). */
export function queueScores(p: StatementQueue, t: Target, result: ApplyResult): void {
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
  p.query(
    `INSERT INTO ${score} AS s (${scope}, user_id, currency, score, referral_score, total, lifetime, tier, reached_at${updatedAt})
     SELECT $1, d.user_id, d.currency, d.score, d.referral_score, d.score + d.referral_score, d.lifetime, d.tier, d.reached_at${t.kind === "live" ? ", now()" : ""}
       FROM json_to_recordset($2::json)
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

/** Queues the upsert of the users' and the campaign's new engine state. */
export function queueStates(p: StatementQueue, t: Target, rules: RuleVersion, result: ApplyResult): void {
  const users = Object.entries(result.users).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (users.length > 0) {
    // One JSON document of all states: far cheaper than an array of texts for thousands of users. json
    // throughout: the states are stored as sent (see migration 20261121500100_engine_state_json).
    const states = JSON.stringify(users.map(([user_id, state]) => ({ user_id, state })));
    if (t.kind === "live") {
      p.query(
        `INSERT INTO user_state(campaign_id, user_id, rule_version, state, updated_at)
         SELECT $1, x.user_id, $2, x.state, now() FROM json_to_recordset($3::json) AS x(user_id uuid, state json)
         ON CONFLICT (campaign_id, user_id) DO UPDATE SET rule_version = EXCLUDED.rule_version, state = EXCLUDED.state, updated_at = now()`,
        [t.campaignId, rules.version, states],
      );
    } else {
      p.query(
        `INSERT INTO recompute_user_state(job_id, user_id, state) SELECT $1, x.user_id, x.state FROM json_to_recordset($2::json) AS x(user_id uuid, state json)
         ON CONFLICT (job_id, user_id) DO UPDATE SET state = EXCLUDED.state`,
        [t.jobId, states],
      );
    }
  }
  if (result.campaign) {
    const state = JSON.stringify(result.campaign);
    if (t.kind === "live") {
      p.query(
        `INSERT INTO campaign_state(campaign_id, rule_version, state, updated_at) VALUES ($1, $2, $3, now())
         ON CONFLICT (campaign_id) DO UPDATE SET rule_version = EXCLUDED.rule_version, state = EXCLUDED.state, updated_at = now()`,
        [t.campaignId, rules.version, state],
      );
    } else {
      p.query("INSERT INTO recompute_campaign_state(job_id, state) VALUES ($1, $2) ON CONFLICT (job_id) DO UPDATE SET state = EXCLUDED.state", [
        t.jobId,
        state,
      ]);
    }
  }
}

/**
 * The lineage kept in the ledger's json column: what the columns do not already say. Always the
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

const LEDGER_COPY = `COPY ledger_entry(campaign_id, rule_version, entry_key, user_id, event_id, rule_id, currency, kind, points, capped_points, lineage) FROM STDIN`;

/**
 * Queues the insert of ledger entries (those of one engine call, in its order, so ids ascend with
 * the log). The served ledger is written with COPY: it takes rows several times cheaper than an
 * INSERT of a decoded document, and its only index is the primary key. An event's entries are
 * written once, in the transaction that logs the event, so nothing needs a conflict clause there.
 * A recompute job's shadow rows are inserted with ON CONFLICT instead, because a resumed job may
 * score a chunk it had already written.
 */
export function queueLedger(p: StatementQueue, t: Target, rules: RuleVersion, entries: readonly LedgerEntry[]): void {
  if (entries.length === 0) return;
  // `points` is the award before caps and `capped_points` what a cap withheld (paid = points - capped_points).
  if (t.kind === "live") {
    let data = "";
    for (const x of entries) {
      data += copyRow([
        t.campaignId,
        rules.version,
        x.key,
        x.userId,
        x.eventId,
        x.ruleId,
        x.currency,
        x.kind,
        x.points,
        x.capped,
        JSON.stringify(lineageOf(x)),
      ]);
    }
    p.copy(LEDGER_COPY, data);
    return;
  }
  // One JSON document instead of ten arrays: serialising and parsing it is much cheaper for thousands of rows.
  const rows = JSON.stringify(
    entries.map((x, ord) => ({
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
  p.query(
    `INSERT INTO recompute_ledger_entry(job_id, entry_key, seq, ord, user_id, event_id, rule_id, currency, kind, points, capped_points, lineage)
     SELECT $1, entry_key, seq, ord, user_id, event_id, rule_id, currency, kind, points, capped, lineage
       FROM json_to_recordset($2::json) AS x(ord int, seq bigint, entry_key text, user_id uuid, event_id uuid, rule_id text, currency text, kind text,
                                             points numeric, capped numeric, lineage jsonb)
     ON CONFLICT (job_id, entry_key) DO NOTHING`,
    [t.jobId, rows],
  );
}
