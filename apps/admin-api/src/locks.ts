import type { PoolClient } from "pg";

/** Serialises changes of one kind to one campaign until the transaction ends (e.g. numbering rule versions). */
export async function lockCampaign(client: PoolClient, campaignId: string, purpose: string): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`pointwise-admin:${purpose}:${campaignId}`]);
}
