import type { Pool, PoolClient } from "pg";
import { lockCampaign, tryLockCampaign } from "./locks";
import { createPool, quoteSchema } from "./pool";

const url = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const stamp = `${process.pid}_${Date.now().toString(36)}`;
const schemas = [`t_locks_a_${stamp}`, `t_locks_b_${stamp}`];
let pools: Pool[];

beforeAll(async () => {
  pools = schemas.map((schema) => createPool({ url, schema, max: 3 }));
  for (const [i, schema] of schemas.entries()) await pools[i]?.query(`CREATE SCHEMA IF NOT EXISTS ${quoteSchema(schema)}`);
});
afterAll(async () => {
  for (const [i, schema] of schemas.entries()) await pools[i]?.query(`DROP SCHEMA IF EXISTS ${quoteSchema(schema)} CASCADE`);
  await Promise.all(pools.map((p) => p.end()));
});

/** Runs `body` inside a transaction on its own connection of `pool`, then rolls it back. */
async function inTransaction<T>(pool: Pool, body: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    return await body(client);
  } finally {
    await client.query("ROLLBACK");
    client.release();
  }
}

describe("campaign locks", () => {
  it("hold one campaign and purpose within a schema, and leave other schemas, purposes and campaigns free", async () => {
    const [a, b] = pools as [Pool, Pool];
    await inTransaction(a, async (holder) => {
      await lockCampaign(holder, "apply", "abcd-0001");
      expect(await inTransaction(a, (other) => tryLockCampaign(other, "apply", "abcd-0001"))).toBe(false);
      // A deployment (or test run) in another schema of the same database is not held up.
      expect(await inTransaction(b, (other) => tryLockCampaign(other, "apply", "abcd-0001"))).toBe(true);
      expect(await inTransaction(a, (other) => tryLockCampaign(other, "users", "abcd-0001"))).toBe(true);
      expect(await inTransaction(a, (other) => tryLockCampaign(other, "apply", "abcd-0002"))).toBe(true);
    });
    // Released with the transaction.
    expect(await inTransaction(a, (other) => tryLockCampaign(other, "apply", "abcd-0001"))).toBe(true);
  });
});
