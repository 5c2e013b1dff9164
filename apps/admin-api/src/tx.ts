import type { Pool, PoolClient } from "pg";

/** Runs `fn` in one transaction on one pooled connection; rolls back when it throws. */
export async function withTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await fn(client);
    await client.query("COMMIT");
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Serialises changes of one kind to one campaign until the transaction ends (e.g. numbering rule versions). */
export async function lockCampaign(client: PoolClient, campaignId: string, purpose: string): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`pointwise-admin:${purpose}:${campaignId}`]);
}
