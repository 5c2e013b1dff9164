// Scoring benchmark: events per second the built scoring worker applies from a JetStream backlog
// into the log, the ledger and the score rows (with rules, state and referrers), beside a baseline
// in the same run: a consumer of the same backlog doing one Prisma `upsert` per event into a score
// table and acknowledging each message. Prints the result as JSON.
//
//   node --import tsx bench/scoring/run.ts [--events 200000] [--quick]
import { createBus, decodeRawEvent } from "@pointwise/bus";
import { Prisma } from "@pointwise/db";
import type { RawEventMessage } from "@pointwise/schemas";
import { spawnApp, waitUntil } from "@pointwise/testkit";
import { AckPolicy, DeliverPolicy, nanos } from "nats";
import { createFixture, wallets } from "../lib/fixture";
import { type BenchResult, emit, type Figure, peakRssMb, quick } from "../lib/measure";

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const EVENTS = Number(arg("--events") ?? (quick ? 5_000 : 200_000));
// The baseline is ~1000x slower per event; a sample of the same backlog gives its rate.
const BASELINE_EVENTS = Math.min(EVENTS, quick ? 500 : 5_000);
const USERS = Math.max(10, Math.min(10_000, Math.floor(EVENTS / 20)));
const PUBLISH_WINDOW = 2_000;

function rules(campaignId: string, regEventId: string) {
  return {
    campaignId,
    version: 1,
    primaryCurrency: "xp",
    currencies: {
      xp: {
        name: "Experience",
        decimals: 2,
        tiers: [
          { key: "bronze", name: "Bronze", minLifetime: "0" },
          { key: "silver", name: "Silver", minLifetime: "1000", multiplier: "1.1" },
        ],
        caps: [{ period: "day", limit: "5000" }],
      },
      gems: { name: "Gems", decimals: 0 },
    },
    rules: [
      {
        id: "volume",
        regEventId,
        currency: "xp",
        base: { kind: "perUnit", points: "1.5" },
        milestones: [{ id: "ten-swaps", metric: "count", level: "10", points: "100" }],
        multipliers: [{ kind: "recurring", factor: "2", window: { days: ["sat", "sun"] } }],
      },
      { id: "count", regEventId, currency: "gems", base: { kind: "fixed", points: "1" } },
    ],
    referral: { shares: { xp: "0.1" } },
  };
}

