// A bounded soak: steady ingest and read traffic to the apps on 127.0.0.1 with a worker applying; reports each app's memory over time and that every accepted event was scored.
// Run: npm run soak -- [--minutes 10] [--rate 200] [--sample-s 15]. Needs the built apps (npm run build) and the local services.
import { setTimeout as sleep } from "node:timers/promises";
import {
  createTestDatabase,
  dropNamespace,
  postJson,
  seedCampaignWithKey,
  seedRuleVersion,
  spawnApp,
  testServiceEnv,
  uniqueName,
  waitUntil,
} from "@pointwise/testkit";

function flag(name: string, fallback: number, min: number, max: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i < 0 ? fallback : Number(process.argv[i + 1]);
  if (!Number.isFinite(value) || value < min || value > max) throw new Error(`--${name} must be a number from ${min} to ${max}`);
  return value;
}

const minutes = flag("minutes", 10, 0.1, 120);
const rate = flag("rate", 200, 1, 5000);
const sampleS = flag("sample-s", 15, 1, 600);
const ACCOUNTS = 500;
// Refusals a client retries (the same event, the same idempotency_key) and how often.
const RETRYABLE = new Set(["bus-unavailable", "rate-limited", "service-unavailable", "no-answer"]);
const MAX_RETRIES = 8;

type SoakEvent = { account_id: string; identity_type: string; amount: string; reg_event_id: string; idempotency_key: string };
type BatchResult = { ok: true; event_id: string } | { ok: false; errors: { extensions: { code: string } }[] };

/** The app's resident memory in MiB, from its own /metrics. */
async function rssMiB(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith("process_resident_memory_bytes "));
  return line === undefined ? Number.NaN : Math.round((Number(line.split(" ")[1]) / 1024 / 1024) * 10) / 10;
}

