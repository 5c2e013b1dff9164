// Read benchmark: cached GET /leaderboard requests/s and p99 at limit 100 and 1000, user scores
// requests/s, each beside a bare express server answering the same bytes in the same run; the time
// to rebuild a leaderboard of 100,000 and 1,000,000 users; peak RSS.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnApp } from "@pointwise/testkit";
import { createFixture } from "../lib/fixture";
import { alternate, type BenchResult, emit, type Figure, load, median, peakRssMb, quick, startChild } from "../lib/measure";
import { describeProfile, summariseProfile } from "../lib/profile";

const DURATION = quick ? 2 : 8;
const ROUNDS = quick ? 1 : 3;
const SMALL = quick ? 10_000 : 100_000;
const LARGE = quick ? 100_000 : 1_000_000;

async function seedUsers(fx: Awaited<ReturnType<typeof createFixture>>, from: number, to: number): Promise<void> {
  // Set-based: users and their xp/gems rows with spread-out totals and distinct reach times.
  await fx.db.pool.query(`INSERT INTO app_user(id, campaign_id) SELECT md5('u' || g)::uuid, $1 FROM generate_series($2::int, $3::int) g`, [
    fx.campaignId,
    from,
    to,
  ]);
  await fx.db.pool.query(
    `INSERT INTO score(campaign_id, user_id, currency, score, total, lifetime, reached_at)
     SELECT $1, md5('u' || g)::uuid, c, v, v, v, timestamp '2026-01-01' + g * interval '1 second'
       FROM generate_series($2::int, $3::int) g,
            LATERAL (VALUES ('xp', ((g::bigint * 7919) % 1000003)::numeric / 100), ('gems', (g % 97)::numeric)) AS s(c, v)`,
    [fx.campaignId, from, to],
  );
  await fx.db.pool.query("ANALYZE score; ANALYZE app_user");
}

async function rebuildMs(url: string, limits: number[]): Promise<number> {
  const times: number[] = [];
  for (const limit of limits) {
    const started = process.hrtime.bigint();
    const res = await fetch(`${url}/leaderboard?campaign_id=bnch-0001&limit=${limit}`);
    await res.arrayBuffer();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return median(times);
}

async function main(): Promise<void> {
  const fx = await createFixture();
  await seedUsers(fx, 1, SMALL);
  const read = await spawnApp("read-api", { ...fx.env, CACHE_TTL_MS: "600000" });
  const figures: Figure[] = [];
  const notes: string[] = [];

  const bodyOf = async (p: string, headers: Record<string, string> = {}) => Buffer.from(await (await fetch(`${read.url}${p}`, { headers })).arrayBuffer());
  for (const limit of [100, 1000]) {
    const p = `/leaderboard?campaign_id=bnch-0001&limit=${limit}`;
    const bytes = await bodyOf(p);
    const file = path.join(os.tmpdir(), `pw-bench-lb-${limit}.json`);
    writeFileSync(file, bytes);
    const bare = await startChild("bench/lib/bare-server.ts", ["fixed", file]);
    const runs = await alternate(
      ROUNDS,
      () => load({ url: `http://127.0.0.1:${bare.port}${p}`, connections: 100, durationSec: DURATION }),
      () => load({ url: `${read.url}${p}`, connections: 100, durationSec: DURATION }),
    );
    bare.child.kill("SIGTERM");
    const rps = median(runs.subject.map((r) => r.requestsPerSec));
    const base = median(runs.baseline.map((r) => r.requestsPerSec));
    const p99 = median(runs.subject.map((r) => r.p99Ms));
    figures.push({
      name: `cached leaderboard limit ${limit} requests/s`,
      unit: "req/s",
      value: rps,
      baseline: base,
      ratio: rps / base,
      target: ">= 0.80 x baseline",
      met: rps / base >= 0.8,
    });
    figures.push({
      name: `cached leaderboard limit ${limit} p99`,
      unit: "ms",
      value: p99,
      baseline: median(runs.baseline.map((r) => r.p99Ms)),
      ...(limit === 100 ? { target: "<= 20 ms", met: p99 <= 20 } : {}),
    });
  }

  // User scores with the campaign key, cycling over 1000 users (each cached per user after its first read).
  const { rows } = await fx.db.pool.query<{ id: string }>("SELECT id FROM app_user ORDER BY id LIMIT 1000");
  const paths = rows.map((r) => `/users/${r.id}/scores`);
  const headers = { "x-api-key": fx.apiKey };
  const sample = await bodyOf(paths[0] as string, headers);
  const file = path.join(os.tmpdir(), "pw-bench-user.json");
  writeFileSync(file, sample);
  const bare = await startChild("bench/lib/bare-server.ts", ["fixed", file]);
  const userRuns = await alternate(
    ROUNDS,
    () => load({ url: `http://127.0.0.1:${bare.port}/`, paths, headers, connections: 100, durationSec: DURATION }),
    () => load({ url: read.url, paths, headers, connections: 100, durationSec: DURATION }),
  );
  bare.child.kill("SIGTERM");
  const urps = median(userRuns.subject.map((r) => r.requestsPerSec));
  const ubase = median(userRuns.baseline.map((r) => r.requestsPerSec));
  figures.push({
    name: "user scores requests/s (X-API-Key, 1000 users)",
    unit: "req/s",
    value: urps,
    baseline: ubase,
    ratio: urps / ubase,
    target: ">= 0.80 x baseline",
    met: urps / ubase >= 0.8,
  });
  if (userRuns.subject.some((r) => r.non2xx > 0)) notes.push("some user-score requests were not 2xx");

  // Rebuild (cache miss) time: each distinct limit is its own cache entry, so each request builds.
  const smallBuild = await rebuildMs(read.url, [999, 998, 997, 996, 995]);
  await seedUsers(fx, SMALL + 1, LARGE);
  const largeBuild = await rebuildMs(read.url, [994, 993, 992, 991, 990]);
  figures.push({ name: `leaderboard rebuild (limit ~1000) at ${SMALL.toLocaleString("en")} users`, unit: "ms", value: smallBuild });
  figures.push({
    name: `leaderboard rebuild (limit ~1000) at ${LARGE.toLocaleString("en")} users`,
    unit: "ms",
    value: largeBuild,
    baseline: smallBuild,
    ratio: largeBuild / smallBuild,
    note: "10x the users; ratio is the growth",
  });

  const memory = [{ process: "read-api", peakRssMb: peakRssMb(read.child.pid as number) }];
  await read.stop();
  // Where a target is missed, profile the app under the same load to say what bounds it.
  const missed = figures.filter((f) => f.met === false);
  if (missed.length > 0) {
    const dir = mkdtempSync(path.join(os.tmpdir(), "pw-prof-"));
    const app = await spawnApp("read-api", { ...fx.env, CACHE_TTL_MS: "600000" }, { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`] });
    for (const limit of [100, 1000]) {
      await fetch(`${app.url}/leaderboard?campaign_id=bnch-0001&limit=${limit}`);
      await load({ url: `${app.url}/leaderboard?campaign_id=bnch-0001&limit=${limit}`, connections: 100, durationSec: DURATION });
    }
    await app.stop();
    notes.push(`profile of cached leaderboard reads (limit 100 then 1000): ${describeProfile(summariseProfile(dir))}`);
  }
  await fx.db.drop();
  const result: BenchResult = { path: "read", figures, memory, notes };
  emit(result);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
