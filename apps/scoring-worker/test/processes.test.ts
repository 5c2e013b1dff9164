// The built worker as real processes: three replicas on one stream give the scores one gives, and
// SIGKILL in the middle of batches loses and repeats nothing. Run `npm run build` first (npm test does).
import { randomUUID } from "node:crypto";
import type { RuleVersionInput } from "@pointwise/rules";
import type { RawEventMessage } from "@pointwise/schemas";
import {
  type AppProcess,
  createTestBus,
  createTestDatabase,
  seedIdentity,
  seedUser,
  spawnApp,
  testServiceEnv,
  uniqueName,
  waitUntil,
} from "@pointwise/testkit";
import { addRuleVersion, createCampaign, ledgerBesideReplay, logOf, message, replayed, richRules, scoreTable } from "./support";

type Db = Awaited<ReturnType<typeof createTestDatabase>>;
type Bus = Awaited<ReturnType<typeof createTestBus>>;

interface Deployment {
  db: Db;
  bus: Bus;
  env: Record<string, string>;
  apps: AppProcess[];
}

const deployments: Deployment[] = [];

async function deploy(over: Record<string, string> = {}): Promise<Deployment> {
  const ns = uniqueName("t_wp");
  const db = await createTestDatabase(ns);
  const bus = await createTestBus(ns);
  const env = {
    ...testServiceEnv(ns),
    FETCH_EXPIRES_MS: "1000",
    ACK_WAIT_MS: "2000",
    RETRY_DELAY_MS: "50",
    BATCH_SIZE: "20",
    APPLY_BATCH_SIZE: "15",
    LOG_LEVEL: "debug",
    ...over,
  };
  const d = { db, bus, env, apps: [] };
  deployments.push(d);
  return d;
}

async function replica(d: Deployment): Promise<AppProcess> {
  const app = await spawnApp("scoring-worker", d.env);
  d.apps.push(app);
  return app;
}

afterAll(async () => {
  for (const d of deployments) {
    await Promise.all(d.apps.map((a) => a.stop("SIGKILL")));
    await d.bus.drop();
    await d.db.drop();
  }
});

const PLAIN = "proc-0001";
const BUDGET = "proc-0002";
const rulesOf = (c: string): RuleVersionInput => (c === BUDGET ? richRules(c, 1, { budget: "300" }) : richRules(c));

async function setUp(d: Deployment, referrals: { user: string; account: string; referrer: string | null }[]): Promise<void> {
  for (const c of [PLAIN, BUDGET]) {
    await createCampaign(d.db, c);
    await addRuleVersion(d.db, rulesOf(c), "active");
    // A few users exist before any event (same ids everywhere), some referred by others.
    for (const r of referrals) {
      const id = `${r.user.slice(0, 34)}${c === PLAIN ? "01" : "02"}`;
      await seedUser(d.db, c, { id, referrerId: r.referrer ? `${r.referrer.slice(0, 34)}${c === PLAIN ? "01" : "02"}` : null });
      await seedIdentity(d.db, c, id, "EVM_ADDRESS", r.account);
    }
  }
}

function workload(n: number): RawEventMessage[] {
  return Array.from({ length: n }, (_, i) => {
    const c = i % 3 === 0 ? BUDGET : PLAIN;
    return message(c, {
      account_id: `0x${String((i * 7) % 12).padStart(40, "0")}`,
      reg_event_id: i % 5 === 0 ? "0b7e4d21-53a9-4f6c-8a10-7c3e2f9d4b22" : "6f1c2a4e-8d3b-4c1a-9e7f-2b5d8a9c0e11",
      amount: String((i * 53) % 170),
      received_at: new Date(Date.UTC(2026, 2, 2) + i * 97_000).toISOString(),
    });
  });
}

/** Score rows keyed by the account of their user, so two deployments (different user ids) compare. */
async function byAccount(d: Deployment, c: string) {
  const { rows } = await d.db.query<{ user_id: string; account_id: string }>("SELECT user_id, account_id FROM identity WHERE campaign_id = $1", [c]);
  const account = new Map(rows.map((r) => [r.user_id, r.account_id]));
  return (await scoreTable(d.db, c))
    .map(({ userId, ...row }) => ({ account: account.get(userId), ...row }))
    .sort((a, b) => `${a.account}/${a.currency}`.localeCompare(`${b.account}/${b.currency}`));
}

