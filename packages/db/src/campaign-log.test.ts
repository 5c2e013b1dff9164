// readCampaignLog on PostgreSQL: a campaign's events in log order as the engine's input, paged.
import { randomUUID } from "node:crypto";
import { readCampaignLog } from "./campaign-log";
import { createDatabase, type Database } from "./client";
import { dropSchema, migrate } from "./migrate";

const url = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const schema = `t_campaign_log_${process.pid}_${Date.now().toString(36)}`;
const CAMPAIGN = "ab12-cd34";
const OTHER_CAMPAIGN = "ef56-gh78";
const REG_EVENT = "00000000-0000-4000-8000-0000000000a1";
let db: Database;

beforeAll(async () => {
  db = createDatabase({ url, schema, max: 4 });
  await migrate(db, schema);
});
afterAll(async () => {
  await dropSchema(db, schema);
  await db.close();
});

/** Gives an identity to a user, as the scoring worker (or an operator's link) leaves it. */
async function ownIdentity(campaignId: string, accountId: string, userId: string): Promise<void> {
  await db.query(
    `INSERT INTO identity(campaign_id, user_id, identity_type, account_id) VALUES ($1, $2, 'EMAIL', $3)
     ON CONFLICT (campaign_id, identity_type, account_id) DO UPDATE SET user_id = excluded.user_id`,
    [campaignId, userId, accountId],
  );
}

/** Appends one event to the log under the user given; returns its id and seq. */
async function logEvent(
  campaignId: string,
  e: { userId: string; accountId: string; amount: string; receivedAt: string; referrerId?: string },
): Promise<{ id: string; seq: string }> {
  const id = randomUUID();
  const { rows } = await db.query<{ seq: string }>(
    `INSERT INTO event_log(id, campaign_id, reg_event_id, user_id, identity_type, account_id, amount, received_at, occurred_at, referrer_id)
     VALUES ($1, $2, $3, $4, 'EMAIL', $5, $6, $7, $7, $8) RETURNING seq::text`,
    [id, campaignId, REG_EVENT, e.userId, e.accountId, e.amount, e.receivedAt, e.referrerId ?? null],
  );
  return { id, seq: rows[0]?.seq as string };
}

describe("readCampaignLog", () => {
  const alice = randomUUID();
  const bob = randomUUID();
  const referrer = randomUUID();
  let logged: { id: string; seq: string }[];

  beforeAll(async () => {
    await ownIdentity(CAMPAIGN, "alice@example.com", alice);
    await ownIdentity(CAMPAIGN, "bob@example.com", bob);
    logged = [
      await logEvent(CAMPAIGN, { userId: alice, accountId: "alice@example.com", amount: "10.50", receivedAt: "2026-01-01T00:00:00.000Z" }),
      await logEvent(OTHER_CAMPAIGN, { userId: alice, accountId: "alice@example.com", amount: "1", receivedAt: "2026-01-01T00:00:01.000Z" }),
      await logEvent(CAMPAIGN, { userId: bob, accountId: "bob@example.com", amount: "3", receivedAt: "2026-01-01T00:00:02.123Z", referrerId: referrer }),
      await logEvent(CAMPAIGN, { userId: alice, accountId: "alice@example.com", amount: "0.000000000000000001", receivedAt: "2026-01-01T00:00:03.000Z" }),
    ];
    // An operator links bob's identity to alice after bob's event was logged.
    await ownIdentity(CAMPAIGN, "bob@example.com", alice);
  });

  it("reads one campaign's events in log order as the engine's input", async () => {
    const event = (i: number) => ({ id: logged[i]?.id, seq: logged[i]?.seq, campaignId: CAMPAIGN, regEventId: REG_EVENT, identityType: "EMAIL" });
    expect(await readCampaignLog(db, CAMPAIGN)).toEqual([
      { ...event(0), userId: alice, amount: "10.5", occurredAt: "2026-01-01T00:00:00.000Z", referrerId: null },
      { ...event(2), userId: alice, amount: "3", occurredAt: "2026-01-01T00:00:02.123Z", referrerId: referrer },
      { ...event(3), userId: alice, amount: "0.000000000000000001", occurredAt: "2026-01-01T00:00:03.000Z", referrerId: null },
    ]);
  });

  it("gives an event of a linked identity to the identity's current user and keeps its stored referrer", async () => {
    const events = await readCampaignLog(db, CAMPAIGN);
    const bobs = events.find((e) => e.id === logged[2]?.id);
    expect(bobs).toMatchObject({ userId: alice, referrerId: referrer });
  });

  it("trims trailing zeros from amounts, as the live path scores them", async () => {
    const events = await readCampaignLog(db, CAMPAIGN);
    expect(events.map((e) => e.amount)).toEqual(["10.5", "3", "0.000000000000000001"]);
  });

  it("pages through the log after a seq, at most limit events at a time", async () => {
    const all = (await readCampaignLog(db, CAMPAIGN)).map((e) => e.seq);
    const first = await readCampaignLog(db, CAMPAIGN, { limit: 2 });
    expect(first.map((e) => e.seq)).toEqual(all.slice(0, 2));
    const rest = await readCampaignLog(db, CAMPAIGN, { afterSeq: first.at(-1)?.seq as string, limit: 2 });
    expect(rest.map((e) => e.seq)).toEqual(all.slice(2));
    expect(await readCampaignLog(db, CAMPAIGN, { afterSeq: all.at(-1) as string, limit: 2 })).toEqual([]);
  });

  it("keeps the logged user of an event whose identity has no row", async () => {
    const stranger = randomUUID();
    const other = await readCampaignLog(db, OTHER_CAMPAIGN);
    expect(other).toHaveLength(1);
    expect(other[0]?.userId).toBe(alice);
    const orphan = await logEvent(OTHER_CAMPAIGN, { userId: stranger, accountId: "nobody@example.com", amount: "2", receivedAt: "2026-01-01T00:00:04.000Z" });
    const after = await readCampaignLog(db, OTHER_CAMPAIGN, { afterSeq: other[0]?.seq as string });
    expect(after).toEqual([expect.objectContaining({ id: orphan.id, userId: stranger })]);
  });
});
