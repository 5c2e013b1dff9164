// Measures the batch endpoint: the built ingest-api as its own process, autocannon posting batches of
// 1,000 valid events from this process, and a baseline (GET /healthz) measured in the same run.
// Run: `cd apps/ingest-api && npm run build && npx tsx bench/batch.ts [seconds] [connections]`.
import { generateApiKey } from "@pointwise/auth";
import { createTestBus, createTestDatabase, spawnApp, testUrls, uniqueName } from "@pointwise/testkit";
import autocannon from "autocannon";

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 4);
const BATCH = 1000;

async function main(): Promise<void> {
  const namespace = uniqueName("bench");
  const db = await createTestDatabase(namespace);
  const bus = await createTestBus(namespace);
  const key = generateApiKey();
  await db.pool.query("INSERT INTO project(id, name) VALUES ('00000000-0000-4000-8000-00000000be01', 'bench')");
  await db.pool.query(
    "INSERT INTO campaign(id, project_id, name, currencies, primary_currency) VALUES ('benc-h001', '00000000-0000-4000-8000-00000000be01', 'b', '{\"xp\":\"XP\"}', 'xp')",
  );
  await db.pool.query("INSERT INTO api_key(campaign_id, prefix, hash) VALUES ('benc-h001', $1, $2)", [key.prefix, key.hash]);
  const { rows } = await db.pool.query<{ id: string }>("INSERT INTO event_type(campaign_id, name) VALUES ('benc-h001', 'volume') RETURNING id");
  const regEventId = (rows[0] as { id: string }).id;
  const app = await spawnApp("ingest-api", {
    DATABASE_URL: testUrls.database,
    DATABASE_SCHEMA: namespace,
    REDIS_URL: testUrls.redis,
    NATS_URL: testUrls.nats,
    NAMESPACE: namespace,
    LOG_LEVEL: "warn",
    RATE_LIMIT_EVENTS_PER_SECOND: "10000000",
    RATE_LIMIT_BURST: "10000000",
  });
  try {
    const events = Array.from({ length: BATCH }, (_, i) => ({
      account_id: `0x${(i + 1).toString(16).padStart(40, "0")}`,
      identity_type: "EVM_ADDRESS",
      amount: `${i}.25`,
      reg_event_id: regEventId,
    }));
    const baseline = await autocannon({ url: `${app.url}/healthz`, connections, duration: Math.max(3, Math.round(seconds / 3)) });
    const before = (await bus.jsm.streams.info(bus.names.eventsStream)).state.messages;
    const result = await autocannon({
      url: `${app.url}/api/rest/earn-events`,
      method: "POST",
      connections,
      duration: seconds,
      headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
      body: JSON.stringify({ events }),
    });
    const stored = (await bus.jsm.streams.info(bus.names.eventsStream)).state.messages - before;
    const report = {
      connections,
      seconds,
      batch_size: BATCH,
      batches_per_s: result.requests.average,
      events_per_s: Math.round(stored / result.duration),
      stored_events: stored,
      latency_ms: { p50: result.latency.p50, p99: result.latency.p99 },
      non_2xx: result.non2xx,
      errors: result.errors,
      baseline_healthz_req_per_s: baseline.requests.average,
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await app.stop();
    await bus.drop();
    await db.drop();
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
