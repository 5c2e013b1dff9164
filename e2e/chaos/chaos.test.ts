// Chaos suite: the whole service as real processes under a stream of events while the worker is killed, backends terminated, NATS and Redis cut; then every app is alive and every score exact.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import {
  createTcpProxy,
  createTestCache,
  createTestDatabase,
  type NatsServer,
  repoRoot,
  seedApiKey,
  seedCampaign,
  seedEventType,
  seedIdentity,
  seedRuleVersion,
  seedUser,
  startNatsServer,
  type TcpProxy,
  testServiceEnv,
  testUrls,
  uniqueName,
  waitUntil,
} from "@pointwise/testkit";
import { type Cluster, readyStatus, startCluster } from "./cluster";
import { computeCatchUp, type FaultRecord, type FaultStep, injectFault, type Probe, watchEventLog } from "./faults";
import { accountIdOf, type EventKind, expectedScores, referrerOf, ruleDocument, USER_COUNT } from "./model";
import { type ChaosFigures, counts, eventFigures, machine, writeReport } from "./report";
import { startTraffic, type Traffic, type TrafficBook } from "./traffic";
import { auditLog, checkScores } from "./verify";

jest.setTimeout(420_000);

const SEED = 0x5eed;
const WARMUP_MS = 3000;
const PAUSE_MS = 1000;
const OPERATOR = { email: "chaos@pointwise.test", password: "chaos operator password" };
const WORKERS = ["scoring-worker-1", "scoring-worker-2"];
const APPS = ["ingest-api", ...WORKERS, "read-api", "admin-api"];

// Two rounds of every fault, each app's backends terminated on their own and all at once.
const ROUND: FaultStep[] = [
  { kind: "worker-kill", targets: ["scoring-worker-1"] },
  { kind: "pg-terminate", targets: ["ingest-api"] },
  { kind: "nats-outage" },
  { kind: "pg-terminate", targets: WORKERS },
  { kind: "redis-outage" },
  { kind: "pg-terminate", targets: ["read-api"] },
  { kind: "worker-kill", targets: ["scoring-worker-2"] },
  { kind: "pg-terminate", targets: ["admin-api"] },
  { kind: "pg-terminate", targets: APPS },
];
const SCHEDULE = [...ROUND, ...ROUND];

const startedAt = Date.now();
const schema = uniqueName("chaos");
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let nats: NatsServer;
let redisProxy: TcpProxy;
let cluster: Cluster;
let traffic: Traffic | undefined;

beforeAll(async () => {
  nats = await startNatsServer();
  redisProxy = await createTcpProxy(testUrls.redis);
  await redisProxy.start();
  db = await createTestDatabase(schema);
  const shared = { ...testServiceEnv(schema, { natsUrl: nats.url }), REDIS_URL: redisProxy.url, LOG_LEVEL: "info" };
  cluster = await startCluster(
    [
      { name: "ingest-api", app: "ingest-api", env: { PUBLISH_TIMEOUT_MS: "1000", IDEMPOTENCY_WAIT_MS: "2000" } },
      // A replica killed while holding messages has them redelivered after ACK_WAIT_MS: 5 s keeps the run short.
      ...WORKERS.map((name) => ({ name, app: "scoring-worker" as const, env: { FETCH_EXPIRES_MS: "1000", ACK_WAIT_MS: "5000" } })),
      { name: "read-api", app: "read-api", env: { CACHE_TTL_MS: "1000" } },
      {
        name: "admin-api",
        app: "admin-api",
        env: { ADMIN_JWT_SECRET: "chaos-only-secret-chaos-only-secret-0123", ADMIN_EMAIL: OPERATOR.email, ADMIN_PASSWORD: OPERATOR.password },
      },
    ],
    shared,
    schema,
    startedAt,
  );
}, 120_000);

afterAll(async () => {
  await traffic?.stop(0).catch(() => undefined);
  await cluster?.stop();
  await nats?.destroy();
  await redisProxy?.stop();
  await (await createTestCache(schema)).drop();
  await db?.drop();
});

