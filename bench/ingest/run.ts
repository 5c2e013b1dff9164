// Ingest benchmark: accepted earn-events per second (durable in JetStream) and latency at 100
// connections, and the batch endpoint's events per second, each beside a bare express server that
// parses the same JSON body, in the same run. Also peak RSS and 10x the users.

import { createBus } from "@pointwise/bus";
import { spawnApp } from "@pointwise/testkit";
import { createFixture, wallets } from "../lib/fixture";
import {
  alternate,
  type BenchResult,
  describeRounds,
  emit,
  type Figure,
  type LoadResult,
  load,
  median,
  pairedRatio,
  peakRssMb,
  quick,
  rotate,
  SATURATION,
  startChild,
} from "../lib/measure";
import { describeProfile, summariseProfile, withProfileDir } from "../lib/profile";

const { durationSec: DURATION, rounds: ROUNDS, profileDurationSec: PROFILE_DURATION } = SATURATION;
// Batch requests take 150-250 ms each at 8 connections, so a one-second round would lose a large
// share of its time to the requests still unanswered when it ends; the batch runs longer rounds.
const BATCH_DURATION = quick ? 2 : 5;
const BATCH_ROUNDS = quick ? 1 : 9;
// 2: ratios are trimmed geometric means of per-round ratios of many short rounds; bodies are handed
// out from one shared list; the 10x-users rounds alternate with the 1x rounds.
const METHOD = 2;
const CONNECTIONS = 100;

