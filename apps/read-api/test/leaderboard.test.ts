// GET /leaderboard: competition ranks and tie order, limits and errors, caching across processes, ETags.
import http from "node:http";
import type { Queryable } from "@pointwise/db";
import { leaderboardResponseSchema } from "@pointwise/schemas";
import { newCampaignId, seedCampaign, seedIdentity, seedScore, seedUser, waitUntil } from "@pointwise/testkit";
import Decimal from "decimal.js";
import { TOP_USERS_SQL } from "../src/queries";
import { get, startReadApi, type TestReadApi } from "./support";

let api: TestReadApi;
let pool: Queryable;

beforeAll(async () => {
  api = await startReadApi({ CACHE_TTL_MS: "1000" });
  pool = api.db;
});
afterAll(async () => {
  await api?.close();
});

interface Modelled {
  userId: string;
  total: Decimal;
  reachedAt: Date;
}

/** The board as the rules say it must be: total desc, earliest reach, user id; rank = 1 + number of higher totals. */
function modelBoard(rows: Modelled[]): { user_id: string; rank: number }[] {
  const sorted = [...rows].sort((a, b) => b.total.cmp(a.total) || a.reachedAt.getTime() - b.reachedAt.getTime() || (a.userId < b.userId ? -1 : 1));
  return sorted.map((r) => ({ user_id: r.userId, rank: 1 + rows.filter((o) => o.total.gt(r.total)).length }));
}

