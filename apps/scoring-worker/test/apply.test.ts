// The worker's SQL path without the bus: messages staged into the inbox, then applied campaign by
// campaign, against a real PostgreSQL schema.
import type { Database, StatementQueue } from "@pointwise/db";
import { createLogger } from "@pointwise/logger";
import { parseRuleVersion } from "@pointwise/rules";
import type { RawEventMessage } from "@pointwise/schemas";
import { createTestDatabase, seedIdentity, uniqueName, waitUntil } from "@pointwise/testkit";
import { applyInboxBatch } from "../src/apply/apply-batch";
import { createApplier } from "../src/apply/inbox-drainer";
import { stageMessages } from "../src/intake/inbox";
import { RuleVersionCache } from "../src/scoring/rule-version-cache";
import { addRuleVersion, createCampaign, LOGIN, message, replayed, richRules, scoreTable } from "./support";

type Db = Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
const logger = createLogger({ service: "test", level: "silent" });
const STREAM = "T_EVENTS";
let streamSeq = 0;

beforeAll(async () => {
  db = await createTestDatabase(uniqueName("t_worker_apply"));
});
afterAll(async () => {
  await db?.drop();
});

function applier(maxAttempts = 3) {
  return createApplier({
    db,
    logger,
    rules: new RuleVersionCache(),
    stream: STREAM,
    batchSize: 100,
    maxAttempts,
    retryDelayMs: 50,
    floor: async () => Number.MAX_SAFE_INTEGER,
  });
}

async function stage(messages: RawEventMessage[], seqs?: number[]): Promise<number[]> {
  const at = seqs ?? messages.map(() => ++streamSeq);
  await stageMessages(
    db,
    messages.map((event, i) => ({ stream: STREAM, streamSeq: at[i] as number, subject: `t.events.${event.campaign_id}`, event })),
  );
  return at;
}

async function newCampaign(rules = true, opts: Parameters<typeof richRules>[2] = {}): Promise<string> {
  const id = `${Math.random().toString(36).slice(2, 6)}-${Math.random().toString(36).slice(2, 6)}`.padEnd(9, "0");
  await createCampaign(db, id);
  if (rules) await addRuleVersion(db, richRules(id, 1, opts), "active");
  return id;
}

const WALLET_A = "0x00000000000000000000000000000000000000aa";
const WALLET_B = "0x00000000000000000000000000000000000000bb";

