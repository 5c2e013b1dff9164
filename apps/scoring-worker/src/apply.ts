import type { RawEventMessage } from "@pointwise/schemas";
import Decimal from "decimal.js";
import type { PoolClient } from "pg";

/** The simple rule of this version: points per unit of amount into one currency. */
interface SimpleRule {
  id: string;
  reg_event_id: string;
  currency: string;
  per_unit: string;
}

interface ActiveRules {
  version: number;
  rules: SimpleRule[];
}

async function activeRules(client: PoolClient, campaignIds: string[]): Promise<Map<string, ActiveRules>> {
  const { rows } = await client.query<{ campaign_id: string; version: number; document: { rules?: SimpleRule[] } }>(
    "SELECT campaign_id, version, document FROM rule_version WHERE status = 'active' AND campaign_id = ANY($1::text[])",
    [campaignIds],
  );
  return new Map(rows.map((r) => [r.campaign_id, { version: r.version, rules: r.document.rules ?? [] }]));
}

/** Resolves each event's identity to a user, creating the user and identity when nobody has seen it. */
async function resolveUsers(client: PoolClient, events: RawEventMessage[]): Promise<Map<string, string>> {
  const { rows } = await client.query<{ campaign_id: string; identity_type: string; account_id: string; user_id: string }>(
    `WITH input AS (
       SELECT DISTINCT * FROM unnest($1::text[], $2::text[], $3::text[]) AS t(campaign_id, identity_type, account_id)
     ), ins AS (
       INSERT INTO identity(campaign_id, identity_type, account_id, user_id)
       SELECT campaign_id, identity_type, account_id, gen_random_uuid() FROM input
       ON CONFLICT (campaign_id, identity_type, account_id) DO NOTHING
       RETURNING campaign_id, identity_type, account_id, user_id
     ), users AS (
       INSERT INTO app_user(id, campaign_id) SELECT user_id, campaign_id FROM ins RETURNING id
     )
     SELECT i.campaign_id, i.identity_type, i.account_id, coalesce(n.user_id, e.user_id) AS user_id
       FROM input i
       LEFT JOIN ins n USING (campaign_id, identity_type, account_id)
       LEFT JOIN identity e USING (campaign_id, identity_type, account_id)`,
    [events.map((e) => e.campaign_id), events.map((e) => e.identity_type), events.map((e) => e.account_id)],
  );
  return new Map(rows.map((r) => [`${r.campaign_id}|${r.identity_type}|${r.account_id}`, r.user_id]));
}

/**
 * Applies a batch in the caller's transaction: events into the append-only log (a repeated event id is a
 * no-op), ledger entries for the new ones, and one set-based upsert of the score rows.
 * Returns how many events were new.
 */
export async function applyBatch(client: PoolClient, events: RawEventMessage[]): Promise<number> {
  if (events.length === 0) return 0;
  const userOf = await resolveUsers(client, events);
  const userId = (e: RawEventMessage) => userOf.get(`${e.campaign_id}|${e.identity_type}|${e.account_id}`) as string;
  const inserted = await client.query<{ id: string }>(
    `INSERT INTO event_log(id, campaign_id, reg_event_id, user_id, identity_type, account_id, amount, source, received_at)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::numeric[], $8::text[], $9::timestamptz[])
     ON CONFLICT (id) DO NOTHING RETURNING id`,
    [
      events.map((e) => e.event_id),
      events.map((e) => e.campaign_id),
      events.map((e) => e.reg_event_id),
      events.map(userId),
      events.map((e) => e.identity_type),
      events.map((e) => e.account_id),
      events.map((e) => e.amount),
      events.map((e) => e.source),
      events.map((e) => e.received_at),
    ],
  );
  const fresh = new Set(inserted.rows.map((r) => r.id));
  const toScore = events.filter((e) => fresh.has(e.event_id));
  if (toScore.length === 0) return 0;

  const rules = await activeRules(client, [...new Set(toScore.map((e) => e.campaign_id))]);
  const ledger: { campaign: string; user: string; event: string; version: number; rule: string; currency: string; points: string }[] = [];
  for (const e of toScore) {
    const active = rules.get(e.campaign_id);
    for (const rule of active?.rules ?? []) {
      if (rule.reg_event_id !== e.reg_event_id) continue;
      const points = new Decimal(e.amount).times(rule.per_unit);
      ledger.push({ campaign: e.campaign_id, user: userId(e), event: e.event_id, version: active?.version ?? 0, rule: rule.id, currency: rule.currency, points: points.toFixed() });
    }
  }
  if (ledger.length === 0) return toScore.length;
  const cols = [
    ledger.map((l) => l.campaign),
    ledger.map((l) => l.user),
    ledger.map((l) => l.event),
    ledger.map((l) => l.version),
    ledger.map((l) => l.rule),
    ledger.map((l) => l.currency),
    ledger.map((l) => l.points),
  ];
  await client.query(
    `INSERT INTO ledger_entry(campaign_id, user_id, event_id, rule_version, rule_id, currency, kind, points)
     SELECT c, u, e, v, r, cur, 'base', p FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::int[], $5::text[], $6::text[], $7::numeric[]) AS t(c, u, e, v, r, cur, p)`,
    cols,
  );
  await client.query(
    `INSERT INTO score(campaign_id, user_id, currency, score, total, lifetime, reached_at, updated_at)
     SELECT c, u, cur, sum(p), sum(p), sum(p), now(), now()
       FROM unnest($1::text[], $2::uuid[], $3::text[], $4::numeric[]) AS t(c, u, cur, p)
      GROUP BY c, u, cur
     ON CONFLICT (campaign_id, user_id, currency) DO UPDATE SET
       score = score.score + excluded.score,
       total = score.total + excluded.total,
       lifetime = score.lifetime + excluded.lifetime,
       reached_at = CASE WHEN excluded.total > 0 THEN excluded.reached_at ELSE score.reached_at END,
       updated_at = excluded.updated_at`,
    [cols[0], cols[1], cols[5], cols[6]],
  );
  return toScore.length;
}