const logged = async (d: Deployment) => Number((await d.db.query("SELECT count(*) AS n FROM event_log")).rows[0].n);
const inbox = async (d: Deployment) => Number((await d.db.query("SELECT count(*) AS n FROM event_inbox")).rows[0].n);

describe("scoring-worker processes", () => {
  it("gives exactly the same scores with three replicas on one stream as with one", async () => {
    const referrals = Array.from({ length: 6 }, (_, i) => ({
      user: randomUUID(),
      account: `0x${String(i).padStart(40, "0")}`,
      referrer: null as string | null,
    }));
    for (let i = 1; i < referrals.length; i += 2) (referrals[i] as { referrer: string | null }).referrer = referrals[i - 1]?.user ?? null;
    const three = await deploy();
    const one = await deploy();
    await setUp(three, referrals);
    await setUp(one, referrals);
    await Promise.all([replica(three), replica(three), replica(three), replica(one)]);

    const events = workload(600);
    for (const e of events) {
      await three.bus.publishRawEvent(e, e.event_id);
      await one.bus.publishRawEvent(e, e.event_id);
    }
    for (const d of [three, one]) {
      await waitUntil(async () => (await logged(d)) === 600 && (await inbox(d)) === 0, 60_000, "600 events applied");
    }
    for (const c of [PLAIN, BUDGET]) {
      // Whichever replica took a message, each campaign's log is in publish order, as with one replica.
      const order = events.filter((e) => e.campaign_id === c).map((e) => e.event_id);
      expect((await logOf(three.db, c)).map((e) => e.id)).toEqual(order);
      expect((await logOf(one.db, c)).map((e) => e.id)).toEqual(order);
      const a = await byAccount(three, c);
      expect(a.length).toBeGreaterThan(0);
      expect(a).toEqual(await byAccount(one, c));
      expect(await scoreTable(three.db, c)).toEqual(await replayed(three.db, c, rulesOf(c)));
    }
    // The load was really shared: more than one replica staged messages.
    const staging = three.apps.filter((a) => a.output().includes('"msg":"messages staged"'));
    expect(staging.length).toBeGreaterThan(1);
    expect(await Promise.all([...three.apps, ...one.apps].map((a) => a.stop("SIGTERM")))).toEqual([0, 0, 0, 0]);
  }, 120_000);

  it("loses and repeats nothing when killed with SIGKILL in the middle of batches, again and again", async () => {
    const d = await deploy({ BATCH_SIZE: "25", APPLY_BATCH_SIZE: "10" });
    await setUp(d, []);
    let current = await replica(d);
    const events = workload(900);
    const publish = async (wave: RawEventMessage[]) => {
      for (const [i, e] of wave.entries()) {
        await d.bus.publishRawEvent(e, e.event_id);
        if (i % 30 === 29) await new Promise((r) => setTimeout(r, 10));
      }
    };
    // Five waves, one after the other (the log must follow publish order); during each of the first
    // four the worker is killed once it is busy applying.
    let publishing = Promise.resolve();
    for (let k = 0; k < 5; k++) {
      const before = await logged(d);
      const wave = events.slice(k * 180, (k + 1) * 180);
      publishing = publishing.then(() => publish(wave));
      if (k === 4) break;
      await waitUntil(async () => (await logged(d)) > before, 30_000, "progress before the kill");
      await new Promise((r) => setTimeout(r, 20 + Math.floor(Math.random() * 100)));
      expect(await current.stop("SIGKILL")).toBeNull();
      current = await replica(d);
    }
    await publishing;
    await waitUntil(async () => (await logged(d)) === 900 && (await inbox(d)) === 0, 60_000, "all 900 events applied");

    for (const c of [PLAIN, BUDGET]) {
      const log = await logOf(d.db, c);
      expect(log.map((e) => e.id)).toEqual(events.filter((e) => e.campaign_id === c).map((e) => e.event_id));
      expect(await scoreTable(d.db, c)).toEqual(await replayed(d.db, c, rulesOf(c)));
      const { ledger, replay } = await ledgerBesideReplay(d.db, c, rulesOf(c));
      expect(ledger).toEqual(replay);
    }
    const { rows } = await d.db.query("SELECT count(*)::int AS n FROM dead_letter");
    expect(rows[0].n).toBe(0);
    expect(await current.stop("SIGTERM")).toBe(0);
  }, 120_000);
});
