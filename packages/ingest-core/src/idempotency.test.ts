// The Idempotency-Key store in PostgreSQL: claims, leases and takeovers, expiry, and request fingerprints.
import { useSeed } from "../test/fixtures";
import { createIdempotencyStore, requestFingerprint } from "./idempotency";

// Real services and real processes: the root jest run does not apply the preset's timeout.
jest.setTimeout(60_000);

const s = useSeed();

describe("Idempotency-Key store (PostgreSQL)", () => {
  it("gives the first claimer the key with fresh event ids, and replays its stored answer to the next", async () => {
    const store = createIdempotencyStore(s.db, { leaseMs: 10_000, waitMs: 0 });
    const fp = requestFingerprint("earn-event", "api", "{}");
    const first = await store.claim(s.campaignId, "k1", fp, 2);
    if (first.kind !== "owner") throw new Error(`expected owner, got ${first.kind}`);
    expect(first.eventIds).toHaveLength(2);
    expect(new Set(first.eventIds).size).toBe(2);
    await first.complete('{"data":{"x":1}}');
    expect(await store.claim(s.campaignId, "k1", fp, 2)).toEqual({ kind: "replay", response: '{"data":{"x":1}}' });
    expect(await store.claim(s.campaignId, "k1", requestFingerprint("earn-event", "api", "{ }"), 2)).toEqual({ kind: "reused" });
  });

  it("answers in-progress while the owner's lease is live, and lets a retry take over with the same ids once it is released", async () => {
    const store = createIdempotencyStore(s.db, { leaseMs: 10_000, waitMs: 50 });
    const fp = requestFingerprint("earn-events", "batch", "[]");
    const owner = await store.claim(s.campaignId, "k2", fp, 3);
    if (owner.kind !== "owner") throw new Error("expected owner");
    expect(await store.claim(s.campaignId, "k2", fp, 3)).toEqual({ kind: "in-progress" });
    await owner.release();
    const again = await store.claim(s.campaignId, "k2", fp, 3);
    if (again.kind !== "owner") throw new Error("expected a takeover");
    expect(again.eventIds).toEqual(owner.eventIds);
    expect(again.receivedAt).toBe(owner.receivedAt);
  });

  it("frees a forgotten key for another request, with new ids", async () => {
    const store = createIdempotencyStore(s.db, { leaseMs: 10_000, waitMs: 0 });
    const refused = await store.claim(s.campaignId, "k-forget", requestFingerprint("earn-event", "api", "bad"), 1);
    if (refused.kind !== "owner") throw new Error("expected owner");
    expect(await store.claim(s.campaignId, "k-forget", requestFingerprint("earn-event", "api", "fixed"), 1)).toEqual({ kind: "reused" });
    await refused.forget();
    const fixed = await store.claim(s.campaignId, "k-forget", requestFingerprint("earn-event", "api", "fixed"), 1);
    if (fixed.kind !== "owner") throw new Error(`expected owner, got ${fixed.kind}`);
    expect(fixed.eventIds).not.toEqual(refused.eventIds);
  });

  it("only releases a claim taken over from an earlier attempt when it is forgotten: that attempt may have published under its ids", async () => {
    const store = createIdempotencyStore(s.db, { leaseMs: 10_000, waitMs: 0 });
    const fp = requestFingerprint("earn-events", "batch", "partly published");
    const first = await store.claim(s.campaignId, "k-takeover", fp, 2);
    if (first.kind !== "owner") throw new Error("expected owner");
    await first.release();
    const retry = await store.claim(s.campaignId, "k-takeover", fp, 2);
    if (retry.kind !== "owner") throw new Error("expected a takeover");
    await retry.forget();
    expect(await store.claim(s.campaignId, "k-takeover", requestFingerprint("earn-events", "batch", "other"), 2)).toEqual({ kind: "reused" });
    const again = await store.claim(s.campaignId, "k-takeover", fp, 2);
    expect(again.kind === "owner" && again.eventIds).toEqual(first.eventIds);
  });

  it("lets a waiting request pick up the answer the owner stores meanwhile", async () => {
    const store = createIdempotencyStore(s.db, { leaseMs: 10_000, waitMs: 5000 });
    const fp = requestFingerprint("earn-event", "api", "wait");
    const owner = await store.claim(s.campaignId, "k3", fp, 1);
    if (owner.kind !== "owner") throw new Error("expected owner");
    const waiting = store.claim(s.campaignId, "k3", fp, 1);
    await new Promise((r) => setTimeout(r, 100));
    await owner.complete('"done"');
    expect(await waiting).toEqual({ kind: "replay", response: '"done"' });
  });

  it("takes over a claim whose owner died (its lease ran out)", async () => {
    const store = createIdempotencyStore(s.db, { leaseMs: 1, waitMs: 1000 });
    const fp = requestFingerprint("earn-event", "api", "died");
    const owner = await store.claim(s.campaignId, "k4", fp, 1);
    if (owner.kind !== "owner") throw new Error("expected owner");
    await new Promise((r) => setTimeout(r, 20));
    const next = await store.claim(s.campaignId, "k4", fp, 1);
    expect(next.kind === "owner" && next.eventIds).toEqual(owner.eventIds);
  });

  it("treats a record older than the ttl as gone, and purges it", async () => {
    const store = createIdempotencyStore(s.db, { leaseMs: 10_000, waitMs: 0 });
    const fp = requestFingerprint("earn-event", "api", "old");
    const owner = await store.claim(s.campaignId, "k5", fp, 1);
    if (owner.kind !== "owner") throw new Error("expected owner");
    await owner.complete('"first"');
    await s.db.query("UPDATE idempotency_key SET created_at = now() - interval '25 hours' WHERE key = 'k5'");
    const fresh = await store.claim(s.campaignId, "k5", requestFingerprint("earn-event", "api", "another body"), 1);
    expect(fresh.kind).toBe("owner");
    expect(fresh.kind === "owner" && fresh.eventIds).not.toEqual(owner.eventIds);
    await s.db.query("UPDATE idempotency_key SET created_at = now() - interval '25 hours' WHERE key = 'k5'");
    expect(await store.purge()).toBe(1);
    const { rowCount } = await s.db.query("SELECT 1 FROM idempotency_key WHERE key = 'k5'");
    expect(rowCount).toBe(0);
  });

  it("lets exactly one of many concurrent claimers own a key", async () => {
    const store = createIdempotencyStore(s.db, { leaseMs: 10_000, waitMs: 0 });
    const fp = requestFingerprint("earn-event", "api", "race");
    const claims = await Promise.all(Array.from({ length: 10 }, () => store.claim(s.campaignId, "k6", fp, 1)));
    expect(claims.filter((c) => c.kind === "owner")).toHaveLength(1);
    expect(claims.filter((c) => c.kind === "in-progress")).toHaveLength(9);
  });
});
