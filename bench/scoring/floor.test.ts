// The scoring benchmark's PostgreSQL floor on a migrated schema: it copies every row of the worker's tables, whatever columns they have.
import { randomUUID } from "node:crypto";
import { seedIdentity, seedScore, seedUser } from "@pointwise/testkit";
import { createFixture, type Fixture } from "../lib/fixture";
import { postgresFloor } from "./floor";

jest.setTimeout(60_000);

let fx: Fixture;

beforeAll(async () => {
  fx = await createFixture();
});

afterAll(async () => {
  await fx?.drop();
});

/** Rows in the worker's tables, counted by SQL. */
async function rowsInWorkerTables(): Promise<number> {
  const { rows } = await fx.pool.query<{ n: string }>(
    `SELECT ((SELECT count(*) FROM event_log) + (SELECT count(*) FROM ledger_entry) + (SELECT count(*) FROM score)
      + (SELECT count(*) FROM app_user) + (SELECT count(*) FROM identity) + (SELECT count(*) FROM user_state))::text AS n`,
  );
  return Number(rows[0]?.n);
}

describe("postgresFloor", () => {
  it("copies every row of the worker's tables, score's generated balance included, and leaves no table behind", async () => {
    const users = [await seedUser(fx.db, fx.campaignId), await seedUser(fx.db, fx.campaignId)];
    for (const [i, user] of users.entries()) {
      await seedIdentity(fx.db, fx.campaignId, user, "EVM_ADDRESS", `0x${String(i + 1).padStart(40, "0")}`);
      await seedScore(fx.db, fx.campaignId, user, "xp", { score: "12.5" });
      await fx.pool.query(
        `INSERT INTO event_log (id, campaign_id, reg_event_id, user_id, identity_type, account_id, amount, received_at, occurred_at)
         VALUES ($1, $2, $3, $4, 'EVM_ADDRESS', $5, 12.5, now(), now())`,
        [randomUUID(), fx.campaignId, fx.regEventId, user, `0x${String(i + 1).padStart(40, "0")}`],
      );
    }
    // A spend makes score.balance (generated: total - spent) differ from total.
    await fx.pool.query("UPDATE score SET spent = 2.5 WHERE user_id = $1", [users[0]]);
    const { rows: balances } = await fx.pool.query<{ balance: string }>("SELECT balance::text FROM score ORDER BY balance");
    expect(balances.map((r) => r.balance)).toEqual(["10.0", "12.5"]);
    // 2 event_log + 2 score + 2 app_user + 2 identity rows; ledger_entry and user_state stay empty.
    expect(await rowsInWorkerTables()).toBe(8);

    const floor = await postgresFloor(fx.pool);

    expect(floor.rows).toBe(8);
    expect(floor.seconds).toBeGreaterThanOrEqual(0);
    const { rows: left } = await fx.pool.query("SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename LIKE 'floor\\_%'", [fx.schema]);
    expect(left).toEqual([]);
  });
});
