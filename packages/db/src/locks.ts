// Campaign-scoped advisory locks that last until the transaction ends; reached through a Transaction.
import type { PoolClient } from "pg";

// Advisory locks are per database, not per schema: the schema is part of the key so deployments
// (and test runs) that share a database never wait for each other. `purpose` keeps locks of
// different kinds on one campaign apart (applying events, numbering rule versions, ...).
const KEY = "hashtextextended('pointwise-' || $1 || ':' || current_schema() || ':' || $2, 0)";

/** Takes the campaign's lock for `purpose` for the rest of the transaction, waiting for the current holder. */
export async function lockCampaign(client: PoolClient, purpose: string, campaignId: string): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock(${KEY})`, [purpose, campaignId]);
}

/** Tries to take the campaign's lock for `purpose` for the rest of the transaction; false at once when another transaction holds it. */
export async function tryLockCampaign(client: PoolClient, purpose: string, campaignId: string): Promise<boolean> {
  const { rows } = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock(${KEY}) AS ok`, [purpose, campaignId]);
  return rows[0]?.ok === true;
}
