import type { PoolClient } from "pg";

// Advisory locks are per database, not per schema: the schema is part of the key so deployments
// (and test runs) that share a database never wait for each other.
const KEY = "hashtextextended('pointwise-apply:' || current_schema() || ':' || $1, 0)";

/**
 * Tries to take the campaign's apply lock for the rest of the transaction. Whoever holds it is the
 * only writer of the campaign's log, scores and state, so the campaign's events are logged and
 * applied in one order. Returns false at once when another transaction holds it.
 */
export async function tryLockCampaign(client: PoolClient, campaignId: string): Promise<boolean> {
  const { rows } = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock(${KEY}) AS ok`, [campaignId]);
  return rows[0]?.ok === true;
}

/** Takes the campaign's apply lock for the rest of the transaction, waiting for the current holder. */
export async function lockCampaign(client: PoolClient, campaignId: string): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock(${KEY})`, [campaignId]);
}
