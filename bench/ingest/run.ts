// Ingest benchmark: earn-event requests/s at 100 connections and p99 at a fixed offered rate, and the
// batch endpoint's events/s, each beside a bare express server that parses the same JSON body, in
// the same run; requests/s with 10x the users; peak RSS.
import { spawnApp } from "@pointwise/testkit";
import { createFixture, wallets } from "../lib/fixture";
import {
  type BenchResult,
  emit,
  type Figure,
  load,
  main,
  PACED,
  p99AtFixedRate,
  peakRssMb,
  quick,
  rotate,
  rps,
  SATURATION,
  startChild,
  versus,
} from "../lib/measure";
import { profileApp } from "../lib/profile";

const CONNECTIONS = 100;
// Batch requests take 150-250 ms each at 8 connections, so the batch runs longer rounds than one second.
const BATCH = { durationSec: quick ? 2 : 4, rounds: quick ? 1 : 6, connections: 8 };

main(async () => {
  const fx = await createFixture();
  const env = { ...fx.env, RATE_LIMIT_EVENTS_PER_SECOND: "10000000", RATE_LIMIT_BURST: "100000000", METRICS: "false" };
  const ingest = await spawnApp("ingest-api", env);
  const bare = await startChild("bench/lib/bare-server.ts", ["json-echo"]);
  const bareUrl = `http://127.0.0.1:${bare.port}`;
  const headers = { "content-type": "application/json", authorization: `Bearer ${fx.apiKey}` };
  const bodiesFor = (users: number) =>
    wallets(users).map((account_id, i) =>
      JSON.stringify({ account_id, identity_type: "EVM_ADDRESS", amount: `${(i % 997) + 1}.5`, reg_event_id: fx.regEventId }),
    );
  const small = bodiesFor(1000);
  const big = bodiesFor(10_000);
  const earn =
    (url: string, bodies: string[], durationSec: number = SATURATION.durationSec) =>
    () =>
      load({ url: `${url}/api/rest/earn-event`, method: "POST", headers, bodies, connections: CONNECTIONS, durationSec });
  // Each round: the baseline, ingest-api with 1,000 users' bodies, then with 10,000 users' bodies.
  const runs = await rotate(SATURATION.rounds, { baseline: earn(bareUrl, small), subject: earn(ingest.url, small), tenfold: earn(ingest.url, big) });
  const earnings = versus(rps(runs.baseline), rps(runs.subject));
  const paced = { connections: CONNECTIONS, bodies: small, headers };
  const fixed = await p99AtFixedRate(
    "earn-event",
    earnings.baseline,
    { baseline: `${bareUrl}/api/rest/earn-event`, subject: `${ingest.url}/api/rest/earn-event` },
    paced,
  );

  const batchBody = JSON.stringify({
    events: wallets(1000).map((account_id, i) => ({ account_id, identity_type: "EVM_ADDRESS", amount: `${i + 1}`, reg_event_id: fx.regEventId })),
  });
  const batch =
    (url: string, durationSec: number = BATCH.durationSec) =>
    () =>
      load({ url: `${url}/api/rest/earn-events`, method: "POST", headers, body: batchBody, connections: BATCH.connections, durationSec });
  const batchRuns = await rotate(BATCH.rounds, { baseline: batch(bareUrl), subject: batch(ingest.url) });
  const batches = versus(rps(batchRuns.baseline), rps(batchRuns.subject));

  const figures: Figure[] = [
    { name: "earn-event requests/s (100 connections)", unit: "req/s", ...earnings, target: ">= 0.8x baseline", met: earnings.ratio >= 0.8 },
    fixed.figure,
    {
      name: "earn-event requests/s with 10x the users (10,000)",
      unit: "req/s",
      ...versus(rps(runs.subject), rps(runs.tenfold)),
      note: "baseline: 1,000 users, same rounds",
    },
    {
      name: "batch earn-events events/s (1,000 per request, 8 connections)",
      unit: "events/s",
      ...batches,
      value: batches.value * 1000,
      baseline: batches.baseline * 1000,
      target: ">= 25,000 events/s",
      met: batches.value * 1000 >= 25_000,
    },
  ];
  const failed =
    [...runs.subject, ...runs.tenfold, ...batchRuns.subject].reduce((n, r) => n + r.failed, 0) + fixed.runs.subject.reduce((n, r) => n + r.non2xx, 0);
  const notes = [
    `${SATURATION.rounds} alternating rounds of ${SATURATION.durationSec} s at saturation, ${PACED.rounds} of ${PACED.durationSec} s at the fixed rate (open loop, latency from when each request was due), ${BATCH.rounds} of ${BATCH.durationSec} s of batches; ${failed} requests to ingest-api failed`,
  ];
  const memory = [{ process: "ingest-api", peakRssMb: peakRssMb(ingest.child.pid as number) }];
  await ingest.stop();
  bare.child.kill("SIGTERM");

  // What bounds each missed target: the app profiled under the same load.
  const bounds: string[] = [];
  if (figures.slice(0, 2).some((f) => f.met === false)) {
    bounds.push(await profileApp("ingest-api", env, "earn-event at 100 connections", (url) => earn(url, small, SATURATION.profileDurationSec)()));
  }
  if (figures[3]?.met === false)
    bounds.push(await profileApp("ingest-api", env, "batches at 8 connections", (url) => batch(url, SATURATION.profileDurationSec)()));
  await fx.drop();
  const result: BenchResult = { path: "ingest", figures, memory, notes, bounds };
  emit(result);
});