describe("GET /leaderboard", () => {
  it("ranks by the primary currency total with competition ranks, ties earliest-to-reach first", async () => {
    const campaign = await seedCampaign(api.db, { currencies: { xp: "Experience", gems: "Gems" }, primary: "gems" });
    const base = Date.parse("2025-03-01T00:00:00Z");
    const rows: Modelled[] = [];
    // Few distinct totals and reach times, so ties on both happen often.
    for (let i = 0; i < 60; i++) {
      const userId = await seedUser(api.db, campaign, { displayName: `Player ${i}` });
      const total = new Decimal((i * 7) % 9).div(4);
      const reachedAt = new Date(base + ((i * 5) % 4) * 60_000);
      await seedScore(api.db, campaign, userId, "gems", { score: total.toFixed(), reachedAt: reachedAt.toISOString() });
      await seedScore(api.db, campaign, userId, "xp", { score: String(1000 - i), referral: "0.5" });
      rows.push({ userId, total, reachedAt });
    }
    const model = modelBoard(rows);
    for (const limit of [1, 7, 13, 60, 1000]) {
      const res = await get(`${api.url}/leaderboard?campaign_id=${campaign}&limit=${limit}`);
      expect(res.status).toBe(200);
      const board = leaderboardResponseSchema.parse(res.body);
      expect(board.entries.map((e) => ({ user_id: e.user_id, rank: e.rank }))).toEqual(model.slice(0, limit));
    }
    const full = leaderboardResponseSchema.parse((await get(`${api.url}/leaderboard?campaign_id=${campaign}&limit=60`)).body);
    expect(full.campaign_id).toBe(campaign);
    expect(full.currency_names).toEqual({ xp: "Experience", gems: "Gems" });
    for (const e of full.entries) {
      const row = rows.find((r) => r.userId === e.user_id);
      expect(e.scores.gems?.total).toBe(row?.total.toNumber());
      expect(new Decimal(e.scores.xp?.score ?? 0).add(e.scores.xp?.referral_score ?? 0).toNumber()).toBe(e.scores.xp?.total);
    }
    // Ranks with ties: they repeat and then skip (1, 2, 2, 4).
    const ranks = full.entries.map((e) => e.rank);
    expect(new Set(ranks).size).toBeLessThan(ranks.length);
    for (const [i, rank] of ranks.entries()) {
      const mine = full.entries[i]?.scores.gems?.total ?? 0;
      expect(rank).toBe(1 + full.entries.filter((o) => (o.scores.gems?.total ?? 0) > mine).length);
    }
  });

  it("gives a small board with ties exactly the ranks 1, 2, 2, 4", async () => {
    const campaign = await seedCampaign(api.db, { currencies: { xp: "XP" } });
    const ids: string[] = [];
    const plan: [string, string][] = [
      ["50", "2025-01-01T00:00:03Z"],
      ["40", "2025-01-01T00:00:02Z"],
      ["40", "2025-01-01T00:00:01Z"],
      ["10", "2025-01-01T00:00:00Z"],
    ];
    for (const [score, reachedAt] of plan) {
      const id = await seedUser(api.db, campaign);
      await seedScore(api.db, campaign, id, "xp", { score, reachedAt });
      ids.push(id);
    }
    const board = (await get(`${api.url}/leaderboard?campaign_id=${campaign}`)).body;
    expect(board.entries.map((e: { user_id: string; rank: number }) => [e.user_id, e.rank])).toEqual([
      [ids[0], 1],
      [ids[2], 2],
      [ids[1], 2],
      [ids[3], 4],
    ]);
  });

  it("defaults limit to 100 and answers up to 1000", async () => {
    const campaign = await seedCampaign(api.db, { currencies: { xp: "XP" } });
    await pool.query(
      `WITH u AS (INSERT INTO app_user(campaign_id) SELECT $1 FROM generate_series(1, 1005) RETURNING id)
       INSERT INTO score(campaign_id, user_id, currency, score, total) SELECT $1, id, 'xp', 5, 5 FROM u`,
      [campaign],
    );
    expect((await get(`${api.url}/leaderboard?campaign_id=${campaign}`)).body.entries).toHaveLength(100);
    const big = (await get(`${api.url}/leaderboard?campaign_id=${campaign}&limit=1000`)).body;
    expect(big.entries).toHaveLength(1000);
    expect(big.entries.every((e: { rank: number }) => e.rank === 1)).toBe(true);
    expect((await get(`${api.url}/leaderboard?campaign_id=${campaign}&limit=1`)).body.entries).toHaveLength(1);
  });

  it("answers 400 with the error envelope for a bad limit or campaign_id, and 404 for an unknown campaign", async () => {
    const campaign = await seedCampaign(api.db);
    for (const limit of ["0", "1001", "-5", "ten", "2.5", ""]) {
      const res = await get(`${api.url}/leaderboard?campaign_id=${campaign}&limit=${limit}`);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: { error: { code: "invalid-limit", message: "limit must be a whole number from 1 to 1000" } },
      });
    }
    expect((await get(`${api.url}/leaderboard`)).body).toEqual({ error: { code: "missing-campaign-id", message: "campaign_id is required" } });
    for (const bad of ["ABCD-1234", "abcd1234", "abcd-12345", "abcd-1234&campaign_id=abcd-1234"]) {
      const res = await get(`${api.url}/leaderboard?campaign_id=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid-campaign-id");
    }
    const twice = await get(`${api.url}/leaderboard?campaign_id=${campaign}&limit=10&limit=20`);
    expect({ status: twice.status, body: twice.body }).toEqual({
      status: 400,
      body: { error: { code: "invalid-limit", message: "limit must be given once, as a single value" } },
    });
    const unknown = await get(`${api.url}/leaderboard?campaign_id=zzzz-9999`);
    expect({ status: unknown.status, body: unknown.body }).toEqual({
      status: 404,
      body: { error: { code: "campaign-not-found", message: "campaign zzzz-9999 not found" } },
    });
  });

  it("serves the interface's paths unversioned, as docs/decisions.md says: a versioned path is an unknown endpoint", async () => {
    const campaign = await seedCampaign(api.db);
    expect((await get(`${api.url}/leaderboard?campaign_id=${campaign}&limit=1`)).status).toBe(200);
    for (const path of [`/v1/leaderboard?campaign_id=${campaign}`, "/api/v1/leaderboard", `/v1/users/${campaign}/scores`]) {
      const res = await get(`${api.url}${path}`);
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 404, body: { error: { code: "not-found", message: "no such endpoint" } } });
    }
  });

  it("shows the X username of a linked X_PROVIDER_ID identity, and ignores other identity types", async () => {
    const campaign = await seedCampaign(api.db);
    const linked = await seedUser(api.db, campaign);
    await seedIdentity(api.db, campaign, linked, "X_PROVIDER_ID", "1460000000000000001", "moon_x");
    const legacy = await seedUser(api.db, campaign);
    await seedIdentity(api.db, campaign, legacy, "X_USERNAME", "not_shown");
    const unnamed = await seedUser(api.db, campaign);
    await seedIdentity(api.db, campaign, unnamed, "X_PROVIDER_ID", "1460000000000000002", null);
    for (const [i, id] of [linked, legacy, unnamed].entries()) await seedScore(api.db, campaign, id, "xp", { score: String(30 - i) });
    const { entries } = (await get(`${api.url}/leaderboard?campaign_id=${campaign}`)).body;
    expect(entries[0]).toMatchObject({
      user_id: linked,
      display_name: "moon_x",
      avatar_url: "https://img.test/x/moon_x",
      identities: { x_username: "moon_x" },
    });
    for (const e of entries.slice(1)) {
      expect(e.identities).toEqual({});
      expect(e.avatar_url).toMatch(/^https:\/\/gen\.test\/avatar\.svg\?seed=[0-9a-f]{24}$/);
    }
    expect(JSON.stringify(entries)).not.toContain("not_shown");
  });

  it("serves identical bytes and cached_at within the cache window, and rebuilds after it", async () => {
    const campaign = await seedCampaign(api.db, { currencies: { xp: "XP" } });
    const user = await seedUser(api.db, campaign);
    await seedScore(api.db, campaign, user, "xp", { score: "10" });
    // A 3 s window: long enough that a busy machine cannot stretch two back-to-back requests across it.
    const url = await api.another({ env: { ...api.deps.env, CACHE_TTL_MS: 3000 } });
    const first = await get(`${url}/leaderboard?campaign_id=${campaign}`);
    // Built just now: nearly the whole window is left, in whole seconds rounded down.
    expect(first.headers.get("cache-control")).toMatch(/^public, max-age=[23]$/);
    await seedScore(api.db, campaign, user, "xp", { score: "99" });
    const second = await get(`${url}/leaderboard?campaign_id=${campaign}`);
    expect(second.text).toBe(first.text);
    let latest = second;
    await waitUntil(
      async () => {
        latest = await get(`${url}/leaderboard?campaign_id=${campaign}`);
        return latest.body.cached_at !== first.body.cached_at;
      },
      10_000,
      "the cache window to pass",
    );
    expect(latest.body.entries[0].scores.xp.total).toBe(99);
    expect(Date.parse(latest.body.cached_at)).toBeGreaterThan(Date.parse(first.body.cached_at));
  });

  it("says in max-age how long the cached body has left, so a shared cache never keeps it past the window", async () => {
    const campaign = await seedCampaign(api.db, { currencies: { xp: "XP" } });
    const user = await seedUser(api.db, campaign);
    await seedScore(api.db, campaign, user, "xp", { score: "10" });
    const url = await api.another({ env: { ...api.deps.env, CACHE_TTL_MS: 10_000 } });
    const maxAge = (res: { headers: Headers }) => Number(/^public, max-age=(\d+)$/.exec(res.headers.get("cache-control") ?? "")?.[1] ?? Number.NaN);
    for (const path of [`/leaderboard?campaign_id=${campaign}`, `/leaderboard/around/${user}?campaign_id=${campaign}`]) {
      const first = await get(`${url}${path}`);
      const firstAt = Date.now();
      expect(maxAge(first)).toBeGreaterThanOrEqual(8);
      expect(maxAge(first)).toBeLessThanOrEqual(10);
      await new Promise((r) => setTimeout(r, 3000));
      // A second process has no copy of its own: it counts from what Redis has left, as the first does.
      for (const other of [url, await api.another({ env: { ...api.deps.env, CACHE_TTL_MS: 10_000 } })]) {
        const later = await get(`${other}${path}`);
        const waited = (Date.now() - firstAt) / 1000;
        expect(later.body.cached_at).toBe(first.body.cached_at);
        // At least 3 s passed, so at least 3 s less is left (rounded down both times); never below 0.
        expect(maxAge(later)).toBeLessThanOrEqual(maxAge(first) - 3);
        expect(maxAge(later)).toBeGreaterThanOrEqual(Math.max(0, Math.floor(10 - waited) - 1));
        // max-age already counts the body's age: an Age header on top would make caches count it twice.
        expect(later.headers.get("age")).toBeNull();
      }
    }
  });

  it("keeps an archived campaign's leaderboard", async () => {
    const campaign = await seedCampaign(api.db, { currencies: { xp: "XP" } });
    const user = await seedUser(api.db, campaign);
    await seedScore(api.db, campaign, user, "xp", { score: "5" });
    await pool.query("UPDATE campaign SET archived_at = now() WHERE id = $1", [campaign]);
    const res = await get(`${api.url}/leaderboard?campaign_id=${campaign}`);
    expect(res.status).toBe(200);
    expect(res.body.entries.map((e: { user_id: string; rank: number }) => [e.user_id, e.rank])).toEqual([[user, 1]]);
  });

  it("caches an unknown campaign's 404 like a body, for the cache window", async () => {
    const url = await api.another({ env: { ...api.deps.env, CACHE_TTL_MS: 3000 } });
    const id = newCampaignId();
    const missing = await get(`${url}/leaderboard?campaign_id=${id}`);
    expect({ status: missing.status, code: missing.body.error.code }).toEqual({ status: 404, code: "campaign-not-found" });
    await seedCampaign(api.db, { id, currencies: { xp: "XP" } });
    // Within the window the cached answer stands: an unknown id does not reach PostgreSQL again.
    const again = await get(`${url}/leaderboard?campaign_id=${id}`);
    expect({ status: again.status, text: again.text }).toEqual({ status: 404, text: missing.text });
    await waitUntil(async () => (await get(`${url}/leaderboard?campaign_id=${id}`)).status === 200, 10_000, "the cache window to pass");
  });

  it("builds a missed response once for many concurrent requests, across processes sharing the cache", async () => {
    const campaign = await seedCampaign(api.db, { currencies: { xp: "XP" } });
    for (let i = 0; i < 5; i++) await seedScore(api.db, campaign, await seedUser(api.db, campaign), "xp", { score: String(i) });
    let builds = 0;
    // Counts the campaign reads each build starts with, on the databases of two app instances.
    const db = new Proxy(api.db, {
      get(target, prop, receiver) {
        if (prop === "query") {
          return (...args: unknown[]) => {
            if (typeof args[0] === "string" && args[0].includes("FROM campaign c")) builds += 1;
            return (target.query as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return Reflect.get(target, prop, receiver);
      },
    });
    const urls = [await api.another({ db }), await api.another({ db })];
    const bodies = await Promise.all(Array.from({ length: 30 }, (_, i) => get(`${urls[i % 2]}/leaderboard?campaign_id=${campaign}&limit=50`)));
    expect(bodies.every((b) => b.status === 200)).toBe(true);
    expect(new Set(bodies.map((b) => b.text)).size).toBe(1);
    expect(builds).toBe(1);
  });

  it("reads only the top rows through the score index, even on a large board", async () => {
    const campaign = await seedCampaign(api.db, { currencies: { xp: "XP" } });
    await pool.query(
      `WITH u AS (INSERT INTO app_user(campaign_id) SELECT $1 FROM generate_series(1, 20000) RETURNING id)
       INSERT INTO score(campaign_id, user_id, currency, score, total, reached_at)
       SELECT $1, id, 'xp', (random() * 500)::int, (random() * 500)::int, now() - (random() * interval '10 days') FROM u`,
      [campaign],
    );
    await pool.query("ANALYZE score");
    const { rows } = await pool.query<{ "QUERY PLAN": unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${TOP_USERS_SQL}`, [campaign, "xp", 100]);
    const plan = JSON.stringify(rows[0]?.["QUERY PLAN"]);
    const scans = [...plan.matchAll(/"Node Type":"Index (?:Only )?Scan"[^{}]*?"Index Name":"([^"]+)"[^{}]*?"Actual Rows":(\d+)/g)];
    expect(scans.map((m) => m[1])).toEqual(["score_campaign_id_currency_total_reached_at_idx"]);
    // The index is read only as far as the top rows and the ties at the cut-off, never the whole board.
    expect(Number(scans[0]?.[2])).toBeLessThan(2000);
    expect(plan).not.toContain('"Node Type":"Seq Scan"');
  });
});

describe("conditional requests", () => {
  it("sends the weak ETag express would compute for the cached bytes, and 304 for a matching If-None-Match", async () => {
    const campaign = await seedCampaign(api.db, { currencies: { xp: "Experience" } });
    const user = await seedUser(api.db, campaign, { displayName: "Etta" });
    await seedScore(api.db, campaign, user, "xp", { score: "7" });
    const url = `${api.url}/leaderboard?campaign_id=${campaign}`;
    const first = await fetch(url);
    const bytes = Buffer.from(await first.arrayBuffer());
    const etag = first.headers.get("etag");
    // The `etag` package is what express itself uses for res.send bodies.
    expect(etag).toBe(require("etag")(bytes, { weak: true }));
    expect(first.headers.get("content-type")).toBe("application/json; charset=utf-8");
    // Not fetch: it sends Cache-Control: no-cache, which rightly makes every request unconditional.
    const again = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      http
        .get(url, { headers: { "if-none-match": etag as string } }, (res) => {
          let body = "";
          res.on("data", (d) => {
            body += d;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        })
        .on("error", reject);
    });
    expect(again).toEqual({ status: 304, body: "" });
  });
});