async function main(): Promise<void> {
  const fx = await createFixture();
  const bus = await createBus({ url: fx.env.NATS_URL as string, namespace: fx.namespace });
  await bus.ensureStreams();
  const ingest = await spawnApp("ingest-api", { ...fx.env, RATE_LIMIT_EVENTS_PER_SECOND: "10000000", RATE_LIMIT_BURST: "100000000", METRICS: "false" });
  const bare = await startChild("bench/lib/bare-server.ts", ["json-echo"]);
  const headers = { "content-type": "application/json", authorization: `Bearer ${fx.apiKey}` };
  const bodiesFor = (users: number) =>
    wallets(users).map((account_id, i) =>
      JSON.stringify({ account_id, identity_type: "EVM_ADDRESS", amount: `${(i % 997) + 1}.5`, reg_event_id: fx.regEventId }),
    );
  const streamCount = async () => (await bus.jsm.streams.info(bus.names.eventsStream)).state.messages;
  const figures: Figure[] = [];
  const notes: string[] = [];

  // One round: the baseline and ingest-api with the same 1,000 users' bodies, then ingest-api with
  // 10,000 users' bodies. The 10x figure is paired with the 1,000-user round just before it, so
  // growth is read across seconds, not across the minutes between two separate series.
  const smallBodies = bodiesFor(1000);
  const bigBodies = bodiesFor(10_000);
  let accepted = 0;
  let seconds = 0;
  const earn = (url: string, bodies: string[]) => () =>
    load({ url: `${url}/api/rest/earn-event`, method: "POST", headers, bodies, connections: CONNECTIONS, durationSec: DURATION });
  const runs = await rotate(ROUNDS, {
    baseline: earn(`http://127.0.0.1:${bare.port}`, smallBodies),
    subject: async () => {
      const before = await streamCount();
      const r = await earn(ingest.url, smallBodies)();
      accepted += (await streamCount()) - before;
      seconds += r.seconds;
      return r;
    },
    tenfold: earn(ingest.url, bigBodies),
  });
  const rpsOf = (rs: LoadResult[]) => rs.map((r) => r.requestsPerSec);
  const earnRatio = pairedRatio(rpsOf(runs.baseline), rpsOf(runs.subject));
  const rps = median(rpsOf(runs.subject));
  figures.push({
    name: "earn-event requests/s (100 connections)",
    unit: "req/s",
    value: rps,
    baseline: median(rpsOf(runs.baseline)),
    ratio: earnRatio.ratio,
    rounds: earnRatio.rounds,
    target: ">= 0.60 x baseline",
    met: earnRatio.ratio >= 0.6,
  });
  figures.push({
    name: "earn-event accepted into JetStream/s",
    unit: "events/s",
    value: accepted / seconds,
    note: "counted from the stream, not from responses",
  });
  figures.push({
    name: "earn-event p50 latency",
    unit: "ms",
    value: median(runs.subject.map((r) => r.p50Ms)),
    baseline: median(runs.baseline.map((r) => r.p50Ms)),
  });
  figures.push({
    name: "earn-event p99 latency",
    unit: "ms",
    value: median(runs.subject.map((r) => r.p99Ms)),
    baseline: median(runs.baseline.map((r) => r.p99Ms)),
  });
  const growth = pairedRatio(rpsOf(runs.subject), rpsOf(runs.tenfold));
  figures.push({
    name: "earn-event requests/s with 10x the users (10,000)",
    unit: "req/s",
    value: median(rpsOf(runs.tenfold)),
    baseline: rps,
    ratio: growth.ratio,
    rounds: growth.rounds,
    note: "baseline here is the 1,000-user figure, measured in the same rounds",
  });

  // Batch endpoint: 1000 events per request.
  const wal = wallets(1000);
  const batchBody = JSON.stringify({
    events: wal.map((account_id, i) => ({ account_id, identity_type: "EVM_ADDRESS", amount: `${i + 1}`, reg_event_id: fx.regEventId })),
  });
  const batchRuns = await alternate(
    BATCH_ROUNDS,
    () =>
      load({
        url: `http://127.0.0.1:${bare.port}/api/rest/earn-events`,
        method: "POST",
        headers,
        body: batchBody,
        connections: 8,
        durationSec: BATCH_DURATION,
      }),
    () => load({ url: `${ingest.url}/api/rest/earn-events`, method: "POST", headers, body: batchBody, connections: 8, durationSec: BATCH_DURATION }),
  );
  const batchEps = median(rpsOf(batchRuns.subject)) * 1000;
  const batchRatio = pairedRatio(rpsOf(batchRuns.baseline), rpsOf(batchRuns.subject));
  figures.push({
    name: "batch earn-events events/s (1000 per request, 8 connections)",
    unit: "events/s",
    value: batchEps,
    baseline: median(rpsOf(batchRuns.baseline)) * 1000,
    ratio: batchRatio.ratio,
    rounds: batchRatio.rounds,
    target: ">= 20,000 events/s",
    met: batchEps >= 20_000,
  });

  // Where a target is missed, profile the app under the same load to say what bounds it.
  const ingestEnv = { ...fx.env, RATE_LIMIT_EVENTS_PER_SECOND: "10000000", RATE_LIMIT_BURST: "100000000", METRICS: "false" };
  const profiled = async (label: string, run: (url: string) => Promise<unknown>) => {
    const summary = await withProfileDir(async (dir) => {
      const app = await spawnApp("ingest-api", ingestEnv, { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`] });
      await run(app.url);
      await app.stop();
      return summariseProfile(dir);
    });
    notes.push(`${label}: ${describeProfile(summary)}`);
  };
  if (figures.some((f) => f.met === false && f.name.startsWith("earn-event"))) {
    await profiled("profile of earn-event at 100 connections", (url) =>
      load({ url: `${url}/api/rest/earn-event`, method: "POST", headers, bodies: bodiesFor(1000), connections: CONNECTIONS, durationSec: PROFILE_DURATION }),
    );
  }
  if (figures.some((f) => f.met === false && f.name.startsWith("batch"))) {
    await profiled("profile of the batch endpoint", (url) =>
      load({ url: `${url}/api/rest/earn-events`, method: "POST", headers, body: batchBody, connections: 8, durationSec: PROFILE_DURATION }),
    );
  }

  // Requests that failed, named by run and side, so a timeout is traced to where it happened.
  const failed = (what: string, runs: LoadResult[]) => {
    const errors = runs.reduce((n, r) => n + r.errors + r.non2xx, 0);
    if (errors === 0) return;
    const codes = new Map<string, number>();
    for (const r of runs) for (const [code, n] of Object.entries(r.statusCodes)) if (!code.startsWith("2")) codes.set(code, (codes.get(code) ?? 0) + n);
    const timeouts = runs.reduce((n, r) => n + r.timeouts, 0);
    const parts = [
      ...[...codes].map(([code, n]) => `${n} answered ${code}`),
      `${timeouts} timed out (no answer within autocannon's 10 s; per round: ${runs.map((r) => r.timeouts).join(", ")})`,
      `${errors - timeouts - [...codes.values()].reduce((a, b) => a + b, 0)} other connection errors`,
    ];
    notes.push(`${errors} requests failed at the HTTP level in ${what}, out of ${runs.reduce((n, r) => n + r.total, 0)}: ${parts.join(", ")}`);
  };
  failed("the earn-event runs of ingest-api (1,000 users)", runs.subject);
  failed("the earn-event runs of the baseline (1,000 users)", runs.baseline);
  failed("the earn-event runs of ingest-api (10,000 users)", runs.tenfold);
  failed("the batch runs of ingest-api", batchRuns.subject);
  failed("the batch runs of the baseline", batchRuns.baseline);
  notes.push(
    `Ratios are trimmed geometric means of per-round ratios (each ingest-api round over the round just before it; see docs/performance.md#method): earn-event: ${describeRounds(earnRatio.rounds)}; 10x the users: ${describeRounds(growth.rounds)}; batch: ${describeRounds(batchRatio.rounds)}.`,
  );
  const memory = [{ process: "ingest-api", peakRssMb: peakRssMb(ingest.child.pid as number) }];
  bare.child.kill("SIGTERM");
  await ingest.stop();
  await bus.close();
  await fx.drop();
  const result: BenchResult = { path: "ingest", method: METHOD, figures, memory, notes };
  emit(result);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
