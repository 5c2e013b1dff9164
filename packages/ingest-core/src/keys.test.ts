// Resolving API keys against PostgreSQL: refusals, revocation delay, archived campaigns, last_used_at.
import { generateApiKey } from "@pointwise/auth";
import { seedApiKey, seedCampaign } from "@pointwise/testkit";
import { useSeed } from "../test/fixtures";
import { createKeyResolver } from "./keys";

// Real services and real processes: the root jest run does not apply the preset's timeout.
jest.setTimeout(60_000);

const s = useSeed();

const lastUsed = async (id: string) =>
  (await s.db.query<{ last_used_at: Date | null }>("SELECT last_used_at FROM api_key WHERE id = $1", [id])).rows[0]?.last_used_at ?? null;

describe("API key resolver", () => {
  it("resolves a key to its campaign and refuses malformed, unknown and revoked keys alike", async () => {
    const keys = createKeyResolver(s.db, { ttlMs: 0, touchIntervalMs: 60_000, logger: s.logger });
    expect(await keys.resolve(s.key)).toEqual({
      keyId: s.keyId,
      campaignId: s.campaignId,
      prefix: s.key.slice(0, 11),
      archived: false,
      backfill: false,
      startsAt: null,
      endsAt: null,
    });
    expect(await keys.resolve("pw_short")).toBeNull();
    expect(await keys.resolve(generateApiKey().key)).toBeNull();
    // Same prefix, different secret: found by prefix, refused by the hash comparison.
    const forged = s.key.slice(0, 11) + "a".repeat(32);
    expect(forged).not.toBe(s.key);
    expect(await keys.resolve(forged)).toBeNull();
    const revoked = await seedApiKey(s.db, s.campaignId, { revoked: true });
    expect(await keys.resolve(revoked.key)).toBeNull();
  });

  it("trusts a cached answer for its ttl, so a revocation takes effect within it", async () => {
    const fresh = await seedApiKey(s.db, s.campaignId);
    const cached = createKeyResolver(s.db, { ttlMs: 60_000, touchIntervalMs: 60_000, logger: s.logger });
    const uncached = createKeyResolver(s.db, { ttlMs: 0, touchIntervalMs: 60_000, logger: s.logger });
    expect(await cached.resolve(fresh.key)).not.toBeNull();
    await s.db.query("UPDATE api_key SET revoked_at = now() WHERE id = $1", [fresh.id]);
    expect(await cached.resolve(fresh.key)).not.toBeNull();
    expect(await uncached.resolve(fresh.key)).toBeNull();
  });

  it("flags the key of an archived campaign", async () => {
    await seedCampaign(s.db, { id: "arch-0009", projectId: "00000000-0000-4000-8000-0000000000c1", name: "a", currencies: {}, primary: "xp", archived: true });
    const key = await seedApiKey(s.db, "arch-0009");
    const keys = createKeyResolver(s.db, { ttlMs: 0, touchIntervalMs: 60_000, logger: s.logger });
    expect((await keys.resolve(key.key))?.archived).toBe(true);
  });

  it("carries the key's backfill right and its campaign's dates", async () => {
    await seedCampaign(s.db, { id: "date-0009", projectId: "00000000-0000-4000-8000-0000000000c1", name: "d", currencies: {}, primary: "xp" });
    await s.db.query("UPDATE campaign SET starts_at = '2026-01-05T00:00:00Z', ends_at = '2026-03-01T12:00:00.250Z' WHERE id = 'date-0009'");
    const key = await seedApiKey(s.db, "date-0009");
    await s.db.query("UPDATE api_key SET backfill = true WHERE id = $1", [key.id]);
    const keys = createKeyResolver(s.db, { ttlMs: 0, touchIntervalMs: 60_000, logger: s.logger });
    expect(await keys.resolve(key.key)).toMatchObject({
      campaignId: "date-0009",
      backfill: true,
      startsAt: Date.UTC(2026, 0, 5),
      endsAt: Date.UTC(2026, 2, 1, 12, 0, 0, 250),
    });
  });

  it("writes last_used_at on first use and then at most once per interval", async () => {
    const keys = createKeyResolver(s.db, { ttlMs: 0, touchIntervalMs: 1000, logger: s.logger });
    const owner = await keys.resolve(s.key);
    if (owner === null) throw new Error("key should resolve");
    await s.db.query("UPDATE api_key SET last_used_at = NULL WHERE id = $1", [s.keyId]);
    keys.markUsed(owner);
    let first: Date | null = null;
    for (let i = 0; i < 100 && first === null; i++) {
      await new Promise((r) => setTimeout(r, 10));
      first = await lastUsed(s.keyId);
    }
    expect(first).not.toBeNull();
    for (let i = 0; i < 20; i++) keys.markUsed(owner);
    await new Promise((r) => setTimeout(r, 100));
    expect(await lastUsed(s.keyId)).toEqual(first);
    await new Promise((r) => setTimeout(r, 1100));
    keys.markUsed(owner);
    let second: Date | null = first;
    for (let i = 0; i < 100 && second?.getTime() === first?.getTime(); i++) {
      await new Promise((r) => setTimeout(r, 10));
      second = await lastUsed(s.keyId);
    }
    expect(second?.getTime()).toBeGreaterThan(first?.getTime() ?? 0);
  });
});
