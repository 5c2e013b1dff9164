// Event time in the worker: late events scored at their occurred_at live exactly as a replay, and campaign dates enforced live and on recompute.
import { createLogger } from "@pointwise/logger";
import type { RuleVersionInput } from "@pointwise/rules";
import { createTestDatabase, uniqueName } from "@pointwise/testkit";
import { createApplier } from "../src/apply/inbox-drainer";
import { stageMessages } from "../src/intake/inbox";
import { runNextJob } from "../src/recompute/recompute-job";
import { RuleVersionCache } from "../src/scoring/rule-version-cache";
import { addRuleVersion, createCampaign, LOGIN, message, queueJob, replayed, SWAP, scoreTable } from "./support";

type Db = Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
const logger = createLogger({ service: "test", level: "silent" });
let streamSeq = 0;

beforeAll(async () => {
  db = await createTestDatabase(uniqueName("t_worker_time"));
});
afterAll(async () => {
  await db?.drop();
});

const ALICE = `0x${"a".repeat(40)}`;
const BOB = `0x${"b".repeat(40)}`;

/** 10 xp per swap, doubled on Saturdays and Sundays, at most 25 xp per UTC day; 1 xp per login with a one-hour cooldown. */
function dayCapRules(campaignId: string): RuleVersionInput {
  return {
    campaignId,
    version: 1,
    primaryCurrency: "xp",
    currencies: { xp: { name: "Experience", decimals: 0, caps: [{ period: "day", limit: "25" }] } },
    rules: [
      {
        id: "swap",
        regEventId: SWAP,
        currency: "xp",
        base: { kind: "fixed", points: "10" },
        multipliers: [{ kind: "recurring", factor: "2", window: { days: ["sat", "sun"] } }],
      },
      { id: "login", regEventId: LOGIN, currency: "xp", base: { kind: "fixed", points: "1" }, cooldownSeconds: 3600 },
    ],
  };
}

/** Stages messages (version 2, with their event times) and applies them live in batches of `batch`. */
async function applyLive(campaignId: string, events: { account: string; at: string; type?: string }[], batch = 3): Promise<void> {
  await stageMessages(
    db,
    events.map((e) => ({
      stream: "ET",
      streamSeq: ++streamSeq,
      subject: "et.events",
      event: message(campaignId, { v: 2, account_id: e.account, reg_event_id: e.type ?? SWAP, received_at: "2026-11-26T12:00:00.000Z", occurred_at: e.at }),
    })),
  );
  await createApplier({
    db,
    logger,
    rules: new RuleVersionCache(),
    stream: "ET",
    batchSize: batch,
    maxAttempts: 3,
    retryDelayMs: 50,
    floor: async () => streamSeq,
  }).drainCampaign(campaignId, streamSeq);
}

const xpOf = async (campaignId: string, account: string) => {
  const { rows } = await db.query(
    `SELECT s.total::text AS total FROM score s JOIN identity i ON i.user_id = s.user_id AND i.campaign_id = s.campaign_id
      WHERE s.campaign_id = $1 AND i.account_id = $2 AND s.currency = 'xp'`,
    [campaignId, account],
  );
  return rows[0]?.total ?? "0";
};

describe("event time in the scoring worker", () => {
  it("scores a backfill interleaved with live events by their own days: each day's cap and weekend factor, as a replay does", async () => {
    const c = "time-0001";
    await createCampaign(db, c);
    await addRuleVersion(db, dayCapRules(c), "active");
    // Today (Thursday 2026-11-26) live, then a backfill of Saturday 21 and Friday 20, then live again.
    await applyLive(c, [
      { account: ALICE, at: "2026-11-26T09:00:00.000Z" },
      { account: ALICE, at: "2026-11-26T10:00:00.000Z" },
      { account: ALICE, at: "2026-11-21T08:00:00.000Z" },
      { account: ALICE, at: "2026-11-21T09:00:00.000Z" },
      { account: ALICE, at: "2026-11-20T09:00:00.000Z" },
      { account: ALICE, at: "2026-11-26T11:00:00.000Z" },
      { account: ALICE, at: "2026-11-20T10:00:00.000Z" },
      { account: ALICE, at: "2026-11-20T11:00:00.000Z" },
    ]);
    // Thursday: 10 + 10 + 5 (cap 25). Saturday: 20 + 5 (cap 25). Friday: 10 + 10 + 5 (cap 25).
    expect(await xpOf(c, ALICE)).toBe("75");
    expect(await scoreTable(db, c)).toEqual(await replayed(db, c, dayCapRules(c)));
  });

  it("keeps a cooldown in event time: a late login far from the others counts, one within the hour does not", async () => {
    const c = "time-0002";
    await createCampaign(db, c);
    await addRuleVersion(db, dayCapRules(c), "active");
    await applyLive(c, [
      { account: BOB, at: "2026-11-26T10:00:00.000Z", type: LOGIN },
      { account: BOB, at: "2026-11-26T08:00:00.000Z", type: LOGIN },
      { account: BOB, at: "2026-11-26T09:30:00.000Z", type: LOGIN },
      { account: BOB, at: "2026-11-26T08:59:59.999Z", type: LOGIN },
    ]);
    // 10:00 and 08:00 count; 09:30 is 30 minutes from 10:00; 08:59:59.999 is under an hour from 08:00.
    expect(await xpOf(c, BOB)).toBe("2");
    expect(await scoreTable(db, c)).toEqual(await replayed(db, c, dayCapRules(c)));
  });

  it("pays nothing for events outside the campaign's dates, and recomputes when the dates change", async () => {
    const c = "time-0003";
    await createCampaign(db, c);
    await db.query("UPDATE campaign SET starts_at = '2026-11-20T00:00:00Z', ends_at = '2026-11-27T00:00:00Z' WHERE id = $1", [c]);
    await addRuleVersion(db, dayCapRules(c), "active");
    await applyLive(c, [
      { account: ALICE, at: "2026-11-19T23:59:59.999Z" },
      { account: ALICE, at: "2026-11-20T00:00:00.000Z" },
      { account: ALICE, at: "2026-11-24T12:00:00.000Z" },
      { account: ALICE, at: "2026-11-27T00:00:00.000Z" },
    ]);
    // Only the two inside [start, end) pay (both weekdays): 10 + 10.
    expect(await xpOf(c, ALICE)).toBe("20");
    const window = { startsAt: "2026-11-20T00:00:00.000Z", endsAt: "2026-11-27T00:00:00.000Z" };
    expect(await scoreTable(db, c)).toEqual(await replayed(db, c, dayCapRules(c), window));

    // The campaign now starts on the 24th: the event of the 20th no longer earns, after the recompute.
    await db.query("UPDATE campaign SET starts_at = '2026-11-24T00:00:00Z' WHERE id = $1", [c]);
    await queueJob(db, c, 1, "campaign-dates");
    expect(await runNextJob({ db, logger, rules: new RuleVersionCache(), chunkSize: 2, sliceSize: 1, leaseMs: 60_000 })).toBe(true);
    expect(await xpOf(c, ALICE)).toBe("10");
    expect(await scoreTable(db, c)).toEqual(await replayed(db, c, dayCapRules(c), { ...window, startsAt: "2026-11-24T00:00:00.000Z" }));
    // A live event after the change is held to the new dates too.
    await applyLive(c, [{ account: ALICE, at: "2026-11-22T12:00:00.000Z" }]);
    expect(await xpOf(c, ALICE)).toBe("10");
  });
});
