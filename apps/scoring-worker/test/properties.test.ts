// Property: whatever the batch splits (and slices within a batch), redeliveries and repeated event ids, the worker's real SQL
// path leaves exactly the scores (and ledger) of one replay of the events in stream order.
import { randomUUID } from "node:crypto";
import { createLogger } from "@pointwise/logger";
import { parseRuleVersion, type RawEvent, replayCampaign } from "@pointwise/rules";
import type { RawEventMessage } from "@pointwise/schemas";
import { createTestDatabase, seedIdentity, seedUser, uniqueName } from "@pointwise/testkit";
import fc from "fast-check";
import { createApplier } from "../src/apply/inbox-drainer";
import { type StagedMessage, stageMessages } from "../src/intake/inbox";
import { RuleVersionCache } from "../src/scoring/rule-version-cache";
import { addRuleVersion, canonicalRow, createCampaign, LOGIN, logOf, richRules, SWAP, scoreTable } from "./support";

type Db = Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
const logger = createLogger({ service: "test", level: "silent" });
const USERS = 4;
const AMOUNTS = ["0", "1", "2.5", "10", "99.99", "150", "333.33", "1000"];

beforeAll(async () => {
  db = await createTestDatabase(uniqueName("t_worker_prop"));
});
afterAll(async () => {
  await db?.drop();
});

const eventArb = fc.record({
  user: fc.nat(USERS - 1),
  email: fc.boolean(),
  login: fc.boolean(),
  amount: fc.constantFrom(...AMOUNTS),
  // Event time, minutes over four days in any order (late events): crosses day caps, cooldowns and decay.
  minute: fc.nat(4 * 24 * 60),
});

const caseArb = fc.record({
  budget: fc.constantFrom(undefined, "40"),
  /**
   * The campaign's dates, as minutes into the four days (null: open on that side). A campaign ends after it starts
   * (admin-api refuses anything else and the engine will not score under it), so the start is before minute 2880.
   */
  starts: fc.option(fc.nat(2 * 24 * 60 - 1)),
  ends: fc.option(fc.integer({ min: 2 * 24 * 60, max: 4 * 24 * 60 })),
  events: fc.array(eventArb, { minLength: 1, maxLength: 30 }),
  stageSizes: fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 10 }),
  applyBatch: fc.integer({ min: 1, max: 12 }),
  /** Events per engine call and per log and ledger statement within one apply transaction. */
  slice: fc.integer({ min: 1, max: 5 }),
  /** Per event: staged again later under the same stream seq (a redelivery). */
  redeliver: fc.array(fc.boolean(), { maxLength: 30 }),
  /** Per event: published again under a new stream seq (a client retry after the duplicate window). */
  republish: fc.array(fc.boolean(), { maxLength: 30 }),
});

let stream = 0;

it("applies random logs with late events and campaign dates in random batch splits, with redeliveries and repeats, exactly as one replay in stream order", async () => {
  await fc.assert(
    fc.asyncProperty(caseArb, async (t) => {
      const campaignId = `p${String(++stream).padStart(3, "0")}-${randomUUID().slice(0, 4)}`;
      const streamName = `PROP_${stream}`;
      await createCampaign(db, campaignId);
      const doc = richRules(campaignId, 1, t.budget ? { budget: t.budget } : {});
      await addRuleVersion(db, doc, "active");
      const minuteTime = (m: number) => new Date(Date.UTC(2026, 2, 2) + m * 60_000).toISOString();
      const window = { startsAt: t.starts === null ? null : minuteTime(t.starts), endsAt: t.ends === null ? null : minuteTime(t.ends) };
      await db.query("UPDATE campaign SET starts_at = $2, ends_at = $3 WHERE id = $1", [campaignId, window.startsAt, window.endsAt]);

      // Users with a wallet and a linked e-mail; every odd user was referred by the one before.
      const users: string[] = Array.from({ length: USERS }, () => randomUUID());
      for (const [i, id] of users.entries()) {
        await seedUser(db, campaignId, { id, referrerId: i % 2 === 1 ? users[i - 1] : null });
        await seedIdentity(db, campaignId, id, "EVM_ADDRESS", `0x${String(i).padStart(40, "0")}`);
        await seedIdentity(db, campaignId, id, "EMAIL", `u${i}@example.com`);
      }

      const messages: RawEventMessage[] = t.events.map((e, i) => ({
        v: 2,
        event_id: randomUUID(),
        campaign_id: campaignId,
        reg_event_id: e.login ? LOGIN : SWAP,
        identity_type: e.email ? "EMAIL" : "EVM_ADDRESS",
        account_id: e.email ? `u${e.user}@example.com` : `0x${String(e.user).padStart(40, "0")}`,
        amount: e.amount,
        // Received in stream order after the four days; happened at a random time of them.
        received_at: minuteTime(5 * 24 * 60 + i),
        occurred_at: minuteTime(e.minute),
        source: "api",
      }));
      // The stream: every message once, some again later under a new stream seq.
      const published: RawEventMessage[] = [...messages, ...messages.filter((_, i) => t.republish[i])];
      const staged: StagedMessage[] = published.map((event, i) => ({ stream: streamName, streamSeq: i + 1, subject: "p.events", event }));

      const applier = createApplier({
        db,
        logger,
        rules: new RuleVersionCache(),
        stream: streamName,
        batchSize: t.applyBatch,
        sliceSize: t.slice,
        maxAttempts: 3,
        retryDelayMs: 50,
        floor: async () => Number.MAX_SAFE_INTEGER,
      });
      let at = 0;
      let k = 0;
      while (at < staged.length) {
        const size = t.stageSizes[k++ % t.stageSizes.length] as number;
        const batch = staged.slice(at, at + size);
        // Redeliveries of messages staged (and maybe applied) earlier ride along with the batch.
        const again = staged.slice(0, at).filter((_, i) => t.redeliver[i]);
        await stageMessages(db, [...again, ...batch]);
        at += size;
        await applier.drainCampaign(campaignId, at);
      }

      const userOf = (e: RawEventMessage) => users[Number(e.identity_type === "EMAIL" ? e.account_id.slice(1, 2) : e.account_id.slice(-1))] as string;
      const inStreamOrder: RawEvent[] = messages.map((m, i) => ({
        id: m.event_id,
        seq: String(i + 1),
        campaignId,
        userId: userOf(m),
        regEventId: m.reg_event_id,
        identityType: m.identity_type,
        amount: m.amount,
        occurredAt: m.occurred_at as string,
        referrerId: users.indexOf(userOf(m)) % 2 === 1 ? (users[users.indexOf(userOf(m)) - 1] as string) : null,
      }));
      const expected = replayCampaign(parseRuleVersion(doc), inStreamOrder, window);

      expect(await scoreTable(db, campaignId)).toEqual(expected.rows.map(canonicalRow));
      const log = await logOf(db, campaignId);
      expect(log.map((e) => e.id)).toEqual(messages.map((m) => m.event_id));
      const { rows: ledger } = await db.query<{ entry_key: string }>("SELECT entry_key FROM ledger_entry WHERE campaign_id = $1 ORDER BY id", [campaignId]);
      expect(ledger.map((l) => l.entry_key)).toEqual(expected.entries.map((e) => e.key));
      const { rows: left } = await db.query("SELECT count(*)::int AS n FROM event_inbox WHERE stream = $1", [streamName]);
      expect(left[0].n).toBe(0);
    }),
    { numRuns: 15 },
  );
}, 120_000);
