// The built worker while its PostgreSQL backends are terminated again and again under a stream of
// events: it stays up, stays ready once the database answers, and scores every event exactly once.
import { randomUUID } from "node:crypto";
import type { RuleVersionInput } from "@pointwise/rules";
import type { RawEventMessage } from "@pointwise/schemas";
import { type AppProcess, createTestBus, createTestDatabase, spawnApp, testServiceEnv, uniqueName, waitUntil } from "@pointwise/testkit";
import Decimal from "decimal.js";
import { addRuleVersion, createCampaign, message, SWAP } from "./support";

type Db = Awaited<ReturnType<typeof createTestDatabase>>;
type Bus = Awaited<ReturnType<typeof createTestBus>>;

const CAMPAIGN = "lost-0001";
// 3 xp per unit of amount and nothing else: a user's score is three times the sum of their amounts.
const RULES: RuleVersionInput = {
  campaignId: CAMPAIGN,
  version: 1,
  primaryCurrency: "xp",
  currencies: { xp: { name: "Experience", decimals: 2 } },
  rules: [{ id: "volume", regEventId: SWAP, currency: "xp", base: { kind: "perUnit", points: "3" } }],
};

let db: Db;
let bus: Bus;
let worker: AppProcess | undefined;
let schema: string;

beforeAll(async () => {
  schema = uniqueName("t_wl");
  db = await createTestDatabase(schema);
  bus = await createTestBus(schema);
  await createCampaign(db, CAMPAIGN);
  await addRuleVersion(db, RULES, "active");
});

afterAll(async () => {
  await worker?.stop("SIGKILL");
  await bus.drop();
  await db.drop();
});

/**
 * Terminates the busy backends of one application_name every `everyMs` for `forMs`; resolves with
 * how many it terminated. Only this test's process carries the name, so no other test is touched.
 */
async function terminateBackends(applicationName: string, forMs: number, everyMs = 200): Promise<number> {
  let terminated = 0;
  const until = Date.now() + forMs;
  while (Date.now() < until) {
    const { rows } = await db.query<{ ok: boolean }>(
      "SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1 AND state <> 'idle'",
      [applicationName],
    );
    terminated += rows.filter((r) => r.ok).length;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return terminated;
}

describe("scoring-worker losing database connections", () => {
  it("stays up through repeated backend terminations under load and scores every acknowledged event exactly once", async () => {
    worker = await spawnApp("scoring-worker", {
      ...testServiceEnv(schema),
      BATCH_SIZE: "20",
      APPLY_BATCH_SIZE: "15",
      RETRY_DELAY_MS: "50",
      ACK_WAIT_MS: "2000",
      FETCH_EXPIRES_MS: "1000",
    });
    const accounts = Array.from({ length: 9 }, (_, i) => `0x${String(i + 1).padStart(40, "0")}`);
    const events: RawEventMessage[] = Array.from({ length: 3000 }, (_, i) =>
      message(CAMPAIGN, {
        event_id: randomUUID(),
        account_id: accounts[i % accounts.length] as string,
        amount: String((i * 37) % 101),
        received_at: new Date(Date.UTC(2026, 2, 2) + i * 1000).toISOString(),
      }),
    );
    // Published at a steady pace over a few seconds, so the terminations land mid-batch.
    const publishing = (async () => {
      for (const [i, e] of events.entries()) {
        await bus.publishRawEvent(e, e.event_id);
        if (i % 40 === 39) await new Promise((r) => setTimeout(r, 100));
      }
    })();
    await waitUntil(async () => Number((await db.query("SELECT count(*) AS n FROM event_log")).rows[0].n) > 0, 30_000, "the worker to apply");
    const terminated = await terminateBackends(`scoring-worker@${schema}`, 8000, 100);
    await publishing;
    expect(terminated).toBeGreaterThan(5);
    expect(worker.child.exitCode).toBeNull();
    expect(worker.output()).not.toContain("Unhandled 'error' event");

    await waitUntil(
      async () => {
        const { rows } = await db.query("SELECT (SELECT count(*) FROM event_log)::int AS logged, (SELECT count(*) FROM event_inbox)::int AS inbox");
        return rows[0].logged === events.length && rows[0].inbox === 0;
      },
      60_000,
      "every event applied",
    );
    expect(worker.child.exitCode).toBeNull();
    expect((await fetch(`${worker.url}/readyz`)).status).toBe(200);

    // Each event logged once, under its own id; each user's score three times the sum of their amounts.
    const { rows: ids } = await db.query<{ id: string }>("SELECT id FROM event_log WHERE campaign_id = $1 ORDER BY seq", [CAMPAIGN]);
    expect(ids.map((r) => r.id)).toEqual(events.map((e) => e.event_id));
    const expected = new Map<string, string>();
    for (const e of events) expected.set(e.account_id, new Decimal(expected.get(e.account_id) ?? 0).plus(new Decimal(e.amount).times(3)).toFixed());
    const { rows } = await db.query<{ account_id: string; score: string }>(
      `SELECT i.account_id, s.score::text AS score FROM score s JOIN identity i ON (i.campaign_id, i.user_id) = (s.campaign_id, s.user_id)
        WHERE s.campaign_id = $1 AND s.currency = 'xp'`,
      [CAMPAIGN],
    );
    expect(new Map(rows.map((r) => [r.account_id, new Decimal(r.score).toFixed()]))).toEqual(expected);
    const { rows: dead } = await db.query("SELECT count(*)::int AS n FROM dead_letter");
    expect(dead[0].n).toBe(0);
    expect(await worker.stop("SIGTERM")).toBe(0);
  }, 120_000);
});
