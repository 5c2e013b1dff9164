import type { Server } from "node:http";
import path from "node:path";
import { generateApiKey } from "@pointwise/auth";
import type { Cache } from "@pointwise/cache";
import type { Database, Queryable } from "@pointwise/db";
import { createLogger } from "@pointwise/logger";
import { closeServer, listen } from "@pointwise/runtime";
import { createTestCache, createTestDatabase, testServiceEnv, uniqueName } from "@pointwise/testkit";
import { createReadApp } from "../src/app";
import { loadBadWords } from "../src/bad-words";
import type { Deps } from "../src/deps";
import { loadEnv } from "../src/env";

/** A read-api on a free port against an isolated schema and key prefix. */
export interface TestReadApi {
  url: string;
  db: Database & { drop(): Promise<void> };
  cache: Cache & { drop(): Promise<void> };
  deps: Deps;
  /** Starts another app (same schema and prefix unless replaced) that is closed with this one. */
  another(overrides?: Partial<Deps>): Promise<string>;
  close(): Promise<void>;
}

/** The default bad words that ship with the service. */
export const shippedBadWords = loadBadWords(path.join(__dirname, "..", "data", "bad-words.txt"));

/** Starts read-api in-process with `env` overrides (CACHE_TTL_MS, PORTAL_JWT_SECRET, ...). */
export async function startReadApi(env: Record<string, string> = {}): Promise<TestReadApi> {
  const db = await createTestDatabase();
  const cache = await createTestCache(uniqueName("read"));
  const parsed = loadEnv({
    ...testServiceEnv(db.schema, { namespace: "unused" }),
    AVATAR_PROXY_URL: "https://img.test",
    GENERATED_AVATAR_URL: "https://gen.test/avatar.svg",
    ...env,
  });
  const deps: Deps = { env: parsed, logger: createLogger({ service: "read-api-test", level: "silent" }), db, cache, badWords: shippedBadWords };
  const servers: Server[] = [];
  const start = async (d: Deps) => {
    const server = await listen(createReadApp(d), 0, "127.0.0.1");
    servers.push(server);
    const address = server.address();
    if (!address || typeof address === "string") throw new Error("no address");
    return `http://127.0.0.1:${address.port}`;
  };
  return {
    url: await start(deps),
    db,
    cache,
    deps,
    another: (overrides = {}) => start({ ...deps, ...overrides }),
    async close() {
      for (const s of servers) await closeServer(s);
      await cache.drop();
      await db.drop();
    },
  };
}

/** GET with headers; the status, the raw body and the parsed body. */
// biome-ignore lint/suspicious/noExplicitAny: tests read response bodies field by field after checking them against the schemas
export async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; body: any; headers: Headers }> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : null, headers: res.headers };
}

let campaignCounter = 0;

/** A fresh campaign id of the form xxxx-xxxx. */
export function campaignId(): string {
  campaignCounter += 1;
  return `${Math.random().toString(36).slice(2, 6).padEnd(4, "0")}-${String(campaignCounter).padStart(4, "0")}`;
}

/** Inserts a project and a campaign. */
export async function createCampaign(
  pool: Queryable,
  options: { id?: string; currencies?: Record<string, string>; primary?: string; badWords?: string[] } = {},
): Promise<string> {
  const id = options.id ?? campaignId();
  const currencies = options.currencies ?? { xp: "Experience", gems: "Gems" };
  const { rows } = await pool.query<{ id: string }>("INSERT INTO project(name) VALUES ('Test project') RETURNING id");
  await pool.query("INSERT INTO campaign(id, project_id, name, currencies, primary_currency, bad_words) VALUES ($1, $2, 'Season', $3, $4, $5)", [
    id,
    rows[0]?.id,
    JSON.stringify(currencies),
    options.primary ?? Object.keys(currencies)[0],
    options.badWords ?? [],
  ]);
  return id;
}

/** Inserts a user of a campaign; returns its id. */
export async function createUser(
  pool: Queryable,
  campaign: string,
  options: { displayName?: string | null; secretSeed?: string; id?: string } = {},
): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    "INSERT INTO app_user(id, campaign_id, display_name, secret_seed) VALUES (COALESCE($1::uuid, gen_random_uuid()), $2, $3, COALESCE($4, md5(random()::text))) RETURNING id",
    [options.id ?? null, campaign, options.displayName ?? null, options.secretSeed ?? null],
  );
  return rows[0]?.id as string;
}

/** Links an identity to a user. */
export async function addIdentity(
  pool: Queryable,
  campaign: string,
  userId: string,
  type: string,
  accountId: string,
  handle: string | null = null,
): Promise<void> {
  await pool.query("INSERT INTO identity(campaign_id, user_id, identity_type, account_id, handle) VALUES ($1, $2, $3, $4, $5)", [
    campaign,
    userId,
    type,
    accountId,
    handle,
  ]);
}

/** Writes a score row (stored representation); total = score + referral. */
export async function setScore(
  pool: Queryable,
  campaign: string,
  userId: string,
  currency: string,
  values: { score: string; referral?: string; reachedAt?: string; tier?: string | null; lifetime?: string },
): Promise<void> {
  await pool.query(
    `INSERT INTO score(campaign_id, user_id, currency, score, referral_score, total, lifetime, tier, reached_at)
     VALUES ($1, $2, $3, $4::numeric, $5::numeric, $4::numeric + $5::numeric, $6::numeric, $7, COALESCE($8::timestamptz, now()))
     ON CONFLICT (campaign_id, user_id, currency) DO UPDATE SET score = EXCLUDED.score, referral_score = EXCLUDED.referral_score,
       total = EXCLUDED.total, lifetime = EXCLUDED.lifetime, tier = EXCLUDED.tier, reached_at = EXCLUDED.reached_at`,
    [campaign, userId, currency, values.score, values.referral ?? "0", values.lifetime ?? values.score, values.tier ?? null, values.reachedAt ?? null],
  );
}

/** Creates an API key of a campaign; returns the key. */
export async function createApiKey(pool: Queryable, campaign: string, options: { revoked?: boolean } = {}): Promise<string> {
  const key = generateApiKey();
  await pool.query("INSERT INTO api_key(campaign_id, prefix, hash, revoked_at) VALUES ($1, $2, $3, $4)", [
    campaign,
    key.prefix,
    key.hash,
    options.revoked ? new Date() : null,
  ]);
  return key.key;
}

/** Stores a rule document as the campaign's active version. */
export async function activateRules(pool: Queryable, campaign: string, document: unknown, version = 1): Promise<void> {
  await pool.query("INSERT INTO rule_version(campaign_id, version, document, status, activated_at) VALUES ($1, $2, $3, 'active', now())", [
    campaign,
    version,
    JSON.stringify(document),
  ]);
}