async function main(): Promise<void> {
  const schema = uniqueName("soak");
  const db = await createTestDatabase(schema);
  const env = { ...testServiceEnv(schema), LOG_LEVEL: "warn", RATE_LIMIT_EVENTS_PER_SECOND: "100000", RATE_LIMIT_BURST: "100000" };
  const apps = {
    ingest: await spawnApp("ingest-api", env),
    worker: await spawnApp("scoring-worker", env),
    read: await spawnApp("read-api", env),
  };
  try {
    const { campaignId, key, regEventId } = await seedCampaignWithKey(db, {});
    await seedRuleVersion(db, campaignId, {
      campaignId,
      version: 1,
      primaryCurrency: "xp",
      currencies: { xp: { name: "XP", decimals: 0 } },
      rules: [{ id: "e", regEventId, currency: "xp", base: { kind: "perUnit", points: "1" } }],
    });
    const auth = { authorization: `Bearer ${key}` };
    const accepted = new Map<string, number>();
    // Refusals of first sends by code; what was still refused after its last retry.
    const refusedByCode: Record<string, number> = {};
    let retried = 0;
    let gaveUp = 0;
    let reads = 0;
    let readErrors = 0;
    const started = Date.now();
    const endAt = started + minutes * 60_000;
    const samples: { s: number; ingest: number; worker: number; read: number }[] = [];
    const sample = async () => {
      samples.push({
        s: Math.round((Date.now() - started) / 1000),
        ingest: await rssMiB(apps.ingest.url),
        worker: await rssMiB(apps.worker.url),
        read: await rssMiB(apps.read.url),
      });
      const last = samples.at(-1);
      console.log(`t=${last?.s}s rss MiB ingest ${last?.ingest} worker ${last?.worker} read ${last?.read}; accepted ${accepted.size}`);
    };
    /**
     * Sends a batch and retries the items refused with a retryable code (`bus-unavailable`: JetStream did
     * not acknowledge in PUBLISH_TIMEOUT_MS, `rate-limited`, `service-unavailable`), as a client should.
     * Every event carries an `idempotency_key`, so a resent event keeps its id and one that was stored
     * although refused (a lost acknowledgement) is logged once.
     */
    const send = async (events: SoakEvent[]): Promise<void> => {
      let pending = events;
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 0) {
          if (attempt > MAX_RETRIES) {
            gaveUp += pending.length;
            return;
          }
          retried += pending.length;
          await sleep(Math.min(2000, 100 * 2 ** attempt));
        }
        const answer = await postJson(`${apps.ingest.url}/api/rest/earn-events`, { events: pending }, auth).catch(() => undefined);
        const again: SoakEvent[] = [];
        const refuse = (event: SoakEvent, code: string) => {
          if (attempt === 0) refusedByCode[code] = (refusedByCode[code] ?? 0) + 1;
          if (RETRYABLE.has(code)) again.push(event);
          else gaveUp++;
        };
        const results = answer?.body?.data?.results as BatchResult[] | undefined;
        if (results === undefined) {
          const code: string = answer === undefined ? "no-answer" : (answer.body?.errors?.[0]?.extensions?.code ?? "unknown");
          for (const event of pending) refuse(event, code);
        } else {
          for (const [i, r] of results.entries()) {
            const event = pending[i] as SoakEvent;
            if (r.ok) accepted.set(r.event_id, Number(event.account_id));
            else refuse(event, r.errors[0]?.extensions.code ?? "unknown");
          }
        }
        pending = again;
      }
    };
    await sample();
    // Open loop: one 10-event batch every 10/rate seconds, whatever the answers take; a read per batch.
    const interval = (10 / rate) * 1000;
    const inFlight = new Set<Promise<void>>();
    let n = 0;
    let nextSample = Date.now() + sampleS * 1000;
    for (let due = Date.now(); due < endAt; due += interval) {
      const wait = due - Date.now();
      if (wait > 0) await sleep(wait);
      const events = Array.from({ length: 10 }, (): SoakEvent => {
        const i = n++;
        // Discord ids start at 1: "0" is refused (invalid-account-id) as a client's unset field.
        return {
          account_id: String((i % ACCOUNTS) + 1),
          identity_type: "DISCORD_PROVIDER_ID",
          amount: "1",
          reg_event_id: regEventId,
          idempotency_key: `${schema}-${i}`,
        };
      });
      const work = (async () => {
        await send(events);
        const res = await fetch(`${apps.read.url}/leaderboard?campaign_id=${campaignId}&limit=100`).catch(() => undefined);
        reads++;
        if (res?.status !== 200) readErrors++;
        await res?.arrayBuffer();
      })();
      inFlight.add(work);
      void work.finally(() => inFlight.delete(work));
      if (Date.now() >= nextSample) {
        nextSample += sampleS * 1000;
        await sample();
      }
    }
    await Promise.all(inFlight);
    await sample();
    // Every accepted event is scored: the log holds each, and the scores add up to their count (one point each).
    await waitUntil(
      async () => Number((await db.query<{ n: string }>("SELECT count(*) AS n FROM event_log")).rows[0]?.n) >= accepted.size,
      120_000,
      "the worker to log every accepted event",
    );
    const { rows } = await db.query<{ logged: string; points: string }>(
      "SELECT (SELECT count(*) FROM event_log WHERE id = ANY($1::uuid[]))::text AS logged, (SELECT coalesce(sum(total), 0) FROM score WHERE campaign_id = $2)::text AS points",
      [[...accepted.keys()], campaignId],
    );
    const warm = samples.filter((x) => x.s >= Math.min(60, (minutes * 60) / 3));
    const growth = (app: "ingest" | "worker" | "read") => {
      const first = warm[0]?.[app] ?? Number.NaN;
      const last = warm.at(-1)?.[app] ?? Number.NaN;
      return Math.round((last - first) * 10) / 10;
    };
    const report = {
      minutes,
      events_per_second: rate,
      accepted: accepted.size,
      sent: n,
      refused_first_send_by_code: refusedByCode,
      retried,
      refused_after_retries: gaveUp,
      reads,
      read_errors: readErrors,
      logged: Number(rows[0]?.logged),
      points: rows[0]?.points,
      every_accepted_event_scored: Number(rows[0]?.logged) === accepted.size && rows[0]?.points === String(accepted.size),
      rss_growth_after_warmup_mib: { ingest: growth("ingest"), worker: growth("worker"), read: growth("read") },
      rss_mib: samples,
    };
    console.log(JSON.stringify(report, null, 2));
    // Every event sent is valid, so any refusal left after retries is a fault of the service.
    if (!report.every_accepted_event_scored || gaveUp > 0) process.exitCode = 1;
  } finally {
    await Promise.all(Object.values(apps).map((a) => a.stop("SIGTERM")));
    await dropNamespace(schema);
    await db.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
