// Every audited change and its audit entry commit together: with the entry's insert refused, no change is left behind.
import { createTestBus } from "@pointwise/testkit";
import { recordAudit } from "../src/audit";
import { type Json, setUpCampaign } from "./harness";
import { sharedProject } from "./project";

const suite = sharedProject();

// The test schema gets a trigger that refuses audit entries of the actions listed in `refused_action`,
// so a route's entry fails after its change's statements ran: the change must roll back with it.
beforeAll(async () => {
  const { db } = suite.h.deps;
  await db.query("CREATE TABLE refused_action (action text PRIMARY KEY)");
  await db.query(`CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM refused_action WHERE action = NEW.action) THEN
        RAISE EXCEPTION 'audit entry % refused by the test', NEW.action;
      END IF;
      RETURN NEW;
    END $$`);
  await db.query("CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_event FOR EACH ROW EXECUTE FUNCTION refuse_audit()");
});

afterEach(allowAll);

async function refuse(action: string): Promise<void> {
  await suite.h.deps.db.query("INSERT INTO refused_action VALUES ($1)", [action]);
}

async function allowAll(): Promise<void> {
  await suite.h.deps.db.query("DELETE FROM refused_action");
}

async function entries(action: string, target?: string): Promise<number> {
  const { rows } = await suite.h.deps.db.query<{ n: string }>("SELECT count(*) AS n FROM audit_event WHERE action = $1 AND ($2::text IS NULL OR target = $2)", [
    action,
    target ?? null,
  ]);
  return Number(rows[0]?.n);
}

async function one<R extends Record<string, unknown>>(sql: string, values: unknown[]): Promise<R | undefined> {
  return (await suite.h.deps.db.query<R>(sql, values)).rows[0];
}

/** The answer of a route whose audit entry was refused: the database error, not a success. */
function expectRefused(res: { status: number; body: Json }): void {
  expect(res.status).toBe(500);
  expect(res.body.error.code).toBe("internal");
}

describe("campaign settings", () => {
  it("creates no campaign when its campaign.create entry cannot be written", async () => {
    await refuse("campaign.create");
    const res = await suite.op.call("POST", "/api/campaigns", { id: "atom-0001", name: "Lost", currencies: { xp: "XP" }, primary_currency: "xp" });
    expectRefused(res);
    expect(await one("SELECT id FROM campaign WHERE id = $1", ["atom-0001"])).toBeUndefined();
  });

  it("keeps name, dates, archive state and bad words when their entries cannot be written, and queues no recompute", async () => {
    const { campaignId } = await setUpCampaign(suite.op);
    const url = `/api/campaigns/${campaignId}`;
    await refuse("campaign.update");
    expectRefused(await suite.op.call("PATCH", url, { name: "Renamed", starts_at: "2026-01-01T00:00:00Z" }));
    expect(await one("SELECT name, starts_at FROM campaign WHERE id = $1", [campaignId])).toEqual({ name: "Season", starts_at: null });
    expect(await one("SELECT id FROM recompute_job WHERE campaign_id = $1", [campaignId])).toBeUndefined();

    await refuse("campaign.bad-words");
    expectRefused(await suite.op.call("PUT", `${url}/bad-words`, { bad_words: ["spam"] }));
    expect(await one("SELECT bad_words FROM campaign WHERE id = $1", [campaignId])).toEqual({ bad_words: [] });

    await refuse("campaign.archive");
    expectRefused(await suite.op.call("POST", `${url}/archive`));
    expect(await one("SELECT archived_at FROM campaign WHERE id = $1", [campaignId])).toEqual({ archived_at: null });

    await allowAll();
    expect((await suite.op.call("POST", `${url}/archive`)).status).toBe(200);
    await refuse("campaign.restore");
    expectRefused(await suite.op.call("POST", `${url}/restore`));
    expect((await one<{ archived_at: Date | null }>("SELECT archived_at FROM campaign WHERE id = $1", [campaignId]))?.archived_at).toBeInstanceOf(Date);
    // Refused changes left no entries; the one archive that went through left exactly one.
    expect(await entries("campaign.update", `campaign:${campaignId}`)).toBe(0);
    expect(await entries("campaign.archive", `campaign:${campaignId}`)).toBe(1);
  });

  it("records an archive once when two requests archive at the same time", async () => {
    const { campaignId } = await setUpCampaign(suite.op);
    const both = await Promise.all([1, 2].map(() => suite.op.call("POST", `/api/campaigns/${campaignId}/archive`)));
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(await entries("campaign.archive", `campaign:${campaignId}`)).toBe(1);
  });
});

