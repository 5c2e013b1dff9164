// The role the services connect as may append to and read the event log but never change it,
// and it can still do everything the worker does.

import { createDatabase, type Database } from "@pointwise/db";
import { createLogger } from "@pointwise/logger";
import { createTestDatabase, testUrls, uniqueName } from "@pointwise/testkit";
import { createApplier } from "../src/apply/inbox-drainer";
import { stageMessages } from "../src/intake/inbox";
import { runNextJob } from "../src/recompute/recompute-job";
import { RuleVersionCache } from "../src/scoring/rule-version-cache";
import { addRuleVersion, createCampaign, message, queueJob, replayed, richRules, scoreTable } from "./support";

type Db = Awaited<ReturnType<typeof createTestDatabase>>;
const schema = uniqueName("t_worker_roles");
const role = uniqueName("t_app_role");
const logger = createLogger({ service: "test", level: "silent" });
let db: Db;
let app: Database;

beforeAll(async () => {
  db = await createTestDatabase(schema);
  await db.query(`CREATE ROLE ${role} NOLOGIN`);
  // What a deployment runs once the role exists (the migration does it itself for pointwise_app).
  await db.query("SELECT pointwise_grant_app_role($1)", [role]);
  // Every connection of this database acts as the app role.
  app = createDatabase({ url: testUrls.database, schema, max: 3, role });
});
afterAll(async () => {
  await app?.close();
  await db.query(`DROP OWNED BY ${role}`).catch(() => undefined);
  await db?.drop();
  const cleanup = createDatabase({ url: testUrls.database, max: 1 });
  await cleanup.query(`DROP ROLE IF EXISTS ${role}`);
  await cleanup.close();
});

describe("the app role", () => {
  it("may insert into and read the event log but is refused UPDATE, DELETE and TRUNCATE by privilege", async () => {
    const { rows: who } = await app.query("SELECT current_user AS u");
    expect(who[0].u).toBe(role);
    await app.query(
      `INSERT INTO event_log(id, campaign_id, reg_event_id, user_id, identity_type, account_id, amount, received_at, occurred_at)
       VALUES (gen_random_uuid(), 'role-0001', gen_random_uuid(), gen_random_uuid(), 'EMAIL', 'a@b.co', 1, now(), now())`,
    );
    expect((await app.query("SELECT count(*)::int AS n FROM event_log")).rows[0].n).toBe(1);
    // Privilege errors, raised before the append-only trigger would run.
    await expect(app.query("UPDATE event_log SET amount = 0")).rejects.toThrow(/permission denied for table event_log/);
    await expect(app.query("DELETE FROM event_log")).rejects.toThrow(/permission denied for table event_log/);
    await expect(app.query("TRUNCATE event_log")).rejects.toThrow(/permission denied for table event_log/);
    const grants = await db.query(
      "SELECT privilege_type FROM information_schema.role_table_grants WHERE grantee = $1 AND table_schema = $2 AND table_name = 'event_log' ORDER BY 1",
      [role, schema],
    );
    expect(grants.rows.map((r) => r.privilege_type)).toEqual(["INSERT", "SELECT"]);
  });

  it("runs the worker's apply and recompute transactions", async () => {
    const c = "role-0002";
    await createCampaign(db, c);
    await addRuleVersion(db, richRules(c), "active");
    await stageMessages(app, [
      { stream: "ROLE", streamSeq: 1, subject: "r.events", event: message(c, { amount: "10" }) },
      { stream: "ROLE", streamSeq: 2, subject: "r.events", event: message(c, { amount: "20" }) },
    ]);
    const rules = new RuleVersionCache();
    await createApplier({ db: app, logger, rules, stream: "ROLE", batchSize: 10, maxAttempts: 3, retryDelayMs: 50, floor: async () => 2 }).runOnce();
    expect(await scoreTable(db, c)).toEqual(await replayed(db, c, richRules(c)));

    await addRuleVersion(db, richRules(c, 2, { perUnit: "3" }));
    await queueJob(db, c, 2, "rule-activation");
    expect(await runNextJob({ db: app, logger, rules, chunkSize: 1, leaseMs: 60_000 })).toBe(true);
    const { rows } = await db.query("SELECT status, error FROM recompute_job WHERE campaign_id = $1", [c]);
    expect(rows).toEqual([{ status: "done", error: null }]);
    expect(await scoreTable(db, c)).toEqual(await replayed(db, c, richRules(c, 2, { perUnit: "3" })));
  });
});
