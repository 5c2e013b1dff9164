// Read benchmark: cached GET /leaderboard requests/s at limit 100 and 1000 beside a bare express
// server answering the same bytes, p99 at limit 100 at a fixed offered rate, in the same run; the
// time to rebuild a leaderboard at 10x the users; peak RSS.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { seedCampaign, spawnApp } from "@pointwise/testkit";
import { createFixture, type Fixture } from "../lib/fixture";
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
const SMALL = quick ? 10_000 : 100_000;
const LARGE = SMALL * 10;
const LARGE_CAMPAIGN = "bnch-0002";
// Uncached leaderboards rebuilt per campaign, alternating between the two (0.1-1 s each).
const REBUILDS = quick ? 4 : 30;

/** Users with xp and gems rows, spread-out totals and distinct reach times; ids derived from the campaign. */
async function seedUsers(fx: Fixture, campaignId: string, count: number): Promise<void> {
  const id = `md5($1 || '/' || g)::uuid`;
  await fx.pool.query(`INSERT INTO app_user(id, campaign_id) SELECT ${id}, $1 FROM generate_series(1, $2::int) g`, [campaignId, count]);
  await fx.pool.query(
    `INSERT INTO score(campaign_id, user_id, currency, score, total, lifetime, reached_at)
     SELECT $1, ${id}, c, v, v, v, timestamp '2026-01-01' + g * interval '1 second'
       FROM generate_series(1, $2::int) g,
            LATERAL (VALUES ('xp', ((g::bigint * 7919) % 1000003)::numeric / 100), ('gems', (g % 97)::numeric)) AS s(c, v)`,
    [campaignId, count],
  );
  await fx.pool.query("ANALYZE score; ANALYZE app_user");
}

/** Milliseconds to answer one uncached leaderboard (a limit not asked for before is its own cache entry). */
async function rebuildMs(url: string, campaignId: string, limit: number): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${url}/leaderboard?campaign_id=${campaignId}&limit=${limit}`);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`leaderboard of ${campaignId} answered ${res.status}`);
  return performance.now() - started;
}

main(async () => {
  const fx = await createFixture();
  await seedUsers(fx, fx.campaignId, SMALL);
  const env = { ...fx.env, CACHE_TTL_MS: "600000" };
  const read = await spawnApp("read-api", env);
  const dir = mkdtempSync(path.join(os.tmpdir(), "pw-bench-read-"));
  const figures: Figure[] = [];
  let failed = 0;
  const saturate =
    (url: string, durationSec: number = SATURATION.durationSec) =>
    async () => {
      const r = await load({ url, connections: CONNECTIONS, durationSec });
      failed += r.failed;
      return r;
    };
  try {
    for (const limit of [100, 1000]) {
      const p = `/leaderboard?campaign_id=${fx.campaignId}&limit=${limit}`;
      const file = path.join(dir, `leaderboard-${limit}.json`);
      writeFileSync(file, Buffer.from(await (await fetch(`${read.url}${p}`)).arrayBuffer()));
      const bare = await startChild("bench/lib/bare-server.ts", ["fixed", file]);
      const bareUrl = `http://127.0.0.1:${bare.port}${p}`;
      const runs = await rotate(SATURATION.rounds, { baseline: saturate(bareUrl), subject: saturate(`${read.url}${p}`) });
      const cached = versus(rps(runs.baseline), rps(runs.subject));
      const name = `cached leaderboard limit ${limit}`;
      figures.push({ name: `${name} requests/s (100 connections)`, unit: "req/s", ...cached, target: ">= 1.0x baseline", met: cached.ratio >= 1 });
      if (limit === 100) {
        const fixed = await p99AtFixedRate(name, cached.baseline, { baseline: bareUrl, subject: `${read.url}${p}` }, { connections: CONNECTIONS });
        failed += [...fixed.runs.baseline, ...fixed.runs.subject].reduce((n, r) => n + r.non2xx, 0);
        figures.push(fixed.figure);
      }
      bare.child.kill("SIGTERM");
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // Rebuilds (cache misses) of a campaign of SMALL users and one of 10x as many, alternately at the
  // same new limit, so both meet the same machine load; one untimed rebuild of each first.
  await seedCampaign(fx.db, { id: LARGE_CAMPAIGN, name: "bench", currencies: { xp: "Experience", gems: "Gems" } });
  await seedUsers(fx, LARGE_CAMPAIGN, LARGE);
  for (const campaignId of [fx.campaignId, LARGE_CAMPAIGN]) await rebuildMs(read.url, campaignId, 500);
  const rebuilds = { small: [] as number[], large: [] as number[] };
  for (let round = 0; round < REBUILDS; round++) {
    const order = round % 2 ? (["large", "small"] as const) : (["small", "large"] as const);
    for (const side of order) rebuilds[side].push(await rebuildMs(read.url, side === "small" ? fx.campaignId : LARGE_CAMPAIGN, 999 - round));
  }
  figures.push({
    name: `leaderboard rebuild (uncached, limit ~1000) at ${LARGE.toLocaleString("en")} users`,
    unit: "ms",
    ...versus(rebuilds.small, rebuilds.large),
    note: `baseline: ${SMALL.toLocaleString("en")} users, rebuilt alternately`,
  });
  const memory = [{ process: "read-api", peakRssMb: peakRssMb(read.child.pid as number) }];
  await read.stop();

  const bounds: string[] = [];
  if (figures.some((f) => f.met === false)) {
    bounds.push(
      await profileApp("read-api", env, "cached leaderboard reads at limit 100 and 1000, 100 connections", async (url) => {
        for (const limit of [100, 1000]) await saturate(`${url}/leaderboard?campaign_id=${fx.campaignId}&limit=${limit}`, SATURATION.profileDurationSec)();
      }),
    );
  }
  await fx.drop();
  const notes = [
    `${SATURATION.rounds} alternating rounds of ${SATURATION.durationSec} s per limit at saturation, ${PACED.rounds} of ${PACED.durationSec} s at the fixed rate (open loop, latency from when each request was due), ${REBUILDS} rebuilds per campaign; ${failed} requests to read-api or the baseline failed`,
  ];
  const result: BenchResult = { path: "read", figures, memory, notes, bounds };
  emit(result);
});