describe("API keys", () => {
  it("creates, changes and revokes no key when the entry cannot be written", async () => {
    const { campaignId } = await setUpCampaign(suite.op);
    const keys = `/api/campaigns/${campaignId}/api-keys`;
    await refuse("api-key.create");
    expectRefused(await suite.op.call("POST", keys, { label: "lost" }));
    expect(await one("SELECT count(*)::int AS n FROM api_key WHERE campaign_id = $1", [campaignId])).toEqual({ n: 0 });

    await allowAll();
    const key = await suite.op.call("POST", keys, { label: "kept" });
    expect(key.status).toBe(201);
    await refuse("api-key.update");
    expectRefused(await suite.op.call("PATCH", `${keys}/${key.body.id}`, { label: "changed", backfill: true }));
    expect(await one("SELECT label, backfill FROM api_key WHERE id = $1", [key.body.id])).toEqual({ label: "kept", backfill: false });

    await refuse("api-key.revoke");
    expectRefused(await suite.op.call("POST", `${keys}/${key.body.id}/revoke`));
    expect(await one("SELECT revoked_at FROM api_key WHERE id = $1", [key.body.id])).toEqual({ revoked_at: null });
  });

  it("records no api-key.update when the change is refused because the key was revoked", async () => {
    const { campaignId } = await setUpCampaign(suite.op);
    const keys = `/api/campaigns/${campaignId}/api-keys`;
    const key = await suite.op.call("POST", keys, {});
    expect((await suite.op.call("POST", `${keys}/${key.body.id}/revoke`)).status).toBe(200);
    const res = await suite.op.call("PATCH", `${keys}/${key.body.id}`, { label: "too late" });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("api-key-revoked");
    expect(await entries("api-key.update", `api-key:${key.body.id}`)).toBe(0);
    expect(await entries("api-key.revoke", `api-key:${key.body.id}`)).toBe(1);
  });
});

describe("event types", () => {
  it("registers and retires no event type when the entry cannot be written", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const types = `/api/campaigns/${campaignId}/event-types`;
    await refuse("event-type.create");
    expectRefused(await suite.op.call("POST", types, { name: "lost_type" }));
    expect(await one("SELECT id FROM event_type WHERE campaign_id = $1 AND name = $2", [campaignId, "lost_type"])).toBeUndefined();

    await refuse("event-type.retire");
    expectRefused(await suite.op.call("POST", `${types}/${regEventId}/retire`));
    expect(await one("SELECT retired_at FROM event_type WHERE id = $1", [regEventId])).toEqual({ retired_at: null });
  });
});

describe("display names, referrers and X handles", () => {
  it("keeps a user's display name, referrer and handle when the entry cannot be written", async () => {
    const { campaignId } = await setUpCampaign(suite.op);
    const { db } = suite.h.deps;
    const [a, b] = (await db.query<{ id: string }>("INSERT INTO app_user(campaign_id) VALUES ($1), ($1) RETURNING id", [campaignId])).rows.map((r) => r.id);
    const identity = await one<{ id: string }>(
      "INSERT INTO identity(campaign_id, user_id, identity_type, account_id) VALUES ($1, $2, 'X_PROVIDER_ID', '1234') RETURNING id",
      [campaignId, a],
    );
    const users = `/api/campaigns/${campaignId}/users`;
    await refuse("user.update");
    expectRefused(await suite.op.call("PATCH", `${users}/${a}`, { display_name: "Alice", referrer_id: b }));
    expect(await one("SELECT display_name, referrer_id, referred_at FROM app_user WHERE id = $1", [a])).toEqual({
      display_name: null,
      referrer_id: null,
      referred_at: null,
    });

    await refuse("identity.update");
    expectRefused(await suite.op.call("PATCH", `${users}/${a}/identities/${identity?.id}`, { handle: "alice" }));
    expect(await one("SELECT handle FROM identity WHERE id = $1", [identity?.id])).toEqual({ handle: null });
    // Linking the X account the user already owns with a new handle changes what the board shows: audited the same way.
    expectRefused(await suite.op.call("POST", `${users}/${a}/identities`, { identity_type: "X_PROVIDER_ID", account_id: "1234", handle: "alice" }));
    expect(await one("SELECT handle FROM identity WHERE id = $1", [identity?.id])).toEqual({ handle: null });

    await allowAll();
    const ok = await suite.op.call("PATCH", `${users}/${a}`, { display_name: "Alice", referrer_id: b });
    expect(ok.status).toBe(200);
    const { rows } = await db.query<{ before: unknown; after: unknown }>("SELECT before, after FROM audit_event WHERE action = 'user.update' AND target = $1", [
      `user:${a}`,
    ]);
    expect(rows).toEqual([{ before: { display_name: null, referrer_id: null }, after: { display_name: "Alice", referrer_id: b } }]);

    const relinked = await suite.op.call("POST", `${users}/${a}/identities`, { identity_type: "X_PROVIDER_ID", account_id: "1234", handle: "alice" });
    expect(relinked.status).toBe(200);
    const { rows: handles } = await db.query<{ before: unknown; after: unknown }>(
      "SELECT before, after FROM audit_event WHERE action = 'identity.update' AND target = $1",
      [`identity:${identity?.id}`],
    );
    expect(handles).toEqual([{ before: { handle: null }, after: { handle: "alice" } }]);
  });
});