describe("applying staged events", () => {
  it("pays 1.5 xp per unit and 3 gems for a swap of 10 (15 xp), logging it once with its lineage", async () => {
    const c = await newCampaign();
    const m = message(c, { account_id: WALLET_A, amount: "10" });
    await stage([m]);
    expect(await applier().drainCampaign(c, Number.MAX_SAFE_INTEGER)).toBe(1);

    const { rows: log } = await db.query("SELECT id, user_id, amount::text, referrer_id FROM event_log WHERE campaign_id = $1", [c]);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ id: m.event_id, amount: "10.000000000000000000", referrer_id: null });

    const scores = await scoreTable(db, c);
    expect(scores.find((r) => r.currency === "xp")).toMatchObject({ score: "15", total: "15", lifetime: "15", tier: "bronze", reachedAt: m.received_at });
    expect(scores).toEqual(await replayed(db, c, richRules(c)));

    const { rows: ledger } = await db.query(
      "SELECT entry_key, rule_id, rule_version, kind, currency, points::text, capped_points::text, lineage FROM ledger_entry WHERE campaign_id = $1 ORDER BY id",
      [c],
    );
    expect(ledger.map((l) => l.entry_key)).toEqual([`${m.event_id}/swap-volume/base`, `${m.event_id}/swap-gems/base`]);
    expect(ledger[0]).toMatchObject({ rule_id: "swap-volume", rule_version: 1, kind: "base", currency: "xp", points: "15", capped_points: "0" });
    expect(ledger[0].lineage).toMatchObject({ basePoints: "15", paid: "15", cappedBy: [], multipliers: [] });

    const { rows: state } = await db.query("SELECT rule_version, state FROM user_state WHERE campaign_id = $1", [c]);
    expect(state[0].rule_version).toBe(1);
    expect(state[0].state.rules["swap-volume"]).toMatchObject({ count: "1", amount: "10" });
    const { rows: inbox } = await db.query("SELECT count(*)::int AS n FROM event_inbox WHERE campaign_id = $1", [c]);
    expect(inbox[0].n).toBe(0);
  });

  it("changes nothing for a redelivered message or a repeated event id", async () => {
    const c = await newCampaign();
    const first = message(c, { account_id: WALLET_A, amount: "7" });
    const [seq] = await stage([first, message(c, { account_id: WALLET_B, amount: "3" })]);
    await applier().drainCampaign(c, Number.MAX_SAFE_INTEGER);
    const before = await scoreTable(db, c);
    const ledgerBefore = await db.query("SELECT count(*)::int AS n FROM ledger_entry WHERE campaign_id = $1", [c]);

    // The same stream message again (acked after commit but redelivered) and the same event id at a new stream seq.
    await stage([first], [seq as number]);
    await stage([first]);
    await applier().drainCampaign(c, Number.MAX_SAFE_INTEGER);

    expect(await scoreTable(db, c)).toEqual(before);
    const { rows } = await db.query("SELECT count(*)::int AS n FROM event_log WHERE campaign_id = $1", [c]);
    expect(rows[0].n).toBe(2);
    expect((await db.query("SELECT count(*)::int AS n FROM ledger_entry WHERE campaign_id = $1", [c])).rows[0].n).toBe(ledgerBefore.rows[0].n);
  });

  it("caps 1000 x 1.5 = 1500 xp at the week cap 900, then the day cap 700, and records 800 as capped", async () => {
    const c = await newCampaign();
    await stage([message(c, { account_id: WALLET_A, amount: "1000" })]);
    await applier().drainCampaign(c, Number.MAX_SAFE_INTEGER);
    const { rows } = await db.query(
      "SELECT points::text, capped_points::text, lineage FROM ledger_entry WHERE campaign_id = $1 AND rule_id = 'swap-volume' AND kind = 'base'",
      [c],
    );
    expect(rows[0]).toMatchObject({ points: "1500", capped_points: "800" });
    expect(rows[0].lineage.cappedBy).toEqual(["rule:swap-volume:week", "currency:xp:day"]);
    expect(await scoreTable(db, c)).toEqual(await replayed(db, c, richRules(c)));
  });

  it("resolves a linked identity to its user and credits the referrer stored on each event", async () => {
    const c = await newCampaign();
    await stage([message(c, { account_id: WALLET_A, amount: "1" }), message(c, { account_id: WALLET_B, amount: "1" })]);
    await applier().drainCampaign(c, Number.MAX_SAFE_INTEGER);
    const userOf = async (account: string) =>
      (await db.query("SELECT user_id FROM identity WHERE campaign_id = $1 AND account_id = $2", [c, account])).rows[0].user_id as string;
    const alice = await userOf(WALLET_A);
    const bob = await userOf(WALLET_B);
    // Alice referred Bob from now on; Bob also has an e-mail identity linked to him.
    await db.query("UPDATE app_user SET referrer_id = $2, referred_at = now() WHERE id = $1", [bob, alice]);
    await seedIdentity(db, c, bob, "EMAIL", "bob@example.com");

    await stage([
      message(c, { account_id: WALLET_B, amount: "100", received_at: "2026-03-02T11:00:00.000Z" }),
      message(c, { identity_type: "EMAIL", account_id: "bob@example.com", reg_event_id: LOGIN, amount: "1", received_at: "2026-03-02T12:00:00.000Z" }),
    ]);
    await applier().drainCampaign(c, Number.MAX_SAFE_INTEGER);

    const { rows: log } = await db.query("SELECT user_id, referrer_id FROM event_log WHERE campaign_id = $1 ORDER BY seq", [c]);
    expect(log.map((l) => l.referrer_id)).toEqual([null, null, alice, alice]);
    expect(log[3].user_id).toBe(bob);
    const scores = await scoreTable(db, c);
    // Bob's xp: nothing for the first swap (1 is under the minimum of 2), 150 for the second (bronze, x1),
    // which makes him silver, so the login pays 10 x 1.1 = 11: 161. Alice earns 10% of 150 and of 11.
    expect(scores.find((r) => r.userId === bob && r.currency === "xp")).toMatchObject({ score: "161", lifetime: "161", tier: "silver" });
    expect(scores.find((r) => r.userId === alice && r.currency === "xp")).toMatchObject({ score: "0", referralScore: "16.1", total: "16.1" });
    expect(scores).toEqual(await replayed(db, c, richRules(c)));
  });

  it("keeps reached_at at the latest paid event time, not the time of applying", async () => {
    const c = await newCampaign();
    await stage([
      message(c, { account_id: WALLET_A, amount: "5", received_at: "2026-03-05T08:00:00.000Z" }),
      message(c, { account_id: WALLET_A, amount: "5", received_at: "2026-03-04T08:00:00.000Z" }),
    ]);
    await applier().drainCampaign(c, Number.MAX_SAFE_INTEGER);
    const xp = (await scoreTable(db, c)).find((r) => r.currency === "xp");
    expect(xp?.reachedAt).toBe("2026-03-05T08:00:00.000Z");
  });

  it("logs events of a campaign without an active rule version and scores nothing yet", async () => {
    const c = await newCampaign(false);
    await stage([message(c, { account_id: WALLET_A })]);
    await applier().drainCampaign(c, Number.MAX_SAFE_INTEGER);
    expect((await db.query("SELECT count(*)::int AS n FROM event_log WHERE campaign_id = $1", [c])).rows[0].n).toBe(1);
    expect(await scoreTable(db, c)).toEqual([]);
  });

  it("keeps a budgeted campaign's state and stops paying gems once 7 of a budget of 7 are paid", async () => {
    const c = await newCampaign(true, { budget: "7" });
    await stage([1, 2, 3].map((i) => message(c, { account_id: `0x${String(i).padStart(40, "0")}`, amount: "1" })));
    await applier().drainCampaign(c, Number.MAX_SAFE_INTEGER);
    const { rows } = await db.query("SELECT state FROM campaign_state WHERE campaign_id = $1", [c]);
    expect(rows[0].state.budgetUsed).toEqual({ gems: "7" });
    const { rows: gems } = await db.query(
      "SELECT (points - capped_points)::text AS paid, lineage->'cappedBy' AS capped_by FROM ledger_entry WHERE campaign_id = $1 AND currency = 'gems' AND kind = 'base' ORDER BY id",
      [c],
    );
    expect(gems.map((g) => g.paid)).toEqual(["3", "3", "1"]);
    expect(gems[2].capped_by).toEqual(["budget:gems"]);
    expect(await scoreTable(db, c)).toEqual(await replayed(db, c, richRules(c, 1, { budget: "7" })));
  });

  it("dead-letters an event that can never be applied after MAX_DELIVER attempts, applying the good ones around it", async () => {
    const c = await newCampaign();
    const good1 = message(c, { account_id: WALLET_A, amount: "1" });
    // 10^40 does not fit the log's NUMERIC(48,18): the insert fails the same way every time.
    const poison = message(c, { account_id: WALLET_A, amount: `1${"0".repeat(40)}` });
    const good2 = message(c, { account_id: WALLET_A, amount: "2" });
    const [, poisonSeq] = await stage([good1, poison, good2]);
    await applier(3).drainCampaign(c, Number.MAX_SAFE_INTEGER);

    const { rows: log } = await db.query("SELECT id FROM event_log WHERE campaign_id = $1 ORDER BY seq", [c]);
    expect(log.map((l) => l.id)).toEqual([good1.event_id, good2.event_id]);
    const { rows: dead } = await db.query("SELECT stream, stream_seq::int, deliveries, error, payload FROM dead_letter WHERE stream = $1 AND stream_seq = $2", [
      STREAM,
      poisonSeq,
    ]);
    expect(dead[0]).toMatchObject({ deliveries: 3 });
    expect(dead[0].error).toMatch(/numeric field overflow/);
    expect(JSON.parse(dead[0].payload)).toEqual(poison);
    expect((await db.query("SELECT count(*)::int AS n FROM event_inbox WHERE campaign_id = $1", [c])).rows[0].n).toBe(0);
    expect(await scoreTable(db, c)).toEqual(await replayed(db, c, richRules(c)));
  });

  it("starts no other transaction once the worker is stopping: the rows after the one in flight stay staged for the next pass", async () => {
    const c = await newCampaign();
    const other = await newCampaign();
    const events = Array.from({ length: 30 }, (_, i) => message(c, { account_id: i % 2 ? WALLET_A : WALLET_B, amount: String(i + 1) }));
    await stage([...events, message(other, { account_id: WALLET_A, amount: "5" })]);
    let stopping = false;
    const deps = {
      db,
      logger,
      rules: new RuleVersionCache(),
      stream: STREAM,
      batchSize: 10,
      maxAttempts: 3,
      retryDelayMs: 50,
      floor: async () => Number.MAX_SAFE_INTEGER,
    };
    // The stop arrives while the first transaction is in flight: it commits, and nothing else starts.
    const stopped = createApplier({
      ...deps,
      stopping: () => stopping,
      onApplied: () => {
        stopping = true;
      },
    });
    expect(await stopped.runOnce()).toBe(10);
    const inbox = async (campaignId: string) =>
      (await db.query("SELECT count(*)::int AS n FROM event_inbox WHERE campaign_id = $1", [campaignId])).rows[0].n as number;
    expect([await inbox(c), await inbox(other)]).toEqual([20, 1]);
    const { rows: log } = await db.query("SELECT id FROM event_log WHERE campaign_id = $1 ORDER BY seq", [c]);
    expect(log.map((l) => l.id)).toEqual(events.slice(0, 10).map((e) => e.event_id));

    // The next pass (this replica's after a restart, or another's) applies the rest, in order.
    expect(await createApplier(deps).runOnce()).toBe(21);
    expect([await inbox(c), await inbox(other)]).toEqual([0, 0]);
    expect(await scoreTable(db, c)).toEqual(await replayed(db, c, richRules(c)));
  });

  it("narrows a failed batch of 128 down to its one bad event in halves, applying the 127 others in order in a few transactions", async () => {
    const c = await newCampaign();
    const events = Array.from({ length: 128 }, (_, i) =>
      message(c, { account_id: i % 2 ? WALLET_A : WALLET_B, amount: i === 69 ? `1${"0".repeat(40)}` : String(i + 1) }),
    );
    const [poisonSeq] = (await stage(events)).slice(69, 70);
    let transactions = 0;
    const a = createApplier({
      db,
      logger,
      rules: new RuleVersionCache(),
      stream: STREAM,
      batchSize: 128,
      sliceSize: 16,
      maxAttempts: 2,
      retryDelayMs: 50,
      floor: async () => Number.MAX_SAFE_INTEGER,
      onApplied: () => {
        transactions++;
      },
    });
    expect(await a.drainCampaign(c, Number.MAX_SAFE_INTEGER)).toBe(128);

    const { rows: log } = await db.query("SELECT id FROM event_log WHERE campaign_id = $1 ORDER BY seq", [c]);
    expect(log.map((l) => l.id)).toEqual(events.filter((_, i) => i !== 69).map((e) => e.event_id));
    const { rows: dead } = await db.query("SELECT stream_seq::int AS seq, deliveries FROM dead_letter WHERE stream = $1 AND payload LIKE $2", [
      STREAM,
      `%${c}%`,
    ]);
    expect(dead).toEqual([{ seq: poisonSeq, deliveries: 2 }]);
    // One row at a time through the batch would take over 60 transactions.
    expect(transactions).toBeLessThan(12);
    expect(await scoreTable(db, c)).toEqual(await replayed(db, c, richRules(c)));
  });

  it("holds a campaign's events back, dead-lettering none, while a failure is not about the events themselves", async () => {
    const c = await newCampaign();
    const events = [message(c, { account_id: WALLET_A, amount: "4" }), message(c, { account_id: WALLET_B, amount: "5" })];
    await stage(events);
    // A broken deployment: the score table lost the key its upserts rely on.
    await db.query("ALTER TABLE score DROP CONSTRAINT score_pkey");
    const a = applier(2);
    try {
      await expect(a.drainCampaign(c, Number.MAX_SAFE_INTEGER)).rejects.toThrow(/no unique or exclusion constraint/);
      expect(await a.runOnce()).toBe(0);
      const { rows } = await db.query("SELECT attempts FROM event_inbox WHERE campaign_id = $1", [c]);
      expect(rows).toEqual([{ attempts: 0 }, { attempts: 0 }]);
      expect((await db.query("SELECT count(*)::int AS n FROM dead_letter WHERE payload LIKE $1", [`%${c}%`])).rows[0].n).toBe(0);
    } finally {
      await db.query(`ALTER TABLE score ADD CONSTRAINT score_pkey PRIMARY KEY (campaign_id, user_id, currency)`);
    }
    expect(await a.drainCampaign(c, Number.MAX_SAFE_INTEGER)).toBe(2);
    expect(await scoreTable(db, c)).toEqual(await replayed(db, c, richRules(c)));
  });

  it("holds a campaign's events back, dead-lettering none, while its decay epoch cannot reach them, and applies them under a later epoch", async () => {
    const c = await newCampaign(false);
    // Gems halve every hour from 2026-01-01: events of today lie far more than 4000 half-lives (about 166 days) after it.
    const stale = (version: number, epoch: string) => {
      const rules = richRules(c, version);
      return { ...rules, currencies: { ...rules.currencies, gems: { name: "Gems", decimals: 0, decay: { halfLifeSeconds: 3600, epoch } } } };
    };
    await addRuleVersion(db, stale(1, "2026-01-01T00:00:00Z"), "active");
    const now = Date.now();
    await stage([
      message(c, { account_id: WALLET_A, amount: "4", received_at: new Date(now - 60_000).toISOString() }),
      message(c, { account_id: WALLET_B, amount: "5", received_at: new Date(now).toISOString() }),
    ]);
    const held: number[] = [];
    const a = createApplier({
      db,
      logger,
      rules: new RuleVersionCache(),
      stream: STREAM,
      batchSize: 100,
      maxAttempts: 2,
      retryDelayMs: 0,
      floor: async () => Number.MAX_SAFE_INTEGER,
      onHeld: (count) => held.push(count),
    });
    await expect(a.drainCampaign(c, Number.MAX_SAFE_INTEGER)).rejects.toMatchObject({ code: "decay-range-exceeded" });
    for (let pass = 0; pass < 3; pass++) expect(await a.runOnce()).toBe(0);
    expect(held.at(-1)).toBeGreaterThanOrEqual(1);
    const { rows } = await db.query("SELECT attempts FROM event_inbox WHERE campaign_id = $1", [c]);
    expect(rows).toEqual([{ attempts: 0 }, { attempts: 0 }]);
    expect((await db.query("SELECT count(*)::int AS n FROM dead_letter WHERE payload LIKE $1", [`%${c}%`])).rows[0].n).toBe(0);

    // A rule version with a later epoch becomes the active one (as its activation leaves it): the events go through.
    const later = stale(2, new Date(now - 3_600_000).toISOString());
    await db.query("UPDATE rule_version SET status = 'superseded' WHERE campaign_id = $1 AND version = 1", [c]);
    await addRuleVersion(db, later, "active");
    await waitUntil(async () => (await a.runOnce()) === 2, 5000, "the held events to be applied");
    expect(held.at(-1)).toBe(0);
    expect(await scoreTable(db, c)).toEqual(await replayed(db, c, later));
  });

  it("stages a batch that holds a message staged before: the others go in once, the repeat changes nothing", async () => {
    const c = await newCampaign(false);
    const first = [message(c, { account_id: WALLET_A, amount: "1" }), message(c, { account_id: WALLET_B, amount: "2" })];
    const [seqA, seqB] = await stage(first);
    const more = [message(c, { account_id: WALLET_A, amount: "3" })];
    const staged = (events: RawEventMessage[], seqs: number[]) =>
      events.map((event, i) => ({ stream: STREAM, streamSeq: seqs[i] as number, subject: `t.events.${c}`, event }));
    const seqC = ++streamSeq;
    // The redelivered message B comes back in one batch with a new message C.
    expect(await stageMessages(db, [...staged([first[1] as RawEventMessage], [seqB as number]), ...staged(more, [seqC])])).toBe(1);
    const { rows } = await db.query("SELECT stream_seq::int AS seq, amount FROM event_inbox WHERE campaign_id = $1 ORDER BY stream_seq", [c]);
    expect(rows).toEqual([
      { seq: seqA, amount: "1" },
      { seq: seqB, amount: "2" },
      { seq: seqC, amount: "3" },
    ]);
  });

  it("applies only up to the floor, so a message still in flight below it is never overtaken", async () => {
    const c = await newCampaign();
    const [s1] = await stage([message(c, { account_id: WALLET_A, amount: "1" })]);
    // Stream seq s1 + 1 is still being staged by another replica; s1 + 2 is already here.
    await stage([message(c, { account_id: WALLET_A, amount: "2" })], [(s1 as number) + 2]);
    streamSeq += 2;
    const a = applier();
    expect(await a.drainCampaign(c, s1 as number)).toBe(1);
    const late = message(c, { account_id: WALLET_A, amount: "3" });
    await stage([late], [(s1 as number) + 1]);
    expect(await a.drainCampaign(c, (s1 as number) + 2)).toBe(2);
    const { rows } = await db.query("SELECT amount::int AS amount FROM event_log WHERE campaign_id = $1 ORDER BY seq", [c]);
    expect(rows.map((r) => r.amount)).toEqual([1, 3, 2]);
  });

  it("sends each log slice's COPY right behind its own probe, so PostgreSQL copies while the engine scores", async () => {
    const c = await newCampaign();
    await stage(Array.from({ length: 7 }, (_, i) => message(c, { account_id: i % 2 ? WALLET_A : WALLET_B, amount: String(i + 1) })));
    // A database whose transactions note each statement their statement queue sends, in the order it
    // sends them (the queue sends in the order statements are queued; a COPY is noted by its statement).
    const sent: string[] = [];
    const noting = (queue: StatementQueue): StatementQueue =>
      new Proxy(queue, {
        get(target, prop) {
          const value = Reflect.get(target, prop, target) as unknown;
          if (typeof value !== "function") return value;
          if (prop !== "query" && prop !== "copy") return value.bind(target);
          return (text: string, ...rest: unknown[]) => {
            sent.push(text);
            return value.call(target, text, ...rest);
          };
        },
      });
    const spied: Database = {
      ...db,
      transaction: (fn, options) => db.transaction((tx) => fn({ ...tx, queue: (body) => tx.queue((q) => body(noting(q))) }), options),
    };
    const outcome = await applyInboxBatch({
      db: spied,
      rules: new RuleVersionCache(),
      stream: STREAM,
      campaignId: c,
      floor: Number.MAX_SAFE_INTEGER,
      limit: 100,
      sliceSize: 3,
    });
    expect(outcome.status === "applied" && outcome.logged.map((e) => e.amount)).toEqual(["1", "2", "3", "4", "5", "6", "7"]);
    const order = sent.flatMap((q) => (q.includes("FROM event_log WHERE id = ANY") ? ["probe"] : q.startsWith("COPY event_log") ? ["copy"] : []));
    expect(order).toEqual(["probe", "copy", "probe", "copy", "probe", "copy"]);
  });

  it("parses each stored rule version once", () => {
    const cache = new RuleVersionCache();
    const doc = richRules("abcd-0001");
    expect(cache.parse("row-1", doc)).toBe(cache.parse("row-1", doc));
    expect(cache.parse("row-1", doc)).toEqual(parseRuleVersion(doc));
  });
});