/** Seeds the campaign in the operator's project: two event types, the rule version, users with identities and referrers. */
async function seed(adminUrl: string) {
  const login = await fetch(`${adminUrl}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(OPERATOR) });
  const { token, project_id: projectId } = (await login.json()) as { token: string; project_id: string };
  const campaignId = await seedCampaign(db, { projectId, currencies: { xp: "XP", gems: "Gems" }, primary: "xp", name: "Chaos" });
  const apiKey = (await seedApiKey(db, campaignId)).key;
  const regEventIds: Record<EventKind, string> = {
    trade: await seedEventType(db, campaignId, { name: "trade" }),
    checkin: await seedEventType(db, campaignId, { name: "checkin" }),
  };
  await seedRuleVersion(db, campaignId, ruleDocument(campaignId, regEventIds));
  const userIds: string[] = [];
  for (let u = 0; u < USER_COUNT; u++) {
    const referrer = referrerOf(u);
    userIds.push(await seedUser(db, campaignId, { referrerId: referrer === null ? null : userIds[referrer]! }));
    await seedIdentity(db, campaignId, userIds[u]!, "DISCORD_PROVIDER_ID", accountIdOf(u));
  }
  return { adminToken: token, campaignId, apiKey, regEventIds, userIds };
}

it("keeps every app up and every acknowledged event counted exactly once through repeated faults", async () => {
  const ingest = cluster.member("ingest-api");
  const read = cluster.member("read-api");
  const admin = cluster.member("admin-api");
  const setup = await seed(admin.url);
  const target = { ...setup, ingestUrl: ingest.url, readUrl: read.url, adminUrl: admin.url };
  const watcher = watchEventLog(async (after) => {
    const { rows } = await db.query<{ seq: string; id: string }>(
      "SELECT seq::text AS seq, id::text AS id FROM event_log WHERE campaign_id = $1 AND seq > $2::bigint ORDER BY seq LIMIT 5000",
      [setup.campaignId, after],
    );
    return rows;
  });

  traffic = startTraffic(target, SEED);
  await sleep(WARMUP_MS);
  const chaosStart = Date.now();
  const faults: FaultRecord[] = [];
  const query = (text: string, values: unknown[]) => db.query<{ n: string }>(text, values);
  // Neither answer needs NATS or Redis: PostgreSQL has everything they show.
  const probes: Probe[] = [
    { name: "read-api GET /users/{id}/scores", url: `${read.url}/users/${setup.userIds[1]}/scores`, headers: { "x-api-key": setup.apiKey } },
    {
      name: "admin-api GET /users/{id}",
      url: `${admin.url}/api/campaigns/${setup.campaignId}/users/${setup.userIds[1]}`,
      headers: { authorization: `Bearer ${setup.adminToken}` },
    },
  ];
  for (const [i, step] of SCHEDULE.entries()) {
    faults.push(await injectFault({ cluster, nats, redisProxy, query, startedAt, probes }, step, i + 1));
    await sleep(PAUSE_MS);
  }
  const chaosS = Math.round((Date.now() - chaosStart) / 1000);
  await traffic.stop(30_000);
  const book: TrafficBook = traffic.book;
  traffic = undefined;

  const problems: string[] = [];
  const acked = [...book.acked.keys()];
  await waitUntil(() => acked.every((id) => watcher.firstSeen.has(id)), 60_000, "the workers to log every acknowledged event").catch((err: Error) =>
    problems.push(`${err.message}: ${acked.filter((id) => !watcher.firstSeen.has(id)).length} of ${acked.length} still missing`),
  );
  await watcher.stop();
  computeCatchUp(faults, book.acked, watcher.firstSeen, startedAt);

  const { rows } = await db.query<{ id: string; cents: string }>(
    "SELECT id::text AS id, (amount * 100)::bigint::text AS cents FROM event_log WHERE campaign_id = $1",
    [setup.campaignId],
  );
  const audit = auditLog(rows, book);
  problems.push(...audit.problems);
  if (book.keyedUnacked.length > 0)
    problems.push(`${book.keyedUnacked.length} events of requests sent with an Idempotency-Key were never acknowledged, retried for 30 s`);
  const dead = await db.query<{ n: string }>("SELECT count(*)::text AS n FROM dead_letter");
  if (Number(dead.rows[0]?.n) > 0) problems.push(`${dead.rows[0]?.n} events went to the dead-letter table`);
  const inbox = await db.query<{ n: string }>("SELECT count(*)::text AS n FROM event_inbox");
  if (Number(inbox.rows[0]?.n) > 0) problems.push(`${inbox.rows[0]?.n} events are still staged in the inbox, not applied`);

  const diffs = await checkScores({ ...setup, readUrl: read.url, adminUrl: admin.url }, expectedScores(audit.counted), 20_000);
  if (diffs.length > 0) problems.push(`${diffs.length} scores read back differ from the expected values:\n  ${diffs.slice(0, 15).join("\n  ")}`);

  for (const f of faults) {
    const late = Object.entries(f.readyMs).filter(([, ms]) => ms === null);
    if (late.length > 0)
      problems.push(`after fault ${f.n} (${f.kind} ${f.targets.join(",")}) /readyz stayed not 200 for 20 s: ${late.map(([m]) => m).join(", ")}`);
    // A probe that hangs is a dead process to an orchestrator; during an outage /readyz must say 503 (or 200) promptly.
    const silent = Object.entries(f.duringStatus).filter(([, status]) => status === 0);
    if (silent.length > 0) problems.push(`during fault ${f.n} (${f.kind}) /readyz gave no answer within 2 s: ${silent.map(([m]) => m).join(", ")}`);
    for (const [name, answer] of Object.entries(f.duringProbes))
      if (answer.status !== 200) problems.push(`during fault ${f.n} (${f.kind}) ${name} answered ${answer.status}: ${answer.body}`);
    if (f.kind === "pg-terminate" && f.backends === 0)
      problems.push(`fault ${f.n} found no backend of ${f.targets.join(",")} to terminate: the fault was not exercised`);
  }
  for (const c of cluster.crashes)
    problems.push(
      `${c.member} exited (code ${c.code}, signal ${c.signal}) at ${(c.atMs / 1000).toFixed(1)} s during ${c.during}; last log lines:\n    > ${c.log.join("\n    > ")}`,
    );
  // A connection lost is answered with a clear, retryable error (503, bus-unavailable,
  // service-unavailable), never with 500 internal or no answer at all.
  for (const [kind, n] of book.reads) {
    const status = kind.slice(kind.lastIndexOf(" ") + 1);
    if (status === "transport" || (status.startsWith("5") && status !== "503"))
      problems.push(
        `${kind.replace(/ \S+$/, "")} answered ${status === "transport" ? "nothing" : status} ${n} times under faults${book.samples.has(kind) ? `: ${book.samples.get(kind)}` : ""} (the cause is in test-artifacts/chaos/${kind.split(" ")[0]}.log)`,
      );
  }
  for (const codes of [book.refusedByCode, book.keyedRefusalsByCode])
    for (const [code, n] of codes)
      if (["internal", "transport", "http-error", "no-code"].includes(code))
        problems.push(`ingest-api answered ${code} to ${n} events or attempts under faults`);
  for (const m of cluster.dead()) problems.push(`${m.name} is not running at the end`);
  for (const m of cluster.members) {
    const status = await readyStatus(m);
    if (status !== 200) problems.push(`${m.name} /readyz answers ${status} at the end`);
  }

  const figures: ChaosFigures = {
    machine: machine(),
    durationS: Math.round((Date.now() - startedAt) / 1000),
    chaosS,
    events: eventFigures(book, audit.storedDespiteRefusal, rows.length),
    reads: counts(book.reads),
    faults,
    crashes: cluster.crashes,
    samples: Object.fromEntries(book.samples),
    problems,
  };
  process.stdout.write(`\nchaos suite figures (test-artifacts/chaos/report.json):\n\n${writeReport(figures)}\n`);
  // Each app's whole log beside the report (a crashed process's log is in its crash-*.log).
  for (const m of cluster.members) writeFileSync(path.join(repoRoot, "test-artifacts", "chaos", `${m.name}.log`), m.process.output());

  expect(book.acked.size).toBeGreaterThan(0);
  if (problems.length > 0) throw new Error(`the service did not come through the faults unharmed:\n\n- ${problems.join("\n\n- ")}`);
});
