// Campaign advisory locks on PostgreSQL: held per schema, purpose and campaign, leaving the others free.
import { createDatabase, type Database } from "./client";
import { quoteSchema } from "./pool";
import type { Transaction } from "./transaction";

const url = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const stamp = `${process.pid}_${Date.now().toString(36)}`;
const schemas = [`t_locks_a_${stamp}`, `t_locks_b_${stamp}`];
let dbs: Database[];

beforeAll(async () => {
  dbs = schemas.map((schema) => createDatabase({ url, schema, max: 3 }));
  for (const [i, schema] of schemas.entries()) await dbs[i]?.query(`CREATE SCHEMA IF NOT EXISTS ${quoteSchema(schema)}`);
});
afterAll(async () => {
  for (const [i, schema] of schemas.entries()) await dbs[i]?.query(`DROP SCHEMA IF EXISTS ${quoteSchema(schema)} CASCADE`);
  await Promise.all(dbs.map((d) => d.close()));
});

class RolledBack extends Error {}

/** Runs `body` inside a transaction on its own connection of `db`, then rolls it back. */
async function inTransaction<T>(db: Database, body: (tx: Transaction) => Promise<T>): Promise<T> {
  let result: T | undefined;
  await db
    .transaction(async (tx) => {
      result = await body(tx);
      throw new RolledBack();
    })
    .catch((err: unknown) => {
      if (!(err instanceof RolledBack)) throw err;
    });
  return result as T;
}

describe("campaign locks", () => {
  it("hold one campaign and purpose within a schema, and leave other schemas, purposes and campaigns free", async () => {
    const [a, b] = dbs as [Database, Database];
    await inTransaction(a, async (holder) => {
      await holder.lockCampaign("apply", "abcd-0001");
      expect(await inTransaction(a, (other) => other.tryLockCampaign("apply", "abcd-0001"))).toBe(false);
      // A deployment (or test run) in another schema of the same database is not held up.
      expect(await inTransaction(b, (other) => other.tryLockCampaign("apply", "abcd-0001"))).toBe(true);
      expect(await inTransaction(a, (other) => other.tryLockCampaign("users", "abcd-0001"))).toBe(true);
      expect(await inTransaction(a, (other) => other.tryLockCampaign("apply", "abcd-0002"))).toBe(true);
    });
    // Released with the transaction.
    expect(await inTransaction(a, (other) => other.tryLockCampaign("apply", "abcd-0001"))).toBe(true);
  });
});
