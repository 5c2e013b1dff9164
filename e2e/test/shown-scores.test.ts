/**
 * The dashboard (admin-api) and the public read API show the same digits for one user: decayed,
 * rounded to the currency's decimals, total as the sum of the rounded parts. Both apps run as real
 * processes on one schema; the rows are seeded in their stored, decay-scaled form.
 */
import {
  type AppProcess,
  createTestDatabase,
  dropNamespace,
  seedApiKey,
  seedRuleVersion,
  seedScore,
  seedUser,
  spawnApp,
  testServiceEnv,
  uniqueName,
} from "@pointwise/testkit";
import Decimal from "decimal.js";
import { call, OPERATOR, signInOperator } from "./stack";

// A half-life of a thousand years moves a value by about 1e-11 per second, so the moments at which
// the two apps answer give the same rounded digits, while the factor still has many digits.
const HALF_LIFE_SECONDS = 1000 * 365 * 86_400;
const EPOCH = "2020-01-01T00:00:00Z";

/** A score row as the dashboard shows it. */
interface ShownRow {
  currency: string;
  score: string;
  referral_score: string;
  total: string;
}

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let admin: AppProcess;
let read: AppProcess;

beforeAll(async () => {
  const schema = uniqueName("shown");
  db = await createTestDatabase(schema);
  const env = {
    ...testServiceEnv(schema),
    ADMIN_JWT_SECRET: "test-only-secret-test-only-secret-0123456789",
    ADMIN_EMAIL: OPERATOR.email,
    ADMIN_PASSWORD: OPERATOR.password,
    INGEST_PUBLIC_URL: "http://ingest.pointwise.test",
    CACHE_TTL_MS: "1000",
  };
  [admin, read] = await Promise.all([spawnApp("admin-api", env), spawnApp("read-api", env)]);
});
afterAll(async () => {
  await Promise.all([admin?.stop("SIGKILL"), read?.stop("SIGKILL")]);
  if (db) {
    await dropNamespace(db.schema);
    await db.drop();
  }
});

describe("a user's scores on the dashboard and on the read API", () => {
  it("show the same digits when values need rounding to the currency's decimals", async () => {
    const { auth } = await signInOperator(admin.url, OPERATOR);
    const campaign = await call("POST", `${admin.url}/api/campaigns`, { name: "Digits", currencies: { xp: "XP", gems: "Gems" }, primary_currency: "xp" }, auth);
    expect(campaign.status).toBe(201);
    const campaignId: string = campaign.body.id;
    await seedRuleVersion(db, campaignId, {
      campaignId,
      version: 1,
      primaryCurrency: "xp",
      currencies: {
        xp: { name: "XP", decimals: 2, decay: { halfLifeSeconds: HALF_LIFE_SECONDS, epoch: EPOCH } },
        gems: { name: "Gems", decimals: 0 },
      },
      rules: [],
    });
    const user = await seedUser(db, campaignId);
    // Stored values are scaled to the epoch; xp decays a little (factor about 0.9957 in 2026).
    await seedScore(db, campaignId, user, "xp", { score: "1234.5678", referral: "98.7654" });
    // Without decay a value is shown as stored.
    await seedScore(db, campaignId, user, "gems", { score: "7", referral: "3" });
    const key = (await seedApiKey(db, campaignId)).key;

    const shown = await call("GET", `${admin.url}/api/campaigns/${campaignId}/users/${user}`, undefined, auth);
    expect(shown.status).toBe(200);
    const publicScores = await call("GET", `${read.url}/users/${user}/scores`, undefined, { "x-api-key": key });
    expect(publicScores.status).toBe(200);

    const dashboard: Record<string, ShownRow> = Object.fromEntries((shown.body.scores as ShownRow[]).map((s) => [s.currency, s]));
    for (const currency of ["xp", "gems"]) {
      const a = dashboard[currency] as ShownRow;
      const r = publicScores.body.scores[currency];
      expect({ score: a.score, referral_score: a.referral_score, total: a.total }).toEqual({
        score: String(r.score),
        referral_score: String(r.referral_score),
        total: String(r.total),
      });
    }

    // The xp digits are the stored values decayed and cut to 2 places: between the values at the
    // epoch-relative factor 2^-(elapsed / half-life) taken a minute either side of now.
    const factorAt = (ms: number) => new Decimal(2).pow(new Decimal(-(ms - Date.parse(EPOCH)) / 1000).div(HALF_LIFE_SECONDS));
    for (const [field, stored] of [
      ["score", "1234.5678"],
      ["referral_score", "98.7654"],
    ] as const) {
      const text = (dashboard.xp as ShownRow)[field];
      expect(text).toMatch(/^\d+\.\d{1,2}$/);
      const low = new Decimal(stored).mul(factorAt(Date.now() + 60_000)).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN);
      const high = new Decimal(stored).mul(factorAt(Date.now() - 60_000)).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN);
      expect(new Decimal(text).gte(low) && new Decimal(text).lte(high)).toBe(true);
      expect(new Decimal(text).lt(stored)).toBe(true);
    }
    const xp = dashboard.xp as ShownRow;
    expect(new Decimal(xp.total).eq(new Decimal(xp.score).add(xp.referral_score))).toBe(true);
    expect(dashboard.gems).toMatchObject({ score: "7", referral_score: "3", total: "10" });
  });
});