describe("operators", () => {
  it("adds and removes no operator when the entry cannot be written", async () => {
    await refuse("operator.add");
    const email = "lost-operator@pointwise.test";
    expectRefused(await suite.op.call("POST", "/api/operators", { email, password: "a-long-enough-password" }));
    expect(await one("SELECT id FROM operator WHERE email = $1", [email])).toBeUndefined();

    const other = await suite.h.addOperator(suite.op.projectId);
    const { id } = (await one<{ id: string }>("SELECT id FROM operator WHERE email = $1", [other.email])) as { id: string };
    await refuse("operator.remove");
    expectRefused(await suite.op.call("DELETE", `/api/operators/${id}`));
    expect(await one("SELECT email FROM operator WHERE id = $1", [id])).toEqual({ email: other.email });
    // Still signed in: the removal never happened.
    expect((await other.call("GET", "/api/me")).status).toBe(200);
  });
});

describe("event CSV imports", () => {
  it("publishes no event of an upload whose entry cannot be written, and the import says failed", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    await refuse("csv-import.events");
    const csv = `account_id,identity_type,amount,reg_event_id\n0x00000000000000000000000000000000000000a1,EVM_ADDRESS,10,${regEventId}\n`;
    const res = await suite.op.call("POST", `/api/campaigns/${campaignId}/csv-imports`, csv, { "content-type": "text/csv" });
    expectRefused(res);
    const job = await one<{ status: string; rows_published: string }>("SELECT status, rows_published::text FROM csv_import WHERE campaign_id = $1", [
      campaignId,
    ]);
    expect(job).toEqual({ status: "failed", rows_published: "0" });
    const bus = await createTestBus(suite.h.deps.env.NAMESPACE);
    try {
      const mine = (await bus.storedEvents()).filter((m) => JSON.parse(new TextDecoder().decode(m.data)).campaign_id === campaignId);
      expect(mine).toHaveLength(0);
    } finally {
      await bus.close();
    }
  });

  it("records the entry, naming the import, before the upload's events are published", async () => {
    const { campaignId, regEventId } = await setUpCampaign(suite.op);
    const csv = `account_id,identity_type,amount,reg_event_id\n0x00000000000000000000000000000000000000a2,EVM_ADDRESS,10,${regEventId}\n`;
    const res = await suite.op.call("POST", `/api/campaigns/${campaignId}/csv-imports?file_name=one.csv`, csv, { "content-type": "text/csv" });
    expect(res.status).toBe(200);
    const importId = res.body.import.import_id;
    const { rows } = await suite.h.deps.db.query<{ after: Json }>("SELECT after FROM audit_event WHERE action = 'csv-import.events' AND target = $1", [
      `csv-import:${importId}`,
    ]);
    // The entry shows the import as it was when the entry was written: nothing read or published yet.
    expect(rows).toHaveLength(1);
    expect(rows[0]?.after).toMatchObject({ import_id: importId, file_name: "one.csv", rows_read: 0, rows_published: 0, finished_at: null });
    expect(res.body.import).toMatchObject({ status: "done", rows_published: 1 });
  });
});

describe("recordAudit", () => {
  const session = () => ({ operatorId: "00000000-0000-4000-8000-000000000000", projectId: suite.op.projectId, sessionId: null, expiresAt: new Date() });
  const entry = { campaignId: null, action: "operator.add", target: null } as const;

  it("refuses a connection that is not a transaction, from the db package or Prisma", async () => {
    const { db } = suite.h.deps;
    // @ts-expect-error a Database is not a transaction, and the type says so
    await expect(recordAudit(db, session(), entry)).rejects.toThrow("recordAudit(operator.add) must be given the transaction of the change, not a connection");
    await expect(recordAudit(db.prisma, session(), entry)).rejects.toThrow("must be given the transaction of the change");
  });

  it("writes an entry that commits and rolls back with its transaction, in both kinds of transaction", async () => {
    const { db } = suite.h.deps;
    const target = (n: number) => ({ ...entry, target: `probe:${n}` });
    await db.transaction((tx) => recordAudit(tx, session(), target(1)));
    await db.prisma.$transaction((tx) => recordAudit(tx, session(), target(2)));
    await expect(
      db.transaction(async (tx) => {
        await recordAudit(tx, session(), target(3));
        throw new Error("change failed");
      }),
    ).rejects.toThrow("change failed");
    await expect(
      db.prisma.$transaction(async (tx) => {
        await recordAudit(tx, session(), target(4));
        throw new Error("change failed");
      }),
    ).rejects.toThrow("change failed");
    const { rows } = await db.query<{ target: string; operator_email: string }>(
      "SELECT target, operator_email FROM audit_event WHERE target LIKE 'probe:%' ORDER BY target",
    );
    expect(rows).toEqual([
      { target: "probe:1", operator_email: "unknown" },
      { target: "probe:2", operator_email: "unknown" },
    ]);
  });
});