async function main(): Promise<void> {
  const fx = await createFixture();
  const { pool, prisma } = fx.db;
  await pool.query("INSERT INTO rule_version(campaign_id, version, document, status, activated_at) VALUES ($1, 1, $2, 'active', now())", [
    fx.campaignId,
    JSON.stringify(rules(fx.campaignId, fx.regEventId)),
  ]);
  const bus = await createBus({ url: fx.env.NATS_URL as string, namespace: fx.namespace });
  await bus.ensureStreams();

  // The backlog: EVENTS raw events of USERS wallets over a few days, published before anyone consumes.
  const accounts = wallets(USERS);
  const started = Date.UTC(2026, 2, 2);
  const event = (i: number): RawEventMessage => ({
    v: 1,
    event_id: crypto.randomUUID(),
    campaign_id: fx.campaignId,
    reg_event_id: fx.regEventId,
    identity_type: "EVM_ADDRESS",
    account_id: accounts[(i * 7919) % USERS] as string,
    amount: `${(i % 997) + 1}.25`,
    received_at: new Date(started + i * 1000).toISOString(),
    source: "api",
  });
  for (let from = 0; from < EVENTS; from += PUBLISH_WINDOW) {
    const n = Math.min(PUBLISH_WINDOW, EVENTS - from);
    await Promise.all(Array.from({ length: n }, (_, k) => bus.publishRawEvent(event(from + k))));
  }
  const figures: Figure[] = [];
  const notes: string[] = [`${EVENTS.toLocaleString("en")} events of ${USERS.toLocaleString("en")} users in the backlog`];

  // Baseline: the naive consumer, one Prisma upsert (an ORM round trip) per event, then ack.
  await bus.jsm.consumers.add(bus.names.eventsStream, {
    durable_name: "bench-baseline",
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(60_000),
  });
  const baseline = await bus.js.consumers.get(bus.names.eventsStream, "bench-baseline");
  const t0 = performance.now();
  let done = 0;
  while (done < BASELINE_EVENTS) {
    const batch = await baseline.fetch({ max_messages: Math.min(500, BASELINE_EVENTS - done), expires: 5000 });
    for await (const msg of batch) {
      const decoded = decodeRawEvent(msg);
      if (!decoded.ok) throw new Error(decoded.reason);
      const points = new Prisma.Decimal(decoded.event.amount).mul("1.5");
      await prisma.score.upsert({
        where: { campaignId_userId_currency: { campaignId: "base-0001", userId: userIdOf(decoded.event.account_id), currency: "xp" } },
        create: { campaignId: "base-0001", userId: userIdOf(decoded.event.account_id), currency: "xp", score: points, total: points, lifetime: points },
        update: { score: { increment: points }, total: { increment: points }, lifetime: { increment: points } },
      });
      msg.ack();
      done++;
    }
  }
  const baselineRate = done / ((performance.now() - t0) / 1000);

  // The worker: a real process on the same backlog through its own durable consumer. It starts
  // consuming a moment before it answers /readyz, so timing from readiness slightly flatters it.
  const spawnedAt = performance.now();
  const worker = await spawnApp("scoring-worker", { ...fx.env, BATCH_SIZE: "1000", APPLY_BATCH_SIZE: "2000", FETCH_EXPIRES_MS: "5000" });
  const readyAt = performance.now();
  const logged = async () => Number((await pool.query("SELECT count(*) AS n FROM event_log")).rows[0].n);
  await waitUntil(async () => (await logged()) >= EVENTS, 30 * 60_000, "the backlog applied");
  const seconds = (performance.now() - readyAt) / 1000;
  const rate = EVENTS / seconds;
  const { rows } = await pool.query<{ ledger: string; scores: string; users: string }>(
    `SELECT (SELECT count(*) FROM ledger_entry)::text AS ledger, (SELECT count(*) FROM score WHERE campaign_id = $1)::text AS scores,
            (SELECT count(*) FROM app_user WHERE campaign_id = $1)::text AS users`,
    [fx.campaignId],
  );
  const rss = peakRssMb(worker.child.pid as number);
  await worker.stop();
  notes.push(
    `the worker logged ${EVENTS.toLocaleString("en")} events in ${seconds.toFixed(1)} s, writing ${rows[0]?.ledger} ledger entries, ${rows[0]?.users} users and ${rows[0]?.scores} score rows; start-up to ready took ${((readyAt - spawnedAt) / 1000).toFixed(1)} s`,
  );
  notes.push(
    `baseline measured on the first ${BASELINE_EVENTS.toLocaleString("en")} events of the same backlog (it writes one score row per event only: no log, ledger, state or rules)`,
  );

  figures.push({
    name: "events applied per second, JetStream backlog -> log + ledger + scores",
    unit: "events/s",
    value: rate,
    baseline: baselineRate,
    ratio: rate / baselineRate,
    note: "baseline: one Prisma upsert per event",
  });
  const result: BenchResult = { path: "scoring", figures, memory: [{ process: "scoring-worker", peakRssMb: rss }], notes };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  emit(result);

  await bus.jsm.streams.delete(bus.names.eventsStream).catch(() => undefined);
  await bus.close();
  await fx.db.drop();
}

/** A stable uuid per account for the baseline's score rows (the baseline does no identity resolution). */
function userIdOf(account: string): string {
  const hex = Buffer.from(account.toLowerCase().slice(2, 34).padEnd(32, "0"), "hex").toString("hex").padEnd(32, "0").slice(0, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
