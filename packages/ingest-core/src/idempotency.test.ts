// The Idempotency-Key store in PostgreSQL: claims, leases and takeovers, expiry, and request fingerprints.
import { useSeed } from "../test/fixtures";
import type { EventTimeRights } from "./event-time";
import { createIdempotencyStore, requestFingerprint } from "./idempotency";

// Real services and real processes: the root jest run does not apply the preset's timeout.
jest.setTimeout(60_000);

const s = useSeed();
const open: EventTimeRights = { backfill: false, startsAt: null, endsAt: null };

describe("Idempotency-Key store (PostgreSQL)", () => {
  it("gives the first claimer the key with fresh event ids, and replays its stored answer to the next", async () => {
    const store = createIdempotencyStore(s.db, { leaseMs: 10_000, waitMs: 0 });
    const fp = requestFingerprint("earn-event", "api", "{}");
    const first = await store.claim(s.campaignId, "k1", fp, 2, open);
    if (first.kind !== "owner") throw new Error(`expected owner, got ${first.kind}`);
    expect(first.eventIds).toHaveLength(2);
    expect(new Set(first.eventIds).size).toBe(2);
    await first.complete('{"data":{"x":1}}');
    expect(await store.claim(s.campaignId, "k1", fp, 2, open)).toEqual({ kind: "replay", response: '{"data":{"x":1}}' });
    expect(await store.claim(s.campaignId, "k1", requestFingerprint("earn-event", "api", "{ }"), 2, open)).toEqual({ kind: "reused" });
  });

  it("answers in-progress while the owner's lease is live, and lets a retry take over with the same ids once it is released", async () => {
    const store = createIdempotencyStore(s.db, { leaseMs: 10_000, waitMs: 50 });
    const fp = requestFingerprint("earn-events", "batch", "[]");
    const owner = await store.claim(s.campaignId, "k2", fp, 3, open);
    if (owner.kind !== "owner") throw new Error("expected owner");
    expect(await store.claim(s.campaignId, "k2", fp, 3, open)).toEqual({ kind: "in-progress" });
    await owner.release();
    const again = await store.claim(s.campaignId, "k2", fp, 3, open);
    if (again.kind !== "owner") throw new Error("expected a takeover");
    expect(again.eventIds).toEqual(owner.eventIds);
    expect(again.receivedAt).toBe(owner.receivedAt);
  });

  it("frees a forgotten key for another request, with new ids", async () => {
    const store = createIdempotencyStore(s.db, { leaseMs: 10_000, waitMs: 0 });
    const refused = await store.claim(s.campaignId, "k-forget", requestFingerprint("earn-event", "api", "bad"), 1, open);
    if (refused.kind !== "owner") throw new Error("expected owner");
    expect(await store.claim(s.campaignId, "k-forget", requestFingerprint("earn-event", "api", "fixed"), 1, open)).toEqual({ kind: "reused" });
    await refused.forget();
    const fixed = await store.claim(s.campaignId, "k-forget", requestFingerprint("earn-event", "api", "fixed"), 1, open);
    if (fixed.kind !== "owner") throw new Error(`expected owner, got ${fixed.kind}`);
    expect(fixed.eventIds).not.toEqual(refused.eventIds);
  });

  it("only releases a claim taken over from an earlier attempt when it is forgotten: that attempt may have published under its ids", async () => {
    const store = createIdempotencyStore(s.db, { leaseMs: 10_000, waitMs: 0 });
    const fp = requestFingerprint("earn-events", "batch", "partly published");
    const first = await store.claim(s.campaignId, "k-takeover", fp, 2, open);
    if (first.kind !== "owner") throw new Error("expected owner");
    await first.release();
    const retry = await store.claim(s.campaignId, "k-takeover", fp, 2, open);
    if (retry.kind !== "owner") throw new Error("expected a takeover");
    await retry.forget();
    expect(await store.claim(s.campaignId, "k-takeover", requestFingerprint("earn-events", "batch", "other"), 2, open)).toEqual({ kind: "reused" });
    const again = await store.claim(s.campaignId, "k-takeover", fp, 2, open);
    expect(again.kind === "owner" && again.eventIds).toEqual(first.eventIds);
  });

  it("judges a takeover by the rights kept with the first claim, not the ones the retry brings", async () => {
    const store = createIdempotencyStore(s.db, { leaseMs: 10_000, waitMs: 0 });
    const fp = requestFingerprint("earn-events", "batch", "rights");
    const first: EventTimeRights = { backfill: true, startsAt: Date.parse("2026-01-01T00:00:00.123Z"), endsAt: Date.parse("2026-12-31T00:00:00Z") };
    const owner = await store.claim(s.campaignId, "k-rights", fp, 1, first);
    if (owner.kind !== "owner") throw new Error("expected owner");
    expect(owner.rights).toEqual(first);
    await owner.release();
    const later: EventTimeRights = { backfill: false, startsAt: null, endsAt: Date.parse("2026-06-01T00:00:00Z") };
    const retry = await store.claim(s.campaignId, "k-rights", fp, 1, later);
    expect(retry.kind === "owner" && retry.rights).toEqual(first);
    // Open dates are kept as open, not as the retry's.
    const openFp = requestFingerprint("earn-events", "batch", "open rights");
    const openOwner = await store.claim(s.campaignId, "k-open", openFp, 1, open);
    if (openOwner.kind !== "owner") throw new Error("expected owner");
    await openOwner.release();
    const openRetry = await store.claim(s.campaignId, "k-open", openFp, 1, later);
    expect(openRetry.kind === "owner" && openRetry.rights).toEqual(open);
  });

  it("judges a takeover of a record that kept no rights (written before they were kept) by the retry's", async () => {
    const store = createIdempotencyStore(s.db, { leaseMs: 10_000, waitMs: 0 });
    const fp = requestFingerprint("earn-event", "api", "older record");
    const owner = await store.claim(s.campaignId, "k-older", fp, 1, { backfill: true, startsAt: null, endsAt: null });
    if (owner.kind !== "owner") throw new Error("expected owner");
    await owner.release();
    await s.db.query("UPDATE idempotency_key SET backfill = NULL, starts_at = NULL, ends_at = NULL WHERE key = 'k-older'");
    const now: EventTimeRights = { backfill: false, startsAt: null, endsAt: Date.parse("2026-06-01T00:00:00Z") };
    const retry = await store.claim(s.campaignId, "k-older", fp, 1, now);
    expect(retry.kind === "owner" && retry.rights).toEqual(now);
  });

  it("lets a waiting request pick up the answer the owner stores meanwhile", async () => {
    const store = createIdempotencyStore(s.db, { leaseMs: 10_000, waitMs: 5000 });
    const fp = requestFingerprint("earn-event", "api", "wait");
    const owner = await store.claim(s.campaignId, "k3", fp, 1, open);
    if (owner.kind !== "owner") throw new Error("expected owner");
    const waiting = store.claim(s.campaignId, "k3", fp, 1, open);
    await new Promise((r) => setTimeout(r, 100));
    await owner.complete('"done"');
    expect(await waiting).toEqual({ kind: "replay", response: '"done"' });
  });

  it("takes over a claim whose owner died (its lease ran out)", async () => {
    const store = createIdempotencyStore(s.db, { leaseMs: 1, waitMs: 1000 });
    const fp = requestFingerprint("earn-event", "api", "died");
    const owner = await store.claim(s.campaignId, "k4", fp, 1, open);
    if (owner.kind !== "owner") throw new Error("expected owner");
    await new Promise((r) => setTimeout(r, 20));
    const next = await store.claim(s.campaignId, "k4", fp, 1, open);
    expect(next.kind === "owner" && next.eventIds).toEqual(owner.eventIds);
  });

  it("treats a record older than the ttl as gone, and purges it", async () => {
    const store = createIdempotencyStore(s.db, { leaseMs: 10_000, waitMs: 0 });
    const fp = requestFingerprint("earn-event", "api", "old");
    const owner = await store.claim(s.campaignId, "k5", fp, 1, open);
    if (owner.kind !== "owner") throw new Error("expected owner");
    await owner.complete('"first"');
    await s.db.query("UPDATE idempotency_key SET created_at = now() - interval '25 hours' WHERE key = 'k5'");
    const fresh = await store.claim(s.campaignId, "k5", requestFingerprint("earn-event", "api", "another body"), 1, open);
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
    const claims = await Promise.all(Array.from({ length: 10 }, () => store.claim(s.campaignId, "k6", fp, 1, open)));
    expect(claims.filter((c) => c.kind === "owner")).toHaveLength(1);
    expect(claims.filter((c) => c.kind === "in-progress")).toHaveLength(9);
  });
});
